// Ctrl-C, SIGTERM and SIGHUP for a forge run: the command is told (its signal aborts, as an MCP cancel does), the programs it started end with their groups, and forge exits 128 + the signal's number.
import { RefusedError } from '../lib/errors';
import { stopEveryProgram } from '../lib/process/running';

/** The exit code of a run a signal ended, as a shell reports it: 128 + the signal's number. */
export const SIGNAL_EXIT = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

type Caught = keyof typeof SIGNAL_EXIT;

/** How long a told command has to stop (roll back a write, record its state) before forge ends it and its programs. */
const GRACE_MS = 5000;

/**
 * Catches SIGINT, SIGTERM and SIGHUP while a command runs. The first aborts `signal` — the command
 * stops as it stops for a cancelled MCP call: validate records no attempt, replace and patch put back
 * what they had written, loop run pauses — and passes the signal on to every program forge started,
 * whose process groups a terminal's Ctrl-C does not reach. A command still running after the grace,
 * or a second signal, ends at once, its programs killed. `code()` is the exit code the signal calls for.
 */
export function catchInterrupts(): { signal: AbortSignal; code(): number | null; dispose(): void } {
  const controller = new AbortController();
  let caught: Caught | null = null;
  const onSignal = (name: Caught) => {
    if (caught) {
      stopEveryProgram('SIGKILL');
      process.exit(SIGNAL_EXIT[caught]);
    }
    caught = name;
    // The reason is what a command that stops by rethrowing it reports (forge agent's model call).
    controller.abort(new RefusedError('CANCELLED', `interrupted by ${name}: the programs forge started were ended`));
    // Ctrl-C reaches a program as Ctrl-C (an agent saves its session on SIGINT); the others as SIGTERM.
    stopEveryProgram(name === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
    setTimeout(() => {
      stopEveryProgram('SIGKILL');
      process.exit(SIGNAL_EXIT[name]);
    }, GRACE_MS).unref();
  };
  const handlers = (Object.keys(SIGNAL_EXIT) as Caught[]).map((name) => [name, () => onSignal(name)] as const);
  for (const [name, handler] of handlers) process.on(name, handler);
  return {
    signal: controller.signal,
    code: () => (caught ? SIGNAL_EXIT[caught] : null),
    dispose() {
      for (const [name, handler] of handlers) process.off(name, handler);
    },
  };
}
