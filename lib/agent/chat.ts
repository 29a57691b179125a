// OpenAI-compatible chat completions over undici: one streamed POST, retried with backoff, assembled into one assistant message.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { shellJoin } from '../quote';
import { type StartTimeout, wallClock } from '../timeout';
import {
  apiBase,
  AttemptFailure,
  contextOf,
  askEndpoint,
  FAILURES,
  fixFor,
  httpFailure,
  ModelError,
  networkFailure,
  type Target,
} from './chat-failures';
import { apiUrl, authHeaders, excerpt, header } from './chat-http';
import { ChatStream } from './chat-stream';
import type { ChatMessage, ChatResult, ToolSchema } from './chat-types';
import { listModels } from './list-models';

/** The schema of a tool offered to the model, where the tool sets' builder (lib/cli/agent-tools.ts) imports it from. */
export type { ToolSchema } from './chat-types';

export interface RetryPolicy {
  /** Requests in all, the first one included. */
  attempts: number;
  /** First backoff; it doubles per attempt, with jitter. */
  baseMs: number;
  /** No byte for this long — before the headers or between chunks — counts as a stalled stream. */
  stallMs: number;
  /** Longest wait between attempts; a Retry-After beyond it fails at once instead of sleeping. */
  maxDelayMs: number;
}

/**
 * A local model may take minutes to load and read a long prompt before its first byte (Ollama sends
 * no headers until the first token), so a stall must be long to mean anything.
 */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseMs: 1000, stallMs: 120_000, maxDelayMs: 60_000 };

export interface RetryNotice {
  /** The attempt that just failed, counted from 1. */
  attempt: number;
  attempts: number;
  delayMs: number;
  code: string;
  message: string;
}

export interface ChatOptions {
  /** The API base, e.g. `http://localhost:11434/v1`; `/chat/completions` is appended. */
  endpoint: string;
  model: string;
  apiKey?: string;
  /** The variable the key came from, so an auth failure can name it. */
  apiKeyEnv?: string;
  messages: readonly ChatMessage[];
  tools?: readonly ToolSchema[];
  signal?: AbortSignal;
  /** Text as it streams. After an `onRetry` the reply starts again from its first delta. */
  onDelta?: (text: string) => void;
  onRetry?: (notice: RetryNotice) => void;
  retry?: Partial<RetryPolicy>;
  /** The clock a stall and the model-list look-ups run on (default the wall clock; tests pass one they expire). */
  startTimeout?: StartTimeout;
}

/** True when a message of the request has an image part. */
export function hasImages(messages: readonly ChatMessage[]): boolean {
  return messages.some((m) => m.role === 'user' && Array.isArray(m.content) && m.content.some((p) => p.type === 'image_url'));
}

/**
 * Sends the conversation and streams the reply: text goes to `onDelta` as it arrives, tool-call
 * fragments are joined by index, usage and finish reason are kept. 429, 5xx, dropped connections
 * and stalled streams are retried with exponential backoff (a 429's Retry-After is honoured); other
 * 4xx fail at once. Every final failure is a ModelError whose fix names the setting to change.
 */
export async function chat(options: ChatOptions): Promise<ChatResult> {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const target: Target = {
    endpoint: apiBase(options.endpoint),
    model: options.model,
    apiKey: options.apiKey,
    apiKeyEnv: options.apiKeyEnv,
    images: hasImages(options.messages),
    startTimeout: options.startTimeout,
  };
  const request = (usage: boolean) =>
    JSON.stringify({
      model: options.model,
      messages: options.messages,
      ...(options.tools?.length ? { tools: options.tools } : {}),
      stream: true,
      ...(usage ? { stream_options: { include_usage: true } } : {}),
    });
  let body = request(true);
  for (let attempt = 1; ; attempt++) {
    let failure: AttemptFailure;
    try {
      return await attemptChat({ target, body, policy, signal: options.signal, onDelta: options.onDelta });
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (!(err instanceof AttemptFailure)) throw err;
      failure = err;
    }
    // A server that refuses stream_options (an older or stricter OpenAI-compatible one) is asked again without it, at once.
    if (failure.code === 'MODEL_REQUEST_REJECTED' && /stream_options/i.test(failure.message) && body.includes('"stream_options"')) {
      body = request(false);
      attempt--;
      continue;
    }
    const { retryAfterMs } = failure.extra;
    if (!failure.retryable || attempt >= policy.attempts) throw await finalError({ failure, target, attempts: attempt });
    if (retryAfterMs !== undefined && retryAfterMs > policy.maxDelayMs) {
      const wait = new AttemptFailure(
        failure.code,
        `${failure.message}; it asks to retry after ${Math.ceil(retryAfterMs / 1000)} s`,
        false,
        failure.extra,
      );
      throw await finalError({ failure: wait, target, attempts: attempt });
    }
    const delayMs = retryAfterMs ?? backoff(policy, attempt);
    options.onRetry?.({ attempt, attempts: policy.attempts, delayMs, code: failure.code, message: failure.message });
    try {
      await sleep(delayMs, undefined, { signal: options.signal });
    } catch (err) {
      throw options.signal?.aborted ? options.signal.reason : err;
    }
  }
}

/** Exponential backoff with jitter in its upper half, so many clients that failed together do not retry together. */
function backoff(policy: RetryPolicy, attempt: number): number {
  const full = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** (attempt - 1));
  return Math.round(full / 2 + (Math.random() * full) / 2);
}

/**
 * One attempt's stall detector: `stallMs` without a byte — before the headers or between chunks —
 * aborts the request. Each sign of life (`alive`: the headers, a chunk) starts the wait again.
 */
function stallWatch({ stallMs, startTimeout, signal }: { stallMs: number; startTimeout: StartTimeout; signal?: AbortSignal }) {
  const controller = new AbortController();
  let stalled = false;
  let replied = false;
  const wait = () =>
    startTimeout(stallMs, () => {
      stalled = true;
      controller.abort();
    });
  let cancel = wait();
  return {
    signal: signal ? AbortSignal.any([signal, controller.signal]) : controller.signal,
    /** The failure of a stalled attempt, else null: whether it stalled before any answer or in the middle of one. */
    failure(target: Target): AttemptFailure | null {
      if (!stalled) return null;
      const when = replied ? 'in the middle of its reply' : 'after the request';
      return new AttemptFailure('MODEL_STALLED', `'${target.endpoint}' sent nothing for ${stallMs} ms ${when}`, true);
    },
    alive(): void {
      if (stalled) return;
      replied = true;
      cancel();
      cancel = wait();
    },
    stop(): void {
      cancel();
    },
  };
}

async function attemptChat({
  target,
  body,
  policy,
  signal,
  onDelta,
}: {
  target: Target;
  body: string;
  policy: RetryPolicy;
  signal?: AbortSignal;
  onDelta?: (text: string) => void;
}): Promise<ChatResult> {
  const watch = stallWatch({ stallMs: policy.stallMs, startTimeout: target.startTimeout ?? wallClock, signal });
  try {
    return await exchange({ target, body, watch, onDelta });
  } finally {
    watch.stop();
  }
}

async function exchange({
  target,
  body,
  watch,
  onDelta,
}: {
  target: Target;
  body: string;
  watch: ReturnType<typeof stallWatch>;
  onDelta?: (text: string) => void;
}): Promise<ChatResult> {
  // undici is one vendored module every command that talks to a model shares (dist/vendor/undici.js).
  const { request } = await import('undici');
  let res: Dispatcher.ResponseData;
  try {
    res = await request(apiUrl(target.endpoint, '/chat/completions'), {
      method: 'POST',
      headers: { ...authHeaders(target.apiKey), 'content-type': 'application/json', accept: 'text/event-stream' },
      body,
      signal: watch.signal,
      // The stall watch times both, on the caller's clock.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  } catch (err) {
    throw watch.failure(target) ?? networkFailure({ err, target, midStream: false });
  }
  watch.alive();
  if (res.statusCode < 200 || res.statusCode > 299) {
    const text = await res.body.text().catch(() => '');
    throw httpFailure({ status: res.statusCode, headers: res.headers, text, target });
  }
  const contentType = header(res.headers, 'content-type') ?? '';
  // A server that ignores `stream: true` answers with one JSON completion; take it as it is.
  if (contentType.includes('application/json')) {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of res.body) {
        watch.alive();
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      throw watch.failure(target) ?? networkFailure({ err, target, midStream: true });
    }
    return completionFromJson({ text: new TextDecoder().decode(Buffer.concat(chunks)), target, onDelta });
  }
  const stream = new ChatStream({ onDelta });
  try {
    for await (const chunk of res.body) {
      watch.alive();
      stream.feed(chunk as Buffer);
    }
  } catch (err) {
    if (err instanceof AttemptFailure) throw err;
    throw watch.failure(target) ?? networkFailure({ err, target, midStream: true });
  }
  return stream.finish({ endpoint: target.endpoint, eventStream: contentType.includes('text/event-stream') });
}

function completionFromJson({ text, target, onDelta }: { text: string; target: Target; onDelta?: (text: string) => void }): ChatResult {
  let completion: unknown;
  try {
    completion = JSON.parse(text);
  } catch {
    throw new AttemptFailure(
      'MODEL_BAD_ENDPOINT',
      `'${target.endpoint}/chat/completions' answered with malformed JSON: ${excerpt(text)}`,
      false,
    );
  }
  const stream = new ChatStream({ onDelta });
  stream.event(completion);
  return stream.finish({ endpoint: target.endpoint, eventStream: true, complete: true });
}

/** Turns the last attempt's failure into the error the user sees, with a fix naming the setting. */
async function finalError({
  failure,
  target,
  attempts,
}: {
  failure: AttemptFailure;
  target: Target;
  attempts: number;
}): Promise<ModelError> {
  const { setting } = FAILURES[failure.code];
  const message = attempts > 1 ? `${failure.message} (gave up after ${attempts} attempts)` : failure.message;
  const visionModel = failure.code === 'MODEL_NO_VISION' ? await visionModelOf(target) : null;
  const fix =
    failure.code === 'MODEL_NOT_FOUND'
      ? await missingModelFix({ failure, target })
      : failure.code === 'MODEL_NO_VISION'
        ? visionModel
          ? shellJoin(['forge', 'agent', '--model', visionModel])
          : askEndpoint(target)
        : failure.code === 'MODEL_CONTEXT_EXCEEDED' && contextOf(failure.message)
          ? shellJoin(['forge', 'agent', '--budget', String(Math.floor(contextOf(failure.message)! * 0.75))])
          : fixFor({ setting, target });
  return new ModelError(
    failure.code,
    message,
    {
      fix,
      setting,
      data: {
        endpoint: target.endpoint,
        model: target.model,
        attempts,
        ...(failure.extra.status === undefined ? {} : { status: failure.extra.status }),
      },
      cause: failure.extra.cause,
    },
    visionModel,
  );
}

/** Ollama names its own remedy; elsewhere the endpoint's list of models gives a real name to suggest. */
async function missingModelFix({ failure, target }: { failure: AttemptFailure; target: Target }): Promise<string> {
  if (/try pulling it|ollama pull/i.test(failure.message)) return shellJoin(['ollama', 'pull', target.model]);
  const suggestion = (await modelsOf(target)).find((m) => m !== target.model);
  // A name from the endpoint's list is its text, quoted: a hostile endpoint's `x; rm -rf ~` stays one word.
  return suggestion ? shellJoin(['forge', 'agent', '--model', suggestion]) : askEndpoint(target);
}

/** Model names that take images, as providers and Ollama's library name them. */
const VISION_MODEL =
  /vision|[-_.:]vl\b|vl[-_:]|llava|gpt-4o|gpt-4\.1|gpt-5|claude|gemini|pixtral|gemma3|minicpm-v|moondream|mistral-small3/i;

/** A model of the endpoint's list, other than the one asked, whose name says it takes images; null when there is none (or no list). */
async function visionModelOf(target: Target): Promise<string | null> {
  return (await modelsOf(target)).find((m) => m !== target.model && VISION_MODEL.test(m)) ?? null;
}

/** The endpoint's models, asked after a failure to suggest one: none when it cannot say within 2 s. */
function modelsOf(target: Target): Promise<string[]> {
  return listModels({ endpoint: target.endpoint, apiKey: target.apiKey, timeoutMs: 2000, startTimeout: target.startTimeout }).catch(
    () => [],
  );
}
