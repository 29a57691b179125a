// The network probes behind model settings: Ollama found on this machine, an endpoint's first model, what Ollama says of a model's context; and the hosts whose key variable and model forge knows.
import { InvalidInputError } from '../errors';
import { shellQuote } from '../quote';
import type { StartTimeout } from '../timeout';
import { listModels } from './list-models';
import { ollamaContext } from './ollama';
import { describeSource } from './config-describe';
import type { ModelConfig, Sourced } from './config-types';
import type { ModelContext } from './context';

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

/** What first-run detection found: an endpoint, and the model and key variable that go with it when it chose them too. */
interface Detected {
  endpoint: Sourced<string>;
  model?: Sourced<string>;
  apiKeyEnv?: Sourced<string>;
}

/** First-run detection: Ollama at FORGE_OLLAMA_URL (default localhost), else the first known host whose key variable is set. */
export async function detectEndpoint({
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
export async function defaultModel({
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

export function knownHost(endpoint: string): (typeof KNOWN_KEY_ENVS)[number] | undefined {
  let host: string;
  try {
    host = new URL(endpoint).hostname;
  } catch {
    return undefined;
  }
  return KNOWN_KEY_ENVS.find((k) => host === k.host || host.endsWith(`.${k.host}`));
}

export function trimSlashes(url: string): string {
  return url.replace(/\/+$/, '');
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
