// The programs forge has started and not seen end, so that a signal to forge ends them all; imports nothing, so the executable's signal handling costs no start-up.

/** What stopping a program takes: its process group, `first`, then SIGTERM and SIGKILL if it lingers. */
interface Stoppable {
  stop(first?: NodeJS.Signals): void;
}

const running = new Set<Stoppable>();

/** Keeps `program` until `done` settles. */
export function trackProgram(program: Stoppable, done: Promise<unknown>): void {
  running.add(program);
  void done.then(() => running.delete(program));
}

/**
 * Ends every program forge started and has not seen end, each with its process group: `first`,
 * then SIGTERM and SIGKILL if it lingers. Their groups do not get a terminal's Ctrl-C or a signal
 * sent to forge alone; this is how they get it. Returns how many there were.
 */
export function stopEveryProgram(first: NodeJS.Signals): number {
  const n = running.size;
  for (const program of running) program.stop(first);
  return n;
}
