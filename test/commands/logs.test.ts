// forge logs: tool_call events of an active run, batching into the state ref, filters, corrupt lines.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../lib/git/repo';
import { StateStore } from '../../lib/git/state';
import { FLUSH_THRESHOLD } from '../../lib/logs/events';
import { forge } from '../helpers/forge';
import { stateCommits, storeLines, tempRepo } from '../helpers/repo';

test('with a run id, every command records a tool_call event; forge logs shows them', async () => {
  const dir = tempRepo();
  await forge(['memory', 'recall', 'x', '--run-id', 'r1'], { cwd: dir });
  await forge(['memory', 'save', 'hello', '--run-id', 'r1'], { cwd: dir });
  await forge(['iter', 'get', '../bad', '--run-id', 'r1'], { cwd: dir });
  const r = await forge(['logs', '--run-id', 'r1', '--json'], { cwd: dir });
  assert.is(r.code, 0);
  const events = r.records.filter((x) => x.type === 'event');
  assert.equal(events.map((e) => [e.phase, e.event, e.severity, e.data.exitCode]), [
    ['tool_call', 'memory recall', 'info', 0],
    ['tool_call', 'memory save', 'info', 0],
    ['tool_call', 'iter get', 'error', 2],
  ]);
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
    JSON.stringify({ id: `ev-${i}`, timestamp: `2026-01-01T00:00:0${i}Z`, runId: 'q', phase, moduleId, event: `e${i}`, severity, data: {} });
  const text = [ev(1, 'm1', 'info'), '{not json', ev(2, 'm2', 'error'), ev(3, 'm1', 'error'), ev(4, 'm1', 'warn', 'retry')].join('\n') + '\n';
  await store.update({ message: 'seed', apply: async (tx) => tx.write('.forge/logs/q.jsonl', text) });
  store.close();
  const names = async (...a: string[]) => (await forge(['logs', '--run-id', 'q', '--json', ...a], { cwd: dir })).records.filter((x) => x.type === 'event').map((x) => x.event);
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

test.run();
