// The config file (~/.config/forge/config.json): where it is, reading it, and checking it against its compiled schema so a malformed one is an error naming the file and the key.
import { readFile } from 'node:fs/promises';
import { xdgBase } from '../fs/xdg';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { InvalidInputError } from '../errors';
import { shellQuote } from '../quote';
import { RECORDINGS } from './config-recording';
import { configProblem } from './config-messages';
import type { ConfigFile, ConfigProfile, CostPerMtok, McpServerConfig } from './config-types';
import type { Validator } from '../state/read';

export { ENV_NAME } from './config-types';

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
  return text === null ? null : await parseConfigFile({ text, path });
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

/** The endpoint is an http(s) URL, and no two of a profile's MCP servers share a name: what the schema cannot say. */
function checkBeyondSchema({
  p,
  at,
  invalid,
}: {
  p: Record<string, unknown>;
  at: string;
  invalid: (why: string) => InvalidInputError;
}): void {
  if (typeof p.endpoint === 'string' && !isHttpUrl(p.endpoint)) throw invalid(`${at}.endpoint '${p.endpoint}' is not an http(s) URL`);
  const seen = new Set<string>();
  ((p.mcp_servers ?? []) as Array<{ name: string }>).forEach((s, i) => {
    if (seen.has(s.name)) throw invalid(`${at}.mcp_servers[${i}].name '${s.name}' is already the name of another server`);
    seen.add(s.name);
  });
}

/** One checked profile, kept with only the keys it sets; a bare `auto_commit: true` is one commit per task. */
function profileOf(p: Record<string, unknown>): ConfigProfile {
  const picked = Object.fromEntries(Object.entries(p).filter(([key]) => PROFILE_KEYS.has(key))) as ConfigProfile;
  if (p.cost_per_mtok) {
    const c = p.cost_per_mtok as CostPerMtok;
    picked.cost_per_mtok = { input: c.input, output: c.output };
  }
  if (p.mcp_servers)
    picked.mcp_servers = (p.mcp_servers as McpServerConfig[]).map((s) => ({
      name: s.name,
      command: s.command,
      ...(s.env !== undefined ? { env: s.env } : {}),
      ...(s.cwd !== undefined ? { cwd: s.cwd } : {}),
      ...(s.scope !== undefined ? { scope: s.scope } : {}),
    }));
  // One commit per task is the smaller, easier-to-revert unit: what a bare `true` asks for.
  if (p.auto_commit === true) picked.auto_commit = 'task';
  return picked;
}

/** The keys a profile keeps: the schema's (config-schema.ts); another key is left out. */
const PROFILE_KEYS = new Set([
  'endpoint',
  'model',
  'api_key_env',
  'planner_model',
  'cost_per_mtok',
  'context_window',
  'model_routes',
  'auto_quick',
  'hooks',
  'hooks_disabled',
  'hooks_detected_from',
  'mcp_servers',
  'auto_commit',
  'auto_commit_prefix',
  'git_context',
  'parallel_steps',
  ...Object.values(RECORDINGS).map(({ key }) => key),
]);

/**
 * Checks a config file's text against its schema (config-schema.ts, compiled into
 * config-validator.gen.ts); the first thing wrong is the error, in the words of config-messages.ts.
 */
export async function parseConfigFile({ text, path }: { text: string; path: string }): Promise<ConfigFile> {
  const invalid = (why: string) => configInvalid(path, why);
  // Loaded with the first file to check (its own file in dist/vendor/): a first run, with no file, never loads it.
  const validate = (await import('./config-validator.gen')).validateConfig as unknown as Validator;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw invalid(`not JSON (${(err as Error).message})`);
  }
  if (!validate(parsed)) throw invalid(configProblem(validate.errors![0]!, parsed));
  const file = parsed as { default?: string; profiles?: Record<string, Record<string, unknown>> };
  // No prototype: a profile named `toString` or `__proto__` is a name like any other, never Object's.
  const profiles: Record<string, ConfigProfile> = Object.create(null);
  for (const [name, p] of Object.entries(file.profiles ?? {})) {
    checkBeyondSchema({ p, at: `profiles.${name}`, invalid });
    profiles[name] = profileOf(p);
  }
  if (file.default === undefined) return { profiles };
  if (!Object.hasOwn(profiles, file.default)) throw invalid(`"default" names '${file.default}', which is not among the profiles`);
  return { default: file.default, profiles };
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
