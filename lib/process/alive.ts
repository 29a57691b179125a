// Whether a process still runs: how forge tells another command at work from one that crashed (journals, temp indexes, markers).
import { readFileSync } from 'node:fs';

/**
 * True while `pid` runs (EPERM: it runs as another user). A zombie is dead: a killed forge whose
 * parent never reaps it (some container inits do not) must not hold its journal forever.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (macOS): kill alone answers
  }
}
