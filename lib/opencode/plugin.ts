// forge's OpenCode plugin: the plan gate as a tool.execute.before hook, written into the project's .opencode/plugins/.
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { RefusedError } from '../errors';
import { atomicWrite } from '../files/write';
import { agentConfigFile } from '../files/workspace';
import { onPath } from '../plans/modules';

/** The first line of every version of the plugin: a file that starts otherwise is the user's own, never overwritten. */
export const HEADER = '// forge plan gate for OpenCode';

/** The plugin's name in a plugins directory. */
export const PLUGIN_NAME = 'forge-plan-gate.js';

/** OpenCode's own config directories, whose plugins it loads wherever it starts: ~/.config/opencode, ~/.opencode, $OPENCODE_CONFIG_DIR. */
export function opencodeUserDirs({ env }: { env: Record<string, string | undefined> }): string[] {
  const config = env.XDG_CONFIG_HOME || (env.HOME ? join(env.HOME, '.config') : null);
  return [config && join(config, 'opencode'), env.HOME && join(env.HOME, '.opencode'), env.OPENCODE_CONFIG_DIR].filter(
    (d): d is string => !!d,
  );
}

/**
 * Where OpenCode loads a plugin file from: a plugin/ or plugins/ directory of one of its own config
 * directories wherever it starts; of a `<dir>/.opencode` inside the repository when it starts at or
 * below `dir` (it looks for .opencode from its directory up to the work tree's top); else never.
 */
export function opencodeLoads({ file, env, root }: { file: string; env: Record<string, string | undefined>; root: string }): {
  scope: 'user' | 'project' | 'none';
  startAt: string | null;
} {
  const dir = dirname(resolve(file));
  if (!['plugin', 'plugins'].includes(basename(dir))) return { scope: 'none', startAt: null };
  if (opencodeUserDirs({ env }).some((d) => resolve(d) === dirname(dir))) return { scope: 'user', startAt: null };
  if (basename(dirname(dir)) !== '.opencode') return { scope: 'none', startAt: null };
  const at = dirname(dirname(dir));
  const rel = relative(resolve(root), at);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return { scope: 'none', startAt: null };
  return { scope: 'project', startAt: rel === '' ? null : at };
}

/** The command the plugin runs for each tool call, the call's JSON on its stdin. */
export const OPENCODE_PREFLIGHT = ['forge', 'plan', 'preflight', '--hook', 'opencode'];

/** How long the plugin waits for forge before refusing the call (far beyond a normal answer, in milliseconds). */
const TIMEOUT_MS = 60_000;

/**
 * The plugin. It runs in OpenCode's Bun runtime and uses only node: built-ins, which Bun provides. It
 * fails closed: a call is refused (the Error is what the model sees) when forge cannot start, exits
 * with an error, does not answer within the timeout, or answers something it cannot read.
 */
export const PLUGIN_SOURCE = `${HEADER} (forge plan install-hook opencode): every tool call passes \`${OPENCODE_PREFLIGHT.join(' ')}\` first.
// Installed by forge; reinstalling replaces it. Remove this file to remove the gate.
import { spawn } from "node:child_process"

const COMMAND = ${JSON.stringify(OPENCODE_PREFLIGHT)}
const TIMEOUT_MS = ${TIMEOUT_MS}

function preflight(payload, cwd) {
  return new Promise((resolve) => {
    let out = ""
    let err = ""
    let child
    try {
      child = spawn(COMMAND[0], COMMAND.slice(1), { cwd, stdio: ["pipe", "pipe", "pipe"] })
    } catch (e) {
      return resolve({ failure: String(e && e.message ? e.message : e) })
    }
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      resolve({ failure: \`no answer within \${TIMEOUT_MS / 1000} seconds\` })
    }, TIMEOUT_MS)
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (err += d))
    child.on("error", (e) => {
      clearTimeout(timer)
      resolve({ failure: e.message })
    })
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      resolve(code === 0 ? { out } : { failure: \`\${signal ? "killed by " + signal : "exit " + code}: \${err.trim().slice(0, 500)}\` })
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(payload))
  })
}

export const ForgePlanGate = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const payload = { tool: input.tool, sessionID: input.sessionID, callID: input.callID, args: output.args, directory }
    const r = await preflight(payload, directory)
    if (r.failure !== undefined) {
      throw new Error(\`forge plan gate: this call is refused because forge could not check it (\${r.failure}). Fix: put forge on PATH, or remove .opencode/plugins/forge-plan-gate.js\`)
    }
    const text = r.out.trim()
    if (!text) return
    let answer
    try {
      answer = JSON.parse(text)
    } catch {
      throw new Error(\`forge plan gate: this call is refused because forge's answer could not be read: \${text.slice(0, 300)}\`)
    }
    if (answer && answer.decision === "deny") throw new Error(String(answer.reason))
  },
})
`;

/**
 * Writes the plugin to `file`, or the repository's .opencode/plugins/forge-plan-gate.js. Idempotent:
 * the same plugin is left alone, an older forge plugin is replaced; a file there that is not forge's
 * is refused untouched.
 */
export async function installOpenCodePlugin({
  cwd,
  file: given,
  searchPath,
}: {
  cwd: string;
  file: string | undefined;
  /** The PATH the agent will search for forge (the caller's), for the warning when forge is not on it. */
  searchPath: string;
}): Promise<{ data: Record<string, unknown>; text: string }> {
  const file = await agentConfigFile({ cwd, given, inRepo: ['.opencode', 'plugins', PLUGIN_NAME] });
  const before = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (before !== null && !before.startsWith(HEADER))
    throw new RefusedError('SETTINGS_INVALID', `${file} is not forge's plugin; it was left as it is`, {
      fix: 'forge plan install-hook opencode --settings .opencode/plugins/forge-plan-gate-2.js',
    });
  const status = before === PLUGIN_SOURCE ? 'already installed' : before === null ? 'installed' : 'upgraded';
  if (before !== PLUGIN_SOURCE) await atomicWrite(file, PLUGIN_SOURCE);
  const reachable = await onPath({ program: 'forge', cwd, path: searchPath });
  const warning = reachable
    ? ''
    : '\nwarning: forge is not on PATH here; until it is (npm install -g .), the plugin refuses every tool call';
  return {
    data: {
      file,
      added: before === null,
      upgraded: status === 'upgraded' ? ["the plugin replaced by this forge's"] : [],
      event: 'tool.execute.before',
      command: OPENCODE_PREFLIGHT.join(' '),
      failure: 'closed',
      forgeOnPath: reachable,
    },
    text: `${status}: tool.execute.before → ${OPENCODE_PREFLIGHT.join(' ')} in ${file}\nfails closed: the plugin refuses a call when forge cannot run, fails, or does not answer within ${TIMEOUT_MS / 1000} seconds; OpenCode loads it at startup${warning}`,
  };
}
