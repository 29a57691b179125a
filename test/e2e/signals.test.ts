// Ctrl-C, SIGTERM and SIGHUP sent to a real forge: the programs it started end with it, a change of several files is put back, and it exits 128 + the signal.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { FORGE, forge, forgeEnv } from '../helpers/forge';
import { test } from '../helpers/harness';
import { reply, startOpenAIServer } from '../helpers/openai-server';
import { ownChild } from '../helpers/owner';
import { readIfThere, running, until } from '../helpers/process';
import { repoWith } from '../helpers/repo';

/** A forge run in `cwd`, its exit code and stderr once it ends; `send` signals it. */
function started(args: string[], cwd: string, env: Record<string, string> = {}) {
  const child = ownChild(spawn(process.execPath, [FORGE, ...args], { cwd, env: forgeEnv(env), stdio: ['ignore', 'pipe', 'pipe'] }));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const ended = new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
    child.once('close', (code) => done({ code, stdout, stderr })),
  );
  return { send: (signal: NodeJS.Signals) => child.kill(signal), ended };
}

/** A verify command that says its shell's pid, then would write X long after any test has looked. */
const SLOW = 'echo $$ > pid; sleep 60; touch X';

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const) {
  test(`${signal} to forge validate ends its verify command with it: exit ${code}, no process, no file, no attempt`, async () => {
    const dir = repoWith({ 'a.txt': 'a\n' });
    const run = started(['validate', 'm1', '--cmd', SLOW], dir);
    await until(() => readIfThere(join(dir, 'pid')).endsWith('\n'));
    const pid = Number(readIfThere(join(dir, 'pid')));
    run.send(signal);
    const r = await run.ended;
    assert.is(r.code, code, r.stderr);
    assert.match(r.stderr, /cancelled at 'echo \$\$ > pid; sleep 60; touch X'/);
    // Unbounded (a zombie counts as gone): the harness's timeout is the failure if one was missed.
    await until(() => !running(pid));
    assert.not.ok(existsSync(join(dir, 'X')));
    const state = await forge(['iter', 'get', 'm1', '--json'], { cwd: dir });
    assert.is(state.records[0]!.attempts.length, 0, 'the interrupted validation is no attempt');
  });
}

test('a second Ctrl-C ends forge at once, the programs it started killed, even ones that ignore the first', async () => {
  const dir = repoWith({ 'a.txt': 'a\n' });
  const run = started(['validate', 'm1', '--cmd', `trap '' INT TERM; ${SLOW}`], dir);
  await until(() => readIfThere(join(dir, 'pid')).endsWith('\n'));
  const pid = Number(readIfThere(join(dir, 'pid')));
  run.send('SIGINT');
  run.send('SIGINT');
  const r = await run.ended;
  assert.is(r.code, 130);
  await until(() => !running(pid));
  assert.not.ok(existsSync(join(dir, 'X')));
});

const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`src/f${i}.ts`, `export const needle${i} = ${i};\n`]));

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  test(`${signal} halfway through forge replace puts back every file already written, says so, and exits ${code}`, async () => {
    const dir = repoWith(many(200));
    // The signal is sent by forge to itself after half the steps of the write: a real signal, at a known point.
    const run = started(['replace', 'needle', 'pin'], dir, { FORGE_TEST_CRASH_AT: `${signal}@0.5` });
    const r = await run.ended;
    assert.is(r.code, code, r.stderr);
    assert.match(r.stderr, /interrupted before the change was complete: all 200 files are as they were before it began/);
    for (let i = 0; i < 200; i++) assert.is(readFileSync(join(dir, `src/f${i}.ts`), 'utf8'), `export const needle${i} = ${i};\n`);
    const journal = join(dir, '.git', 'forge', 'journal');
    assert.equal(existsSync(journal) ? readdirSync(journal) : [], [], 'no journal left for the next command to recover');
  });
}

test('SIGINT halfway through a patch of several files leaves none of them changed', async () => {
  const dir = repoWith({ 'a.txt': 'one\n', 'b.txt': 'two\n', 'c.txt': 'three\n' });
  const diff = ['a', 'b', 'c']
    .map((f, i) => `--- a/${f}.txt\n+++ b/${f}.txt\n@@ -1 +1 @@\n-${['one', 'two', 'three'][i]}\n+changed\n`)
    .join('');
  const child = ownChild(
    spawn(process.execPath, [FORGE, 'patch'], {
      cwd: dir,
      env: forgeEnv({ FORGE_TEST_CRASH_AT: 'SIGINT@0.6' }),
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(diff);
  const code = await new Promise<number | null>((done) => child.once('close', done));
  assert.is(code, 130, stderr);
  assert.equal(
    ['a', 'b', 'c'].map((f) => readFileSync(join(dir, `${f}.txt`), 'utf8')),
    ['one\n', 'two\n', 'three\n'],
  );
});

test("Ctrl-C during forge agent's bash call ends the command it runs and the run: exit 130", async () => {
  const dir = repoWith({ 'a.txt': 'a\n' });
  const server = await startOpenAIServer({
    script: [reply({ toolCalls: [{ name: 'bash', arguments: { command: SLOW } }] }), reply({ text: 'done' })],
  });
  try {
    const run = started(['agent', '--endpoint', server.url, '--model', 'test-model', 'wait a while'], dir);
    await until(() => readIfThere(join(dir, 'pid')).endsWith('\n'));
    const pid = Number(readIfThere(join(dir, 'pid')));
    run.send('SIGINT');
    const r = await run.ended;
    assert.is(r.code, 130, r.stderr);
    await until(() => !running(pid));
    assert.not.ok(existsSync(join(dir, 'X')));
  } finally {
    await server.close();
  }
});

test('Ctrl-C during forge eval stops the run in progress and keeps the runs that finished: exit 130, no fixture left behind', async () => {
  const dir = repoWith({ 'a.txt': 'a\n' });
  const suite = join(dir, 'suite');
  for (const name of ['first', 'second']) {
    mkdirSync(join(suite, name), { recursive: true });
    writeFileSync(join(suite, name, 'task.json'), JSON.stringify({ prompt: 'Write done in done.txt.', verify: 'grep -qx done done.txt' }));
    writeFileSync(join(suite, name, 'setup.sh'), 'echo fixture > README.md\n');
  }
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [{ name: 'write', arguments: { path: 'done.txt', content: 'done\n' } }] }),
      reply({ text: 'Wrote done.txt.' }),
      // The second task's model never answers while the test looks.
      reply({ text: 'late', after: held }),
    ],
  });
  try {
    const run = started(['eval', '--suite', 'suite', '--endpoint', server.url, '--model', 'm'], dir);
    await until(() => server.chatBodies().length === 3);
    run.send('SIGINT');
    const r = await run.ended;
    assert.is(r.code, 130, r.stderr);
    assert.match(r.stdout, /^first #1 forge\/m: passed/m);
    assert.match(r.stderr, /cancelled: 1 run finished and is recorded as eval-\S+/);
    const recorded = await forge(['eval', '--compare', '--json'], { cwd: dir });
    assert.equal(
      recorded.records.filter((x) => x.type === 'task').map((x) => [x.task, x.runs, x.passed]),
      [['first', 1, 1]],
    );
  } finally {
    release();
    await server.close();
  }
});

test.run();
