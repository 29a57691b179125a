// Tests only: a step hook that kills this process part-way through a crash-safe protocol, so tests prove a crash at any step is recovered.

/**
 * For `at` a fraction F (0 < F ≤ 1, from FORGE_TEST_CRASH_AT): a hook that kills the process with
 * SIGKILL — nothing cleans up — after step ⌈F × total⌉ of the protocol. Undefined otherwise.
 */
export function crashAt(at: string | undefined): ((step: number, total: number) => void) | undefined {
  const f = Number(at);
  if (!at || !(f > 0 && f <= 1)) return undefined;
  return (step, total) => {
    if (step >= Math.ceil(f * total)) process.kill(process.pid, 'SIGKILL');
  };
}
