// Which model the agent talks to (flags > env > a config.json profile > first-run detection), each value with where it came from; the profile's other settings are config-settings.ts.
import { homedir } from 'node:os';
import { InvalidInputError } from '../errors';
import { shellQuote } from '../quote';
import type { StartTimeout } from '../timeout';
import { describeSource } from './config-describe';
import { configPath, ENV_NAME, isHttpUrl, loadConfigFile } from './config-file';
import { defaultModel, detectEndpoint, knownHost, trimSlashes } from './config-probes';
import { chooseProfile, first, profileNotChosen, profileSettings } from './config-settings';
import { NO_ROUTES, type AgentFlags, type ConfigProfile, type ModelConfig, type Source, type Sourced } from './config-types';

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
  homeDir = env.HOME || homedir(),
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

/**
 * The command that mends an endpoint that is no http(s) URL: the variable that set it unset, the
 * same address with http:// when the scheme is what is missing (localhost:11434), else the help.
 */
function endpointFix(value: string, source: Source): string {
  if (source.kind === 'env') return `unset ${source.name}`;
  return /^[\w.-]+(:\d+)?(\/|$)/.test(value) ? `forge agent --endpoint ${shellQuote(`http://${value}`)}` : 'forge agent --help';
}
