// Runs forge as a test calls it: the CLI in this process (main(), argv and all), or the built binary as a real child process; parses what it printed.
import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { entries } from '../../commands/index';
import { bytesSource } from '../../lib/cli/input';
import { main } from '../../lib/cli/main';
import { ownChild } from './owner';
import { tempDir } from './repo';
import { collector } from './streams';

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

export interface ForgeOptions {
  cwd: string;
  /** stdin: this text (or these bytes), then its end. */
  input?: string | Buffer;
  env?: Record<string, string | undefined>;
  /** Another program name (forge-<cmd>), as `npm install -g` links it: always the built binary. */
  program?: string;
  /**
   * The built binary as a child process rather than the CLI in this process: for what only a
   * process has (its exit, signals, its own environment for the git it runs, start-up, the bundle).
   */
  spawn?: boolean;
}

/**
 * Variables read from the process's own environment, not the call's: by the git and other programs
 * forge starts (PATH finds their git), by Node (os.tmpdir, dates, proxies, CAs), or by a crash point that kills
 * the process. HOME is the call's: forge reads it from the call's env.
 */
const PROCESS_WIDE = /^(GIT_\w+|PATH|TMPDIR|TZ|LANG|LC_\w+|NODE_\w+|\w*_PROXY|FORGE_TEST_CRASH_AT)$/i;

/**
 * Runs `forge args…` with stdin closed after `input`: in this process through the CLI's own entry
 * (main: argv, NDJSON, text and exit code as the executable gets them), or as the built binary when
 * `spawn` or `program` asks for it, or when the call sets a variable only a process of its own has
 * (PROCESS_WIDE).
 */
export function forge(args: string[], opts: ForgeOptions): Promise<Run> {
  const processWide = Object.keys(opts.env ?? {}).some((k) => PROCESS_WIDE.test(k));
  return opts.spawn || opts.program || processWide ? spawned(args, opts) : inProcess(args, opts);
}

/** The CLI in this process, as bin/forge.ts runs it: an exception out of main is exit 1 with its message. */
async function inProcess(args: string[], opts: ForgeOptions): Promise<Run> {
  const [stdout, stderr] = [collector(), collector()];
  let code: number;
  try {
    code = await main({
      entries,
      argv: [process.execPath, FORGE, ...args],
      env: forgeEnv(opts.env),
      cwd: opts.cwd,
      stdin: bytesSource([Buffer.isBuffer(opts.input) ? opts.input : Buffer.from(opts.input ?? '')]),
      stdout,
      stderr,
    });
  } catch (err) {
    stderr.write(`Error: ${(err as Error)?.message ?? String(err)}\nFix: FORGE_DEBUG=1 forge --help\n`);
    code = 1;
  }
  await Promise.all([new Promise((done) => stdout.end(done)), new Promise((done) => stderr.end(done))]);
  return { code, stdout: stdout.text, stderr: stderr.text, records: parse(stdout.text) };
}

/** The built binary (or a forge-<cmd> link to it) as a child process. */
function spawned(args: string[], opts: ForgeOptions): Promise<Run> {
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
