// The config file (~/.config/forge/config.json): where it is, reading it, and checking it key by key so a malformed one is an error naming the file and the key.
import { readFile } from 'node:fs/promises';
import { xdgBase } from '../fs/xdg';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { InvalidInputError } from '../errors';
import { STEP_CATEGORIES, type StepCategory } from '../plans/modules';
import { shellQuote } from '../quote';
import { RECORDINGS } from './config-recording';
import {
  GIT_CONTEXT_MODES,
  HOOK_EVENTS,
  MAX_PARALLEL_STEPS,
  MCP_SERVER_NAME,
  type AutoCommit,
  type ConfigFile,
  type ConfigProfile,
  type CostPerMtok,
  type GitContextMode,
  type HookConfig,
  type HookEvent,
  type McpServerConfig,
  type ModelRoutes,
} from './config-types';

/** What an environment variable's name may be: api_key_env, --api-key-env and an MCP server's env keys are checked against it. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `$XDG_CONFIG_HOME/forge/config.json`, `~/.config/forge/config.json` by default (and for a relative XDG_CONFIG_HOME, as the spec says). */
export function configPath({
  env,
  homeDir = env.HOME || homedir(),
}: {
  env: Record<string, string | undefined>;
  homeDir?: string;
}): string {
  return join(xdgBase(env.XDG_CONFIG_HOME) ?? join(homeDir, '.config'), 'forge', 'config.json');
}

/**
 * Reads and checks the config file; a missing file is a first run (null). Anything malformed is an
 * error naming the file and the key, never a crash deep in the agent.
 */
export async function loadConfigFile(path: string): Promise<ConfigFile | null> {
  const text = await readConfigText(path);
  return text === null ? null : parseConfigFile({ text, path });
}

/** The file's text, null when there is none. */
export async function readConfigText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new InvalidInputError('CONFIG_UNREADABLE', `cannot read '${path}': ${(err as Error).message}`, {
      fix: `ls -l ${shellQuote(path)}`,
      data: { path },
    });
  }
}

export function configInvalid(path: string, why: string): InvalidInputError {
  return new InvalidInputError('CONFIG_INVALID', `invalid config '${path}': ${why}`, { fix: editFix(path), data: { path } });
}

type Invalid = (why: string) => InvalidInputError;

/** A profile's endpoint, model, key variable and planner model (non-empty strings, a URL, a variable's name), its prices and context window. */
function checkModelKeys({ p, at, invalid }: { p: Record<string, unknown>; at: string; invalid: Invalid }): CostPerMtok | undefined {
  for (const key of ['endpoint', 'model', 'api_key_env', 'planner_model'] as const) {
    if (p[key] !== undefined && (typeof p[key] !== 'string' || p[key] === '')) throw invalid(`${at}.${key} must be a non-empty string`);
  }
  if (typeof p.endpoint === 'string' && !isHttpUrl(p.endpoint)) throw invalid(`${at}.endpoint '${p.endpoint}' is not an http(s) URL`);
  if (typeof p.api_key_env === 'string' && !ENV_NAME.test(p.api_key_env))
    throw invalid(`${at}.api_key_env must name an environment variable, not hold the key`);
  let cost: CostPerMtok | undefined;
  if (p.cost_per_mtok !== undefined) {
    const c = p.cost_per_mtok;
    const ok = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
    if (!isRecord(c) || !ok(c.input) || !ok(c.output))
      throw invalid(`${at}.cost_per_mtok must be {"input": dollars, "output": dollars}, both numbers ≥ 0`);
    cost = { input: c.input as number, output: c.output as number };
  }
  if (
    p.context_window !== undefined &&
    (typeof p.context_window !== 'number' || !Number.isInteger(p.context_window) || p.context_window < 1024)
  )
    throw invalid(`${at}.context_window must be the model's context in tokens, an integer ≥ 1024 (like 32768)`);
  return cost;
}

/** A profile's hooks, hooks_disabled and hooks_detected_from. */
function checkHookKeys({ p, at, invalid }: { p: Record<string, unknown>; at: string; invalid: Invalid }): Partial<HookConfig> | undefined {
  const hooks = p.hooks === undefined ? undefined : checkHooks(p.hooks, `${at}.hooks`, invalid);
  if (p.hooks_disabled !== undefined && typeof p.hooks_disabled !== 'boolean') throw invalid(`${at}.hooks_disabled must be true or false`);
  if (
    p.hooks_detected_from !== undefined &&
    (!Array.isArray(p.hooks_detected_from) || !p.hooks_detected_from.every((m) => typeof m === 'string'))
  )
    throw invalid(
      `${at}.hooks_detected_from must be a list of file names (forge writes it with detected hooks; delete it to use the hooks in every project)`,
    );
  return hooks;
}

/** A profile's auto_commit, auto_commit_prefix and the keys that turn recordings off. */
function checkCommitAndRecordingKeys({ p, at, invalid }: { p: Record<string, unknown>; at: string; invalid: Invalid }): void {
  if (
    p.auto_commit !== undefined &&
    p.auto_commit !== false &&
    p.auto_commit !== true &&
    p.auto_commit !== 'task' &&
    p.auto_commit !== 'plan'
  ) {
    throw invalid(`${at}.auto_commit must be false, "task" (one commit per task; true means the same) or "plan" (one commit per plan)`);
  }
  if (
    p.auto_commit_prefix !== undefined &&
    (typeof p.auto_commit_prefix !== 'string' || /[\r\n]/.test(p.auto_commit_prefix) || p.auto_commit_prefix.length > 50)
  ) {
    throw invalid(`${at}.auto_commit_prefix must be a string of one line, at most 50 characters (like "forge: ")`);
  }
  if (p.git_context !== undefined && !GIT_CONTEXT_MODES.includes(p.git_context as GitContextMode))
    throw invalid(`${at}.git_context must be "preamble" (the default), "tool" (a git_context tool instead) or "off"`);
  if (
    p.parallel_steps !== undefined &&
    (typeof p.parallel_steps !== 'number' ||
      !Number.isInteger(p.parallel_steps) ||
      p.parallel_steps < 1 ||
      p.parallel_steps > MAX_PARALLEL_STEPS)
  )
    throw invalid(`${at}.parallel_steps must be an integer from 1 (one step at a time) to ${MAX_PARALLEL_STEPS}`);
  for (const { key, path: where } of Object.values(RECORDINGS)) {
    if (p[key] !== undefined && typeof p[key] !== 'boolean')
      throw invalid(`${at}.${key} must be true (forge agent records nothing in ${where}) or false`);
  }
}

/** A profile's model_routes (a known category to a non-empty model name) and auto_quick. */
function checkRouteKeys({ p, at, invalid }: { p: Record<string, unknown>; at: string; invalid: Invalid }): ModelRoutes | undefined {
  if (p.auto_quick !== undefined && typeof p.auto_quick !== 'boolean')
    throw invalid(`${at}.auto_quick must be true (short questions run as --quick) or false`);
  if (p.model_routes === undefined) return undefined;
  const r = p.model_routes;
  if (!isRecord(r))
    throw invalid(`${at}.model_routes must be an object of categories to model names, like {"deep": "big-model", "quick": "small-model"}`);
  for (const [name, model] of Object.entries(r)) {
    if (!(STEP_CATEGORIES as readonly string[]).includes(name))
      throw invalid(`${at}.model_routes has an unknown route '${name}'; the routes are ${STEP_CATEGORIES.join(', ')}`);
    if (typeof model !== 'string' || !model.trim()) throw invalid(`${at}.model_routes.${name} must be a model name (a non-empty string)`);
  }
  return r as ModelRoutes;
}

/** One profile checked key by key (the first wrong key is the error), kept with only the keys it sets. */
function checkProfile({ p, at, invalid }: { p: Record<string, unknown>; at: string; invalid: Invalid }): ConfigProfile {
  const cost = checkModelKeys({ p, at, invalid });
  const hooks = checkHookKeys({ p, at, invalid });
  const mcpServers = p.mcp_servers === undefined ? undefined : checkMcpServers(p.mcp_servers, `${at}.mcp_servers`, invalid);
  checkCommitAndRecordingKeys({ p, at, invalid });
  const routes = checkRouteKeys({ p, at, invalid });
  return {
    ...(typeof p.endpoint === 'string' ? { endpoint: p.endpoint } : {}),
    ...(typeof p.model === 'string' ? { model: p.model } : {}),
    ...(typeof p.api_key_env === 'string' ? { api_key_env: p.api_key_env } : {}),
    ...(typeof p.planner_model === 'string' ? { planner_model: p.planner_model } : {}),
    ...(cost ? { cost_per_mtok: cost } : {}),
    ...(typeof p.context_window === 'number' ? { context_window: p.context_window } : {}),
    ...(routes ? { model_routes: routes } : {}),
    ...(typeof p.auto_quick === 'boolean' ? { auto_quick: p.auto_quick } : {}),
    ...(hooks ? { hooks } : {}),
    ...(typeof p.hooks_disabled === 'boolean' ? { hooks_disabled: p.hooks_disabled } : {}),
    ...(Array.isArray(p.hooks_detected_from) ? { hooks_detected_from: p.hooks_detected_from as string[] } : {}),
    ...(mcpServers ? { mcp_servers: mcpServers } : {}),
    // One commit per task is the smaller, easier-to-revert unit: what a bare `true` asks for.
    ...(p.auto_commit !== undefined ? { auto_commit: p.auto_commit === true ? 'task' : (p.auto_commit as AutoCommit | false) } : {}),
    ...(typeof p.auto_commit_prefix === 'string' ? { auto_commit_prefix: p.auto_commit_prefix } : {}),
    ...(typeof p.git_context === 'string' ? { git_context: p.git_context as GitContextMode } : {}),
    ...(typeof p.parallel_steps === 'number' ? { parallel_steps: p.parallel_steps } : {}),
    ...Object.fromEntries(
      Object.values(RECORDINGS)
        .filter(({ key }) => typeof p[key] === 'boolean')
        .map(({ key }) => [key, p[key]]),
    ),
  };
}

/** Checks a config file's text key by key; see loadConfigFile. */
export function parseConfigFile({ text, path }: { text: string; path: string }): ConfigFile {
  const invalid = (why: string) => configInvalid(path, why);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw invalid(`not JSON (${(err as Error).message})`);
  }
  if (!isRecord(parsed)) throw invalid('the top level must be an object with "profiles"');
  const profiles = parsed.profiles ?? {};
  if (!isRecord(profiles)) throw invalid('"profiles" must be an object of named profiles');
  const checked: Record<string, ConfigProfile> = {};
  for (const [name, p] of Object.entries(profiles)) {
    const at = `profiles.${name}`;
    if (!isRecord(p)) throw invalid(`${at} must be an object`);
    checked[name] = checkProfile({ p, at, invalid });
  }
  if (parsed.default !== undefined) {
    if (typeof parsed.default !== 'string') throw invalid('"default" must be the name of a profile');
    if (!checked[parsed.default]) throw invalid(`"default" names '${parsed.default}', which is not among the profiles`);
    return { default: parsed.default, profiles: checked };
  }
  return { profiles: checked };
}

function checkHooks(value: unknown, at: string, invalid: (why: string) => InvalidInputError): Partial<HookConfig> {
  if (!isRecord(value)) throw invalid(`${at} must be an object of events (${HOOK_EVENTS.join(', ')}), each a list of shell commands`);
  const hooks: Partial<HookConfig> = {};
  for (const [event, commands] of Object.entries(value)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event))
      throw invalid(`${at} has an unknown event '${event}'; the events are ${HOOK_EVENTS.join(', ')}`);
    if (!Array.isArray(commands) || commands.some((c) => typeof c !== 'string' || !c.trim()))
      throw invalid(`${at}.${event} must be a list of shell commands (non-empty strings)`);
    hooks[event as HookEvent] = commands as string[];
  }
  return hooks;
}

function checkMcpServers(value: unknown, at: string, invalid: (why: string) => InvalidInputError): McpServerConfig[] {
  if (!Array.isArray(value))
    throw invalid(`${at} must be a list of servers like {"name": "docs", "command": ["npx", "-y", "some-mcp-server"]}`);
  const seen = new Set<string>();
  return value.map((s, i) => {
    const here = `${at}[${i}]`;
    if (!isRecord(s)) throw invalid(`${here} must be an object with "name" and "command"`);
    for (const key of Object.keys(s)) {
      if (key === 'args')
        throw invalid(`${here} has "args": put the program and its arguments together in "command", like ["npx", "-y", "some-mcp-server"]`);
      if (!['name', 'command', 'env', 'cwd', 'scope'].includes(key))
        throw invalid(`${here} has an unknown key '${key}'; a server has name, command, env, cwd and scope`);
    }
    if (typeof s.name !== 'string' || !MCP_SERVER_NAME.test(s.name))
      throw invalid(`${here}.name must be 1 to 32 letters, digits, '_' or '-' (it prefixes the server's tool names)`);
    if (seen.has(s.name)) throw invalid(`${here}.name '${s.name}' is already the name of another server`);
    seen.add(s.name);
    if (!Array.isArray(s.command) || !s.command.length || s.command.some((w) => typeof w !== 'string') || !(s.command[0] as string)) {
      throw invalid(
        `${here}.command must be a non-empty list: the program and its arguments, like ["npx", "-y", "some-mcp-server"] (no shell)`,
      );
    }
    if (s.env !== undefined && (!isRecord(s.env) || Object.entries(s.env).some(([k, v]) => !ENV_NAME.test(k) || typeof v !== 'string'))) {
      throw invalid(`${here}.env must be an object of variable names to string values`);
    }
    if (s.cwd !== undefined && (typeof s.cwd !== 'string' || !s.cwd))
      throw invalid(`${here}.cwd must be a non-empty path (relative to the repository top)`);
    checkScope(s.scope, `${here}.scope`, invalid);
    return {
      name: s.name,
      command: s.command as string[],
      ...(s.env !== undefined ? { env: s.env as Record<string, string> } : {}),
      ...(s.cwd !== undefined ? { cwd: s.cwd as string } : {}),
      ...(s.scope !== undefined ? { scope: s.scope as StepCategory[] } : {}),
    };
  });
}

/** A server's scope: a non-empty list of categories (leave it out for every category). */
function checkScope(value: unknown, at: string, invalid: Invalid): void {
  if (value === undefined) return;
  const why = `must be a non-empty list of categories (${STEP_CATEGORIES.join(', ')}); leave it out for every category`;
  if (!Array.isArray(value) || !value.length) throw invalid(`${at} ${why}`);
  value.forEach((c, i) => {
    if (!(STEP_CATEGORIES as readonly unknown[]).includes(c)) throw invalid(`${at}[${i}] is ${JSON.stringify(c)}: the scope ${why}`);
  });
}

/** The command that opens the config file in an editor: the fix for anything wrong in it. */
export function editFix(path: string): string {
  return `"\${EDITOR:-vi}" ${shellQuote(path)}`;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
