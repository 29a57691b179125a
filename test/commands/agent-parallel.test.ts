// forge agent --plan with steps at once (--parallel, parallel_steps) and co-change hints, against a scripted OpenAI-compatible server on real repositories.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from '../helpers/harness';
import { ownChild } from '../helpers/owner';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { FORGE, forge, forgeEnv } from '../helpers/forge';
import { reply, startOpenAIServer, type ChatRequestBody, type ReplyStep } from '../helpers/openai-server';
import { git, repoWith, tempDir } from '../helpers/repo';

const usage = { prompt_tokens: 300, completion_tokens: 10 };

const module = (id: string, file: string, extra: Record<string, unknown> = {}) => ({
  id,
  title: `Add ${file}`,
  objective: `Create ${file} printing ${id}.`,
  files: [file],
  verify: [`node ${file}`],
  doneWhen: `${file} runs`,
  ...extra,
});

const planReply = (modules: unknown[]) => reply({ text: JSON.stringify({ modules }), usage, when: (b) => !b.tools });
const userText = (b: ChatRequestBody) => String(b.messages.find((m) => m.role === 'user')?.content ?? '');
const toolResults = (b: ChatRequestBody) => b.messages.filter((m) => m.role === 'tool').length;
/** A reply for step `n` of `total` when its conversation holds `results` tool results so far. */
const forStep = (n: number, total: number, results: number, step: Omit<ReplyStep, 'type' | 'when'>) =>
  reply({ ...step, usage, when: (b) => !!b.tools && userText(b).startsWith(`Step ${n} of ${total}:`) && toolResults(b) === results });
const write = (path: string, content: string) => ({ name: 'write', arguments: { path, content } });
const ls = { name: 'ls', arguments: { glob: 'src/*' } };
const worktrees = (dir: string) =>
  git(dir, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree ')).length;

function fixture(): string {
  return repoWith({ 'package.json': '{ "type": "module" }\n', 'src/keep.js': 'console.log("keep");\n' });
}

test('--parallel 2: two independent steps are in flight at once, each edits its own worktree, both land in the work tree in step order', async () => {
  const dir = fixture();
  // An ignored directory the checks need (as node_modules would be): the worktrees see it too.
  writeFileSync(join(dir, '.gitignore'), 'deps/\n');
  git(dir, 'add', '.gitignore');
  git(dir, 'commit', '-qm', 'ignore deps');
  mkdirSync(join(dir, 'deps'));
  writeFileSync(join(dir, 'deps/marker'), 'installed\n');
  const needsDeps = (id: string, file: string) => module(id, file, { verify: ['test -f deps/marker', `node ${file}`] });
  const server = await startOpenAIServer({
    script: [
      planReply([needsDeps('M1', 'src/a.js'), needsDeps('M2', 'src/b.js')]),
      // Step 1's first reply waits for step 2's first request: both are in flight at once.
      forStep(1, 2, 0, { toolCalls: [write('src/a.js', 'console.log("M1");\n')], holdUntilChats: 3 }),
      forStep(2, 2, 0, { toolCalls: [write('src/b.js', 'console.log("M2");\n')] }),
      // Each looks at src/ once both have written: it sees its own file, never the other's.
      forStep(1, 2, 1, { toolCalls: [ls], holdUntilChats: 5 }),
      forStep(2, 2, 1, { toolCalls: [ls], holdUntilChats: 5 }),
      forStep(1, 2, 2, { text: 'Added a.' }),
      forStep(2, 2, 2, { text: 'Added b.' }),
    ],
  });
  // A worktree an earlier forge left when it was killed: locked by a process that has ended.
  const stale = join(tempDir('forge-stale-'), 'wt');
  const dead = spawnSync('true').pid;
  git(dir, 'worktree', 'add', '--detach', '--lock', '--reason', `forge agent plan step, pid ${dead}`, stale, 'HEAD');
  try {
    const args = ['agent', '--plan', '--yes', '--parallel', '2', '--endpoint', server.url, '--model', 'm', '--json', 'add a and b'];
    const r = await forge(args, { cwd: dir });
    assert.is(r.code, 0, r.stderr + r.stdout);
    assert.not.ok(existsSync(stale), 'the worktree a killed run left is removed');
    assert.is(server.remaining(), 0, 'every scripted reply was used');
    const plan = r.records.find((x) => x.type === 'plan')!;
    assert.equal(plan.together, [['M1', 'M2']], 'the review says which steps run at once');
    assert.equal(r.records.find((x) => x.type === 'steps_together')!.steps, ['M1', 'M2']);
    assert.equal(
      r.records.filter((x) => x.type === 'step_done').map((x) => x.step),
      ['M1', 'M2'],
      'merged in step order',
    );
    const seen = (n: number) => {
      const body = server.chatBodies().find((b) => userText(b).startsWith(`Step ${n} of 2:`) && toolResults(b) === 2)!;
      return String(body.messages.filter((m) => m.role === 'tool').at(-1)!.content);
    };
    assert.match(seen(1), /src\/a\.js/);
    assert.not.match(seen(1), /src\/b\.js/, "step 1's worktree does not have step 2's file");
    assert.match(seen(2), /src\/b\.js/);
    assert.not.match(seen(2), /src\/a\.js/, "step 2's worktree does not have step 1's file");
    assert.is(readFileSync(join(dir, 'src/a.js'), 'utf8'), 'console.log("M1");\n');
    assert.is(readFileSync(join(dir, 'src/b.js'), 'utf8'), 'console.log("M2");\n');
    assert.is(
      git(dir, 'status', '--porcelain', '--', 'src').trim(),
      '?? src/a.js\n?? src/b.js'.trim(),
      'nothing staged: the index is untouched',
    );
    assert.is(worktrees(dir), 1, 'the worktrees are removed');
    assert.is(readFileSync(join(dir, 'deps/marker'), 'utf8'), 'installed\n', 'the linked directory is untouched');
    assert.is(git(dir, 'status', '--porcelain').trim(), '?? src/a.js\n?? src/b.js', 'nothing else came back from the worktrees');
    const summary = r.records.at(-1)!;
    assert.equal(
      summary.steps.map((s: any) => s.status),
      ['done', 'done'],
    );
  } finally {
    await server.close();
  }
});

test('a step whose changes conflict with an earlier one of its group runs again on its own, and says why', async () => {
  const dir = fixture();
  const home = tempDir('forge-config-');
  mkdirSync(join(home, 'forge'));
  writeFileSync(
    join(home, 'forge', 'config.json'),
    JSON.stringify({
      profiles: { default: { parallel_steps: 2, hooks: { on_edit: ['echo "edited in $(basename "$PWD")"; exit 3'] } } },
    }),
  );
  const server = await startOpenAIServer({
    script: [
      planReply([module('M1', 'src/a.js'), module('M2', 'src/b.js')]),
      forStep(1, 2, 0, { toolCalls: [write('src/a.js', 'console.log("M1");\n')], holdUntilChats: 3 }),
      // Step 2 strays into step 1's file as well: its patch cannot go over step 1's.
      forStep(2, 2, 0, { toolCalls: [write('src/b.js', 'console.log("M2");\n'), write('src/a.js', 'console.log("stray");\n')] }),
      forStep(1, 2, 1, { text: 'Added a.' }),
      forStep(2, 2, 2, { text: 'Added b and a.' }),
      // Again, on its own, after step 1 landed.
      forStep(2, 2, 0, { toolCalls: [write('src/b.js', 'console.log("M2 again");\n')] }),
      forStep(2, 2, 1, { text: 'Added b.' }),
    ],
  });
  try {
    const r = await forge(['agent', '--plan', '--yes', '--endpoint', server.url, '--model', 'm', 'add a and b'], {
      cwd: dir,
      env: { XDG_CONFIG_HOME: home },
    });
    assert.is(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /runs at once \(parallel_steps 2\), each in its own worktree: M1 \+ M2/);
    assert.match(r.stdout, /↻ step 2\/2 M2 runs again on its own: its changes conflict with an earlier step's \(.*src\/a\.js/);
    assert.is(server.remaining(), 0, 'step 2 ran a second time');
    assert.is(readFileSync(join(dir, 'src/a.js'), 'utf8'), 'console.log("M1");\n', "step 1's change stands");
    const hookSaid = (n: number, results: number) =>
      String(
        server
          .chatBodies()
          .filter((b) => userText(b).startsWith(`Step ${n} of 2:`) && toolResults(b) === results)[0]!
          .messages.find((m) => m.role === 'tool')!.content,
      );
    assert.match(hookSaid(1, 1), /edited in forge-step-/, "on_edit runs in step 1's worktree");
    assert.match(hookSaid(2, 1), new RegExp(`edited in ${basename(dir)}\\b`), 'and in the work tree for the step run on its own');
    assert.is(readFileSync(join(dir, 'src/b.js'), 'utf8'), 'console.log("M2 again");\n');
    assert.is(worktrees(dir), 1, 'the worktrees are removed');
  } finally {
    await server.close();
  }
});

test('a step that calls bash while steps run at once stops before it runs, and runs again on its own', async () => {
  const dir = fixture();
  const server = await startOpenAIServer({
    script: [
      planReply([module('M1', 'src/a.js'), module('M2', 'src/b.js')]),
      forStep(1, 2, 0, { toolCalls: [write('src/a.js', 'console.log("M1");\n')], holdUntilChats: 3 }),
      forStep(2, 2, 0, { toolCalls: [{ name: 'bash', arguments: { command: 'touch bash-ran-at-once' } }] }),
      forStep(1, 2, 1, { text: 'Added a.' }),
      forStep(2, 2, 0, { toolCalls: [{ name: 'bash', arguments: { command: `printf 'console.log(2)\\n' > src/b.js` } }] }),
      forStep(2, 2, 1, { text: 'Added b.' }),
    ],
  });
  try {
    const r = await forge(
      ['agent', '--plan', '--yes', '--parallel', '2', '--endpoint', server.url, '--model', 'm', '--json', 'add a and b'],
      {
        cwd: dir,
      },
    );
    assert.is(r.code, 0, r.stderr + r.stdout);
    const again = r.records.find((x) => x.type === 'step_sequential')!;
    assert.equal([again.step, again.reason], ['M2', 'it called bash, which may change things outside its own worktree']);
    assert.not.ok(existsSync(join(dir, 'bash-ran-at-once')), 'bash did not run while the steps ran at once');
    assert.is(readFileSync(join(dir, 'src/b.js'), 'utf8'), 'console.log(2)\n');
    assert.is(readFileSync(join(dir, 'src/a.js'), 'utf8'), 'console.log("M1");\n');
    assert.is(worktrees(dir), 1);
  } finally {
    await server.close();
  }
});

test('when no worktree can be made, the steps run one after another and the output says why', async () => {
  const dir = fixture();
  const server = await startOpenAIServer({
    script: [
      planReply([module('M1', 'src/a.js'), module('M2', 'src/b.js')]),
      forStep(1, 2, 0, { toolCalls: [write('src/a.js', 'console.log(1);\n')] }),
      forStep(1, 2, 1, { text: 'Added a.' }),
      forStep(2, 2, 0, { toolCalls: [write('src/b.js', 'console.log(2);\n')] }),
      forStep(2, 2, 1, { text: 'Added b.' }),
    ],
  });
  try {
    const args = ['agent', '--plan', '--yes', '--parallel', '2', '--endpoint', server.url, '--model', 'm', '--json', 'add a and b'];
    const r = await forge(args, { cwd: dir, env: { TMPDIR: join(dir, 'no-such-dir') } });
    assert.is(r.code, 0, r.stderr + r.stdout);
    const alone = r.records.filter((x) => x.type === 'step_sequential');
    assert.equal(
      alone.map((x) => x.step),
      ['M1', 'M2'],
    );
    assert.match(alone[0]!.reason, /^git could not make a worktree for it \(cannot make a directory for a worktree in '.*no-such-dir'/);
    assert.equal(
      r.records.filter((x) => x.type === 'step_done').map((x) => x.step),
      ['M1', 'M2'],
    );
    assert.is(worktrees(dir), 1);
  } finally {
    await server.close();
  }
});

test('a step that depends on another, or shares its file, waits for it; --parallel needs a plan', async () => {
  const dir = fixture();
  const server = await startOpenAIServer({
    script: [planReply([module('M1', 'src/a.js'), module('M2', 'src/a.js'), module('M3', 'src/c.js', { dependsOn: ['M1'] })])],
  });
  try {
    const r = await forge(['agent', '--plan', '--parallel', '3', '--endpoint', server.url, '--model', 'm', '--json', 'three'], {
      cwd: dir,
    });
    assert.is(r.code, 0, r.stderr);
    assert.equal(r.records.find((x) => x.type === 'plan')!.together, [['M1'], ['M2', 'M3']]);
    const bad = await forge(['agent', '--parallel', '2', 'say hi'], { cwd: dir });
    assert.is(bad.code, 2);
    assert.match(bad.stderr + bad.stdout, /--parallel needs --plan or --resume/);
    const home = tempDir('forge-config-');
    mkdirSync(join(home, 'forge'));
    writeFileSync(join(home, 'forge', 'config.json'), JSON.stringify({ profiles: { default: { parallel_steps: 0 } } }));
    const zero = await forge(['agent', '--plan', '--endpoint', server.url, '--model', 'm', 'three'], {
      cwd: dir,
      env: { XDG_CONFIG_HOME: home },
    });
    assert.is(zero.code, 2);
    assert.match(zero.stderr, /parallel_steps must be an integer from 1 \(one step at a time\) to 8/);
  } finally {
    await server.close();
  }
});

test("co-change hints: files history changes together with a step's file are suggested in the review and the plan record", async () => {
  const dir = fixture();
  for (const n of [1, 2, 3]) {
    writeFileSync(join(dir, 'src/auth.js'), `// auth ${n}\n`);
    writeFileSync(join(dir, 'src/handler.js'), `// handler ${n}\n`);
    if (n === 2) writeFileSync(join(dir, 'src/other.js'), '// once\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', `change ${n}`);
  }
  const modules = [module('M1', 'src/auth.js'), module('M2', 'src/keep.js')];
  const server = await startOpenAIServer({ script: [planReply(modules), planReply(modules)] });
  try {
    const r = await forge(['agent', '--plan', '--endpoint', server.url, '--model', 'm', '--json', 'change auth'], { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    const steps = r.records.find((x) => x.type === 'plan')!.steps;
    assert.equal(steps[0].cochange, [{ file: 'src/handler.js', with: 'src/auth.js', together: 3, of: 3 }]);
    assert.equal(steps[1].cochange, [], 'a file changed once says nothing');
    const text = await forge(['agent', '--plan', '--endpoint', server.url, '--model', 'm', 'change auth'], { cwd: dir });
    assert.match(text.stdout, /history suggests: src\/handler\.js \(changed with src\/auth\.js in 3 of its last 3 commits\)/);
  } finally {
    await server.close();
  }
});

test('Ctrl-C while steps run at once removes their worktrees', async () => {
  const dir = fixture();
  const server = await startOpenAIServer({
    script: [
      planReply([module('M1', 'src/a.js'), module('M2', 'src/b.js')]),
      // Neither step ever gets its reply: the run is interrupted while both are in flight.
      forStep(1, 2, 0, { text: 'never', holdUntilChats: 99 }),
      forStep(2, 2, 0, { text: 'never', holdUntilChats: 99 }),
    ],
  });
  try {
    const child = ownChild(
      spawn(
        process.execPath,
        [FORGE, 'agent', '--plan', '--yes', '--parallel', '2', '--endpoint', server.url, '--model', 'm', '--json', 'add a and b'],
        { cwd: dir, env: forgeEnv() },
      ),
    );
    let out = '';
    const ended = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (b) => {
        out += b;
        if (out.includes('"type":"steps_together"') && worktrees(dir) === 3) resolve();
      });
      child.on('close', () => reject(new Error(`forge ended before the steps started:\n${out}`)));
    });
    child.kill('SIGINT');
    assert.is(await ended, 130, 'the interrupt still ends the process, as a shell reports a Ctrl-C');
    assert.is(worktrees(dir), 1, 'the worktrees are removed');
  } finally {
    await server.close();
  }
});

test.run();
