// Ollama's own API beside its OpenAI-compatible one: what it says of a model's context (POST /api/show, GET /api/ps).
import { apiBase } from './chat-failures';
import { isRecord } from './chat-http';

/** What Ollama says of a model's context; see ollamaContext. */
export interface OllamaContext {
  /** The context requests get: the loaded model's, else the Modelfile's num_ctx, else Ollama's default (assumed). */
  tokens: number;
  /** What the model was trained for (model_info `<arch>.context_length`), when given. */
  trained: number | null;
  /** Where `tokens` came from. */
  from: 'loaded' | 'num_ctx' | 'default';
}

/**
 * Ollama's default context below 24 GiB of VRAM (docs/context-length): the OpenAI-compatible API
 * cannot change it per request, and Ollama cuts longer prompts silently.
 */
export const OLLAMA_DEFAULT_CONTEXT = 4096;

/**
 * Asks the Ollama behind an OpenAI-compatible endpoint (its origin, without /v1) for a model's
 * context: `POST /api/show` gives the trained length and a Modelfile's num_ctx, `GET /api/ps` the
 * context of a loaded model (set by OLLAMA_CONTEXT_LENGTH or the app's slider). Null when the
 * endpoint is not Ollama, or does not answer within `timeoutMs`.
 */
export async function ollamaContext({
  endpoint,
  model,
  timeoutMs = 2000,
  signal,
}: {
  endpoint: string;
  model: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<OllamaContext | null> {
  const origin = apiBase(endpoint)
    .replace(/[?#].*$/, '')
    .replace(/\/v1$/, '');
  const deadline = AbortSignal.timeout(timeoutMs);
  const { request } = await import('undici');
  const ask = async (path: string, body?: unknown): Promise<Record<string, unknown> | null> => {
    try {
      const res = await request(`${origin}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
        signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) return null;
      const parsed: unknown = JSON.parse(text);
      return isRecord(parsed) ? parsed : null;
    } catch {
      if (signal?.aborted) throw signal.reason;
      return null;
    }
  };
  const shown = await ask('/api/show', { model });
  if (!shown || !isRecord(shown.model_info)) return null;
  const info = shown.model_info;
  const arch = typeof info['general.architecture'] === 'string' ? info['general.architecture'] : '';
  const trainedValue = Number(info[`${arch}.context_length`]);
  const trained = Number.isInteger(trainedValue) && trainedValue > 0 ? trainedValue : null;
  const numCtx = Number(/^num_ctx\s+(\d+)/m.exec(typeof shown.parameters === 'string' ? shown.parameters : '')?.[1]);
  const running = await ask('/api/ps');
  const loaded = (Array.isArray(running?.models) ? running.models : []).find(
    (m): m is Record<string, unknown> => isRecord(m) && (m.name === model || m.model === model),
  );
  const loadedContext = Number(loaded?.context_length);
  if (Number.isInteger(loadedContext) && loadedContext > 0) return { tokens: loadedContext, trained, from: 'loaded' };
  if (Number.isInteger(numCtx) && numCtx > 0) return { tokens: numCtx, trained, from: 'num_ctx' };
  return { tokens: Math.min(trained ?? OLLAMA_DEFAULT_CONTEXT, OLLAMA_DEFAULT_CONTEXT), trained, from: 'default' };
}
