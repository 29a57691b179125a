// Runs an agent program in its own process group: prompt on stdin, output streamed and kept, stoppable as a whole.
import { spawn } from 'node:child_process';

export interface ProgramResult {
  exitCode: number | null;
  signal: string | null;
  /** The end of stdout (up to `keepBytes`), where agents print their final answer. */
  stdout: string;
  /** Set when the program could not start (ENOENT: not on PATH; EACCES: not executable). */
  spawnError: string | null;
  /** True when `stop()` ended it. */
  stopped: boolean;
}

export interface RunningProgram {
  done: Promise<ProgramResult>;
  /** Ends the program and everything it started: SIGINT, then SIGTERM and SIGKILL if it lingers. */
  stop(): void;
}

/**
 * `argv[0] argv[1…]` without a shell, leading its own process group so that stopping it (Ctrl-C
 * on forge) also stops the tools it started; stdout and stderr go to `onOutput` as they arrive.
 */
export function startProgram({ argv, cwd, env, input, onOutput, keepBytes = 1 << 20 }: { argv: string[]; cwd: string; env: NodeJS.ProcessEnv; input: string; onOutput?: (chunk: Buffer) => void; keepBytes?: number }): RunningProgram {
  const child = spawn(argv[0]!, argv.slice(1), { cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stopped = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    if (stdout.length > keepBytes * 2) stdout = stdout.slice(-keepBytes);
    onOutput?.(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => onOutput?.(chunk));
  // An agent that exits without reading its prompt closes the pipe under us: not an error.
  child.stdin.on('error', () => {});
  child.stdin.end(input);
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // Already gone.
    }
  };
  const done = new Promise<ProgramResult>((resolvePromise) => {
    child.on('error', (err: NodeJS.ErrnoException) => resolvePromise({ exitCode: null, signal: null, stdout, spawnError: err.code ?? err.message, stopped }));
    child.on('close', (code, signal) => resolvePromise({ exitCode: code, signal, stdout: stdout.slice(-keepBytes), spawnError: null, stopped }));
  });
  return {
    done,
    stop() {
      if (stopped || child.pid === undefined) return;
      stopped = true;
      signalGroup('SIGINT');
      const term = setTimeout(() => signalGroup('SIGTERM'), 2000);
      const kill = setTimeout(() => signalGroup('SIGKILL'), 5000);
      term.unref();
      kill.unref();
      void done.then(() => {
        clearTimeout(term);
        clearTimeout(kill);
        // The agent is gone; whatever it started and left behind goes with it.
        signalGroup('SIGKILL');
      });
    },
  };
}
