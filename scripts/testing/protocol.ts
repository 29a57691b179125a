// What the runner (scripts/test.ts) and the harness in each test file (test/helpers/harness.ts) agree on: the environment, the report's events.

/** The environment the runner sets for each file. */
export const ENV = {
  /** Where the harness appends its events, one JSON per line. */
  report: 'FORGE_TEST_REPORT',
  /** The file's own temp directory: the harness makes it TMPDIR for the file and all it starts. */
  tmpdir: 'FORGE_TEST_TMPDIR',
  /** How long a test may run, in ms. */
  timeoutMs: 'FORGE_TEST_TIMEOUT_MS',
  /** How long the process may take to exit after its last test, in ms (default 10 s). */
  exitGraceMs: 'FORGE_TEST_EXIT_GRACE_MS',
} as const;

export type ReportEvent =
  | { event: 'start'; name: string }
  | { event: 'end'; name: string; ok: boolean; timedOut: boolean; ms: number; leaks: string[] }
  | { event: 'file-end'; leaks: string[]; resources: string[] }
  /** The tests ended and the process had not exited after a grace period: what held it. */
  | { event: 'held'; resources: string[] }
  | { event: 'exit'; cpuMs: number };

/** tsx's compile cache, which a child run with `node --import tsx` makes in its temp directory: not a leak. */
export const TSX_CACHE = /^tsx-\d+$/;
