// forge eval against the scripted model: two shipped tasks run by forge agent through the recording proxy, the proxy's counts held against what the server received; failures, loops and bad suites.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { reply, startOpenAIServer } from '../helpers/openai-server';
import { git, repoWith, tempDir, tempRepo } from '../helpers/repo';

const usage = { prompt_tokens: 700, completion_tokens: 30 };
/** The model's one move: a shell command through forge agent's bash tool. */
const bash = (command: string) => ({ name: 'bash', arguments: { command } });

test('two shipped tasks with forge agent: success from the verify commands, the proxy counts what the server received, the eval on the state ref', async () => {
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [bash("sed -i '/console\\.log/d' src/*.js")], usage }),
      reply({ text: 'Removed every console.log.', usage }),
      reply({ toolCalls: [bash("sed -i 's/\\bcolumns\\b/allColumns/g' src/app/data-table.component.ts")], usage }),
      reply({ text: 'Renamed columns to allColumns.', usage }),
    ],
  });
  const dir = tempRepo();
  try {
    const r = await forge(['eval', 'remove-console-log', 'rename-columns', '--endpoint', server.url, '--model', 'm', '--json'], {
      cwd: dir,
    });
    assert.is(r.code, 0, r.stderr + r.stdout);
    const runs = r.records.filter((x) => x.type === 'run');
    assert.equal(
      runs.map((x) => [x.task, x.agent, x.success, x.failure, x.toolCalls, x.requests, x.looped]),
      [
        ['remove-console-log', 'forge', true, null, 1, 2, false],
        ['rename-columns', 'forge', true, null, 1, 2, false],
      ],
    );
    // The meter against the server: every chat request it served is one the proxy counted, with its usage.
    const chats = server.chatBodies().length;
    assert.is(
      runs.reduce((n, x) => n + x.requests, 0),
      chats,
    );
    assert.equal(
      runs.map((x) => [x.promptTokens, x.completionTokens, x.usageReported]),
      [
        [1400, 60, true],
        [1400, 60, true],
      ],
    );
    assert.ok(runs.every((x) => x.uncachedTokens > 0 && x.largestRequest === 700));
    const summary = r.records.at(-1)!;
    assert.equal([summary.runs, summary.passed, summary._next_action], [2, 2, 'forge eval --compare']);
    assert.match(git(dir, 'log', '--format=%s', 'refs/forge/state'), /^eval eval-\S+: 2 of 2 runs passed \(forge, m\)$/);
    const compared = await forge(['eval', '--compare'], { cwd: dir });
    assert.is(compared.code, 0, compared.stderr);
    assert.match(compared.stdout, /\nremove-console-log\s+forge\/m\s+1\/1 100%\s+1\s+0\s+2\s+1\.4k\s+60\s/);
    assert.match(compared.stdout, /\nrename-columns\s+forge\/m\s+1\/1 100%\s+1\s+0\s+2\s/);
  } finally {
    await server.close();
  }
});

/** The tasks forge ships, in the suite's order: one folder each under eval/tasks. */
const SHIPPED = readdirSync('eval/tasks', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** A suite of one's own: one folder per task. */
function suite(tasks: Record<string, { task: unknown; setup?: string }>): string {
  // A path a shell would take apart unless it is quoted.
  const root = join(tempDir('forge-suite-'), 'my $suite "one"');
  mkdirSync(root);
  for (const [name, { task, setup = 'echo hello > README.md\n' }] of Object.entries(tasks)) {
    mkdirSync(join(root, name));
    writeFileSync(join(root, name, 'task.json'), typeof task === 'string' ? task : JSON.stringify(task));
    writeFileSync(join(root, name, 'setup.sh'), setup);
  }
  return root;
}

test("the agent's word counts for nothing: a run that says done and did nothing fails, and the same call three times is a loop", async () => {
  const read = { name: 'read', arguments: { path: 'README.md' } };
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [read] }),
      reply({ toolCalls: [read] }),
      reply({ toolCalls: [read] }),
      ...Array(6).fill(reply({ text: 'All done!' })),
    ],
  });
  const dir = tempRepo();
  const root = suite({ 'make-done': { task: { prompt: 'Create done.txt holding the word done.', verify: 'grep -qx done done.txt' } } });
  try {
    const r = await forge(['eval', '--suite', root, '--endpoint', server.url, '--model', 'm', '--json'], { cwd: dir });
    assert.is(r.code, 1, 'a failed run is exit 1');
    const run = r.records.find((x) => x.type === 'run')!;
    assert.equal([run.success, run.looped, run.usageReported, run.reReads], [false, true, false, 2]);
    assert.match(run.failure, /^grep -qx done done\.txt: exit 2/);
    assert.ok(run.promptTokens > 0, 'estimated when the server sends no usage');
    assert.equal(r.records.at(-1)!.passed, 0);
  } finally {
    await server.close();
  }
});

test('an environment that leads elsewhere (GIT_DIR and GIT_WORK_TREE from a hook, FORGE_CWD) takes nothing out of the fixture', async () => {
  const mine = repoWith({ 'a.txt': 'mine\n' });
  const head = git(mine, 'rev-parse', 'HEAD');
  const server = await startOpenAIServer({
    script: [reply({ toolCalls: [bash('echo done > done.txt && git add -A && git commit -qm done')] }), reply({ text: 'Wrote it.' })],
  });
  const root = suite({ 'make-done': { task: { prompt: 'Write done in done.txt and commit it.', verify: 'grep -qx done done.txt' } } });
  try {
    const r = await forge(['eval', '--suite', root, '--endpoint', server.url, '--model', 'm', '--json'], {
      cwd: tempDir('forge-elsewhere-'),
      env: { GIT_DIR: join(mine, '.git'), GIT_WORK_TREE: mine, FORGE_CWD: mine },
    });
    assert.is(r.code, 0, r.stderr + r.stdout);
    assert.equal(r.records.find((x) => x.type === 'run')!.success, true);
    // The eval is recorded where forge was told to run (FORGE_CWD); the fixture's work and commits stayed in the fixture.
    assert.is(git(mine, 'rev-parse', 'HEAD'), head);
    assert.is(git(mine, 'status', '--porcelain'), '');
    assert.not.ok(existsSync(join(mine, 'done.txt')));
    assert.match(git(mine, 'log', '--format=%s', 'refs/forge/state'), /^eval eval-\S+: 1 of 1 runs passed/);
  } finally {
    await server.close();
  }
});

test('--parallel 2: two runs at once, each in its own fixture with its own proxy; recorded in the order asked', async () => {
  const write = reply({ toolCalls: [bash('echo done > done.txt')], holdUntilChats: 2 });
  // Neither first reply is sent until both runs have asked: only runs side by side get past it.
  const server = await startOpenAIServer({ script: [write, write, reply({ text: 'Wrote it.' }), reply({ text: 'Wrote it.' })] });
  const root = suite({
    first: { task: { prompt: 'Write done in done.txt.', verify: 'grep -qx done done.txt' } },
    second: { task: { prompt: 'Write done in done.txt.', verify: 'grep -qx done done.txt' } },
  });
  try {
    const dir = tempRepo();
    const r = await forge(['eval', '--suite', root, '--parallel', '2', '--endpoint', server.url, '--model', 'm', '--json'], { cwd: dir });
    assert.is(r.code, 0, r.stderr + r.stdout);
    const recorded = await forge(['eval', '--compare', '--json'], { cwd: dir });
    assert.equal(
      recorded.records.filter((x) => x.type === 'task').map((x) => [x.task, x.passed, x.requests]),
      [
        ['first', 1, 2],
        ['second', 1, 2],
      ],
    );
  } finally {
    await server.close();
  }
});

test('bad suites and arguments are refused before anything runs, with what to fix', async () => {
  const dir = tempRepo();
  const bad = suite({ broken: { task: '{"prompt": "x", "verify": []}' } });
  const r1 = await forge(['eval', '--suite', bad, '--list'], { cwd: dir });
  assert.equal(
    [r1.code, r1.stderr.split('\n')[0]],
    [
      2,
      `Error: ${join(bad, 'broken', 'task.json')}: 'verify' must be a shell command or a list of them: how the task's success is decided`,
    ],
  );
  const unknownKey = suite({ odd: { task: { prompt: 'x', verify: 'true', retries: 3 } } });
  assert.match((await forge(['eval', '--suite', unknownKey, '--list'], { cwd: dir })).stderr, /unknown key 'retries'/);
  const r2 = await forge(['eval', 'no-such-task', '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm'], { cwd: dir });
  assert.equal([r2.code, r2.stderr.split('\n')[0]], [2, `Error: no task 'no-such-task' (tasks: ${SHIPPED.join(', ')})`]);
  const failing = suite({ boom: { task: { prompt: 'x', verify: 'true' }, setup: 'echo cannot >&2; exit 3\n' } });
  const r3 = await forge(['eval', '--suite', failing, '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm'], { cwd: dir });
  assert.equal([r3.code, r3.stderr.split('\n')[0]], [1, 'Error: boom: setup.sh failed (exit 3): cannot']);
  const r4 = await forge(['eval', '--agent', 'opencode', '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm'], {
    cwd: dir,
    env: { PATH: '/usr/bin:/bin' },
  });
  assert.equal([r4.code, r4.stderr.split('\n').slice(0, 2)], [1, ['Error: opencode is not installed', 'Fix: npm install -g opencode-ai']]);
  const r6 = await forge(
    ['eval', 'rename-columns', '--report', 'no/such/dir/r.html', '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm'],
    {
      cwd: dir,
    },
  );
  assert.equal(
    [r6.code, r6.stderr.split('\n').slice(0, 2)],
    [2, ["Error: cannot write the report to 'no/such/dir/r.html': ENOENT", `Fix: mkdir -p ${join(dir, 'no/such/dir')}`]],
    'refused before any run',
  );
  const r5 = await forge(['eval', '--compare'], { cwd: dir });
  assert.equal([r5.code, r5.stderr.split('\n')[0]], [1, 'Error: no forge eval recorded on the state ref yet']);
  assert.is(git(dir, 'for-each-ref', 'refs/forge'), '', 'nothing recorded');
});

test.run();
