// What the runner prints: a line per file as it ends, the failures in full, and the summary the run ends with.
import type { FileResult } from './run-file';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const duration = (ms: number) =>
  ms < 60_000 ? seconds(ms) : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

const MARK = { passed: '✓', failed: '✘', 'timed out': '⏱' } as const;

/** The line printed when a file ends, and for a file that did not pass, what it printed and why. */
export function fileLine(r: FileResult): string {
  const tests = r.passed + r.failed.length + r.timedOut.length;
  let line = `${MARK[r.status]} ${r.file}  ${plural(tests, 'test')}  ${seconds(r.wallMs)} (CPU ${seconds(r.cpuMs)})`;
  if (r.status === 'passed') return line;
  for (const name of r.failed) line += `\n    failed: ${name}`;
  for (const name of r.timedOut) line += `\n    timed out: ${name}`;
  for (const problem of r.problems) line += `\n    ${problem}`;
  const output = r.output.trimEnd();
  if (output) line += `\n${output.replace(/^/gm, '    │ ')}`;
  return line;
}

export interface RunFigures {
  results: FileResult[];
  wallMs: number;
  jobs: number;
  /** Files never started (the run was interrupted). */
  notRun: number;
}

/** The closing summary: counts, the files that did not pass, the ten slowest files. */
export function summary({ results, wallMs, jobs, notRun }: RunFigures): string {
  const count = (f: (r: FileResult) => number) => results.reduce((n, r) => n + f(r), 0);
  const passed = count((r) => r.passed);
  const failed = count((r) => r.failed.length);
  const timedOut = count((r) => r.timedOut.length);
  const bad = results.filter((r) => r.status !== 'passed');
  const cpu = count((r) => r.cpuMs);
  const lines = [
    '',
    `${plural(results.length, 'file')} in ${duration(wallMs)} on ${plural(jobs, 'worker')} (CPU ${duration(cpu)})`,
    'slowest files:',
    ...[...results]
      .sort((a, b) => b.wallMs - a.wallMs)
      .slice(0, 10)
      .map((r) => `  ${seconds(r.wallMs).padStart(8)}  CPU ${seconds(r.cpuMs).padStart(8)}  ${r.file}`),
  ];
  if (bad.length)
    lines.push(
      'files that did not pass:',
      ...bad.map((r) => `  ${MARK[r.status]} ${r.file}${r.problems.length ? ` — ${r.problems.join('; ')}` : ''}`),
    );
  if (notRun) lines.push(`interrupted: ${plural(notRun, 'file')} not run`);
  lines.push(
    `tests: ${passed} passed, ${failed} failed, ${timedOut} timed out; files: ${results.length - bad.length} passed, ${bad.length} did not`,
  );
  return lines.join('\n');
}

/** Whether the run as a whole passed: every file passed, at least one ran, none was skipped. */
export const allPassed = ({ results, notRun }: RunFigures) =>
  notRun === 0 && results.length > 0 && results.every((r) => r.status === 'passed');
