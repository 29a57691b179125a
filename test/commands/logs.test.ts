// forge logs: tool_call events of an active run, batching into the state ref, filters, corrupt lines.
import { spawn } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import { ownChild } from '../helpers/owner';
import * as assert from 'uvu/assert';
import { openRepo } from '../../lib/git/repo';
import { StateStore } from '../../lib/git/state';
import { FLUSH_THRESHOLD, flushEvents, newEvent, spoolEvents, type LogEvent } from '../../lib/logs/events';
import { SEGMENT_BYTES } from '../../lib/state/streams';
import { FORGE, forge, forgeEnv } from '../helpers/forge';
import { git, stateCommits, storeLines, tempRepo } from '../helpers/repo';

/** The segments of a run's log on the ref, as [name, size]. */
function segments(dir: string, runId: string): Array<[string, number]> {
  return git(dir, 'ls-tree', '-l', `refs/forge/state:.forge/logs/${runId}`)
    .split('\n')
    .map((l) => /^\d+ blob [0-9a-f]+ +(\d+)\t(.+)$/.exec(l)!)
    .map((m) => [m[2]!, Number(m[1])]);
}

const ids = (lines: string[]) => lines.map((l) => JSON.parse(l).id as string);

/** Closes what a test opened even when it fails: an open store's cat-file would keep the runner alive. */
const after: Array<() => void> = [];
test.after.each(() => {
  for (const close of after.splice(0)) close();
});

test('with a run id, every command records a tool_call event; forge logs shows them', async () => {
  const dir = tempRepo();
  await forge(['memory', 'recall', 'x', '--run-id', 'r1'], { cwd: dir });
  await forge(['memory', 'save', 'hello', '--run-id', 'r1'], { cwd: dir });
  await forge(['iter', 'get', '../bad', '--run-id', 'r1'], { cwd: dir });
  const r = await forge(['logs', '--run-id', 'r1', '--json'], { cwd: dir });
  assert.is(r.code, 0);
  const events = r.records.filter((x) => x.type === 'event');
  assert.equal(
    events.map((e) => [e.phase, e.event, e.severity, e.data.exitCode]),
    [
      ['tool_call', 'memory recall', 'info', 0],
      ['tool_call', 'memory save', 'info', 0],
      ['tool_call', 'iter get', 'error', 2],
    ],
  );
  assert.is(events[2]!.data.error, 'INVALID_ID');
  assert.equal(r.records.at(-1), { ok: true, type: 'summary', runId: 'r1', total: 3, shown: 3, skipped: 0, _next_action: null });
});

test('FORGE_RUN_ID works like --run-id; without a run id nothing is recorded', async () => {
  const dir = tempRepo();
  await forge(['memory', 'recall', 'x'], { cwd: dir });
  const none = await forge(['logs'], { cwd: dir });
  assert.is(none.stdout, 'no logs yet: run a forge command with --run-id ID (or FORGE_RUN_ID) to record one\nDone.\n');
  await forge(['memory', 'recall', 'x'], { cwd: dir, env: { FORGE_RUN_ID: 'envrun' } });
  const r = await forge(['logs'], { cwd: dir });
  assert.match(r.stdout, /tool_call memory recall/);
  assert.match(r.stdout, /run envrun: 1 of 1 matching event\n/);
});

test(`events are batched: committed once ${FLUSH_THRESHOLD} wait, and by forge state commands`, async () => {
  const dir = tempRepo();
  const input = Array.from({ length: FLUSH_THRESHOLD - 1 }, () => '{"query":"x"}').join('\n');
  // One process per request would be slow; NDJSON requests each record their own event.
  await forge(['memory', 'recall'], { cwd: dir, input, env: { FORGE_RUN_ID: 'b' } });
  assert.is(stateCommits(dir), 0, 'nothing committed below the threshold');
  await forge(['memory', 'recall', 'y'], { cwd: dir, env: { FORGE_RUN_ID: 'b' } });
  assert.is(stateCommits(dir), 1);
  assert.is(storeLines(dir, '.forge/logs/b').length, FLUSH_THRESHOLD);
  await forge(['memory', 'recall', 'z'], { cwd: dir, env: { FORGE_RUN_ID: 'b' } });
  await forge(['state', 'log'], { cwd: dir });
  assert.is(storeLines(dir, '.forge/logs/b').length, FLUSH_THRESHOLD + 1);
  const repo = await openRepo({ cwd: dir });
  assert.equal(readdirSync(join(repo.commonDir, 'forge', 'pending', 'b')), []);
});

test('filters by module, phase, severity; --limit keeps the newest; corrupt lines are skipped', async () => {
  const dir = tempRepo();
  const store = new StateStore(await openRepo({ cwd: dir }));
  const ev = (i: number, moduleId: string, severity: string, phase = 'validation') =>
    JSON.stringify({
      id: `ev-${i}`,
      timestamp: `2026-01-01T00:00:0${i}Z`,
      runId: 'q',
      phase,
      moduleId,
      event: `e${i}`,
      severity,
      data: {},
    });
  const text =
    [ev(1, 'm1', 'info'), '{not json', ev(2, 'm2', 'error'), ev(3, 'm1', 'error'), ev(4, 'm1', 'warn', 'retry')].join('\n') + '\n';
  await store.update({ message: 'seed', apply: async (tx) => tx.write('.forge/logs/q.jsonl', text) });
  store.close();
  const names = async (...a: string[]) =>
    (await forge(['logs', '--run-id', 'q', '--json', ...a], { cwd: dir })).records.filter((x) => x.type === 'event').map((x) => x.event);
  assert.equal(await names(), ['e1', 'e2', 'e3', 'e4']);
  assert.equal(await names('--module', 'm1'), ['e1', 'e3', 'e4']);
  assert.equal(await names('--severity', 'error'), ['e2', 'e3']);
  assert.equal(await names('--phase', 'retry'), ['e4']);
  assert.equal(await names('--limit', '2'), ['e3', 'e4']);
  const limited = await forge(['logs', '--run-id', 'q', '--limit', '2'], { cwd: dir });
  assert.match(limited.stdout, /run q: 2 of 4 matching events, 1 corrupt line skipped\nNext: forge logs --run-id q --limit 0\n$/);
  const newest = await forge(['logs', '--json'], { cwd: dir });
  assert.is(newest.records.at(-1)!.runId, 'q');
});

test('a log an earlier forge kept in one file is read by forge logs, and converted by the next flush with every line kept', async () => {
  const dir = tempRepo();
  const store = new StateStore(await openRepo({ cwd: dir }));
  const old = Array.from({ length: 200 }, (_, i) =>
    JSON.stringify({
      id: `ev-old-${i}`,
      timestamp: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`,
      runId: 'old',
      phase: 'execution',
      moduleId: `m${i % 3}`,
      event: `e${i}`,
      severity: i % 10 ? 'info' : 'error',
      data: {},
    }),
  );
  old.splice(100, 0, '{torn line');
  await store.update({
    message: 'seed as an earlier forge wrote it',
    apply: async (tx) => tx.write('.forge/logs/old.jsonl', `${old.join('\n')}\n`),
  });
  store.close();
  const before = await forge(['logs', '--run-id', 'old', '--limit', '0', '--json'], { cwd: dir });
  assert.equal(before.records.at(-1), { ok: true, type: 'summary', runId: 'old', total: 200, shown: 200, skipped: 1, _next_action: null });
  assert.is(
    (await forge(['logs', '--run-id', 'old', '--severity', 'error', '--json'], { cwd: dir })).records.filter((x) => x.type === 'event')
      .length,
    20,
  );
  assert.is((await forge(['logs', '--json'], { cwd: dir })).records.at(-1)!.runId, 'old', 'the newest run, read from the old file');

  await forge(['memory', 'recall', 'x', '--run-id', 'old'], { cwd: dir });
  await forge(['state', 'log'], { cwd: dir });
  assert.equal(git(dir, 'ls-tree', '--name-only', 'refs/forge/state:.forge/logs').split('\n'), ['old'], 'the old file is gone, converted');
  const lines = storeLines(dir, '.forge/logs/old');
  assert.equal(lines.slice(0, -1), old, 'every line kept, in order, the torn one too');
  assert.is(JSON.parse(lines.at(-1)!).event, 'memory recall');
  const after = await forge(['logs', '--run-id', 'old', '--limit', '0', '--json'], { cwd: dir });
  assert.equal([after.records.at(-1)!.total, after.records.at(-1)!.skipped], [201, 1]);
});

test('a log of several segments: filters, --limit and the newest run read across them; a flush rewrites only the last segment', async () => {
  const dir = tempRepo();
  const repo = await openRepo({ cwd: dir });
  const store = new StateStore(repo);
  after.push(() => store.close());
  const event = (runId: string, i: number): LogEvent =>
    newEvent({
      timestamp: new Date(Date.UTC(2026, 0, 2, 0, 0, i)).toISOString(),
      runId,
      phase: i % 4 ? 'execution' : 'retry',
      moduleId: `m${i % 5}`,
      event: `e${i}`,
      severity: i % 7 ? 'info' : 'error',
      data: { i, pad: 'p'.repeat(60) },
    });
  const events = Array.from({ length: 3000 }, (_, i) => event('long', i));
  await spoolEvents({ repo, runId: 'long', events });
  await spoolEvents({ repo, runId: 'other', events: [newEvent({ ...event('other', 0), timestamp: '2026-01-01T00:00:00.000Z' })] });
  assert.is(await flushEvents({ repo, store }), 3001);
  const segs = segments(dir, 'long');
  assert.ok(segs.length >= 3, `${segs.length} segments`);
  for (const [name, size] of segs) assert.ok(size <= SEGMENT_BYTES, `${name}: ${size} bytes`);
  assert.equal(
    ids(storeLines(dir, '.forge/logs/long')),
    events.map((e) => e.id),
  );

  const shown = async (...a: string[]) =>
    (await forge(['logs', '--json', ...a], { cwd: dir })).records.filter((x) => x.type === 'event').map((x) => x.id);
  assert.equal(
    await shown('--run-id', 'long', '--limit', '0'),
    events.map((e) => e.id),
  );
  assert.equal(
    await shown('--run-id', 'long', '--limit', '0', '--module', 'm3', '--severity', 'error'),
    events.filter((e) => e.moduleId === 'm3' && e.severity === 'error').map((e) => e.id),
  );
  assert.equal(
    await shown('--run-id', 'long', '--limit', '0', '--phase', 'retry'),
    events.filter((e) => e.phase === 'retry').map((e) => e.id),
  );
  assert.equal(
    await shown('--run-id', 'long', '--limit', '5'),
    events.slice(-5).map((e) => e.id),
  );
  assert.equal(await shown('--limit', '1'), [events.at(-1)!.id], 'the newest run is the one whose last segment holds the newest event');

  const head = git(dir, 'rev-parse', 'refs/forge/state');
  await spoolEvents({ repo, runId: 'long', events: Array.from({ length: FLUSH_THRESHOLD }, (_, i) => event('long', 3000 + i)) });
  assert.is(await flushEvents({ repo, store }), FLUSH_THRESHOLD);
  const last = segs.at(-1)![0];
  const next = `${String(Number(last.slice(0, 6)) + 1).padStart(6, '0')}.jsonl`;
  const changed = git(dir, 'diff-tree', '-r', '--name-only', head, 'refs/forge/state').split('\n');
  assert.ok(
    changed.length >= 1 && changed.every((p) => p === `.forge/logs/long/${last}` || p === `.forge/logs/long/${next}`),
    changed.join(', '),
  );
});

test('a flush killed after its commit, before it removed the spool, is not committed twice by the next one', async () => {
  const dir = tempRepo();
  const repo = await openRepo({ cwd: dir });
  const store = new StateStore(repo);
  after.push(() => store.close());
  const event = (i: number) =>
    newEvent({
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      runId: 'k',
      phase: 'execution',
      moduleId: null,
      event: `e${i}`,
      severity: 'info',
      data: {},
    });
  for (let i = 0; i < 10; i++) await spoolEvents({ repo, runId: 'k', events: [event(i)] });
  const spool = join(repo.commonDir, 'forge', 'pending', 'k');
  const saved = join(dir, 'spool-copy');
  cpSync(spool, saved, { recursive: true });
  assert.is(await flushEvents({ repo, store }), 10);
  // What a flush killed between its commit and its clean-up leaves: the spool files, committed.
  cpSync(saved, spool, { recursive: true });
  rmSync(saved, { recursive: true });
  for (let i = 10; i < 15; i++) await spoolEvents({ repo, runId: 'k', events: [event(i)] });
  assert.is(await flushEvents({ repo, store }), 5);
  // Spool files of one millisecond commit in any order: compare the events, not their order.
  const events = storeLines(dir, '.forge/logs/k').map((l) => JSON.parse(l).event as string);
  assert.equal(events.sort(), Array.from({ length: 15 }, (_, i) => `e${i}`).sort());
  assert.equal(readdirSync(spool), []);
});

test('8 processes logging to one run at once, each flushing as the spool fills: every event committed once, across segments', async () => {
  const dir = tempRepo();
  const [writers, each] = [8, 200];
  const codes = await Promise.all(
    Array.from(
      { length: writers },
      () =>
        new Promise<number>((done, fail) => {
          const child = ownChild(
            spawn(process.execPath, [FORGE, 'memory', 'recall'], {
              cwd: dir,
              env: forgeEnv({ FORGE_RUN_ID: 'c' }),
              stdio: ['pipe', 'ignore', 'ignore'],
            }),
          );
          child.on('error', fail);
          child.on('close', (code) => done(code ?? -1));
          child.stdin.end(Array.from({ length: each }, (_, i) => JSON.stringify({ query: `q${i}` })).join('\n'));
        }),
    ),
  );
  assert.equal(codes, Array(writers).fill(0));
  assert.ok(stateCommits(dir) >= 2, 'flushes ran while the writers wrote');
  await forge(['state', 'log'], { cwd: dir });
  const lines = storeLines(dir, '.forge/logs/c');
  assert.is(lines.length, writers * each);
  assert.is(new Set(ids(lines)).size, writers * each, 'no event twice');
  const segs = segments(dir, 'c');
  assert.ok(segs.length >= 2, `${segs.length} segments`);
  for (const [name, size] of segs) assert.ok(size <= SEGMENT_BYTES, `${name}: ${size} bytes`);
  assert.equal(readdirSync(join(dir, '.git', 'forge', 'pending', 'c')), []);
  assert.is(git(dir, 'fsck', '--strict', '--no-dangling'), '');
});

test.run();
