// The pager for a long text answer on a terminal, as git runs one: $FORGE_PAGER, else $PAGER, else less (LESS=FRX); never off a terminal.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
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
  /** Where the text goes. */
  stdin: Writable;
  /** Ends the text and waits for the person to leave the pager. */
  close(): Promise<void>;
}

/**
 * Starts `command` through sh with stdout and stderr the terminal's, LESS=FRX (quit when it fits,
 * raw colours, no screen clearing) and LV=-c unless set, as git does. A pager the person quits
 * before the text ends calls `onQuit` (the caller stops, as git does on SIGPIPE).
 */
export async function startPager({
  command,
  env,
  onQuit,
}: {
  command: string;
  env: NodeJS.ProcessEnv;
  onQuit: () => void;
}): Promise<Pager> {
  // Loaded here: most calls never page, and start-up is counted per call.
  const { spawn } = await import('node:child_process');
  const child = spawn('sh', ['-c', command], {
    stdio: ['pipe', 'inherit', 'inherit'],
    env: { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' },
  });
  let ended = false;
  const exited = new Promise<void>((done) => child.once('close', () => done()));
  child.stdin!.on('error', () => {
    if (!ended) onQuit();
  });
  void exited.then(() => {
    if (!ended) onQuit();
  });
  return {
    stdin: child.stdin!,
    close: async () => {
      ended = true;
      child.stdin!.end();
      await exited;
    },
  };
}
