// The test runner (scripts/test.ts) on fixture files that hang, block, leak and linger: each named, killed with its process group, and the run ends with a summary.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { test } from '../helpers/harness';
import { ownChild } from '../helpers/owner';
import { running, until } from '../helpers/process';
import { tempDir } from '../helpers/repo';

const FIXTURES = 'test/fixtures/runner';

interface RunnerRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** Starts the runner on fixture files (no coverage: the run around this one owns coverage/). */
function startRunner(args: string[], env: Record<string, string> = {}) {
  const child = ownChild(
    spawn(process.execPath, ['--import', 'tsx', 'scripts/test.ts', '--no-coverage', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b));
  child.stderr.on('data', (b: Buffer) => (output += b));
  const ended = new Promise<RunnerRun>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, output })));
  return { child, ended, output: () => output };
}

const fixture = (name: string) => join(FIXTURES, `${name}.ts`);

/** The per-file line the runner prints when a file ends, with the indented lines under it. */
function fileBlock(output: string, name: string): string {
  const start = output.search(new RegExp(`^. ${fixture(name).replace(/[.]/g, '\\.')} `, 'm'));
  assert.ok(start >= 0, `no line for ${name} in:\n${output}`);
  const rest = output.slice(start);
  const end = rest.slice(1).search(/^\S/m);
  return end < 0 ? rest : rest.slice(0, end + 1);
}

// One run of every misbehaving fixture at once (the slow ones wait for their limits side by side).
let all: RunnerRun;
test.before(async () => {
  const files = ['passes', 'hangs', 'leaks', 'blocks', 'orphans', 'holds'].map(fixture);
  // A short exit grace for the file held open, well inside the file limit the blocked file runs into.
  all = await startRunner(['--jobs', '6', '--timeout', '2', '--file-timeout', '10', ...files], { FORGE_TEST_EXIT_GRACE_MS: '2000' }).ended;
});

test('a run with a failure exits 1 and ends with the summary: counts, the slowest files, the files that did not pass', () => {
  assert.is(all.code, 1, all.output);
  assert.match(all.output, /^6 files in [\d.]+ s on 6 workers \(CPU [\d.]+ s\)$/m);
  assert.match(all.output, /^slowest files:\n( {2}.*\n){6}files that did not pass:\n/m);
  assert.match(all.output, /\ntests: 7 passed, 3 failed, 2 timed out; files: 1 passed, 5 did not\n$/);
  assert.match(fileBlock(all.output, 'passes'), /^✓ test\/fixtures\/runner\/passes\.ts {2}2 tests {2}/);
});

test('a test that never settles fails as timed out, by name, and the tests after it still run', () => {
  const block = fileBlock(all.output, 'hangs');
  assert.match(block, /^⏱ test\/fixtures\/runner\/hangs\.ts {2}3 tests/);
  assert.match(block, /\n {4}timed out: waits forever\n/);
  assert.match(block, /timed out after 2 s/);
  assert.match(block, /\(2 \/ 3\)/, 'the test after the hang ran and passed');
});

test('a server, a child and a temp directory left behind each fail their test, by name; an owned server is closed for its test', () => {
  const block = fileBlock(all.output, 'leaks');
  assert.match(block, /\n {4}failed: leaves a server listening\n {4}failed: leaves a child running\n {4}failed: leaves a temp directory\n/);
  assert.match(block, /left open when it ended: server on 127\.0\.0\.1:\d+/);
  assert.match(block, /left open when it ended: child \d+ \(sleep 600\)/);
  assert.match(block, /left open when it ended: temp 'left-behind-\w+'/);
  assert.not.match(block, /failed: owns its server/);
  const [, child] = /child (\d+) \(sleep 600\)/.exec(block)!;
  assert.not.ok(running(Number(child)), 'the leaked child was killed');
});

test('a file blocked for good is killed with its process group at its limit, naming the test it was in', () => {
  const block = fileBlock(all.output, 'blocks');
  assert.match(block, /^⏱ test\/fixtures\/runner\/blocks\.ts/);
  assert.match(block, /\n {4}timed out: blocks the thread\n {4}killed with its process group after 10 s/);
});

test('a process left running after the file exits is named, fails the file, and is killed', () => {
  const block = fileBlock(all.output, 'orphans');
  const [, pid] = /left running after it exited: (\d+) \(sleep 600\)/.exec(block) ?? [];
  assert.ok(pid, block);
  assert.not.ok(running(Number(pid)));
});

test('a file whose tests ended but whose process does not exit is ended, naming what held it', () => {
  assert.match(fileBlock(all.output, 'holds'), /did not exit after its tests: held by Timeout/);
});

test('a run where everything passes exits 0', async () => {
  const run = await startRunner([fixture('passes')]).ended;
  assert.is(run.code, 0, run.output);
  assert.match(run.output, /\ntests: 2 passed, 0 failed, 0 timed out; files: 1 passed, 0 did not\n$/);
});

test('Ctrl-C stops the files with their process groups and exits 130', async () => {
  const pidFile = join(tempDir(), 'pid');
  const runner = startRunner([fixture('blocks')], { FIXTURE_PID_FILE: pidFile });
  await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '');
  runner.child.kill('SIGINT');
  const run = await runner.ended;
  assert.is(run.code, 130, run.output);
  assert.match(run.output, /\ninterrupted: 1 file not run\n/);
  assert.not.ok(running(Number(readFileSync(pidFile, 'utf8'))), 'the blocked file was killed');
});

test('usage errors exit 2 and say why', async () => {
  const jobs = await startRunner(['--jobs', '0', fixture('passes')]).ended;
  assert.is(jobs.code, 2);
  assert.match(jobs.output, /^error: --jobs takes a positive number, not '0'/);
  const none = await startRunner(['no-such-test-file']).ended;
  assert.is(none.code, 2);
  assert.match(none.output, /^error: no test file matches 'no-such-test-file'/);
});

test.run();
