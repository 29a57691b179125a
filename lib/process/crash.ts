// Tests only: a step hook that kills or signals this process part-way through a crash-safe protocol, so tests prove a crash or an interrupt at any step is handled.

/**
 * For `at` a fraction F (0 < F ≤ 1, from FORGE_TEST_CRASH_AT): a hook that kills the process with
 * SIGKILL — nothing cleans up — after step ⌈F × total⌉ of the protocol. `SIGINT@F` (or SIGTERM,
 * SIGHUP) sends that signal instead, once: a real signal the executable catches, as a person's
 * Ctrl-C would arrive mid-write. Undefined otherwise.
 */
export function crashAt(at: string | undefined): ((step: number, total: number) => void | Promise<void>) | undefined {
  const [, name = 'SIGKILL', fraction] = /^(?:(SIGINT|SIGTERM|SIGHUP)@)?(.*)$/.exec(at ?? '') ?? [];
  const f = Number(fraction);
  if (!at || !(f > 0 && f <= 1)) return undefined;
  let sent = false;
  return (step, total) => {
    if (sent || step < Math.ceil(f * total)) return;
    sent = true;
    // Resolved once the signal has been handled (the executable's handler was there first), so the
    // next step is the first to know of it, as a signal between two steps would be known.
    // A signal's listener does not keep the process alive: a timer does, until it is handled.
    const handled =
      name === 'SIGKILL'
        ? undefined
        : new Promise<void>((r) => {
            const alive = setInterval(() => {}, 1000);
            process.once(name!, () => {
              clearInterval(alive);
              r();
            });
          });
    process.kill(process.pid, name as NodeJS.Signals);
    return handled;
  };
}
