// Runs a program in its own process group — output streamed and kept, stoppable as a whole — and sh with a timeout on it.
import { spawn, type ChildProcess } from 'node:child_process';
import { type StartTimeout, wallClock } from '../timeout';
import { trackProgram } from './running';

export interface ProgramResult {
  exitCode: number | null;
  signal: string | null;
  /** The end of stdout (up to `keepBytes`), where agents print their final answer. */
  stdout: string;
  /** The end of stdout and stderr interleaved as they arrived (up to `keepBytes`). */
  output: string;
  /** Set when the program could not start (ENOENT: not on PATH; EACCES: not executable). */
  spawnError: string | null;
  /** True when `stop()` ended it. */
  stopped: boolean;
}

export interface RunningProgram {
  done: Promise<ProgramResult>;
  /** Ends the program and everything it started: `first`, then SIGTERM and SIGKILL if it lingers. */
  stop(first?: NodeJS.Signals): void;
}

/** Sends `signal` to the child's whole process group; one already gone is no error. */
function signalGroup({ child, signal }: { child: ChildProcess; signal: NodeJS.Signals }): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // Already gone.
  }
}

/** The ends of stdout, and of stdout and stderr as they arrive, kept to about `keepBytes` each and passed on to `onOutput`. */
function keepOutput({ child, keepBytes, onOutput }: { child: ChildProcess; keepBytes: number; onOutput?: (chunk: Buffer) => void }): {
  stdout: () => string;
  output: () => string;
} {
  let stdout = '';
  let output = '';
  const trim = (s: string) => (s.length > keepBytes * 2 ? s.slice(-keepBytes) : s);
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout = trim(stdout + chunk.toString('utf8'));
    output = trim(output + chunk.toString('utf8'));
    onOutput?.(chunk);
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output = trim(output + chunk.toString('utf8'));
    onOutput?.(chunk);
  });
  return { stdout: () => stdout, output: () => output };
}

/** Ends the group: `first`, then SIGTERM after 2 s and SIGKILL after 5 s if it lingers, and SIGKILL to what is left once the leader is gone. */
function stopGroup({ child, first, done }: { child: ChildProcess; first: NodeJS.Signals; done: Promise<unknown> }): void {
  signalGroup({ child, signal: first });
  const term = setTimeout(() => signalGroup({ child, signal: 'SIGTERM' }), 2000);
  const kill = setTimeout(() => signalGroup({ child, signal: 'SIGKILL' }), 5000);
  term.unref();
  kill.unref();
  void done.then(() => {
    clearTimeout(term);
    clearTimeout(kill);
    // The leader is gone; whatever it started and left behind (a process that ignored the
    // signal and let go of the pipes) goes with it — forge may exit before the timers fire.
    signalGroup({ child, signal: 'SIGKILL' });
  });
}

/**
 * `argv[0] argv[1…]` without a shell, leading its own process group so that stopping it (Ctrl-C
 * on forge, a timeout) also stops what it started; `input` goes to stdin (none: stdin is closed).
 */
export function startProgram({
  argv,
  cwd,
  env,
  input,
  onOutput,
  keepBytes = 1 << 20,
}: {
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  input?: string;
  onOutput?: (chunk: Buffer) => void;
  keepBytes?: number;
}): RunningProgram {
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd,
    // PWD says where the program runs, as a shell sets it: an agent that reads its project from PWD
    // (OpenCode does) must not take the caller's directory for it.
    env: { ...env, PWD: cwd },
    detached: true,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  let stopped = false;
  const kept = keepOutput({ child, keepBytes, onOutput });
  if (child.stdin) {
    // An agent that exits without reading its prompt closes the pipe under us: not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  }
  const done = new Promise<ProgramResult>((resolvePromise) => {
    child.on('error', (err: NodeJS.ErrnoException) =>
      resolvePromise({
        exitCode: null,
        signal: null,
        stdout: kept.stdout(),
        output: err.message,
        spawnError: err.code ?? err.message,
        stopped,
      }),
    );
    child.on('close', (code, signal) =>
      resolvePromise({
        exitCode: code,
        signal,
        stdout: kept.stdout().slice(-keepBytes),
        output: kept.output().slice(-keepBytes),
        spawnError: null,
        stopped,
      }),
    );
  });
  const program: RunningProgram = {
    done,
    stop(first = 'SIGINT') {
      if (child.pid === undefined) return;
      // A second stop (a second Ctrl-C, or a SIGKILL after a grace) goes straight to the group.
      if (stopped) {
        signalGroup({ child, signal: first });
        return;
      }
      stopped = true;
      stopGroup({ child, first, done });
    },
  };
  trackProgram(program, done);
  return program;
}

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
 * `sh -c command` in `cwd`, its whole process group killed after `timeoutMs` (a test runner's
 * workers too) or when `signal` aborts: the group does not get a terminal's Ctrl-C by itself.
 */
export async function runShell({
  command,
  cwd,
  timeoutMs,
  env,
  tailBytes = 4000,
  signal,
  startTimeout = wallClock,
}: {
  command: string;
  cwd: string;
  timeoutMs: number;
  /** The environment the command runs in: the caller's, never taken from this process behind its back. */
  env: NodeJS.ProcessEnv;
  tailBytes?: number;
  signal?: AbortSignal;
  /** The clock `timeoutMs` runs on (tests pass one they expire). */
  startTimeout?: StartTimeout;
}): Promise<ShellResult> {
  const started = Date.now();
  const program = startProgram({ argv: ['sh', '-c', command], cwd, env, keepBytes: tailBytes });
  let timedOut = false;
  const cancelTimeout = startTimeout(timeoutMs, () => {
    timedOut = true;
    program.stop('SIGTERM');
  });
  const abort = () => program.stop('SIGTERM');
  if (signal?.aborted) abort();
  else signal?.addEventListener('abort', abort, { once: true });
  const r = await program.done;
  cancelTimeout();
  signal?.removeEventListener('abort', abort);
  return {
    command,
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut,
    durationMs: Date.now() - started,
    tail: r.spawnError ? r.output : r.output.slice(-tailBytes),
  };
}
