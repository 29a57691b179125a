// forge iter get / update / reset: attempts, stagnation, per-run scoping.
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge, stable } from '../helpers/forge';
import { git, tempRepo } from '../helpers/repo';

test('get on an unknown module is a clean empty state', async () => {
  const dir = tempRepo();
  const r = await forge(['iter', 'get', 'm1', '--run-id', 'r1', '--json'], { cwd: dir });
  assert.is(r.code, 0);
  assert.equal(r.records, [
    {
      ok: true,
      runId: 'r1',
      moduleId: 'm1',
      attempts: [],
      scores: [],
      stagnant: false,
      lastStatus: null,
      lastRootCause: null,
      updatedAt: null,
      _next_action: null,
    },
  ]);
});

test('update records attempts; the same failure twice flips stagnant and points at the logs', async () => {
  const dir = tempRepo();
  const up = (...a: string[]) => forge(['iter', 'update', 'm3', '--run-id', 'r1', '--json', ...a], { cwd: dir });
  const first = await up('--status', 'failed', '--score', '0.4', '--issue', 'auth.test fails', '--root-cause', 'token expiry');
  assert.equal(stable(first.records), [
    {
      ok: true,
      updated: true,
      runId: 'r1',
      moduleId: 'm3',
      attempt: 1,
      stagnant: false,
      lastStatus: 'failed',
      _next_action: 'forge iter get m3 --run-id r1',
    },
  ]);
  const second = await up('--status', 'failed', '--score', '0.5', '--issue', 'auth.test fails');
  assert.equal([second.records[0]!.attempt, second.records[0]!.stagnant], [2, true]);
  const got = await forge(['iter', 'get', 'm3', '--run-id', 'r1'], { cwd: dir });
  assert.match(got.stdout, /^r1\/m3: 2 attempts, last failed, STAGNANT\n/);
  assert.match(got.stdout, /root cause: token expiry\nNext: forge logs --run-id r1 --module m3\n$/);
  const json = JSON.parse(git(dir, 'show', 'refs/forge/state:.forge/iterations/r1/m3.json'));
  assert.equal(json.scores, [0.4, 0.5]);
  const other = await forge(['iter', 'get', 'm3', '--run-id', 'r2', '--json'], { cwd: dir });
  assert.equal(other.records[0]!.attempts, []);
});

test('reset removes one module or all of a run; nothing to reset is not an error', async () => {
  const dir = tempRepo();
  for (const m of ['m1', 'm2']) await forge(['iter', 'update', m, '--run-id', 'r', '--status', 'passed'], { cwd: dir });
  const one = await forge(['iter', 'reset', 'm1', '--run-id', 'r', '--json'], { cwd: dir });
  assert.equal(one.records[0]!.modules, ['m1']);
  assert.is(git(dir, 'ls-tree', '-r', '--name-only', 'refs/forge/state'), '.forge/iterations/r/m2.json');
  const all = await forge(['iter', 'reset', '--all', '--run-id', 'r'], { cwd: dir });
  assert.is(all.stdout, 'reset r/m2\nDone.\n');
  const none = await forge(['iter', 'reset', '--all', '--run-id', 'r'], { cwd: dir });
  assert.is(none.stdout, 'nothing to reset in run r\nDone.\n');
  const bad = await forge(['iter', 'reset', '--run-id', 'r'], { cwd: dir });
  assert.is(bad.code, 2);
  assert.is(bad.stderr, 'Error: name a module to reset, or pass --all\nFix: forge iter reset --help\n');
});

test('ids that could escape their directory are refused before anything is written', async () => {
  const dir = tempRepo();
  for (const args of [
    ['iter', 'update', '../x', '--status', 'failed'],
    ['iter', 'get', 'm1', '--run-id', '../../etc'],
    ['iter', 'get', 'a/b'],
    ['iter', 'get', '..'],
  ]) {
    const r = await forge([...args, '--json'], { cwd: dir });
    assert.is(r.code, 2, args.join(' '));
    assert.is(r.records[0]!.error.code, 'INVALID_ID');
  }
  assert.throws(() => git(dir, 'rev-parse', '--verify', '-q', 'refs/forge/state'));
});

test.run();
