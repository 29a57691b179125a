// An endpoint's models (GET /models): for first-run detection, and for a model to suggest when one is missing or takes no images.
import { type StartTimeout, wallClock } from '../timeout';
import { apiBase, AttemptFailure, FAILURES, fixFor, ModelError, networkFailure, type FailureCode, type Target } from './chat-failures';
import { apiUrl, authHeaders, excerpt, isRecord, serverMessage } from './chat-http';

/** A signal that aborts once `ms` have passed on `startTimeout`'s clock; `cancel` before letting go of it. */
function deadlineSignal({ ms, startTimeout }: { ms: number; startTimeout: StartTimeout }): { signal: AbortSignal; cancel: () => void } {
  const controller = new AbortController();
  return { signal: controller.signal, cancel: startTimeout(ms, () => controller.abort()) };
}

/**
 * The model ids an endpoint serves (`GET /models`), for first-run probing and for suggesting a
 * model when one is missing. The whole exchange is bounded by `timeoutMs`, connecting included.
 */
export async function listModels({
  endpoint,
  apiKey,
  timeoutMs = 5000,
  signal,
  startTimeout = wallClock,
}: {
  endpoint: string;
  apiKey?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The clock `timeoutMs` runs on (tests pass one they expire). */
  startTimeout?: StartTimeout;
}): Promise<string[]> {
  const base = apiBase(endpoint);
  const target: Target = { endpoint: base, model: '', startTimeout };
  const { signal: deadline, cancel } = deadlineSignal({ ms: timeoutMs, startTimeout });
  const fail = (code: FailureCode, message: string, cause?: unknown) =>
    new ModelError(code, message, {
      fix: fixFor({ setting: FAILURES[code].setting, target }),
      setting: FAILURES[code].setting,
      data: { endpoint: base },
      cause,
    });
  const { request } = await import('undici');
  try {
    const res = await request(apiUrl(base, '/models'), {
      method: 'GET',
      headers: { ...authHeaders(apiKey), accept: 'application/json' },
      signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      // The deadline bounds the whole exchange, on the caller's clock.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    const text = await res.body.text();
    if (res.statusCode === 401 || res.statusCode === 403)
      throw fail('MODEL_AUTH', `'${base}' wants a valid API key to list models (${res.statusCode}): ${serverMessage(text)}`);
    if (res.statusCode < 200 || res.statusCode > 299)
      throw fail('MODEL_BAD_ENDPOINT', `'${base}/models' answered ${res.statusCode}: ${serverMessage(text)}`);
    const ids = modelIds(text);
    if (!ids) throw fail('MODEL_BAD_ENDPOINT', `'${base}/models' did not answer with a list of models: ${excerpt(text)}`);
    return ids;
  } catch (err) {
    if (err instanceof ModelError) throw err;
    if (signal?.aborted) throw signal.reason;
    if (deadline.aborted) throw fail('MODEL_UNREACHABLE', `'${base}' did not answer within ${timeoutMs} ms`, err);
    const failure = networkFailure({ err, target, midStream: false });
    if (failure instanceof AttemptFailure) throw fail(failure.code, failure.message, err);
    throw failure;
  } finally {
    cancel();
  }
}

/** OpenAI's `{data: [{id}]}`; Ollama's native `{models: [{name}]}` too, in case the base lacks /v1. */
function modelIds(text: string): string[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed)) return undefined;
  const list = Array.isArray(parsed.data) ? parsed.data : Array.isArray(parsed.models) ? parsed.models : undefined;
  if (!list) return undefined;
  return list
    .map((m) => (isRecord(m) ? (typeof m.id === 'string' ? m.id : m.name) : undefined))
    .filter((id): id is string => typeof id === 'string');
}
