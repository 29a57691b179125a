// Runs a real coding agent as a child the test owns, in a home of the test's own, with forge on its PATH (or not); and the repository each scenario starts from.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { agentBin, type AgentName, node22BinDir } from '../../scripts/agents/agents';
import { forgeBinDir } from '../helpers/claude';
import { forge, forgeEnv } from '../helpers/forge';
import { ownChild } from '../helpers/owner';
import { oneUnitPlan } from '../helpers/plans';
import { git, PINNED_ENV, repoWith, tempDir, tempRepo } from '../helpers/repo';

export interface AgentRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The agent's executable, or a failure that says how to install it (`make test-agents` does). */
export function requireAgent(agent: AgentName): string {
  const bin = agentBin(agent);
  if (!bin)
    throw new Error(`${agent} is not installed: run 'node --import tsx scripts/agents/install.ts ${agent}' (make test-agents does)`);
  return bin;
}

/** The PATH without any directory that holds a `forge` (a global install would stand in for the one under test), this Node's first. */
function pathWithoutForge(): string[] {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter((d) => {
    try {
      accessSync(join(d, 'forge'), constants.X_OK);
      return false;
    } catch {
      return d !== '';
    }
  });
  return [join(process.execPath, '..'), ...dirs];
}

/** Variables of the machine's own agents and keys: none of them reaches the agent under test. */
const FOREIGN = /^(GEMINI_|GOOGLE_|OPENAI_|ANTHROPIC_|CLAUDE|CODEX_|OPENCODE|HTTPS?_PROXY|ALL_PROXY)/i;

/**
 * The environment of one scenario: HOME and every agent's home in a temp dir of the test's own
 * (install-hook --user, trust and the agents' state all land there), forge on PATH, and the agent
 * (forge's liveness check asks it for --version), with Node 22 first for an agent that needs it.
 */
export function agentEnv({ agent, node22 = false }: { agent: AgentName; node22?: boolean }): {
  env: Record<string, string>;
  home: string;
} {
  const home = tempDir('forge-agent-home-');
  const dirs = {
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    CODEX_HOME: join(home, '.codex'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    // The agent's own scratch files (OpenCode unpacks native libraries there) go with the test's home.
    TMPDIR: join(home, 'tmp'),
  };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  const path = [forgeBinDir(), ...(node22 ? [node22BinDir()] : []), dirname(requireAgent(agent)), ...pathWithoutForge()];
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(forgeEnv())) if (v !== undefined && !FOREIGN.test(k)) env[k] = v;
  Object.assign(env, PINNED_ENV, dirs, {
    HOME: home,
    GEMINI_CLI_HOME: home,
    PATH: path.join(delimiter),
    SCENARIO_PATH: path.join(delimiter),
    NO_PROXY: '127.0.0.1,localhost',
    NO_COLOR: '1',
  });
  // Codex runs its commands in a login shell, whose /etc/profile sets PATH afresh: the user's own
  // profile puts back the PATH the scenario gives (forge on it, or not), as a user's puts their tools.
  writeFileSync(join(home, '.bash_profile'), 'if [ -n "$SCENARIO_PATH" ]; then PATH="$SCENARIO_PATH"; export PATH; fi\n');
  return { env, home };
}

/** The same environment with forge taken off PATH: what a hook finds when forge is not installed where the agent looks. */
export function withoutForge(env: Record<string, string>): Record<string, string> {
  const path = env
    .PATH!.split(delimiter)
    .filter((d) => d !== forgeBinDir())
    .join(delimiter);
  return { ...env, PATH: path, SCENARIO_PATH: path };
}

/**
 * Runs the agent to its end, its whole process group owned by the test (an agent starts shells and
 * servers of its own). stdin is closed: nothing can wait on a person.
 */
export function runAgent({ argv, cwd, env }: { argv: string[]; cwd: string; env: Record<string, string> }): Promise<AgentRun> {
  return new Promise((done, fail) => {
    const [cmd, ...args] = argv;
    // PWD too: OpenCode takes its project from $PWD over the directory it was started in, and an
    // inherited PWD (this checkout's) would point the agent at forge's own repository.
    const child = ownChild(spawn(cmd!, args, { cwd, env: { ...env, PWD: cwd }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }), {
      group: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('error', fail);
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr }));
  });
}

/**
 * The plan every scenario runs under: U1 may read, edit, write, patch and run shell commands in
 * src/**, on no wider surface than artifacts. `patch` is Codex's and OpenCode's apply_patch: a plan
 * without it refuses every file change of theirs.
 */
const TOOLS = ['read', 'edit', 'write', 'patch', 'bash', 'search', 'ls'];
export const PLAN = oneUnitPlan({ id: 'agents-gate', title: 'agents gate', parentTools: TOOLS, unitTools: TOOLS });
export const PLAN_PATH = 'docs/plans/agents-gate.md';
export const SOURCE = 'export const a = 1;\n';
/** docs/notes.md: outside U1's paths, inside the plan's rails (a soft refusal to read). */
export const NOTES = 'release notes, kept by hand\n';

/**
 * A repository with the plan and src/a.ts, its `origin` a bare repository that has main; then one
 * local commit the remote lacks, so a push that got through would move the remote's main.
 */
export function gatedRepo(): { dir: string; remote: string; remoteMain: string } {
  const dir = repoWith({ [PLAN_PATH]: PLAN, 'src/a.ts': SOURCE, 'docs/notes.md': NOTES });
  const remote = tempRepo({ bare: true });
  git(dir, 'remote', 'add', 'origin', remote);
  git(dir, 'push', '-q', 'origin', 'main');
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'local only');
  return { dir, remote, remoteMain: git(remote, 'rev-parse', 'refs/heads/main') };
}

/** Every ref of the remote, one `<oid> <ref>` a line. */
export const remoteRefs = (remote: string): string => git(remote, 'for-each-ref', '--format=%(objectname) %(refname)');

/** Runs forge as the operator does, outside the agent, in the scenario's environment. */
export async function operator(args: string[], cwd: string, env: Record<string, string>) {
  const run = await forge(args, { cwd, env });
  if (run.code !== 0) throw new Error(`forge ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return run;
}

/** `forge plan journal --json`, as a user reads it. */
export async function journal(dir: string, env: Record<string, string>): Promise<Array<Record<string, any>>> {
  return (await operator(['plan', 'journal', '--json'], dir, env)).records;
}
