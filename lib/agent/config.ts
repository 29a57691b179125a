// Which model the agent talks to: flags > env > a config.json profile > first-run detection, each value with where it came from.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { InvalidInputError } from '../errors';
import { shellQuote } from '../quote';
import { listModels } from './chat';

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

export interface ModelConfig {
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
  /** The profile in use, if any. */
  profile: Sourced<string> | null;
  configPath: string;
  /** No config file and no flags or env chose the endpoint: the CLI should say what was picked. */
  firstRun: boolean;
}

export interface ConfigProfile {
  endpoint?: string;
  model?: string;
  api_key_env?: string;
  planner_model?: string;
  cost_per_mtok?: CostPerMtok;
}

export interface ConfigFile {
  default?: string;
  profiles: Record<string, ConfigProfile>;
}

/** `$XDG_CONFIG_HOME/forge/config.json`, `~/.config/forge/config.json` by default. */
export function configPath({ env, homeDir = homedir() }: { env: Record<string, string | undefined>; homeDir?: string }): string {
  return join(env.XDG_CONFIG_HOME || join(homeDir, '.config'), 'forge', 'config.json');
}

/**
 * Resolves every model setting. Per value the first of these wins: a flag; an env var
 * (`FORGE_ENDPOINT`, `FORGE_MODEL`, `FORGE_PROFILE`); the chosen profile of the config file; and
 * for the endpoint, first-run detection: Ollama if it answers at `FORGE_OLLAMA_URL` (default
 * http://localhost:11434/v1) within 300 ms, else OpenAI if OPENAI_API_KEY is set, else OpenRouter
 * if OPENROUTER_API_KEY is set. With none of these it fails and says how to configure one.
 */
export async function resolveModelConfig({ flags = {}, env, homeDir = homedir(), signal }: { flags?: AgentFlags; env: Record<string, string | undefined>; homeDir?: string; signal?: AbortSignal }): Promise<ModelConfig> {
  const path = configPath({ env, homeDir });
  const file = await loadConfigFile(path);
  const profile = chooseProfile({ flags, env, file, path });
  const settings: ConfigProfile = profile ? (file?.profiles[profile.value] ?? {}) : {};
  const fromConfig = (key: keyof ConfigProfile): Source => ({ kind: 'config', path, key: `profiles.${profile?.value}.${key}` });

  let endpoint = first<string>([
    [flags.endpoint, { kind: 'flag', flag: '--endpoint' }],
    [env.FORGE_ENDPOINT, { kind: 'env', name: 'FORGE_ENDPOINT' }],
    [settings.endpoint, fromConfig('endpoint')],
  ]);
  if (endpoint) endpoint = { value: trimSlashes(endpoint.value), source: endpoint.source };
  let model = first<string>([
    [flags.model, { kind: 'flag', flag: '--model' }],
    [env.FORGE_MODEL, { kind: 'env', name: 'FORGE_MODEL' }],
    [settings.model, fromConfig('model')],
  ]);
  // A profile's key belongs to the profile's endpoint: never send it to an endpoint chosen elsewhere.
  // Its prices belong to its model there too.
  const profileEndpointInUse = settings.endpoint === undefined || endpoint?.value === trimSlashes(settings.endpoint);
  const profileModelInUse = profileEndpointInUse && (settings.model === undefined || model?.value === settings.model);
  if (flags.apiKeyEnv !== undefined && !ENV_NAME.test(flags.apiKeyEnv)) {
    // The value is not echoed: someone who passed the key itself should not see it in logs.
    throw new InvalidInputError('INVALID_API_KEY_ENV', '--api-key-env takes the name of the variable that holds the key, not the key', { fix: 'forge agent --api-key-env OPENAI_API_KEY' });
  }
  let apiKeyEnv = first<string>([
    [flags.apiKeyEnv, { kind: 'flag', flag: '--api-key-env' }],
    [profileEndpointInUse ? settings.api_key_env : undefined, fromConfig('api_key_env')],
  ]);
  const firstRun = endpoint === undefined && file === null;
  const profileNames = file ? Object.keys(file.profiles) : [];
  if (endpoint === undefined && !profile && profileNames.length > 1) {
    // Detection would silently ignore every profile the user wrote.
    throw new InvalidInputError('PROFILE_NOT_CHOSEN', `'${path}' has profiles ${profileNames.map((n) => `'${n}'`).join(', ')} and no "default"`, {
      fix: `forge agent --profile ${shellQuote(profileNames[0]!)}`,
      data: { profiles: profileNames },
    });
  }

  if (endpoint === undefined) {
    const detected = await detectEndpoint({ env, signal, modelChosen: model !== undefined });
    endpoint = detected.endpoint;
    model ??= detected.model;
    apiKeyEnv ??= detected.apiKeyEnv;
  } else {
    assertHttpUrl(endpoint);
  }
  const known = knownHost(endpoint.value);
  if (apiKeyEnv === undefined && known && env[known.env]) apiKeyEnv = { value: known.env, source: { kind: 'default', detail: `the usual key variable for ${known.host}` } };
  const apiKey = apiKeyEnv ? env[apiKeyEnv.value] || undefined : undefined;
  if (apiKeyEnv && !apiKey) {
    throw new InvalidInputError('API_KEY_MISSING', `the API key variable '${apiKeyEnv.value}' (${describeSource(apiKeyEnv.source)}) is not set`, {
      fix: `export ${apiKeyEnv.value}=…`,
      data: { apiKeyEnv: apiKeyEnv.value },
    });
  }
  model ??= await defaultModel({ endpoint: endpoint.value, apiKey, signal });

  return {
    endpoint,
    model,
    apiKeyEnv: apiKeyEnv ?? { value: null, source: { kind: 'default', detail: 'no API key is sent' } },
    apiKey,
    plannerModel: first<string>([
      [flags.plannerModel, { kind: 'flag', flag: '--planner-model' }],
      [settings.planner_model, fromConfig('planner_model')],
    ]) ?? { value: null, source: { kind: 'default', detail: 'the main model plans' } },
    cost: settings.cost_per_mtok && profileModelInUse ? { value: settings.cost_per_mtok, source: fromConfig('cost_per_mtok') } : { value: null, source: { kind: 'default', detail: 'no cost per Mtok configured' } },
    profile,
    configPath: path,
    firstRun,
  };
}

function first<T>(candidates: Array<[T | undefined, Source]>): Sourced<T> | undefined {
  for (const [value, source] of candidates) if (value !== undefined && value !== '') return { value, source };
  return undefined;
}

/** The profile named by flag or env, else the file's default, else its only profile. */
function chooseProfile({ flags, env, file, path }: { flags: AgentFlags; env: Record<string, string | undefined>; file: ConfigFile | null; path: string }): Sourced<string> | null {
  const named = first<string>([
    [flags.profile, { kind: 'flag', flag: '--profile' }],
    [env.FORGE_PROFILE, { kind: 'env', name: 'FORGE_PROFILE' }],
  ]);
  const names = file ? Object.keys(file.profiles) : [];
  if (named) {
    if (file?.profiles[named.value]) return named;
    throw new InvalidInputError('PROFILE_NOT_FOUND', `no profile '${named.value}' in '${path}'${names.length ? `; it has ${names.map((n) => `'${n}'`).join(', ')}` : ''}`, {
      fix: names[0] !== undefined ? `forge agent --profile ${shellQuote(names[0])}` : editFix(path),
      data: { profile: named.value, profiles: names },
    });
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
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new InvalidInputError('CONFIG_UNREADABLE', `cannot read '${path}': ${(err as Error).message}`, { fix: `ls -l ${shellQuote(path)}`, data: { path } });
  }
  const invalid = (why: string) => new InvalidInputError('CONFIG_INVALID', `invalid config '${path}': ${why}`, { fix: editFix(path), data: { path } });
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
    for (const key of ['endpoint', 'model', 'api_key_env', 'planner_model'] as const) {
      if (p[key] !== undefined && (typeof p[key] !== 'string' || p[key] === '')) throw invalid(`${at}.${key} must be a non-empty string`);
    }
    if (typeof p.endpoint === 'string' && !isHttpUrl(p.endpoint)) throw invalid(`${at}.endpoint '${p.endpoint}' is not an http(s) URL`);
    if (typeof p.api_key_env === 'string' && !ENV_NAME.test(p.api_key_env)) throw invalid(`${at}.api_key_env must name an environment variable, not hold the key`);
    let cost: CostPerMtok | undefined;
    if (p.cost_per_mtok !== undefined) {
      const c = p.cost_per_mtok;
      const ok = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
      if (!isRecord(c) || !ok(c.input) || !ok(c.output)) throw invalid(`${at}.cost_per_mtok must be {"input": dollars, "output": dollars}, both numbers ≥ 0`);
      cost = { input: c.input as number, output: c.output as number };
    }
    checked[name] = {
      ...(typeof p.endpoint === 'string' ? { endpoint: p.endpoint } : {}),
      ...(typeof p.model === 'string' ? { model: p.model } : {}),
      ...(typeof p.api_key_env === 'string' ? { api_key_env: p.api_key_env } : {}),
      ...(typeof p.planner_model === 'string' ? { planner_model: p.planner_model } : {}),
      ...(cost ? { cost_per_mtok: cost } : {}),
    };
  }
  if (parsed.default !== undefined) {
    if (typeof parsed.default !== 'string') throw invalid('"default" must be the name of a profile');
    if (!checked[parsed.default]) throw invalid(`"default" names '${parsed.default}', which is not among the profiles`);
    return { default: parsed.default, profiles: checked };
  }
  return { profiles: checked };
}

interface Detected {
  endpoint: Sourced<string>;
  model?: Sourced<string>;
  apiKeyEnv?: Sourced<string>;
}

async function detectEndpoint({ env, signal, modelChosen }: { env: Record<string, string | undefined>; signal?: AbortSignal; modelChosen: boolean }): Promise<Detected> {
  const ollama = trimSlashes(env.FORGE_OLLAMA_URL || OLLAMA_ENDPOINT);
  const models = await listModels({ endpoint: ollama, timeoutMs: OLLAMA_PROBE_MS, signal }).catch(() => {
    if (signal?.aborted) throw signal.reason;
    return null;
  });
  if (models) {
    const endpoint: Sourced<string> = { value: ollama, source: { kind: 'detected', detail: `Ollama answered at ${ollama}` } };
    if (modelChosen) return { endpoint };
    if (!models.length) {
      throw new InvalidInputError('NO_MODEL', `Ollama runs at '${ollama}' but has no models`, { fix: `ollama pull ${SUGGESTED_OLLAMA_MODEL}`, data: { endpoint: ollama } });
    }
    return { endpoint, model: { value: models[0]!, source: { kind: 'detected', detail: `the first of the ${models.length} models Ollama lists` } } };
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
async function defaultModel({ endpoint, apiKey, signal }: { endpoint: string; apiKey: string | undefined; signal?: AbortSignal }): Promise<Sourced<string>> {
  const known = knownHost(endpoint);
  if (known) return { value: known.model, source: { kind: 'default', detail: `forge's default model for ${known.host}` } };
  const models = await listModels({ endpoint, apiKey, timeoutMs: MODEL_LIST_MS, signal }).catch(() => {
    if (signal?.aborted) throw signal.reason;
    return [] as string[];
  });
  if (!models.length) {
    throw new InvalidInputError('NO_MODEL', `no model is configured for '${endpoint}' and it lists none`, { fix: 'forge agent --model NAME', data: { endpoint } });
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
  throw new InvalidInputError('INVALID_ENDPOINT', `endpoint '${endpoint.value}' (${describeSource(endpoint.source)}) is not an http(s) URL`, {
    fix: changeCommand('endpoint', endpoint.source),
    data: { endpoint: endpoint.value },
  });
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

function editFix(path: string): string {
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

/** The one command that changes a setting where it was set: the flag wins over everything, so it always works. */
function changeCommand(field: 'endpoint' | 'model', source: Source): string {
  if (source.kind === 'env') return `unset ${source.name}`;
  return `forge agent ${FLAGS[field]}`;
}

/**
 * What a first run (or `--verbose`) prints: each value, where it came from and how to change it,
 * e.g. `endpoint http://localhost:11434/v1 (detected: Ollama answered at …); change it with
 * --endpoint URL, $FORGE_ENDPOINT or a profile in ~/.config/forge/config.json`.
 */
export function describeModelConfig(config: ModelConfig): string[] {
  const lines = (['endpoint', 'model'] as const).map(
    (field) => `${field} ${config[field].value} (${describeSource(config[field].source)}); change it with ${FLAGS[field]}, $${ENVS[field]} or a profile in ${config.configPath}`,
  );
  if (config.apiKeyEnv.value) lines.push(`API key from $${config.apiKeyEnv.value} (${describeSource(config.apiKeyEnv.source)}); change it with --api-key-env NAME or api_key_env in a profile`);
  if (config.plannerModel.value) lines.push(`planner model ${config.plannerModel.value} (${describeSource(config.plannerModel.source)})`);
  if (config.profile) lines.push(`profile ${config.profile.value} (${describeSource(config.profile.source)}); change it with --profile NAME or $FORGE_PROFILE`);
  return lines;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
