// Runs a Claude Code hook command as Claude Code does: through sh, the JSON payload on stdin, forge on PATH.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORGE, forge } from './forge';
import { fileTempDir } from './repo';

let bin: string | null = null;

/** A directory holding a `forge` executable, as `npm install -g` would put on PATH. */
export function forgeBinDir(): string {
  if (bin) return bin;
  bin = fileTempDir('forge-claude-bin-');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'forge'), `#!/bin/sh\nexec ${process.execPath} ${FORGE} "$@"\n`, { mode: 0o755 });
  return bin;
}

export function hookEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${forgeBinDir()}:${process.env.PATH}` };
  // FORCE_COLOR: uvu sets it in its own process when its output is coloured; a hook's output must not be.
  for (const k of Object.keys(env)) if (k.startsWith('FORGE_') || k === 'NODE_EXTRA_CA_CERTS' || k === 'FORCE_COLOR') delete env[k];
  return env;
}

/**
 * Runs the hook once. The timeout only turns a hang into a failure (status null, signal set): it is
 * far beyond any normal run, not a measure of speed.
 */
export function runHook({
  dir,
  command,
  payload,
  timeout = 120_000,
  env = {},
}: {
  dir: string;
  command: string;
  payload: Record<string, unknown> | string | Buffer;
  timeout?: number;
  env?: Record<string, string>;
}) {
  const input = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
  return spawnSync('sh', ['-c', command], {
    cwd: dir,
    input,
    encoding: 'utf8',
    env: { ...hookEnv(), ...env },
    timeout,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
  });
}

/**
 * The hook once, as a shell reads its command line (`forge loop hook claude`), the forge it names
 * run in this process with the payload as its stdin: for tests of the hook's answers, not of the
 * shell or PATH (runHook is that). A command line that is not plain words runs through runHook.
 */
export async function callHook({
  dir,
  command,
  payload,
}: {
  dir: string;
  command: string;
  payload: Record<string, unknown> | string | Buffer;
}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const plain = /^[\w ./=-]+$/.test(command);
  const words = command.split(' ').filter(Boolean);
  if (!plain || words[0] !== 'forge') return runHook({ dir, command, payload });
  const input = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
  const r = await forge(words.slice(1), { cwd: dir, input });
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}
