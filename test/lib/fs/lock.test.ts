// withLock's holder: a live one is never overtaken however old its lock, a dead one (or its reused pid) at once, one on another host never, and racing waiters one at a time.
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, existsSync, promises as fsp, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { appendFile, unlink, writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import * as assert from 'uvu/assert';
import { ForgeError } from '../../../lib/errors';
import { withLock } from '../../../lib/fs/lock';
import { test } from '../../helpers/harness';
import { killChild, ownChild } from '../../helpers/owner';
import { readIfThere, until } from '../../helpers/process';
import { tempDir } from '../../helpers/repo';

/** Field 22 of /proc/<pid>/stat (the fields after the command name start at field 3). */
function startOf(pid: number | 'self'): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

/** A lock file's line as forge writes it: pid, start time, host. */
const line = ({ pid, start, host = hostname() }: { pid: number; start?: number; host?: string }) =>
  `${JSON.stringify({ pid, start, host })}\n`;

/** A process that runs until the test ends. */
function sleeper(): ChildProcess & { pid: number } {
  return ownChild(spawn('sleep', ['600'], { stdio: 'ignore' })) as ChildProcess & { pid: number };
}

/** A process that ran and has ended (reaped): its pid and start time. */
async function deadProcess(): Promise<{ pid: number; start: number }> {
  const child = sleeper();
  const start = startOf(child.pid);
  await killChild(child);
  return { pid: child.pid, start };
}

/** A lock file in a fresh directory holding `text`, last written an hour ago: its age must not matter. */
function oldLock(text: string): string {
  const lock = join(tempDir(), 'state.lock');
  writeFileSync(lock, text);
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(lock, hourAgo, hourAgo);
  return lock;
}

/**
 * The LOCKED error `withLock` fails with; fn must not run. The wait is long enough for the waiter to
 * look at the holder more than once (it looks at once, then every half second).
 */
async function refused(lockPath: string): Promise<ForgeError> {
  try {
    await withLock({ lockPath, waitMs: 1200, fn: async () => assert.unreachable('fn ran under a lock another process holds') });
  } catch (err) {
    if (err instanceof ForgeError && err.code === 'LOCKED') return err;
    throw err;
  }
  throw new Error('unreachable');
}

/** What withLock took over runs `fn` with this process named in the lock; nothing is left behind. */
async function takenOver(lockPath: string): Promise<void> {
  let ran = false;
  await withLock({
    lockPath,
    // No wait at all: the first look finds the holder dead.
    waitMs: 0,
    fn: async () => {
      ran = true;
      assert.is(readFileSync(lockPath, 'utf8'), line({ pid: process.pid, start: startOf('self') }));
    },
  });
  assert.ok(ran, 'fn ran');
  assert.not.ok(existsSync(lockPath), 'the lock is let go');
  assert.not.ok(existsSync(`${lockPath}.takeover`), 'no claim is left');
}

test('a live holder keeps its lock however old the file: the waiter fails with LOCKED naming it, the file untouched', async () => {
  const holder = sleeper();
  const text = line({ pid: holder.pid, start: startOf(holder.pid) });
  const lock = oldLock(text);
  const before = statSync(lock).mtimeMs;
  const err = await refused(lock);
  assert.match(err.message, `process ${holder.pid} on this host (${hostname()})`);
  assert.equal(err.data, { lock });
  assert.is(readFileSync(lock, 'utf8'), text);
  assert.is(statSync(lock).mtimeMs, before);
});

test('a dead holder’s lock is taken over at once and fn runs', async () => {
  await takenOver(oldLock(line(await deadProcess())));
  // Its age plays no part: a lock written just now by a process now dead goes too.
  const dead = await deadProcess();
  const lock = join(tempDir(), 'state.lock');
  writeFileSync(lock, line(dead));
  await takenOver(lock);
});

test('a lock naming a live pid with another start time (the pid was reused) is taken over', async () => {
  const other = sleeper();
  await takenOver(oldLock(line({ pid: other.pid, start: startOf(other.pid) + 1 })));
  await takenOver(oldLock(line({ pid: process.pid, start: startOf('self') - 1 })));
  assert.is(other.exitCode, null, 'the process that has the pid now is left alone');
});

test('a lock from another host is never taken over: LOCKED names the host and pid, the file untouched', async () => {
  // Even a pid that runs nothing here: it is another machine's.
  const { pid, start } = await deadProcess();
  const text = line({ pid, start, host: 'build-7.example' });
  const lock = oldLock(text);
  const err = await refused(lock);
  assert.match(err.message, `process ${pid} on host build-7.example`);
  assert.is(readFileSync(lock, 'utf8'), text);
});

test('a lock an older forge wrote (its pid alone) is read: a dead pid’s is taken over, a live one’s kept however old', async () => {
  await takenOver(oldLock(`${(await deadProcess()).pid}\n`));
  const holder = sleeper();
  const lock = oldLock(`${holder.pid}\n`);
  const err = await refused(lock);
  assert.match(err.message, `process ${holder.pid} on this host`);
  assert.is(readFileSync(lock, 'utf8'), `${holder.pid}\n`);
});

test('an empty or half-written lock (its holder between creating and writing it) is not taken over, however old', async () => {
  await Promise.all(
    ['', '{"pid":12', '4321'].map(async (text) => {
      const lock = oldLock(text);
      const err = await refused(lock);
      assert.match(err.message, 'names none');
      assert.is(readFileSync(lock, 'utf8'), text);
    }),
  );
});

test('waiters racing for a dead holder’s lock in one process: fn runs in each, never two at once', async () => {
  const lock = oldLock(line(await deadProcess()));
  const marker = join(tempDir(), 'inside');
  let inside = 0;
  let most = 0;
  const runs: number[] = [];
  await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      withLock({
        lockPath: lock,
        fn: async () => {
          most = Math.max(most, ++inside);
          // O_EXCL: a second fn inside at the same time fails here.
          await writeFile(marker, String(i), { flag: 'wx' });
          for (let n = 0; n < 10; n++) await appendFile(marker, '.');
          await unlink(marker);
          inside--;
          runs.push(i);
        },
      }),
    ),
  );
  assert.is(most, 1);
  assert.equal([...runs].sort(), [0, 1, 2, 3, 4, 5]);
  assert.not.ok(existsSync(lock));
});

/**
 * Runs `body` with fs/promises' readFile and writeFile replaced by what `wrap` makes of them; the
 * bindings lib/fs/lock.ts imported follow (syncBuiltinESMExports), so a test can stop a waiter
 * between two of its steps.
 */
async function withFsWrapped<T>(wrap: (original: typeof fsp) => Partial<typeof fsp>, body: () => Promise<T>): Promise<T> {
  const original = { readFile: fsp.readFile, writeFile: fsp.writeFile, link: fsp.link };
  Object.assign(fsp, wrap({ ...fsp }));
  syncBuiltinESMExports();
  try {
    return await body();
  } finally {
    Object.assign(fsp, original);
    syncBuiltinESMExports();
  }
}

test('a waiter that judged the holder dead just as another took the lock over leaves the new holder its lock', async () => {
  const dead = line(await deadProcess());
  const lock = oldLock(dead);
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let opened = false;
  let stopped = false;
  /** Creates of the lock refused since the gate opened: the stopped waiter is back to waiting. */
  let refusedCreates = 0;
  let inside = 0;
  let most = 0;
  let runs = 0;
  const wrap = ({ readFile, link }: typeof fsp): Partial<typeof fsp> => ({
    // The first waiter to read the dead holder's line is stopped with it until the other holds the lock.
    readFile: (async (path: any, ...rest: any[]) => {
      const text = await (readFile as any)(path, ...rest);
      if (path === lock && String(text) === dead && !stopped) {
        stopped = true;
        await gate;
      }
      return text;
    }) as any,
    // A lock is created by linking its written line into place: a create refused is a link refused.
    link: ((from: any, to: any) =>
      (link as any)(from, to).catch((err: NodeJS.ErrnoException) => {
        if (opened && to === lock && err.code === 'EEXIST') refusedCreates++;
        throw err;
      })) as any,
  });
  const fn = async () => {
    runs++;
    most = Math.max(most, ++inside);
    if (!opened) {
      opened = true;
      open();
      // The stopped waiter acts on the line it read: it must go back to waiting, not in here.
      await until(() => refusedCreates > 0 || most > 1);
    }
    inside--;
  };
  await withFsWrapped(wrap, () => Promise.all([withLock({ lockPath: lock, fn }), withLock({ lockPath: lock, fn })]));
  assert.ok(stopped, 'a waiter read the dead holder’s line');
  assert.is(most, 1);
  assert.is(runs, 2);
  assert.not.ok(existsSync(lock));
});

/**
 * A process that waits for `go`, then takes the lock once: it logs `enter` and `leave` around a
 * critical section that fails (exit 3) if another process is inside it.
 */
const WAITER = `
import { existsSync, writeFileSync } from 'node:fs';
import { appendFile, unlink, writeFile } from 'node:fs/promises';
import { withLock } from ${JSON.stringify(resolve('lib/fs/lock.ts'))};
const [lock, log, marker, go, name] = process.argv.slice(2);
writeFileSync(go + '.' + name + '.ready', '');
while (!existsSync(go)) await new Promise((r) => setTimeout(r, 2));
await withLock({
  lockPath: lock,
  fn: async () => {
    await appendFile(log, 'enter ' + name + '\\n');
    await writeFile(marker, name, { flag: 'wx' }).catch(() => process.exit(3));
    for (let n = 0; n < 20; n++) await appendFile(marker, '.');
    await unlink(marker);
    await appendFile(log, 'leave ' + name + '\\n');
  },
});
`;

test('two processes racing for a dead holder’s lock: fn runs in both, one after the other', async () => {
  const dir = tempDir();
  const lock = oldLock(line(await deadProcess()));
  const [script, log, marker, go] = ['waiter.mts', 'log', 'inside', 'go'].map((f) => join(dir, f)) as [string, string, string, string];
  writeFileSync(script, WAITER);
  appendFileSync(log, '');
  const names = ['a', 'b'];
  const done = names.map(
    (name) =>
      new Promise<void>((ok, fail) => {
        const child = ownChild(
          spawn(process.execPath, ['--import', 'tsx', script, lock, log, marker, go, name], { stdio: ['ignore', 'ignore', 'pipe'] }),
        );
        let err = '';
        child.stderr.on('data', (b) => (err += b));
        child.on('close', (code) => (code === 0 ? ok() : fail(new Error(`${name} exited ${code}: ${err}`))));
      }),
  );
  // Released once both are loaded and waiting (one that fails first fails the test here).
  const ready = () => names.every((name) => existsSync(`${go}.${name}.ready`));
  await Promise.race([until(ready), Promise.all(done)]);
  writeFileSync(go, '');
  await Promise.all(done);
  const lines = readIfThere(log).trimEnd().split('\n');
  assert.is(lines.length, 4);
  for (let i = 0; i < 4; i += 2) assert.is(lines[i + 1], lines[i]!.replace('enter', 'leave'), lines.join(', '));
  assert.equal(lines.filter((l) => l.startsWith('enter')).sort(), ['enter a', 'enter b']);
  assert.not.ok(existsSync(lock));
});

test.run();
