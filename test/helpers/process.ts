// Whether a child process still runs, and waiting until a condition holds: for tests of timeouts and shutdowns.
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

/** Polls `check` every 20 ms until it holds or `ms` passed; its last answer. */
export async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}
