// forge session save / load / list: merged snapshots, derived counts, newest first.
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge, stable } from '../helpers/forge';
import { tempRepo } from '../helpers/repo';

test('save merges into the snapshot, derives counts, and load returns it', async () => {
  const dir = tempRepo();
  const s1 = await forge(
    ['session', 'save', '--run-id', 'demo', '--phase', 'execute', '--module-status', 'm1=done', '--module-status', 'm2=running'],
    { cwd: dir },
  );
  assert.is(s1.stdout, 'saved session demo: phase execute, 1/2 modules complete\nNext: forge session load --run-id demo\n');
  await forge(['session', 'save'], {
    cwd: dir,
    input: '{"run-id":"demo","module-status":["m2=done"],"state":{"startedAt":"2026-04-15T10:00:00Z"}}\n',
  });
  const r = await forge(['session', 'load', '--run-id', 'demo', '--json'], { cwd: dir });
  assert.equal(stable(r.records), [
    {
      ok: true,
      found: true,
      runId: 'demo',
      currentPhase: 'execute',
      moduleStatuses: { m1: 'done', m2: 'done' },
      completedCount: 2,
      totalCount: 2,
      lastUpdatedAt: '<time>',
      updatedAt: '<time>',
      startedAt: '<time>',
      _next_action: null,
    },
  ]);
});

test('load of an unknown run is found: false and points at the list', async () => {
  const dir = tempRepo();
  const r = await forge(['session', 'load', '--run-id', 'nope', '--json'], { cwd: dir });
  assert.equal(r.records, [{ ok: true, found: false, runId: 'nope', _next_action: 'forge session list --run-id nope' }]);
});

test('list is newest first and suggests the run to resume', async () => {
  const dir = tempRepo();
  // Named against the order by time, so the tie-break by name cannot pass for it. The second save is
  // later by the clock: a process started after the first one ended, and stamps are in milliseconds.
  await forge(['session', 'save', '--run-id', 'earlier', '--module-status', 'm1=done'], { cwd: dir });
  await forge(['session', 'save', '--run-id', 'later', '--module-status', 'm1=done', '--module-status', 'm2=pending'], { cwd: dir });
  const r = await forge(['session', 'list', '--json'], { cwd: dir });
  assert.equal(
    r.records.map((x) => x.runId ?? x.type),
    ['later', 'earlier', 'summary'],
  );
  assert.equal(r.records.at(-1), { ok: true, type: 'summary', count: 2, _next_action: 'forge session load --run-id later' });
  const bad = await forge(['session', 'save', '--module-status', 'oops'], { cwd: dir });
  assert.is(bad.code, 2);
  assert.match(bad.stderr, /module status 'oops' is not ID=STATUS/);
});

test.run();
