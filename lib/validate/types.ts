// The result of one validation check, as forge validate reports it.

export type CheckType = 'cwd_check' | 'file_check' | 'syntax_check' | 'contract_check' | 'command';

export interface CheckResult {
  type: CheckType;
  /** What was checked: the directory, file, EXPORTER:IMPORTER pair, or command line. */
  name: string;
  passed: boolean;
  message: string;
  /** Not run (a .py file without python3): shown, but not counted in the score. */
  skipped?: boolean;
  /** Type-specific details: file/line/col, missing names, exit code and output tail… */
  [detail: string]: unknown;
}

/** The identity of a failed check, the same from one attempt to the next: what stagnation compares. */
export function issueOf(r: CheckResult): string {
  return `${r.type} ${r.name}`;
}

/** The share of counted checks that passed, rounded to 3 places; 0 when nothing was counted. */
export function scoreOf(results: CheckResult[]): number {
  const counted = results.filter((r) => !r.skipped);
  if (!counted.length) return 0;
  return Math.round((counted.filter((r) => r.passed).length / counted.length) * 1000) / 1000;
}
