// Whether a child process still runs, and waiting until a condition holds (for as long as it takes): for tests of timeouts and shutdowns.
import { readFileSync } from 'node:fs';

/**
 * Whether a process still runs. A zombie counts as gone: it is dead, and some container inits
 * (this machine's among them) never reap the orphans a killed group leaves.
 */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** A file's text, or '' while it is not there: for waiting on a file a child writes. */
export function readIfThere(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Polls `check` every 20 ms until it holds. No deadline of its own: how long a slow machine takes is
 * not the behaviour under test, and the harness's per-test timeout turns a wait that never ends
 * into a failure. The poll's timer is unref'd, so a test given up on leaves nothing holding the process.
 */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 20).unref());
}

/**
 * Writes `chunks` to a child's stdin as fast as it reads them, then ends it; stops early, without an
 * error, when the child closes its stdin (a program that refuses input over a limit stops reading).
 */
export async function feed(stdin: import('node:stream').Writable, chunks: Iterable<Buffer> | AsyncIterable<Buffer>): Promise<void> {
  stdin.on('error', () => {});
  const closed = new Promise((r) => stdin.once('close', r));
  for await (const chunk of chunks) {
    if (stdin.destroyed) break;
    if (!stdin.write(chunk)) await Promise.race([new Promise((r) => stdin.once('drain', r)), closed]);
  }
  stdin.end();
}
