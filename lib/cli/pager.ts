// The pager for a long text answer on a terminal, as git runs one: $FORGE_PAGER, else $PAGER, else less (LESS=FRX); never off a terminal, and never the output lost to a pager that fails.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { SpawnOptions } from 'node:child_process';
import type { Writable } from 'node:stream';

/** The pager command line to run, or null for none: FORGE_PAGER, else PAGER, else less when it is installed; empty or `cat` means none. */
export function pagerCommand(env: NodeJS.ProcessEnv): string | null {
  const chosen = (env.FORGE_PAGER ?? env.PAGER ?? '').trim();
  if (chosen === 'cat') return null;
  if (chosen) return chosen;
  if (env.FORGE_PAGER !== undefined || env.PAGER !== undefined) return null; // set empty: no pager
  return onPath('less', env) ? 'less' : null;
}

function onPath(program: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export interface Pager {
  /** Where the text goes: the pager, or the terminal itself once the pager could not start. */
  stdin: Writable;
  /** Ends the text and waits for the person to leave the pager; 'failed' when the pager failed, so the output was not shown. */
  close(): Promise<PagerEnd>;
}

export type PagerEnd = { kind: 'shown' } | { kind: 'failed'; command: string; why: string };

/** How the pager process ended; `why` follows "the pager 'less' …". */
type Ended = { kind: 'quit' } | { kind: 'unstartable'; reason: string; why: string } | { kind: 'failed'; why: string };

/** A pager command git runs as it is, without a shell: no shell metacharacters and no spaces. */
const PLAIN_COMMAND = /^[^\s|&;<>()$`\\"'*?[#~=%]+$/;
/**
 * Text kept to be written to the terminal if the pager turns out not to have started. A pager that
 * never ran reads nothing, and writes to it stop once its pipe (64 KiB) is full: past this much it
 * has been reading.
 */
const REPLAY_MAX = 1 << 20;

/** What the pager's exit says: 0 a person who quit; 126 and 127 (sh's "not executable", "not found") a pager that never ran; else a failure. */
function endOf(code: number | null, signal: NodeJS.Signals | null): Ended {
  const why = signal ? `was killed by ${signal}` : `exited with status ${code}`;
  if (code === 0) return { kind: 'quit' };
  if (code === 127) return { kind: 'unstartable', reason: 'not found', why };
  if (code === 126) return { kind: 'unstartable', reason: 'not executable', why };
  return { kind: 'failed', why };
}

/** A pager spawned without a shell that could not be: as sh would have said it. */
function spawnFailure(err: NodeJS.ErrnoException): Ended {
  if (err.code === 'ENOENT') return { kind: 'unstartable', reason: 'not found', why: 'was not found' };
  if (err.code === 'EACCES') return { kind: 'unstartable', reason: 'not executable', why: 'is not executable' };
  return { kind: 'failed', why: `could not be started (${err.message})` };
}

/** The pager's process, its stdout and stderr the terminal's, and how it ended: a plain command name run as it is, anything else through sh. */
async function spawnPager({
  command,
  env,
}: {
  command: string;
  env: NodeJS.ProcessEnv;
}): Promise<{ pipe: Writable; exit: Promise<Ended> }> {
  const { spawn } = await import('node:child_process');
  const options: SpawnOptions = { stdio: ['pipe', 'inherit', 'inherit'], env: { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' } };
  const child = PLAIN_COMMAND.test(command) ? spawn(command, [], options) : spawn('sh', ['-c', command], options);
  // What happened is the exit status's to say: a write into a closed pipe is no error of its own.
  child.stdin!.on('error', () => {});
  const exit = new Promise<Ended>((done) => {
    child.once('error', (err: NodeJS.ErrnoException) => done(spawnFailure(err)));
    child.once('close', (code, signal) => done(endOf(code, signal)));
  });
  return { pipe: child.stdin!, exit };
}

/**
 * Starts `command` with stdout and stderr the terminal's, LESS=FRX (quit when it fits, raw
 * colours, no screen clearing) and LV=-c unless set, as git does: a plain command name as it is,
 * anything else through sh. A pager the person quits before the text ends (exit 0) calls `onQuit`
 * (the caller stops, as git does on SIGPIPE). A pager that cannot be run (not found, not
 * executable) calls `onUnstartable` and the text goes to `stdout` instead, what it was sent first;
 * one that fails otherwise (a non-zero exit, a signal) takes no more text and close() says so —
 * where git shows nothing and exits 0.
 */
export async function startPager({
  command,
  env,
  stdout,
  onQuit,
  onUnstartable,
}: {
  command: string;
  env: NodeJS.ProcessEnv;
  stdout: Writable;
  onQuit: () => void;
  onUnstartable: (why: string) => Promise<void>;
}): Promise<Pager> {
  // Loaded here: most calls never page, and start-up is counted per call.
  const { Writable: Sink } = await import('node:stream');
  const { pipe, exit } = await spawnPager({ command, env });
  let mode: 'pager' | 'terminal' | 'failed' = 'pager';
  let sent: Buffer[] | null = [];
  let sentBytes = 0;
  let ended = false;
  // A write the pager has not taken yet; let go when it drains or the pager is gone.
  let waiting: (() => void) | null = null;
  const release = () => {
    const done = waiting;
    waiting = null;
    done?.();
  };
  pipe.on('drain', release);
  const sink = new Sink({
    write(chunk: Buffer, _encoding, done) {
      if (mode === 'failed') return done();
      if (mode === 'terminal') return void (stdout.write(chunk) ? done() : stdout.once('drain', () => done()));
      if (sent) {
        sent.push(chunk);
        sentBytes += chunk.length;
        if (sentBytes > REPLAY_MAX) sent = null;
      }
      if (pipe.destroyed || pipe.writableEnded || !pipe.write(chunk)) waiting = () => done();
      else done();
    },
  });
  const settled = exit.then(async (end): Promise<PagerEnd> => {
    if (end.kind === 'quit') {
      if (!ended) onQuit();
      return { kind: 'shown' };
    }
    if (end.kind === 'unstartable' && sent) {
      await onUnstartable(end.reason);
      const replay = Buffer.concat(sent);
      sent = null;
      mode = 'terminal';
      if (replay.length && !stdout.write(replay)) await new Promise((drained) => stdout.once('drain', drained));
      release();
      return { kind: 'shown' };
    }
    mode = 'failed';
    release();
    return { kind: 'failed', command, why: end.why };
  });
  return {
    stdin: sink,
    close: async () => {
      await new Promise<void>((flushed) => sink.end(flushed));
      ended = true;
      pipe.end();
      return settled;
    },
  };
}
