// When a process started, by /proc (Linux): with its pid, an identity a reused pid does not share.
import { readFileSync } from 'node:fs';

/**
 * Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. Null where
 * there is no /proc (macOS) or no such process: the caller then knows only whether the pid runs.
 */
export function processStartTime(pid: number | 'self'): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses; the fields after its last ')' do
  // not. After it comes the state, field 3, so field 22 is the 20th.
  const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  return Number.isSafeInteger(ticks) && ticks >= 0 ? ticks : null;
}
