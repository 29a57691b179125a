// State files from anywhere (another clone, an old forge, a hand edit, a hostile agent) written straight onto refs/forge/state: each command that reads one gives its documented code or a warning, never INTERNAL, and the other state stays.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { oneUnitPlan } from '../helpers/plans';
import { git, rawTree, repoWith, storeLines, tempDir, tempRepo } from '../helpers/repo';
import { plantState, stateFile } from '../helpers/state';

const PLAN = oneUnitPlan({ id: 'hostile-plan', title: 'Hostile', parentTools: ['Read', 'Edit'], unitTools: ['Read', 'Edit'] });
const CONTRACT = '.forge/plans/hostile-plan.json';

/** A repository with a plan active and a lesson in memory: what a bad file elsewhere must leave alone. */
async function activeRepo(): Promise<string> {
  const dir = repoWith({ 'docs/plans/2026-01-01-hostile.md': PLAN, 'src/a.ts': 'export const a = 1;\n' });
  const activated = await forge(['plan', 'activate', '--path', 'docs/plans/2026-01-01-hostile.md'], { cwd: dir });
  assert.is(activated.code, 0, activated.stderr);
  const saved = await forge(['memory', 'save', 'use pnpm, not npm', '--category', 'convention'], { cwd: dir });
  assert.is(saved.code, 0, saved.stderr);
  return dir;
}

/** The error record of a --json call that failed. */
function failure(r: { code: number; records: Array<Record<string, any>>; stderr: string }): [number, string, unknown] {
  const last = r.records.at(-1);
  return [r.code, last?.error?.code ?? r.stderr, last?.error?.data ?? null];
}

async function lessonStillThere(dir: string): Promise<void> {
  const recall = await forge(['memory', 'recall', 'pnpm', '--json'], { cwd: dir });
  assert.equal(
    recall.records.filter((x) => x.type === 'memory').map((x) => x.pattern),
    ['use pnpm, not npm'],
  );
}

test('plan: a pointer naming no id is PLAN_UNREADABLE everywhere it is needed, and activate --replace (its Fix) mends it', async () => {
  const dir = await activeRepo();
  plantState(dir, { '.forge/plans/active.json': '{"plan_id":"../../hostile-plan"}\n' });
  const status = await forge(['plan', 'status', '--json'], { cwd: dir });
  assert.equal(failure(status).slice(0, 2), [1, 'PLAN_UNREADABLE']);
  assert.match(status.records.at(-1)!.error.message, /active\.json.*plan_id: not an id/);
  const end = await forge(['plan', 'end', '--json'], { cwd: dir });
  assert.equal(failure(end).slice(0, 2), [1, 'PLAN_UNREADABLE']);
  const fix = end.records.at(-1)!._next_action;
  assert.is(fix, 'forge plan activate --path docs/plans/2026-01-01-hostile.md --replace');
  // Without --replace, activation does not write over what it cannot read; its Fix does.
  const again = await forge(['plan', 'activate', '--path', 'docs/plans/2026-01-01-hostile.md', '--json'], { cwd: dir });
  assert.equal([failure(again)[0], failure(again)[1], again.records.at(-1)!._next_action], [1, 'PLAN_UNREADABLE', fix]);
  const mended = await forge(fix.split(' ').slice(1), { cwd: dir });
  assert.is(mended.code, 0, mended.stderr);
  const after = await forge(['plan', 'status', '--json'], { cwd: dir });
  assert.equal([after.code, after.records[0]!.plan_id, after.records[0]!.status], [0, 'hostile-plan', 'active']);
  await lessonStillThere(dir);
});

test('plan: a contract whose rails are not rails fails the gate closed (PLAN_UNREADABLE, nothing written) instead of crashing it', async () => {
  const dir = await activeRepo();
  const contract = JSON.parse(stateFile(dir, CONTRACT)!);
  plantState(dir, { [CONTRACT]: JSON.stringify({ ...contract, envelope: { ...contract.envelope, parent_rails: null } }) });
  const before = git(dir, 'rev-parse', 'refs/forge/state');
  const r = await forge(['plan', 'preflight', '--tool', 'Read', '--path', 'src/a.ts', '--json'], { cwd: dir });
  assert.equal(failure(r), [1, 'PLAN_UNREADABLE', { path: CONTRACT, problem: 'envelope.parent_rails: must be object' }]);
  assert.is(git(dir, 'rev-parse', 'refs/forge/state'), before, 'the refusal wrote nothing');
  const journal = await forge(['plan', 'journal', '--json'], { cwd: dir });
  assert.equal(
    journal.records.filter((x) => x.type === 'entry').map((x) => x.verb),
    ['plan_unit_entered'],
  );
  await lessonStillThere(dir);
});

test('plan journal: lines that are not entries are skipped and counted, the others listed in order', async () => {
  const dir = await activeRepo();
  const [entered] = storeLines(dir, '.forge/plans/journal');
  plantState(dir, {
    '.forge/plans/journal/000000.jsonl': `${entered}\n{"plan_id":"hostile-plan","verb":"plan_advance"}\nnot json\n{"id":"jr-x","timestamp":7}\n`,
  });
  const r = await forge(['plan', 'journal', '--json'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  assert.equal(
    r.records.filter((x) => x.type === 'entry').map((x) => x.verb),
    ['plan_unit_entered'],
  );
  assert.equal([r.records.at(-1)!.total, r.records.at(-1)!.corrupt], [1, 3]);
  const text = await forge(['plan', 'journal'], { cwd: dir });
  assert.match(text.stdout, /1 of 1 entries \(3 unreadable lines skipped\)/);
});

test('agent --resume: a current plan pointer that is not JSON, or names no id, is STATE_INVALID — no model is asked', async () => {
  const dir = repoWith({ 'a.txt': 'a\n' });
  plantState(dir, { '.forge/agent/plans/current.json': 'not json' });
  const r = await forge(['agent', '--resume', '--json'], { cwd: dir });
  assert.equal(failure(r).slice(0, 2), [1, 'STATE_INVALID']);
  assert.match(
    r.records.at(-1)!.error.message,
    /^\.forge\/agent\/plans\/current\.json on the state ref is not a current agent plan pointer: not JSON/,
  );
  plantState(dir, { '.forge/agent/plans/current.json': '{"id":"../sessions/x"}' });
  const escaped = await forge(['agent', '--resume', '--json'], { cwd: dir });
  assert.equal(failure(escaped).slice(0, 2), [1, 'STATE_INVALID']);
  plantState(dir, {
    '.forge/agent/plans/current.json': '{"id":"plan-1"}',
    '.forge/agent/plans/plan-1.json': '{"id":"plan-1","task":"t","status":"paused","steps":"all of them"}',
  });
  const plan = await forge(['agent', '--resume', '--json'], { cwd: dir });
  assert.equal(failure(plan), [
    1,
    'STATE_INVALID',
    { path: '.forge/agent/plans/plan-1.json', problem: "must have required property 'createdAt'" },
  ]);
  assert.is(plan.records.at(-1)!._next_action, 'git log --oneline refs/forge/state -- .forge/agent/plans/plan-1.json');
});

test('stats: telemetry lines that are not tasks are counted as unreadable, not summed as NaN', async () => {
  const dir = repoWith({ 'a.txt': 'a\n' });
  const task = {
    timestamp: '2026-01-01T00:00:00.000Z',
    task: 't',
    model: 'm',
    endpoint: 'http://localhost:11434/v1',
    turns: 1,
    inputTokens: 100,
    outputTokens: 10,
    toolCalls: 2,
    cacheHits: 1,
    durationMs: 1000,
    exhausted: false,
    cost: null,
  };
  plantState(dir, {
    '.forge/telemetry/000000.jsonl': `${JSON.stringify(task)}\n{"model":"m"}\n${JSON.stringify({ ...task, inputTokens: 'many' })}\n`,
  });
  const r = await forge(['stats', '--json'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  assert.equal(
    r.records.filter((x) => x.type === 'model').map((x) => [x.model, x.tasks, x.inputTokens, x.compressionRatio]),
    [['m', 1, 100, undefined]],
  );
  assert.equal([r.records.at(-1)!.tokens, r.records.at(-1)!.corrupt], [110, 2]);
});

test('agent --list: a session file that is not a session, or holds another session, is left out with a warning naming it', async () => {
  const dir = repoWith({ 'a.txt': 'a\n' });
  const session = (id: string) =>
    JSON.stringify({
      id,
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
      turns: [{ timestamp: '2026-01-01T00:00:00Z', task: 'fix it', answer: 'fixed', files: [], toolCalls: 1, model: 'm' }],
    });
  plantState(dir, {
    '.forge/agent/sessions/ag-good.json': session('ag-good'),
    '.forge/agent/sessions/ag-copy.json': session('ag-good'),
    '.forge/agent/sessions/ag-bad.json': '{"id":"ag-bad","createdAt":"x","updatedAt":"x","turns":"none"}',
  });
  const list = await forge(['agent', '--list', '--json'], { cwd: dir });
  assert.is(list.code, 0, list.stderr);
  assert.equal(
    list.records.filter((x) => x.type === 'session').map((x) => x.id),
    ['ag-good'],
  );
  assert.match(list.stderr, /warning: skipped \.forge\/agent\/sessions\/ag-bad\.json on the state ref: turns: must be array\n/);
  assert.match(
    list.stderr,
    /warning: skipped \.forge\/agent\/sessions\/ag-copy\.json on the state ref: id: 'ag-good' is not the file's name\n/,
  );
  const named = await forge(['agent', '--session', 'ag-copy', '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm', '--json', 'go on'], {
    cwd: dir,
  });
  assert.equal(failure(named).slice(0, 2), [1, 'STATE_INVALID']);
});

test('session: a snapshot that is not one is refused by save (not merged into), left out of list with a warning; save --replace mends it', async () => {
  const dir = repoWith({ 'a.txt': 'a\n' });
  await forge(['session', 'save', '--run-id', 'good', '--phase', 'execute'], { cwd: dir });
  const bad = '{"runId":"r","moduleStatuses":"abc"}\n';
  plantState(dir, { '.forge/sessions/r.json': bad });
  const save = await forge(['session', 'save', '--run-id', 'r', '--module-status', 'm1=done', '--json'], { cwd: dir });
  assert.equal(failure(save), [1, 'STATE_INVALID', { path: '.forge/sessions/r.json', problem: 'moduleStatuses: must be object' }]);
  assert.is(save.records.at(-1)!._next_action, 'forge session save --run-id r --replace');
  assert.is(stateFile(dir, '.forge/sessions/r.json'), bad, 'not written over');
  const load = await forge(['session', 'load', '--run-id', 'r', '--json'], { cwd: dir });
  assert.equal(failure(load).slice(0, 2), [1, 'STATE_INVALID']);
  const list = await forge(['session', 'list', '--json'], { cwd: dir });
  assert.equal(
    list.records.filter((x) => x.type === 'session').map((x) => x.runId),
    ['good'],
  );
  assert.match(list.stderr, /warning: skipped \.forge\/sessions\/r\.json on the state ref: moduleStatuses: must be object\n/);
  const replaced = await forge(['session', 'save', '--run-id', 'r', '--module-status', 'm1=done', '--replace', '--json'], { cwd: dir });
  assert.is(replaced.code, 0, replaced.stderr);
  const after = await forge(['session', 'load', '--run-id', 'r', '--json'], { cwd: dir });
  assert.equal([after.records[0]!.moduleStatuses, after.records[0]!.completedCount], [{ m1: 'done' }, 1]);
});

test('iter: a module state whose attempts are not attempts is STATE_INVALID for get and update, not written over; iter reset (its Fix) mends it', async () => {
  const dir = repoWith({ 'a.txt': 'a\n' });
  await forge(['iter', 'update', 'other', '--status', 'failed', '--issue', 'x'], { cwd: dir });
  const bad = '{"runId":"default","moduleId":"m","attempts":"three"}\n';
  plantState(dir, { '.forge/iterations/default/m.json': bad });
  const update = await forge(['iter', 'update', 'm', '--status', 'failed', '--json'], { cwd: dir });
  assert.equal(failure(update), [1, 'STATE_INVALID', { path: '.forge/iterations/default/m.json', problem: 'attempts: must be array' }]);
  assert.is(stateFile(dir, '.forge/iterations/default/m.json'), bad);
  const get = await forge(['iter', 'get', 'm', '--json'], { cwd: dir });
  assert.equal(failure(get).slice(0, 2), [1, 'STATE_INVALID']);
  const fix = get.records.at(-1)!._next_action;
  assert.is(fix, 'forge iter reset m --run-id default');
  assert.is((await forge(fix.split(' ').slice(1), { cwd: dir })).code, 0);
  const fresh = await forge(['iter', 'update', 'm', '--status', 'failed', '--json'], { cwd: dir });
  assert.equal([fresh.code, fresh.records[0]!.attempt], [0, 1]);
  const other = await forge(['iter', 'get', 'other', '--json'], { cwd: dir });
  assert.equal(other.records[0]!.attempts.length, 1);
});

test('loop: a current loop that cannot be read is STATE_INVALID for status and cancel; start takes the pointer anew and leaves the old file', async () => {
  const dir = repoWith({ 'a.txt': 'a\n' });
  const started = await forge(['loop', 'start', '--prompt', 'fix the tests', '--json'], { cwd: dir });
  assert.is(started.code, 0, started.stderr);
  const id = started.records[0]!.loop_id as string;
  const loop = JSON.parse(stateFile(dir, `.forge/loops/${id}.json`)!);
  plantState(dir, { [`.forge/loops/${id}.json`]: JSON.stringify({ ...loop, iterations: 5 }) });
  const status = await forge(['loop', 'status', '--json'], { cwd: dir });
  assert.equal(failure(status), [1, 'STATE_INVALID', { path: `.forge/loops/${id}.json`, problem: 'iterations: must be array' }]);
  assert.is(status.records.at(-1)!._next_action, 'forge loop start --help');
  plantState(dir, { '.forge/loops/current.json': '{"loop_id":"../plans/active"}' });
  const cancel = await forge(['loop', 'cancel', '--json'], { cwd: dir });
  assert.equal(failure(cancel).slice(0, 2), [1, 'STATE_INVALID']);
  const again = await forge(['loop', 'start', '--prompt', 'fix the tests', '--json'], { cwd: dir });
  assert.is(again.code, 0, again.stderr);
  assert.equal((await forge(['loop', 'status', '--json'], { cwd: dir })).records[0]!.loop_id, again.records[0]!.loop_id);
  assert.ok(stateFile(dir, `.forge/loops/${id}.json`), 'the unreadable loop is still there');
});

test('memory: a line that is not an entry is left out of recall, the lessons around it kept', async () => {
  const dir = await activeRepo();
  const [bucket] = git(dir, 'ls-tree', '--name-only', 'refs/forge/state:.forge/memory/project').split('\n');
  const path = `.forge/memory/project/${bucket}`;
  plantState(dir, {
    [path]: `${stateFile(dir, path)}{"id":"mem-1","pattern":"use pnpm everywhere","category":"not a category"}\n{"pattern":["pnpm"]}\nnull\n`,
  });
  await lessonStillThere(dir);
});

test('logs: lines that are not events are skipped and counted, in text and in records', async () => {
  const dir = repoWith({ 'a.txt': 'a\n' });
  const event = {
    id: 'ev-1',
    timestamp: '2026-01-01T00:00:00.000Z',
    runId: 'r',
    phase: 'tool_call',
    moduleId: null,
    event: 'read',
    severity: 'info',
    data: {},
  };
  plantState(dir, {
    '.forge/logs/r/000000.jsonl': `${JSON.stringify(event)}\n{"event":"write"}\n${JSON.stringify({ ...event, id: 'ev-2', data: null })}\n`,
  });
  const text = await forge(['logs', '--run-id', 'r'], { cwd: dir });
  assert.is(text.code, 0, text.stderr);
  assert.match(text.stdout, /^2026-01-01T00:00:00\.000Z info {2}tool_call read\nrun r: 1 of 1 matching event, 2 corrupt lines skipped\n/);
  const json = await forge(['logs', '--json'], { cwd: dir });
  assert.equal([json.records.at(-1)!.runId, json.records.at(-1)!.skipped], ['r', 2]);
});

test('undo: an undo marker that is not forge\'s is discarded — its "tree" never reaches git as an argument — and the undo goes on', async () => {
  const dir = repoWith({ 'a.txt': 'one\n' });
  assert.is((await forge(['checkpoint', 'save'], { cwd: dir })).code, 0);
  writeFileSync(join(dir, 'a.txt'), 'two\n');
  mkdirSync(join(dir, '.git', 'forge'), { recursive: true });
  const marker = join(dir, '.git', 'forge', 'undo-in-progress.json');
  writeFileSync(marker, JSON.stringify({ pid: 2 ** 22 + 1, target: 'refs/forge/x', tree: '--output=owned', saved: 'refs/forge/y' }));
  const r = await forge(['undo', '--json'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  assert.is(git(dir, 'show', ':a.txt'), 'one');
  assert.not.ok(existsSync(marker));
  assert.not.ok(existsSync(join(dir, 'owned')));
});

test("a state tree naming '..' (pushed to a shared remote by anyone): sync refuses it with the local ref unmoved, export writes nothing, show and log's readers say STATE_CORRUPT", async () => {
  const dir = await activeRepo();
  const remote = tempRepo({ bare: true });
  git(dir, 'remote', 'add', 'origin', remote);
  git(dir, 'push', '-q', 'origin', 'main', 'refs/forge/state');
  // Another clone puts a .forge/.. → .. → pwned.txt chain on top of the shared state and pushes it with plain git.
  const other = join(tempDir(), 'other');
  git(tempDir(), 'clone', '-q', remote, other);
  git(other, 'fetch', '-q', 'origin', 'refs/forge/state:refs/forge/state');
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: other, input: 'pwned\n', encoding: 'utf8' }).trim();
  const deeper = rawTree(other, [['40000', '..', rawTree(other, [['100644', 'pwned.txt', blob]])]]);
  const forgeTree = git(other, 'ls-tree', 'refs/forge/state:.forge')
    .split('\n')
    .map((line): [string, string, string] => {
      const [mode, , oid, name] = line.split(/\s+/);
      return [mode === '040000' ? '40000' : mode!, name!, oid!];
    });
  const root = rawTree(other, [['40000', '.forge', rawTree(other, [['40000', '..', deeper], ...forgeTree])]]);
  const evil = git(other, 'commit-tree', '-p', 'refs/forge/state', '-m', 'evil', root);
  git(other, 'update-ref', 'refs/forge/state', evil);
  git(other, 'push', '-q', 'origin', 'refs/forge/state');

  const before = git(dir, 'rev-parse', 'refs/forge/state');
  assert.equal(failure(await forge(['state', 'sync', '--json'], { cwd: dir })).slice(0, 2), [1, 'STATE_CORRUPT']);
  assert.is(git(dir, 'rev-parse', 'refs/forge/state'), before, 'the local state is not moved');
  // Diverged, a sync would merge: refused the same, nothing of the remote's tree taken.
  assert.is((await forge(['memory', 'save', 'a lesson of this clone'], { cwd: dir })).code, 0);
  const diverged = git(dir, 'rev-parse', 'refs/forge/state');
  assert.equal(failure(await forge(['state', 'sync', '--json'], { cwd: dir })).slice(0, 2), [1, 'STATE_CORRUPT']);
  assert.is(git(dir, 'rev-parse', 'refs/forge/state'), diverged);
  await lessonStillThere(dir);
  // A state ref that is no commit at all (a blob reading like one): refused, not retried as a remote that kept moving.
  const blob2 = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: other, input: `tree ${root}\n`, encoding: 'utf8' }).trim();
  git(other, 'push', '-q', 'origin', `+${blob2}:refs/forge/state`);
  assert.equal(failure(await forge(['state', 'sync', '--json'], { cwd: dir })).slice(0, 2), [1, 'STATE_CORRUPT']);
  assert.is(git(dir, 'rev-parse', 'refs/forge/state'), diverged);

  const parent = tempDir();
  const target = join(parent, 'a', 'b', 'out');
  assert.equal(failure(await forge(['state', 'export', target, '--json'], { cwd: other })).slice(0, 2), [1, 'STATE_CORRUPT']);
  assert.equal(readdirSync(parent), [], 'nothing written, inside or out');
  assert.equal(failure(await forge(['state', 'show', '--json'], { cwd: other })).slice(0, 2), [1, 'STATE_CORRUPT']);
});

test('a state tree holding a submodule or a link (forge writes neither): export and show say STATE_CORRUPT, not INTERNAL', async () => {
  const dir = await activeRepo();
  const head = git(dir, 'rev-parse', 'HEAD');
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: dir, input: 'target', encoding: 'utf8' }).trim();
  for (const [mode, oid] of [
    ['160000', head],
    ['120000', blob],
  ]) {
    const root = rawTree(dir, [['40000', '.forge', rawTree(dir, [[mode!, 'odd', oid!]])]]);
    git(dir, 'update-ref', 'refs/forge/state', git(dir, 'commit-tree', '-p', 'refs/forge/state', '-m', mode!, root));
    const target = join(tempDir(), 'out');
    assert.equal(failure(await forge(['state', 'export', target, '--json'], { cwd: dir })).slice(0, 2), [1, 'STATE_CORRUPT'], mode);
    assert.not.ok(existsSync(target), mode);
    assert.equal(failure(await forge(['state', 'show', '--json'], { cwd: dir })).slice(0, 2), [1, 'STATE_CORRUPT'], mode);
  }
});

test("a packed-refs git cannot read, the state ref only packed: GIT_FAILED with git's words, not an internal error, and nothing written", async () => {
  const dir = await activeRepo();
  git(dir, 'pack-refs', '--all');
  const file = join(dir, '.git', 'packed-refs');
  writeFileSync(file, `${readFileSync(file, 'utf8')}not a ref line\n`);
  for (const argv of [
    ['memory', 'recall', 'pnpm', '--json'],
    ['memory', 'save', 'a lesson', '--json'],
  ]) {
    const r = await forge(argv, { cwd: dir });
    const [code, errorCode] = failure(r);
    assert.equal([code, errorCode], [1, 'GIT_FAILED'], argv.join(' '));
    assert.match(r.records.at(-1)!.error.message, /unexpected line in .git\/packed-refs/);
  }
  assert.not.ok(existsSync(join(dir, '.git', 'refs', 'forge', 'state')), 'no loose state ref written past it');
});

test.run();
