// Runs a command line through the shell with a timeout that kills its whole process group; keeps the tail.
import { spawn } from 'node:child_process';

export interface ShellResult {
  command: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  /** The last `tailBytes` of stdout and stderr interleaved as they arrived. */
  tail: string;
}

/**
 * `sh -c command` in `cwd`. The child leads its own process group so a timeout kills everything it
 * started (a test runner's workers too), not only the shell.
 */
export function runShell({ command, cwd, timeoutMs, env = process.env, tailBytes = 4000 }: { command: string; cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv; tailBytes?: number }): Promise<ShellResult> {
  const started = Date.now();
  return new Promise((resolvePromise) => {
    const child = spawn('sh', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (chunk: Buffer) => {
      tail += chunk.toString('utf8');
      if (tail.length > tailBytes * 2) tail = tail.slice(-tailBytes);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // The group is already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 2000).unref();
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolvePromise({ command, exitCode: null, signal: null, timedOut, durationMs: Date.now() - started, tail: err.message });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // The shell is gone, but a process that ignored SIGTERM and let go of the pipes may not be:
      // the caller may exit before the SIGKILL above, so the group gets it now.
      if (timedOut) killGroup('SIGKILL');
      resolvePromise({ command, exitCode: code, signal, timedOut, durationMs: Date.now() - started, tail: tail.slice(-tailBytes) });
    });
  });
}
