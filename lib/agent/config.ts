// Which model the agent talks to (flags > env > a config.json profile > first-run detection) and the profile's hooks, MCP servers and auto-commit, each value with where it came from.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { InvalidInputError } from '../errors';
import { shellQuote } from '../quote';
import { STEP_CATEGORIES } from '../plans/modules';
import { recordableEndpoint } from '../redact';
import { listModels, ollamaContext } from './chat';
import type { StartTimeout } from '../timeout';
import type { ModelContext } from './context';
import type { ModelRoutes, StepCategory } from './routes';
import { SESSIONS_DIR } from './sessions';
import { TELEMETRY_DIR } from './telemetry';

/** The routes' source when the profile has none. */
const NO_ROUTES = 'no model_routes';

export const OLLAMA_ENDPOINT = 'http://localhost:11434/v1';
export const OPENAI_ENDPOINT = 'https://api.openai.com/v1';
export const OPENROUTER_ENDPOINT = 'https://openrouter.ai/api/v1';

/** Models chosen when an API key is all there is: cheap, and good at calling tools. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1-mini';
export const DEFAULT_OPENROUTER_MODEL = 'qwen/qwen3-coder';
/** Suggested when Ollama runs but has no model: small enough for a laptop, and it calls tools. */
export const SUGGESTED_OLLAMA_MODEL = 'qwen3:8b';

/** A first run must not hang on a machine without Ollama; a local server answers in milliseconds. */
export const OLLAMA_PROBE_MS = 300;
/** Asking an explicitly configured endpoint for its models may cross a network. */
const MODEL_LIST_MS = 3000;

/** The hosts whose API key variable forge knows without being told. */
const KNOWN_KEY_ENVS: Array<{ host: string; endpoint: string; env: string; model: string }> = [
  { host: 'api.openai.com', endpoint: OPENAI_ENDPOINT, env: 'OPENAI_API_KEY', model: DEFAULT_OPENAI_MODEL },
  { host: 'openrouter.ai', endpoint: OPENROUTER_ENDPOINT, env: 'OPENROUTER_API_KEY', model: DEFAULT_OPENROUTER_MODEL },
];

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface AgentFlags {
  endpoint?: string;
  model?: string;
  profile?: string;
  apiKeyEnv?: string;
  plannerModel?: string;
}

/** Where a value came from, precise enough to tell the user how to change it. */
export type Source =
  | { kind: 'flag'; flag: string }
  | { kind: 'env'; name: string }
  | { kind: 'config'; path: string; key: string }
  | { kind: 'detected'; detail: string }
  | { kind: 'default'; detail: string };

export interface Sourced<T> {
  value: T;
  source: Source;
}

export interface CostPerMtok {
  input: number;
  output: number;
}

/** The moments a profile's hook commands run at; `on_edit` output goes back to the model with the tool result. */
export const HOOK_EVENTS = ['on_edit', 'on_task_done', 'on_step_done', 'on_session_start', 'on_session_end'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];
/** Shell commands per event, every event present (an empty list runs nothing). */
export type HookConfig = Record<HookEvent, string[]>;

/** An MCP server forge starts over stdio: `command` is the program and its arguments, no shell. */
export interface McpServerConfig {
  name: string;
  command: string[];
  env?: Record<string, string>;
  /** Relative to the repository top. */
  cwd?: string;
  /** The categories whose calls get this server's tools; absent: every category. */
  scope?: StepCategory[];
}

/** One commit per task, or one per plan. */
export type AutoCommit = 'task' | 'plan';

/** Server names become tool-name prefixes, which providers restrict to [A-Za-z0-9_-]. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]{1,32}$/;
export const DEFAULT_AUTO_COMMIT_PREFIX = 'forge: ';
export const GIT_CONTEXT_MODES = ['preamble', 'tool', 'off'] as const;
export type GitContextMode = (typeof GIT_CONTEXT_MODES)[number];

/**
 * What forge agent records on the state ref besides its plans, and what turns each off: the
 * profile key, or any of the variables (DO_NOT_TRACK=1 is the cross-tool "no telemetry" wish,
 * consoledonottrack.com). Off wins: recording happens only when nothing says off.
 */
export const RECORDINGS = {
  telemetry: { what: 'telemetry', path: `${TELEMETRY_DIR}/`, key: 'telemetry_disabled', envs: ['FORGE_NO_TELEMETRY', 'DO_NOT_TRACK'] },
  sessions: { what: 'the session', path: `${SESSIONS_DIR}/`, key: 'sessions_disabled', envs: ['FORGE_NO_SESSIONS'] },
} as const satisfies Record<string, { what: string; path: string; key: keyof ConfigProfile; envs: readonly string[] }>;
export type Recording = keyof typeof RECORDINGS;

/** A variable set to anything but empty, 0 or false turns its recording off. */
function envSaysOff(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** What a profile says besides the model: hooks, MCP servers, auto-commit, recording. Resolving these never probes a network. */
export interface AgentSettings {
  /** The profile in use, if any. */
  profile: Sourced<string> | null;
  configPath: string;
  /** Every event's commands; null when the profile has no `hooks` key yet (forge agent detects them and writes them there). */
  hooks: Sourced<HookConfig | null>;
  /** `hooks_disabled: true`: no hook runs and none is detected. */
  hooksDisabled: Sourced<boolean>;
  /** The build files detected hooks came from; null for hooks a person wrote (they serve every project). */
  hooksDetectedFrom: string[] | null;
  mcpServers: Sourced<McpServerConfig[]>;
  /** null: auto-commit is off (the default). */
  autoCommit: Sourced<AutoCommit | null>;
  autoCommitPrefix: Sourced<string>;
  /** How the model sees git status, the last commits and the staged diff: a capped preamble (the default), a git_context tool, or not at all. */
  gitContext: Sourced<GitContextMode>;
  /** How many independent plan steps may run at once, each in its own git worktree (parallel_steps; 1: one after another). */
  parallelSteps: Sourced<number>;
  /** Whether each kind is recorded (true) or turned off (false), and by what. */
  recording: Record<Recording, Sourced<boolean>>;
}

export interface ModelConfig extends AgentSettings {
  endpoint: Sourced<string>;
  model: Sourced<string>;
  /** The name of the variable holding the API key; null for endpoints that need none (Ollama). */
  apiKeyEnv: Sourced<string | null>;
  /** The key itself, read from `apiKeyEnv`. */
  apiKey: string | undefined;
  /** A model for planning; null means the main model plans too (no other model is ever called unasked). */
  plannerModel: Sourced<string | null>;
  /** Dollars per million tokens, for the cost shown after a run; null when unknown. */
  cost: Sourced<CostPerMtok | null>;
  /** The model's context in tokens from the profile's context_window; null when the profile gives none (forge agent then asks Ollama). */
  contextWindow: Sourced<number | null>;
  /** The profile's model_routes while its model is the one in use (a --model or FORGE_MODEL means one model for every call); {} otherwise. */
  routes: Sourced<ModelRoutes>;
  /** auto_quick: a short question without files or plan words goes to quick mode. */
  autoQuick: Sourced<boolean>;
  /**
   * No flag, env or profile chose the endpoint and the config file sets no endpoint or model
   * anywhere (it is missing, or holds only what forge wrote itself, like detected hooks): the CLI
   * should say what was picked.
   */
  firstRun: boolean;
}

/** The most plan steps that run at once: each holds a worktree and a model request. */
export const MAX_PARALLEL_STEPS = 8;

export interface ConfigProfile {
  endpoint?: string;
  model?: string;
  api_key_env?: string;
  planner_model?: string;
  cost_per_mtok?: CostPerMtok;
  /** The model's context in tokens, for endpoints forge cannot ask (everything but Ollama). */
  context_window?: number;
  /** A model per category of call: plan steps by their category, quick mode by quick, the planner by deep. */
  model_routes?: ModelRoutes;
  /** `true`: a short task naming no file and no plan word runs as --quick. */
  auto_quick?: boolean;
  /** As written: events may be missing. */
  hooks?: Partial<HookConfig>;
  hooks_disabled?: boolean;
  /**
   * Written with detected hooks: the build files they came from. A repository with other build
   * files gets its own detected hooks for the run instead (the profile serves every project).
   */
  hooks_detected_from?: string[];
  mcp_servers?: McpServerConfig[];
  /** `true` in the file is read as "task". */
  auto_commit?: AutoCommit | false;
  auto_commit_prefix?: string;
  /** "preamble" (default: measured cheapest by bench/git-context.ts), "tool" or "off". */
  git_context?: GitContextMode;
  /** Plan steps with no shared file and no dependency that may run at once, each in its own worktree (1 to 8; default 1). */
  parallel_steps?: number;
  /** `true`: forge agent appends nothing to .forge/telemetry/. */
  telemetry_disabled?: boolean;
  /** `true`: forge agent saves no session turns (.forge/agent/sessions/); --continue has nothing new to continue. */
  sessions_disabled?: boolean;
}

export interface ConfigFile {
  default?: string;
  profiles: Record<string, ConfigProfile>;
}

/** `$XDG_CONFIG_HOME/forge/config.json`, `~/.config/forge/config.json` by default. */
export function configPath({ env, homeDir = homedir() }: { env: Record<string, string | undefined>; homeDir?: string }): string {
  return join(env.XDG_CONFIG_HOME || join(homeDir, '.config'), 'forge', 'config.json');
}

/** PROFILE_NOT_CHOSEN: the file has several profiles and no default, and nothing named one. */
function profileNotChosen({ path, names, command }: { path: string; names: string[]; command: string }): InvalidInputError {
  return new InvalidInputError('PROFILE_NOT_CHOSEN', `'${path}' has profiles ${names.map((n) => `'${n}'`).join(', ')} and no "default"`, {
    fix: `${command} --profile ${shellQuote(names[0]!)}`,
    data: { profiles: names },
  });
}

/** The endpoint and model a flag, the environment or the profile names (detection comes later); the endpoint without trailing slashes. */
function namedEndpointAndModel({
  flags,
  env,
  settings,
  fromConfig,
}: {
  flags: AgentFlags;
  env: Record<string, string | undefined>;
  settings: ConfigProfile;
  fromConfig: (key: keyof ConfigProfile) => Source;
}): { endpoint: Sourced<string> | undefined; model: Sourced<string> | undefined } {
  const endpoint = first<string>([
    [flags.endpoint, { kind: 'flag', flag: '--endpoint' }],
    [env.FORGE_ENDPOINT, { kind: 'env', name: 'FORGE_ENDPOINT' }],
    [settings.endpoint, fromConfig('endpoint')],
  ]);
  const model = first<string>([
    [flags.model, { kind: 'flag', flag: '--model' }],
    [env.FORGE_MODEL, { kind: 'env', name: 'FORGE_MODEL' }],
    [settings.model, fromConfig('model')],
  ]);
  return { endpoint: endpoint && { value: trimSlashes(endpoint.value), source: endpoint.source }, model };
}

/** The API key variable's name, once chosen, and the key it holds; a variable that is not set is API_KEY_MISSING. */
function apiKeyOf({
  endpoint,
  apiKeyEnv,
  env,
}: {
  endpoint: Sourced<string>;
  apiKeyEnv: Sourced<string> | undefined;
  env: Record<string, string | undefined>;
}): { apiKeyEnv: Sourced<string> | undefined; apiKey: string | undefined } {
  const known = knownHost(endpoint.value);
  if (apiKeyEnv === undefined && known && env[known.env])
    apiKeyEnv = { value: known.env, source: { kind: 'default', detail: `the usual key variable for ${known.host}` } };
  const apiKey = apiKeyEnv ? env[apiKeyEnv.value] || undefined : undefined;
  if (apiKeyEnv && !apiKey) {
    throw new InvalidInputError(
      'API_KEY_MISSING',
      `the API key variable '${apiKeyEnv.value}' (${describeSource(apiKeyEnv.source)}) is not set`,
      {
        // Reads the key from the terminal without echoing it: a working command, not a placeholder.
        fix: `read -rs ${apiKeyEnv.value} && export ${apiKeyEnv.value}`,
        data: { apiKeyEnv: apiKeyEnv.value },
      },
    );
  }
  return { apiKeyEnv, apiKey };
}

/** The planner model, the cost per Mtok, the context window, the model routes and auto_quick: a profile's prices and window only while its model is the one in use. */
function modelExtras({
  flags,
  settings,
  fromConfig,
  profileModelInUse,
  routesOff,
}: {
  flags: AgentFlags;
  settings: ConfigProfile;
  fromConfig: (key: keyof ConfigProfile) => Source;
  profileModelInUse: boolean;
  /** Why the profile's model_routes are not used; null when they are. */
  routesOff: string | null;
}): Pick<ModelConfig, 'plannerModel' | 'cost' | 'contextWindow' | 'routes' | 'autoQuick'> {
  const routes = routesOff === null ? (settings.model_routes ?? {}) : {};
  return {
    plannerModel: first<string>([
      [flags.plannerModel, { kind: 'flag', flag: '--planner-model' }],
      [settings.planner_model, fromConfig('planner_model')],
      [routes.deep, fromConfig('model_routes')],
    ]) ?? { value: null, source: { kind: 'default', detail: 'the main model plans' } },
    routes:
      routesOff === null && settings.model_routes
        ? { value: routes, source: fromConfig('model_routes') }
        : {
            value: {},
            source: {
              kind: 'default',
              detail: settings.model_routes ? `${routesOff}, so the profile's model_routes are not used` : NO_ROUTES,
            },
          },
    autoQuick:
      settings.auto_quick !== undefined
        ? { value: settings.auto_quick, source: fromConfig('auto_quick') }
        : { value: false, source: { kind: 'default', detail: 'auto_quick is off' } },
    cost:
      settings.cost_per_mtok && profileModelInUse
        ? { value: settings.cost_per_mtok, source: fromConfig('cost_per_mtok') }
        : { value: null, source: { kind: 'default', detail: 'no cost per Mtok configured' } },
    contextWindow:
      settings.context_window && profileModelInUse
        ? { value: settings.context_window, source: fromConfig('context_window') }
        : { value: null, source: { kind: 'default', detail: 'no context_window configured' } },
  };
}

/**
 * Resolves every model setting. Per value the first of these wins: a flag; an env var
 * (`FORGE_ENDPOINT`, `FORGE_MODEL`, `FORGE_PROFILE`); the chosen profile of the config file; and
 * for the endpoint, first-run detection: Ollama if it answers at `FORGE_OLLAMA_URL` (default
 * http://localhost:11434/v1) within 300 ms, else OpenAI if OPENAI_API_KEY is set, else OpenRouter
 * if OPENROUTER_API_KEY is set. With none of these it fails and says how to configure one.
 */
export async function resolveModelConfig({
  flags = {},
  env,
  homeDir = homedir(),
  signal,
  startTimeout,
}: {
  flags?: AgentFlags;
  env: Record<string, string | undefined>;
  homeDir?: string;
  signal?: AbortSignal;
  /** The clock the probe of Ollama and the list of an endpoint's models run on (default the wall clock; tests pass their own). */
  startTimeout?: StartTimeout;
}): Promise<ModelConfig> {
  const path = configPath({ env, homeDir });
  const file = await loadConfigFile(path);
  const profile = chooseProfile({ flags, env, file, path });
  const settings: ConfigProfile = profile ? (file?.profiles[profile.value] ?? {}) : {};
  const fromConfig = (key: keyof ConfigProfile): Source => ({ kind: 'config', path, key: `profiles.${profile?.value}.${key}` });
  let { endpoint, model } = namedEndpointAndModel({ flags, env, settings, fromConfig });
  // A profile's key belongs to the profile's endpoint: never send it to an endpoint chosen elsewhere.
  // Its prices belong to its model there too.
  const profileEndpointInUse = settings.endpoint === undefined || endpoint?.value === trimSlashes(settings.endpoint);
  const profileModelInUse = profileEndpointInUse && (settings.model === undefined || model?.value === settings.model);
  // Routes are the profile's choice of models: a model named by a flag or FORGE_MODEL is one model for every call.
  const routesOff = !profileEndpointInUse
    ? "the endpoint in use is not the profile's"
    : model?.source.kind === 'flag'
      ? `${model.source.flag} names it`
      : model?.source.kind === 'env'
        ? `$${model.source.name} names it`
        : null;
  const routesInUse = routesOff === null;
  if (model === undefined && routesInUse && settings.model_routes?.standard)
    model = { value: settings.model_routes.standard, source: fromConfig('model_routes') };
  if (flags.apiKeyEnv !== undefined && !ENV_NAME.test(flags.apiKeyEnv)) {
    // The value is not echoed: someone who passed the key itself should not see it in logs.
    throw new InvalidInputError('INVALID_API_KEY_ENV', '--api-key-env takes the name of the variable that holds the key, not the key', {
      fix: 'forge agent --api-key-env OPENAI_API_KEY',
    });
  }
  let apiKeyEnv = first<string>([
    [flags.apiKeyEnv, { kind: 'flag', flag: '--api-key-env' }],
    [profileEndpointInUse ? settings.api_key_env : undefined, fromConfig('api_key_env')],
  ]);
  // A file that only holds what forge wrote (detected hooks) has not chosen a model either.
  const firstRun =
    endpoint === undefined &&
    (file === null || Object.values(file.profiles).every((p) => p.endpoint === undefined && p.model === undefined));
  const profileNames = file ? Object.keys(file.profiles) : [];
  // Detection would silently ignore every profile the user wrote.
  if (endpoint === undefined && !profile && profileNames.length > 1)
    throw profileNotChosen({ path, names: profileNames, command: 'forge agent' });
  if (endpoint === undefined) {
    const detected = await detectEndpoint({ env, signal, startTimeout, modelChosen: model !== undefined });
    endpoint = detected.endpoint;
    model ??= detected.model;
    apiKeyEnv ??= detected.apiKeyEnv;
  } else {
    assertHttpUrl(endpoint);
  }
  const key = apiKeyOf({ endpoint, apiKeyEnv, env });
  model ??= await defaultModel({ endpoint: endpoint.value, apiKey: key.apiKey, signal, startTimeout });
  return {
    endpoint,
    model,
    apiKeyEnv: key.apiKeyEnv ?? { value: null, source: { kind: 'default', detail: 'no API key is sent' } },
    apiKey: key.apiKey,
    ...modelExtras({ flags, settings, fromConfig, profileModelInUse, routesOff }),
    ...profileSettings({ file, profile, path, env }),
    firstRun,
  };
}

/**
 * The profile's hooks, MCP servers and auto-commit, chosen as resolveModelConfig chooses the
 * profile (--profile, FORGE_PROFILE, the file's default, its only profile) but without resolving
 * a model, so it never probes the network. `command` names the command in the fixes of errors.
 */
export async function resolveAgentSettings({
  flags = {},
  env,
  homeDir = homedir(),
  command = 'forge agent',
}: {
  flags?: Pick<AgentFlags, 'profile'>;
  env: Record<string, string | undefined>;
  homeDir?: string;
  command?: string;
}): Promise<AgentSettings> {
  const path = configPath({ env, homeDir });
  const file = await loadConfigFile(path);
  const profile = chooseProfile({ flags, env, file, path, command });
  const names = file ? Object.keys(file.profiles) : [];
  // Which profile's hooks and servers? Guessing would show settings the agent does not use.
  if (!profile && names.length > 1) throw profileNotChosen({ path, names, command });
  return profileSettings({ file, profile, path, env });
}

function profileSettings({
  file,
  profile,
  path,
  env,
}: {
  file: ConfigFile | null;
  profile: Sourced<string> | null;
  path: string;
  env: Record<string, string | undefined>;
}): AgentSettings {
  const p: ConfigProfile = profile ? (file?.profiles[profile.value] ?? {}) : {};
  const from = (key: keyof ConfigProfile): Source => ({ kind: 'config', path, key: `profiles.${profile?.value}.${key}` });
  const unset = (detail: string): Source => ({ kind: 'default', detail });
  return {
    profile,
    configPath: path,
    hooks: p.hooks
      ? { value: Object.fromEntries(HOOK_EVENTS.map((e) => [e, p.hooks![e] ?? []])) as HookConfig, source: from('hooks') }
      : {
          value: null,
          source: unset(
            profile
              ? `profiles.${profile.value} has no hooks yet: forge agent detects them and writes them there`
              : 'no profile: forge agent detects hooks and writes them into a new profile',
          ),
        },
    hooksDisabled:
      p.hooks_disabled !== undefined
        ? { value: p.hooks_disabled, source: from('hooks_disabled') }
        : { value: false, source: unset('hooks run unless hooks_disabled is true') },
    hooksDetectedFrom: p.hooks_detected_from ?? null,
    mcpServers: p.mcp_servers
      ? { value: p.mcp_servers, source: from('mcp_servers') }
      : { value: [], source: unset('no MCP servers configured') },
    autoCommit:
      p.auto_commit !== undefined
        ? { value: p.auto_commit || null, source: from('auto_commit') }
        : { value: null, source: unset('auto-commit is off') },
    autoCommitPrefix:
      p.auto_commit_prefix !== undefined
        ? { value: p.auto_commit_prefix, source: from('auto_commit_prefix') }
        : { value: DEFAULT_AUTO_COMMIT_PREFIX, source: unset(`commit messages start with '${DEFAULT_AUTO_COMMIT_PREFIX}'`) },
    gitContext:
      p.git_context !== undefined
        ? { value: p.git_context, source: from('git_context') }
        : { value: 'preamble', source: unset('git status, the last commits and the staged diff open the system prompt') },
    parallelSteps:
      p.parallel_steps !== undefined
        ? { value: p.parallel_steps, source: from('parallel_steps') }
        : { value: 1, source: unset('plan steps run one after another unless parallel_steps is more than 1') },
    recording: Object.fromEntries(
      (Object.keys(RECORDINGS) as Recording[]).map((kind) => {
        const { key, envs } = RECORDINGS[kind];
        const offBy = envs.find((name) => envSaysOff(env[name]));
        const value: Sourced<boolean> = offBy
          ? { value: false, source: { kind: 'env', name: offBy } }
          : p[key] !== undefined
            ? { value: !p[key], source: from(key) }
            : { value: true, source: unset(`recorded unless ${key} is true or ${envs.map((e) => `${e}=1`).join(' or ')}`) };
        return [kind, value];
      }),
    ) as Record<Recording, Sourced<boolean>>,
  };
}

/**
 * The line forge agent prints about what it records: where each kind goes or what turned it off,
 * and how to turn it off. `kinds`: what this run can record (a plan saves no session turns).
 */
export function describeRecording(
  settings: Pick<AgentSettings, 'recording'>,
  kinds: readonly Recording[] = Object.keys(RECORDINGS) as Recording[],
): string {
  const on = kinds.filter((k) => settings.recording[k].value);
  const off = kinds
    .filter((k) => !settings.recording[k].value)
    .map((k) => `${RECORDINGS[k].what} (off ${describeSource(settings.recording[k].source)})`);
  if (!on.length) return `not recording ${off.join(' or ')}`;
  const what = on.map((k) => `${RECORDINGS[k].what} (${RECORDINGS[k].path})`).join(' and ');
  const how = `${on.map((k) => `${RECORDINGS[k].envs[0]}=1`).join(', ')} (or ${on.map((k) => RECORDINGS[k].key).join(', ')} in a profile) ${on.length === 1 ? 'turns it' : 'turn them'} off`;
  return `recording ${what} on refs/forge/state, secrets redacted${off.length ? `; not ${off.join(' or ')}` : ''}; ${how}`;
}

function first<T>(candidates: Array<[T | undefined, Source]>): Sourced<T> | undefined {
  for (const [value, source] of candidates) if (value !== undefined && value !== '') return { value, source };
  return undefined;
}

/** The profile named by flag or env, else the file's default, else its only profile. */
function chooseProfile({
  flags,
  env,
  file,
  path,
  command = 'forge agent',
}: {
  flags: Pick<AgentFlags, 'profile'>;
  env: Record<string, string | undefined>;
  file: ConfigFile | null;
  path: string;
  command?: string;
}): Sourced<string> | null {
  const named = first<string>([
    [flags.profile, { kind: 'flag', flag: '--profile' }],
    [env.FORGE_PROFILE, { kind: 'env', name: 'FORGE_PROFILE' }],
  ]);
  const names = file ? Object.keys(file.profiles) : [];
  if (named) {
    if (file?.profiles[named.value]) return named;
    throw new InvalidInputError(
      'PROFILE_NOT_FOUND',
      `no profile '${named.value}' in '${path}'${names.length ? `; it has ${names.map((n) => `'${n}'`).join(', ')}` : ''}`,
      {
        fix: names[0] !== undefined ? `${command} --profile ${shellQuote(names[0])}` : editFix(path),
        data: { profile: named.value, profiles: names },
      },
    );
  }
  if (!file) return null;
  if (file.default !== undefined) return { value: file.default, source: { kind: 'config', path, key: 'default' } };
  if (names.length === 1) return { value: names[0]!, source: { kind: 'config', path, key: 'profiles (its only profile)' } };
  return null;
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

interface Detected {
  endpoint: Sourced<string>;
  model?: Sourced<string>;
  apiKeyEnv?: Sourced<string>;
}

async function detectEndpoint({
  env,
  signal,
  startTimeout,
  modelChosen,
}: {
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
  startTimeout?: StartTimeout;
  modelChosen: boolean;
}): Promise<Detected> {
  const ollama = trimSlashes(env.FORGE_OLLAMA_URL || OLLAMA_ENDPOINT);
  // The default address is a guess that must cost a machine without Ollama nothing; an address the
  // user gave is where they run it, maybe across a network, and is asked as a configured endpoint is.
  const timeoutMs = env.FORGE_OLLAMA_URL ? MODEL_LIST_MS : OLLAMA_PROBE_MS;
  const models = await listModels({ endpoint: ollama, timeoutMs, signal, startTimeout }).catch(() => {
    if (signal?.aborted) throw signal.reason;
    return null;
  });
  if (models) {
    const endpoint: Sourced<string> = { value: ollama, source: { kind: 'detected', detail: `Ollama answered at ${ollama}` } };
    if (modelChosen) return { endpoint };
    if (!models.length) {
      throw new InvalidInputError('NO_MODEL', `Ollama runs at '${ollama}' but has no models`, {
        fix: `ollama pull ${SUGGESTED_OLLAMA_MODEL}`,
        data: { endpoint: ollama },
      });
    }
    return {
      endpoint,
      model: { value: models[0]!, source: { kind: 'detected', detail: `the first of the ${models.length} models Ollama lists` } },
    };
  }
  for (const { host, endpoint, env: keyEnv, model } of KNOWN_KEY_ENVS) {
    if (!env[keyEnv]) continue;
    return {
      endpoint: { value: endpoint, source: { kind: 'detected', detail: `no Ollama at ${ollama}, and ${keyEnv} is set` } },
      model: { value: model, source: { kind: 'default', detail: `forge's default model for ${host}` } },
      apiKeyEnv: { value: keyEnv, source: { kind: 'detected', detail: `${keyEnv} is set` } },
    };
  }
  throw new InvalidInputError(
    'NO_MODEL_ENDPOINT',
    `no model to talk to: nothing answers at '${ollama}' (start Ollama: ollama serve), OPENAI_API_KEY and OPENROUTER_API_KEY are unset, and no profile or --endpoint names one`,
    { fix: `forge agent --endpoint ${OLLAMA_ENDPOINT} --model ${SUGGESTED_OLLAMA_MODEL}`, data: { probed: ollama } },
  );
}

/** A model for an endpoint that was given without one: the host's usual model, else the first it lists. */
async function defaultModel({
  endpoint,
  apiKey,
  signal,
  startTimeout,
}: {
  endpoint: string;
  apiKey: string | undefined;
  signal?: AbortSignal;
  startTimeout?: StartTimeout;
}): Promise<Sourced<string>> {
  const known = knownHost(endpoint);
  if (known) return { value: known.model, source: { kind: 'default', detail: `forge's default model for ${known.host}` } };
  const models = await listModels({ endpoint, apiKey, timeoutMs: MODEL_LIST_MS, signal, startTimeout }).catch(() => {
    if (signal?.aborted) throw signal.reason;
    return [] as string[];
  });
  if (!models.length) {
    throw new InvalidInputError('NO_MODEL', `no model is configured for '${endpoint}' and it lists none`, {
      // What the endpoint answers when asked for its models: the names --model takes.
      fix: `curl -sS ${shellQuote(`${endpoint.replace(/\/+$/, '')}/models`)}`,
      data: { endpoint },
    });
  }
  return { value: models[0]!, source: { kind: 'detected', detail: `the first of the ${models.length} models '${endpoint}' lists` } };
}

function knownHost(endpoint: string): (typeof KNOWN_KEY_ENVS)[number] | undefined {
  let host: string;
  try {
    host = new URL(endpoint).hostname;
  } catch {
    return undefined;
  }
  return KNOWN_KEY_ENVS.find((k) => host === k.host || host.endsWith(`.${k.host}`));
}

function assertHttpUrl(endpoint: Sourced<string>): void {
  if (isHttpUrl(endpoint.value)) return;
  throw new InvalidInputError(
    'INVALID_ENDPOINT',
    `endpoint '${endpoint.value}' (${describeSource(endpoint.source)}) is not an http(s) URL`,
    {
      fix: endpointFix(endpoint.value, endpoint.source),
      data: { endpoint: endpoint.value },
    },
  );
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function trimSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}

/** The command that opens the config file in an editor: the fix for anything wrong in it. */
export function editFix(path: string): string {
  return `"\${EDITOR:-vi}" ${shellQuote(path)}`;
}

/** `from the --model flag`, `from FORGE_MODEL`, `from profiles.local.model in ~/.config/forge/config.json`… */
export function describeSource(source: Source): string {
  switch (source.kind) {
    case 'flag':
      return `from ${source.flag}`;
    case 'env':
      return `from $${source.name}`;
    case 'config':
      return `from ${source.key} in ${source.path}`;
    case 'detected':
      return `detected: ${source.detail}`;
    case 'default':
      return `default: ${source.detail}`;
  }
}

const FLAGS = { endpoint: '--endpoint URL', model: '--model NAME' } as const;
const ENVS = { endpoint: 'FORGE_ENDPOINT', model: 'FORGE_MODEL' } as const;

/**
 * The command that mends an endpoint that is no http(s) URL: the variable that set it unset, the
 * same address with http:// when the scheme is what is missing (localhost:11434), else the help.
 */
function endpointFix(value: string, source: Source): string {
  if (source.kind === 'env') return `unset ${source.name}`;
  return /^[\w.-]+(:\d+)?(\/|$)/.test(value) ? `forge agent --endpoint ${shellQuote(`http://${value}`)}` : 'forge agent --help';
}

/**
 * What a first run (or `--verbose`) prints: each value, where it came from and how to change it,
 * e.g. `endpoint http://localhost:11434/v1 (detected: Ollama answered at …); change it with
 * --endpoint URL, $FORGE_ENDPOINT or a profile in ~/.config/forge/config.json`.
 */
export function describeModelConfig(config: ModelConfig): string[] {
  // The endpoint as it is recorded: a URL with credentials or a key in its query is not echoed.
  const shown = { endpoint: recordableEndpoint(config.endpoint.value), model: config.model.value };
  const lines = (['endpoint', 'model'] as const).map(
    (field) =>
      `${field} ${shown[field]} (${describeSource(config[field].source)}); change it with ${FLAGS[field]}, $${ENVS[field]} or a profile in ${config.configPath}`,
  );
  if (config.apiKeyEnv.value)
    lines.push(
      `API key from $${config.apiKeyEnv.value} (${describeSource(config.apiKeyEnv.source)}); change it with --api-key-env NAME or api_key_env in a profile`,
    );
  const routes = Object.entries(config.routes.value);
  if (!routes.length && config.routes.source.kind === 'default' && config.routes.source.detail !== NO_ROUTES)
    lines.push(`one model for every call: ${config.routes.source.detail}`);
  if (routes.length)
    lines.push(
      `model routes ${routes.map(([c, m]) => `${c} ${m}`).join(', ')} (${describeSource(config.routes.source)}); plan steps go by their category`,
    );
  if (config.plannerModel.value) lines.push(`planner model ${config.plannerModel.value} (${describeSource(config.plannerModel.source)})`);
  if (config.profile)
    lines.push(
      `profile ${config.profile.value} (${describeSource(config.profile.source)}); change it with --profile NAME or $FORGE_PROFILE`,
    );
  return lines;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The model's context: the profile's context_window, else what Ollama says when the endpoint is an
 * Ollama (asked only of endpoints that need no key: hosted APIs do), else unknown (null).
 */
export async function modelContext({
  config,
  signal,
}: {
  config: Pick<ModelConfig, 'contextWindow' | 'endpoint' | 'model' | 'apiKey' | 'configPath'>;
  signal?: AbortSignal;
}): Promise<ModelContext | null> {
  const configured = config.contextWindow.value;
  if (configured !== null)
    return {
      tokens: configured,
      what: `the context is ${configured} tokens (${describeSource(config.contextWindow.source)})`,
      raise: null,
    };
  if (config.apiKey) return null;
  const model = config.model.value;
  const ollama = await ollamaContext({ endpoint: config.endpoint.value, model, signal });
  if (!ollama) return null;
  const upTo = (n: number) => Math.min(n, ollama.trained ?? n);
  if (ollama.from === 'num_ctx')
    return {
      tokens: ollama.tokens,
      what: `the Modelfile of '${model}' sets num_ctx ${ollama.tokens} at Ollama, which cuts longer requests silently`,
      raise: (n) => `PARAMETER num_ctx ${upTo(n)} in its Modelfile (ollama show --modelfile ${shellQuote(model)}, then ollama create)`,
    };
  const what =
    ollama.from === 'loaded'
      ? `Ollama runs '${model}' with a context of ${ollama.tokens} tokens`
      : `Ollama gives '${model}' ${ollama.tokens} tokens of context by default (below 24 GiB of VRAM)`;
  return {
    tokens: ollama.tokens,
    what: `${what} and cuts longer requests silently`,
    raise: (n) => `OLLAMA_CONTEXT_LENGTH=${upTo(n)} ollama serve`,
  };
}
