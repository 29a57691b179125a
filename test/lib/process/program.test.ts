// runShell's timeout, on a clock the test expires: the whole process group goes, a process that ignores SIGTERM too.
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { runShell, startProgram } from '../../../lib/process/program';
import { TestClock } from '../../helpers/clock';
import { readIfThere, running, until } from '../../helpers/process';
import { tempDir } from '../../helpers/repo';

const pidIn = (file: string) => (/^\d+\n$/.test(readIfThere(file)) ? Number(readIfThere(file)) : null);

test('a command past its timeout is killed with its whole process group, one that ignores SIGTERM too', async () => {
  const cwd = tempDir();
  const clock = new TestClock();
  const command = 'sleep 600 & echo $! > sleeper.pid; (trap "" TERM; exec sleep 600) >/dev/null 2>&1 & echo $! > stubborn.pid; wait';
  const ran = runShell({ command, cwd, env: process.env, timeoutMs: 1000, startTimeout: clock.startTimeout });
  // Both children run: only the timeout can end the command now.
  await until(() => clock.pending === 1 && pidIn(join(cwd, 'sleeper.pid')) !== null && pidIn(join(cwd, 'stubborn.pid')) !== null);
  const pids = ['sleeper.pid', 'stubborn.pid'].map((file) => pidIn(join(cwd, file))!);
  assert.ok(pids.every(running), 'nothing is stopped before the limit');
  clock.expire();
  const r = await ran;
  assert.equal([r.timedOut, r.exitCode, r.signal], [true, null, 'SIGTERM']);
  assert.equal(clock.limits, [1000]);
  // Unbounded: the harness's timeout is the failure if the group kill missed one.
  await until(() => pids.every((pid) => !running(pid)));
});

test('a command that ends within its limit is not timed out, and its timeout is cancelled', async () => {
  const clock = new TestClock();
  const r = await runShell({
    command: 'echo done; exit 3',
    cwd: tempDir(),
    env: process.env,
    timeoutMs: 1000,
    startTimeout: clock.startTimeout,
  });
  assert.equal([r.timedOut, r.exitCode, r.tail], [false, 3, 'done\n']);
  assert.is(clock.pending, 0);
});

test('a program started in a directory gets PWD for it, not the caller’s (OpenCode reads its project from PWD)', async () => {
  const cwd = tempDir();
  const ran = startProgram({
    argv: [process.execPath, '-e', 'process.stdout.write(process.env.PWD)'],
    cwd,
    env: { ...process.env, PWD: '/somewhere/else' },
  });
  assert.is((await ran.done).stdout, cwd);
});

test.run();
