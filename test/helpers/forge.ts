// Runs the built forge binary as a real child process and parses what it printed.
import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ownChild } from './owner';
import { tempDir } from './repo';

export const FORGE = resolve('dist/forge.js');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as NDJSON (empty when it is not). */
  records: Array<Record<string, any>>;
}

const dataHome = tempDir('forge-xdg-');
// Tests never read or write the user's ~/.config/forge (profiles, hooks detected once).
const configHome = tempDir('forge-config-');
// Nor the user's ~/.cache/forge (the executable's code cache).
const cacheHome = tempDir('forge-cache-');
// Nor the agents' own homes, where install-hook records trust and plan status looks for gates.
const agentHomes = {
  CODEX_HOME: tempDir('forge-codex-home-'),
  CLAUDE_CONFIG_DIR: tempDir('forge-claude-home-'),
  GEMINI_CLI_HOME: tempDir('forge-gemini-home-'),
};

/** The environment tests run forge in: no inherited FORGE_* settings or proxies (a scripted server is on loopback), private XDG data, config and cache dirs and agent homes. */
export function forgeEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('FORGE_') && k !== 'NODE_EXTRA_CA_CERTS' && k !== 'FORCE_COLOR' && !/_proxy$/i.test(k)) env[k] = v;
  Object.assign(env, { XDG_DATA_HOME: dataHome, XDG_CONFIG_HOME: configHome, XDG_CACHE_HOME: cacheHome, NO_COLOR: '1', ...agentHomes });
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

function parse(stdout: string): Array<Record<string, any>> {
  try {
    return stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}

/** Runs `forge args…` (or another program name for forge-<cmd>) with stdin closed after `input`. */
export function forge(
  args: string[],
  opts: { cwd: string; input?: string; env?: Record<string, string | undefined>; program?: string },
): Promise<Run> {
  return new Promise((done, fail) => {
    const cmd = opts.program ? programPath(opts.program) : process.execPath;
    const argv = opts.program ? args : [FORGE, ...args];
    const child = ownChild(spawn(cmd, argv, { cwd: opts.cwd, env: forgeEnv(opts.env) }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr, records: parse(stdout) }));
    // A command may exit without reading its input (it needs none): the write then fails with EPIPE,
    // which says nothing of the command; its exit code and output do.
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
  });
}

const binDir = tempDir('forge-bin-');

/** A `forge-<cmd>` symlink to the built binary, as `npm install -g` makes. */
export function programPath(name: string): string {
  mkdirSync(binDir, { recursive: true });
  const link = join(binDir, name);
  if (!existsSync(link)) symlinkSync(FORGE, link);
  return link;
}

/** Replaces ISO timestamps and hex ids so records can be compared exactly. */
export function stable<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value)
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g, '<time>')
      .replace(/"(mem|ev)-[0-9a-f]+"/g, '"$1-<id>"'),
  );
}
