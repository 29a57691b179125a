// An advisory lock file (O_EXCL) that serializes cooperating writers; a dead or stale holder's lock is taken over.
import { mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ForgeError } from '../errors';
import { processAlive } from '../process/alive';

/** A lock older than this is taken as abandoned even if its pid still exists (pid reuse). */
const STALE_MS = 30_000;

async function stale(lock: string): Promise<boolean> {
  try {
    const [info, text] = await Promise.all([stat(lock), readFile(lock, 'utf8')]);
    const pid = Number(text.trim());
    return Date.now() - info.mtimeMs > STALE_MS || (Number.isInteger(pid) && pid > 0 && !processAlive(pid));
  } catch {
    return false; // gone already, or being written: try again
  }
}

/** Runs `fn` while holding `lockPath`; waits (polling) up to `waitMs` for other holders. */
export async function withLock<T>({
  lockPath,
  waitMs = 60_000,
  fn,
}: {
  lockPath: string;
  waitMs?: number;
  fn: () => Promise<T>;
}): Promise<T> {
  await mkdir(dirname(lockPath), { recursive: true });
  const deadline = Date.now() + waitMs;
  // Checking for a stale lock reads and stats it; on a busy machine that steals CPU from the
  // holder, so waiters look only every half second.
  let nextStaleCheck = Date.now() + 500;
  for (;;) {
    try {
      await writeFile(lockPath, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const now = Date.now();
      if (now >= nextStaleCheck && (await stale(lockPath))) await unlink(lockPath).catch(() => {});
      else if (now > deadline) {
        throw new ForgeError('LOCKED', `'${lockPath}' is held by another process`, { fix: `rm -f ${lockPath}`, data: { lock: lockPath } });
      } else await new Promise((r) => setTimeout(r, 2 + Math.random() * 6));
      if (now >= nextStaleCheck) nextStaleCheck = now + 500;
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(lockPath).catch(() => {});
  }
}
