// An advisory lock file (created whole, exclusively) that serializes cooperating writers; a lock whose holder's process has ended (on this host) is taken over.
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { ForgeError } from '../errors';
import { processAlive } from '../process/alive';
import { processStartTime } from '../process/start-time';
import { randomHex } from '../random';

/**
 * Who holds a lock, as its file says in one JSON line: `{"pid":4321,"start":987654,"host":"box"}`.
 * `start` (Linux: clock ticks since boot) tells the holder from a later process given its pid; an
 * older forge wrote only `<pid>\n`, read as a holder on this host with no start time.
 */
interface Holder {
  pid: number;
  start?: number;
  host: string;
  /** The file's text: a takeover removes the lock only while it still says this. */
  text: string;
}

/** Reading a lock and asking after its holder costs the holder CPU on a busy machine: waiters look this often after their first look. */
const CHECK_EVERY_MS = 500;

/** The line this process writes into a lock it takes. */
function ownLine(): string {
  const start = processStartTime('self');
  return `${JSON.stringify({ pid: process.pid, ...(start === null ? {} : { start }), host: hostname() })}\n`;
}

/** The holder a lock file's text names; null while it is empty or half-written (its holder is between creating and writing it). */
function parseHolder(text: string): Holder | null {
  // Both formats end their one line with a newline: without it the line is not all there yet.
  if (!text.endsWith('\n')) return null;
  if (/^[1-9]\d*\n$/.test(text)) return { pid: Number(text), host: hostname(), text };
  try {
    const { pid, start, host } = JSON.parse(text) as Record<string, unknown>;
    const valid = Number.isSafeInteger(pid) && (pid as number) > 0 && typeof host === 'string';
    if (valid && (start === undefined || Number.isSafeInteger(start)))
      return { pid: pid as number, start: start as number | undefined, host, text };
  } catch {
    // not JSON: not a holder forge can judge
  }
  return null;
}

async function readHolder(path: string): Promise<Holder | null> {
  const text = await readFile(path, 'utf8').catch(() => null);
  return text === null ? null : parseHolder(text);
}

/**
 * Whether `holder`'s process has ended: its pid runs no more, or runs a process started at another
 * time (the pid was reused). A holder on another host (a shared filesystem) cannot be asked after,
 * so its lock is never judged abandoned, however old.
 */
function abandoned(holder: Holder): boolean {
  if (holder.host !== hostname()) return false;
  if (!processAlive(holder.pid)) return true;
  if (holder.start === undefined) return false;
  const start = processStartTime(holder.pid);
  return start !== null && start !== holder.start;
}

/**
 * Creates `path` holding `text` unless it exists: whether this call made it. The text is written
 * aside and linked into place (link fails when the name exists, as O_EXCL does), so a lock appears
 * whole, never empty — a holder killed between creating and writing it would leave one no waiter
 * could judge. Where the filesystem has no hard links, O_EXCL alone.
 */
async function create(path: string, text: string): Promise<boolean> {
  const aside = `${path}.${process.pid}.${randomHex()}`;
  try {
    await writeFile(aside, text, { flag: 'wx' });
    await link(aside, path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw err;
    return exclusive(path, text);
  } finally {
    await unlink(aside).catch(() => {});
  }
}

/** Creates `path` holding `text` unless it exists (O_EXCL): whether this call made it. */
async function exclusive(path: string, text: string): Promise<boolean> {
  try {
    await writeFile(path, text, { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** Removes `path` if it still holds `text` (the read and the unlink are not atomic: see takeOver). */
async function removeIfStill(path: string, text: string): Promise<void> {
  if ((await readFile(path, 'utf8').catch(() => null)) === text) await unlink(path).catch(() => {});
}

/**
 * Removes the lock `dead` held, if it still does. Waiters that judged it abandoned together race to
 * create a claim file (O_EXCL), and only the winner re-reads the lock and removes it: nobody else
 * removes a lock whose holder is dead, so it cannot have become a live process's lock between that
 * read and the unlink. A claim whose maker died is removed the same way a lock is.
 */
async function takeOver(lockPath: string, dead: Holder, line: string): Promise<void> {
  const claim = `${lockPath}.takeover`;
  if (!(await create(claim, line))) {
    const claimer = await readHolder(claim);
    if (claimer && abandoned(claimer)) await removeIfStill(claim, claimer.text);
    return;
  }
  try {
    await removeIfStill(lockPath, dead.text);
  } finally {
    await unlink(claim).catch(() => {});
  }
}

function lockedError(lockPath: string, holder: Holder | null): ForgeError<'LOCKED'> {
  const who =
    holder === null
      ? 'another process (the lock names none: it is being written, or its writer died writing it)'
      : holder.host === hostname()
        ? `process ${holder.pid} on this host (${holder.host})`
        : `process ${holder.pid} on host ${holder.host} (another host: forge cannot tell whether it still runs)`;
  return new ForgeError('LOCKED', `'${lockPath}' is held by ${who}; remove it only once that process has ended`, {
    fix: `rm -f ${lockPath}`,
    data: { lock: lockPath },
  });
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
  const line = ownLine();
  const deadline = Date.now() + waitMs;
  // The first look is at once, so a dead holder's lock is taken over at once; after that, gently.
  let nextCheck = Date.now();
  while (!(await create(lockPath, line))) {
    const now = Date.now();
    if (now >= nextCheck) {
      nextCheck = now + CHECK_EVERY_MS;
      const holder = await readHolder(lockPath);
      if (holder && abandoned(holder)) {
        await takeOver(lockPath, holder, line);
        continue;
      }
    }
    if (now > deadline) {
      // Gone since the create failed: its holder let go, so one more try rather than an error that names nobody.
      const text = await readFile(lockPath, 'utf8').catch(() => null);
      if (text !== null) throw lockedError(lockPath, parseHolder(text));
      continue;
    }
    await new Promise((r) => setTimeout(r, 2 + Math.random() * 6));
  }
  try {
    return await fn();
  } finally {
    // Only this process's own lock: one taken over (wrongly, by a process that could not see this
    // one run) is the new holder's now.
    await removeIfStill(lockPath, line);
  }
}
