// Judging a tool's result on a corpus case: correct, wrong, false-apply or refused, and one line of a failure report.
import type { EditOp } from './cases';

/**
 * correct: exactly the expected bytes with exit 0, or refused (exit ≠ 0) with nothing changed where a
 * correct tool refuses; refused: nothing changed where a correct tool applies; false-apply: exit 0
 * where a correct tool refuses; wrong: any other bytes (exit 0 with other bytes, or a failure that
 * changed files).
 */
export type Outcome = 'correct' | 'wrong' | 'false-apply' | 'refused';

export function judge({
  want,
  before,
  exit,
  now,
}: {
  want: Record<string, Buffer> | null;
  before: Record<string, Buffer>;
  exit: number;
  now: (path: string) => Buffer | null;
}): Outcome {
  const unchanged = Object.entries(before).every(([p, b]) => now(p)?.equals(b));
  if (!want) return exit === 0 ? 'false-apply' : unchanged ? 'correct' : 'wrong';
  if (exit === 0) return Object.entries(want).every(([p, b]) => now(p)?.equals(b)) ? 'correct' : 'wrong';
  return unchanged ? 'refused' : 'wrong';
}

/** Where the bytes first differ from what was wanted, as a line of a failure report. */
export function firstDifference(want: Record<string, Buffer>, now: (path: string) => Buffer | null): string {
  for (const [path, w] of Object.entries(want)) {
    const got = now(path);
    if (got?.equals(w)) continue;
    if (!got) return `${path} is missing`;
    const a = got.toString('utf8').split(/(?<=\n)/);
    const b = w.toString('utf8').split(/(?<=\n)/);
    const i = a.findIndex((l, k) => l !== b[k]);
    const at = i < 0 ? a.length : i;
    return `${path} line ${at + 1} is ${JSON.stringify(a[at] ?? '(end of file)')}, want ${JSON.stringify(b[at] ?? '(end of file)')}`;
  }
  return 'the bytes are right';
}

/** One line of a failure report: the case, what happened, the exit, and the first line of the error or of the difference. */
export function failureLine({
  name,
  want,
  outcome,
  exit,
  error,
  now,
}: {
  name: string;
  want: Record<string, Buffer> | null;
  outcome: Outcome;
  exit: number | string;
  error: string;
  now: (path: string) => Buffer | null;
}): string {
  const detail = exit === 0 ? (want ? firstDifference(want, now) : 'applied') : error.split('\n')[0];
  return `${name}: ${outcome}, exit ${exit} (want ${want ? 0 : '1 or 2'}) — ${detail}`;
}

/** forge edit's arguments for one edit, after the path. */
export function editArgs(e: EditOp): string[] {
  return 'lines' in e
    ? ['--lines', e.lines, '--new', e.new]
    : ['--old', e.old, '--new', e.new, ...(e.anchor ? ['--anchor', e.anchor] : [])];
}
