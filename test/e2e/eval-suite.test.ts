// forge eval's own suite (eval/tasks), each task held to its verify commands: some fail on the fixture its setup.sh makes, and all pass once its solution.sh has run there.
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { type EvalTask, loadSuite } from '../../lib/eval/tasks';
import { runShell } from '../../lib/process/program';
import { shellQuote } from '../../lib/quote';
import { git, tempDir } from '../helpers/repo';

const SUITE = resolve('eval/tasks');
const FOLDERS = readdirSync(SUITE, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const suite = loadSuite({ suiteDir: SUITE });
// A suite that does not load fails each test that awaits it, not the file before any test runs.
suite.catch(() => {});

/** What a fixture's commands run with: PATH, and a home and temp directory of the test's own; nothing of this process's environment beyond. */
function cleanEnv(root: string): NodeJS.ProcessEnv {
  const env = { PATH: process.env.PATH, HOME: join(root, 'home'), TMPDIR: join(root, 'tmp'), LANG: 'C.UTF-8' };
  mkdirSync(env.HOME);
  mkdirSync(env.TMPDIR);
  return env;
}

/** One command through sh in the fixture, as forge eval runs setup.sh and the verify commands; stopped if it runs away. */
async function sh(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const r = await runShell({ command, cwd, env, timeoutMs: 30_000 });
  return { code: r.exitCode, output: r.timedOut ? `timed out: ${r.tail}` : r.tail };
}

/** The task's fixture, made as forge eval makes it: setup.sh in an empty directory, then one commit of everything. */
async function fixture(task: EvalTask): Promise<{ dir: string; env: NodeJS.ProcessEnv }> {
  const root = tempDir(`forge-eval-${task.name}-`);
  const dir = join(root, 'repo');
  mkdirSync(dir);
  const env = cleanEnv(root);
  const setup = await sh(`sh ${shellQuote(join(task.dir, 'setup.sh'))}`, dir, env);
  assert.is(setup.code, 0, `${task.name}: setup.sh failed\n${setup.output}`);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', `fixture: ${task.name}`);
  return { dir, env };
}

test('the suite loads: each folder is a valid task with a prompt, a source, setup.sh and a reference solution.sh', async () => {
  const tasks = await suite;
  assert.equal(
    tasks.map((t) => t.name),
    FOLDERS,
    'every folder under eval/tasks has a task.json',
  );
  assert.ok(tasks.length >= 15, `${tasks.length} tasks`);
  for (const task of tasks) {
    assert.ok(task.source, `${task.name}: task.json names its source`);
    assert.ok(task.prompt.length < 400, `${task.name}: the prompt is what a user would type`);
    const solution = join(task.dir, 'solution.sh');
    assert.ok(existsSync(solution), `${task.name}: solution.sh`);
    assert.match(
      readFileSync(solution, 'utf8').split('\n')[0]!,
      /^# The reference solution the tests apply/,
      `${task.name}: solution.sh says what it is`,
    );
    assert.ok(readFileSync(join(task.dir, 'setup.sh'), 'utf8').split('\n').length <= 120, `${task.name}: setup.sh is small`);
  }
});

for (const name of FOLDERS)
  test(`${name}: the untouched fixture fails its verify commands; after solution.sh every one passes`, async () => {
    const task = (await suite).find((t) => t.name === name);
    if (!task) throw new Error(`${name} is not in the suite`);
    const { dir, env } = await fixture(task);
    // Not done already: some verify command fails (forge eval stops at the first that does, and so does this).
    let failed = false;
    for (const command of task.verify) {
      failed = (await sh(command, dir, env)).code !== 0;
      if (failed) break;
    }
    assert.ok(failed, `${name}: every verify command passes on the untouched fixture`);
    const solved = await sh(`sh ${shellQuote(join(task.dir, 'solution.sh'))}`, dir, env);
    assert.is(solved.code, 0, `${name}: solution.sh failed\n${solved.output}`);
    for (const command of task.verify) {
      const r = await sh(command, dir, env);
      assert.is(r.code, 0, `${name}: after solution.sh, ${command}\nexit ${r.code}\n${r.output}`);
    }
  });

test.run();
