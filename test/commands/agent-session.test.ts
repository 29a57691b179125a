// forge agent's git context, short replies and --rollback, through the scripted OpenAI-compatible server on real repositories.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { openRepo } from '../../lib/git/repo';
import { StateStore } from '../../lib/git/state';
import { forge } from '../helpers/forge';
import { reply, startOpenAIServer, type ChatRequestBody, type ScriptStep } from '../helpers/openai-server';
import { git, repoWith, tempDir, tempRepo } from '../helpers/repo';

const system = (b: ChatRequestBody) => String(b.messages[0]!.content);
const user = (b: ChatRequestBody) => String(b.messages[1]!.content);

/** Runs forge agent tasks one after another against one scripted server; returns each run and the requests. */
async function agent(dir: string, script: ScriptStep[], runs: string[][], env: Record<string, string> = {}) {
  const server = await startOpenAIServer({ script });
  try {
    const out = [];
    for (const args of runs)
      out.push(await forge(['agent', '--endpoint', server.url, '--model', 'test-model', '--json', ...args], { cwd: dir, env }));
    return { runs: out, bodies: server.chatBodies() };
  } finally {
    await server.close();
  }
}

/** A config home whose one profile sets git_context. */
function profile(mode: string): string {
  const home = tempDir('forge-config-');
  mkdirSync(join(home, 'forge'));
  writeFileSync(join(home, 'forge', 'config.json'), JSON.stringify({ default: 't', profiles: { t: { git_context: mode } } }));
  return home;
}

test('the request carries the branch, git status, the last 5 commits and the staged diff', async () => {
  const dir = repoWith({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n' });
  for (let i = 1; i <= 6; i++) {
    writeFileSync(join(dir, 'NOTES'), `${i}\n`);
    git(dir, 'add', 'NOTES');
    git(dir, 'commit', '-qm', `note ${i}`);
  }
  writeFileSync(join(dir, 'src/a.ts'), 'export const a = 10;\n');
  git(dir, 'add', 'src/a.ts');
  writeFileSync(join(dir, 'src/b.ts'), 'export const b = 20;\n');
  writeFileSync(join(dir, 'new.txt'), 'x\n');
  const { runs, bodies } = await agent(dir, [reply({ text: 'done' })], [['say done']]);
  assert.is(runs[0]!.code, 0, runs[0]!.stderr);
  const s = system(bodies[0]!);
  assert.ok(s.includes('Git: on main\nStatus (git status --short):\nM  src/a.ts\n M src/b.ts\n?? new.txt\n'), s);
  assert.ok(s.includes('Last commits (git log --oneline -5):\n'), s);
  for (let i = 2; i <= 6; i++) assert.ok(s.includes(` note ${i}\n`), `note ${i}`);
  assert.not.ok(s.includes(' note 1\n'), 'the sixth commit back is left out');
  assert.ok(s.includes('Staged (git diff --cached: 1 file changed, 1 insertion(+), 1 deletion(-)):\ndiff --git a/src/a.ts b/src/a.ts'), s);
  assert.ok(s.includes('-export const a = 1;\n+export const a = 10;'), s);
  assert.not.ok(s.includes('export const b = 20'), 'the unstaged change is in the status, not as a diff');
});

test('git context in a repository with no commits, on a detached HEAD, and with a huge staged diff and many files: capped', async () => {
  const unborn = tempRepo({ commit: false });
  writeFileSync(join(unborn, 'first.txt'), 'hello\n');
  git(unborn, 'add', 'first.txt');
  const detached = repoWith({ 'a.txt': 'a\n' });
  const head = git(detached, 'rev-parse', '--short', 'HEAD');
  git(detached, 'checkout', '-q', '--detach');
  const huge = repoWith({ 'a.txt': 'a\n' });
  writeFileSync(join(huge, 'big.txt'), 'x'.repeat(200).concat('\n').repeat(25_000));
  for (let i = 0; i < 40; i++) writeFileSync(join(huge, `f${String(i).padStart(2, '0')}.txt`), `${i}\n`);
  git(huge, 'add', 'big.txt');
  const s: string[] = [];
  for (const dir of [unborn, detached, huge]) {
    const { runs, bodies } = await agent(dir, [reply({ text: 'ok' })], [['say ok']]);
    assert.is(runs[0]!.code, 0, runs[0]!.stderr);
    s.push(system(bodies[0]!));
  }
  assert.ok(
    s[0]!.includes(
      'Git: on main (no commits yet)\nStatus (git status --short):\nA  first.txt\nLast commits: none yet\nStaged (git diff --cached: 1 file changed, 1 insertion(+)):\ndiff --git a/first.txt b/first.txt',
    ),
    s[0],
  );
  assert.ok(
    s[1]!.includes(`Git: on detached HEAD at ${head}\nStatus: clean\nLast commits (git log --oneline -5):\n${head} before\n`),
    s[1],
  );
  const git3 = s[2]!.slice(s[2]!.indexOf('Git: on'));
  assert.ok(git3.includes('Status (git status --short, first 30 files, 11 not shown):\nA  big.txt\n?? f00.txt\n'), git3);
  assert.not.ok(git3.includes('f29.txt'), 'the 31st file is not listed');
  assert.ok(git3.includes('Staged (git diff --cached: 1 file changed, 25000 insertions(+); first 3000 bytes):\n'), git3);
  assert.ok(git3.length < 5000, `the git context stays small: ${git3.length} characters`);
  assert.ok(git3.endsWith('\n… [cut]'), git3.slice(-200));
  // A small budget (a 4k-context model) gets less of the diff: the preamble stays an eighth of it.
  const small = await agent(huge, [reply({ text: 'ok' })], [['--budget', '4000', 'say ok']]);
  assert.is(small.runs[0]!.code, 0, small.runs[0]!.stderr);
  const git4 = system(small.bodies[0]!).slice(system(small.bodies[0]!).indexOf('Git: on'));
  assert.ok(git4.length <= 2000, `${git4.length} characters`);
  assert.match(git4, /Staged \(git diff --cached: 1 file changed, 25000 insertions\(\+\); first \d+ bytes\):\ndiff --git a\/big.txt/);
});

test('git_context "tool" offers a git_context tool instead of the preamble; "off" neither; a bad value is CONFIG_INVALID', async () => {
  const dir = repoWith({ 'a.txt': 'a\n' });
  writeFileSync(join(dir, 'a.txt'), 'b\n');
  const tool = await agent(
    dir,
    [reply({ toolCalls: [{ name: 'git_context', arguments: {} }] }), reply({ text: 'one file changed' })],
    [['what changed?']],
    { XDG_CONFIG_HOME: profile('tool') },
  );
  assert.is(tool.runs[0]!.code, 0, tool.runs[0]!.stderr);
  assert.not.ok(system(tool.bodies[0]!).includes('Git: on'));
  assert.ok(tool.bodies[0]!.tools!.some((t: any) => t.function.name === 'git_context'));
  const result = tool.bodies[1]!.messages.find((m) => m.role === 'tool');
  assert.ok(String(result?.content).startsWith('Git: on main\nStatus (git status --short):\n M a.txt'), String(result?.content));
  const off = await agent(dir, [reply({ text: 'ok' })], [['say ok']], { XDG_CONFIG_HOME: profile('off') });
  assert.not.ok(system(off.bodies[0]!).includes('Git: on'));
  assert.not.ok(off.bodies[0]!.tools!.some((t: any) => t.function.name === 'git_context'));
  const bad = await agent(dir, [], [['say ok']], { XDG_CONFIG_HOME: profile('always') });
  assert.equal([bad.runs[0]!.code, bad.runs[0]!.records.at(-1)!.error.code], [2, 'CONFIG_INVALID']);
  assert.match(bad.runs[0]!.records.at(-1)!.error.message, /git_context must be "preamble"/);
});

test('"yes" in a continued session reaches the model with the previous turn; a task does not', async () => {
  const dir = tempRepo();
  const { runs, bodies } = await agent(
    dir,
    [
      reply({ text: 'I can rename foo to bar in 3 files. Shall I go ahead?' }),
      reply({ text: 'Renamed.' }),
      reply({ text: 'Added.' }),
      reply({ text: 'bar already has a test.' }),
    ],
    [['rename foo to bar'], ['--continue', 'yes, go ahead'], ['--continue', 'add a test for bar']],
  );
  // A change asked for: a question back is not done (the session goes on with --continue); an answer
  // that changed nothing is asked once to make the change, and stands when it says none was needed.
  assert.equal(
    runs.map((r) => r.code),
    [1, 0, 0],
    runs.map((r) => r.stderr).join('\n'),
  );
  assert.is(runs[0]!.records.at(-1)!.error.code, 'TASK_NOT_DONE');
  assert.match(String(bodies[3]!.messages.at(-1)!.content), /^No file has changed, but the task asks for a change/);
  const message = user(bodies[1]!);
  assert.ok(message.startsWith('yes, go ahead\n\n(This is my reply to your previous turn. I had asked: rename foo to bar\n'), message);
  assert.ok(message.includes('I can rename foo to bar in 3 files. Shall I go ahead?'), message);
  const noted = runs[1]!.records.find((x) => x.type === 'reply_to');
  assert.equal([noted?.turn, noted?.session], [1, runs[0]!.records.at(-1)!.error.data.session]);
  assert.is(user(bodies[2]!), 'add a test for bar');
  assert.not.ok(runs[2]!.records.some((x) => x.type === 'reply_to'));
  const shown = await forge(['state', 'show', `.forge/agent/sessions/${runs[0]!.records.at(-1)!.error.data.session}.json`], { cwd: dir });
  assert.equal(
    JSON.parse(shown.stdout).turns.map((t: { task: string }) => t.task),
    ['rename foo to bar', 'yes, go ahead', 'add a test for bar'],
    'the turn is saved as typed',
  );
});

test('--rollback 1 leaves the last turn out of the next --continue, its hint (forge undo N) takes the turn’s files back, a new turn follows the active ones', async () => {
  const dir = tempRepo();
  const { runs } = await agent(
    dir,
    [
      reply({ text: 'Plan: add a.txt.' }),
      reply({ toolCalls: [{ name: 'write', arguments: { path: 'second.txt', content: 'two\n' } }] }),
      reply({ text: 'Wrote second.txt.' }),
    ],
    [['plan the files'], ['--continue', 'write second.txt']],
  );
  assert.equal(
    runs.map((r) => r.code),
    [0, 0],
    runs.map((r) => r.stderr).join('\n'),
  );
  const id = runs[0]!.records.at(-1)!.session as string;
  const file = `.forge/agent/sessions/${id}.json`;
  // A session saved before any rollback has no pointer: it loads, all its turns active.
  assert.not.ok('active' in JSON.parse((await forge(['state', 'show', file], { cwd: dir })).stdout));

  const back = await forge(['agent', '--rollback', '1', '--json'], { cwd: dir });
  assert.is(back.code, 0, back.stderr);
  assert.equal(
    back.records.filter((x) => x.type === 'rolled_back').map((x) => [x.turn, x.task, x.files]),
    [[2, 'write second.txt', ['second.txt']]],
  );
  const summary = back.records.at(-1)!;
  assert.equal([summary.active, summary.turns, summary._or_action], [1, 2, 'forge agent --rollback -1']);
  assert.is(summary._next_action, 'forge undo 1');
  const text = await forge(['agent', '--list'], { cwd: dir });
  assert.match(text.stdout, /2 turns \(1 rolled back\)/);
  // The hint works as given: the files go back to before the rolled-back turn.
  const undo = await forge([...String(summary._next_action).split(' ').slice(1), '--yes'], { cwd: dir });
  assert.is(undo.code, 0, undo.stderr);
  assert.not.ok(existsSync(join(dir, 'second.txt')), 'forge undo took the rolled-back turn’s file back');

  const after = await agent(dir, [reply({ text: 'ok' }), reply({ text: 'ok' })], [['--continue', 'what now?']]);
  assert.is(after.runs[0]!.code, 0, after.runs[0]!.stderr);
  const s = system(after.bodies[0]!);
  assert.ok(s.includes('1. Task: plan the files'), s);
  assert.not.ok(s.includes('write second.txt'), 'the rolled-back turn is not sent');

  // A new turn after a rollback follows the active ones; the rolled-back turn stays in the file.
  const stored = JSON.parse((await forge(['state', 'show', file], { cwd: dir })).stdout);
  assert.equal(
    [stored.active, stored.turns.map((t: { task: string }) => t.task), stored.abandoned[0].turns[0].task],
    [2, ['plan the files', 'what now?'], 'write second.txt'],
  );
  const gone = await forge(['agent', '--rollback', '-1', '--json'], { cwd: dir });
  assert.equal(
    [gone.code, gone.records.at(-1)!.error.code, gone.records.at(-1)!._next_action],
    [2, 'ROLLBACK_OUT_OF_RANGE', `forge state show ${file}`],
  );
  assert.match(gone.records.at(-1)!.error.message, /has 0 turns to restore \(2 of 2 active\)/);
});

test('--rollback -N restores rolled-back turns; rolling back or restoring more than there is is ROLLBACK_OUT_OF_RANGE with a working fix', async () => {
  const dir = tempRepo();
  const { runs } = await agent(
    dir,
    [reply({ text: 'one' }), reply({ text: 'two' }), reply({ text: 'three' })],
    [['first task'], ['--continue', 'second task'], ['--continue', 'third task']],
  );
  const id = runs[0]!.records.at(-1)!.session as string;
  const far = await forge(['agent', '--rollback', '4', '--json'], { cwd: dir });
  const err = far.records.at(-1)!;
  assert.equal([far.code, err.error.code, err._next_action], [2, 'ROLLBACK_OUT_OF_RANGE', 'forge agent --rollback 3']);
  assert.match(err.error.message, /has 3 turns to roll back \(3 of 3 active\): cannot roll back 4/);
  const two = await forge(['agent', '--rollback', '2', '--session', id, '--json'], { cwd: dir });
  assert.equal([two.code, two.records.at(-1)!.active], [0, 1], two.stderr);
  const tooMany = await forge(['agent', '--rollback', '-3', '--json'], { cwd: dir });
  assert.equal([tooMany.code, tooMany.records.at(-1)!._next_action], [2, 'forge agent --rollback -2']);
  const zero = await forge(['agent', '--rollback', '0', '--json'], { cwd: dir });
  assert.equal([zero.code, zero.records.at(-1)!.error.code], [2, 'ROLLBACK_OUT_OF_RANGE']);
  const withTask = await forge(['agent', '--rollback', '1', 'a task', '--json'], { cwd: dir });
  assert.equal([withTask.code, withTask.records.at(-1)!.error.code], [2, 'CONFLICTING_ARGUMENTS']);
  const restore = await forge(['agent', '--rollback', '-2', '--json'], { cwd: dir });
  assert.is(restore.code, 0, restore.stderr);
  assert.equal(
    restore.records.filter((x) => x.type === 'restored').map((x) => [x.turn, x.task]),
    [
      [2, 'second task'],
      [3, 'third task'],
    ],
  );
  const next = await agent(dir, [reply({ text: 'ok' })], [['--continue', 'and now?']]);
  const s = system(next.bodies[0]!);
  assert.ok(s.includes('2. Task: second task') && s.includes('3. Task: third task'), s);
  // Every move is a commit on the state ref, as a reflog would show it.
  assert.match(
    git(dir, 'log', '--format=%s', 'refs/forge/state'),
    new RegExp(`agent: session ${id} rollback -2\\n(.|\\n)*agent: session ${id} rollback 2`),
  );
});

test('a session whose pointer is out of range is STATE_INVALID, never a crash or a silent reset', async () => {
  const dir = tempRepo();
  const store = new StateStore(await openRepo({ cwd: dir }), { name: 't', email: 't@t' });
  const turn = { timestamp: '2026-01-01T00:00:00Z', task: 't', answer: 'a', files: [], toolCalls: 0, model: 'm' };
  await store.update({
    message: 'a bad pointer',
    apply: async (tx) => {
      tx.write(
        '.forge/agent/sessions/ag-bad.json',
        JSON.stringify({ id: 'ag-bad', createdAt: '2026-01-01', updatedAt: '2026-01-01', turns: [turn], active: 7 }),
      );
    },
  });
  store.close();
  const r = await forge(['agent', '--rollback', '1', '--session', 'ag-bad', '--json'], { cwd: dir });
  assert.equal([r.code, r.records.at(-1)!.error.code], [1, 'STATE_INVALID'], r.stdout);
  assert.match(r.records.at(-1)!.error.message, /active: 7 is not a whole number from 0 to 1/);
});

test.run();
