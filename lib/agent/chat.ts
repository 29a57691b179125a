// OpenAI-compatible chat completions over undici: one streamed POST, retried with backoff, assembled into one assistant message.
import { setTimeout as sleep } from 'node:timers/promises';
import { createParser, type EventSourceParser } from 'eventsource-parser';
import { request } from 'undici';
import { proxyFor } from './proxy';
import { ForgeError, type DataOf } from '../errors';
import { shellJoin } from '../quote';
import { randomHex } from '../random';
import { type StartTimeout, wallClock } from '../timeout';

/** One tool call of an assistant message, in the wire format the endpoint expects back. */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  /** Absent rather than empty: OpenAI rejects `tool_calls: []`. */
  tool_calls?: ToolCall[];
}

/** A part of a user message with images (--image): text, or an image as a base64 data URL, as the OpenAI chat API takes them. */
export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ContentPart[] }
  | AssistantMessage
  | { role: 'tool'; tool_call_id: string; content: string };

/** A tool offered to the model: lean JSON Schema, as in DESIGN.md. */
export interface ToolSchema {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

export interface ChatResult {
  message: AssistantMessage & { content: string };
  /** Null when the endpoint reported no usage (some servers ignore `stream_options`). */
  usage: Usage | null;
  /** As the endpoint sent it ('stop', 'tool_calls', 'length'…). Some servers say 'stop' even with tool calls, so look at `tool_calls`. */
  finishReason: string | null;
  /** What the server sent as reasoning beside the content (`reasoning_content`, `reasoning`: Ollama, vLLM, llama.cpp). */
  reasoning?: string;
}

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

/** The setting a model failure is about, so the CLI can name the flag, variable or profile key to change. */
export type ModelSetting = 'endpoint' | 'model' | 'api_key_env';

/** Every failure to talk to a model: a stable code, the setting to change, and a fix naming it. */
export class ModelError extends ForgeError<FailureCode> {
  constructor(
    code: FailureCode,
    message: string,
    options: { fix: string; setting: ModelSetting; data: Omit<DataOf<FailureCode>, 'setting'>; cause?: unknown },
    /** For MODEL_NO_VISION: a model of the endpoint's list whose name says it takes images, when there is one. */
    readonly visionModel: string | null = null,
  ) {
    super(code, message, {
      fix: options.fix,
      data: { setting: options.setting, ...options.data },
      cause: options.cause,
    });
    this.name = 'ModelError';
  }
}

const OLLAMA_PORT = '11434';

/** Response headers as undici gives them: lower-case names, repeated ones as arrays. */
type IncomingHttpHeaders = Record<string, string | string[] | undefined>;

/** The setting each kind of failure is about (its exit status is the error table's, lib/error-codes.ts). */
const FAILURES = {
  MODEL_UNREACHABLE: { setting: 'endpoint' },
  MODEL_BAD_ENDPOINT: { setting: 'endpoint' },
  MODEL_STALLED: { setting: 'endpoint' },
  MODEL_SERVER_ERROR: { setting: 'endpoint' },
  MODEL_RATE_LIMITED: { setting: 'endpoint' },
  MODEL_QUOTA: { setting: 'api_key_env' },
  MODEL_AUTH: { setting: 'api_key_env' },
  MODEL_NOT_FOUND: { setting: 'model' },
  MODEL_NO_VISION: { setting: 'model' },
  MODEL_CONTEXT_EXCEEDED: { setting: 'model' },
  MODEL_REQUEST_REJECTED: { setting: 'model' },
} as const satisfies Record<string, { setting: ModelSetting }>;

type FailureCode = keyof typeof FAILURES;

/** One attempt's failure, before the retry loop decides whether it is final. */
class AttemptFailure extends Error {
  constructor(
    readonly code: FailureCode,
    message: string,
    readonly retryable: boolean,
    readonly extra: { status?: number; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message);
  }
}

interface Target {
  endpoint: string;
  model: string;
  apiKey?: string;
  apiKeyEnv?: string;
  /** The request carries images: a refusal that names them is the model's lack of vision. */
  images?: boolean;
  /** The clock of the stall watch and of the model-list look-ups a failure makes (default the wall clock). */
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
  let res: Awaited<ReturnType<typeof request>>;
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

interface PartialToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Assembles one streamed chat completion from raw bytes: SSE framing (events and lines split
 * anywhere, multi-byte characters too), text deltas, tool-call deltas by index, usage, finish
 * reason and `[DONE]`. Exported so the framing can be tested at every split point without HTTP.
 */
export class ChatStream {
  private readonly decoder = new TextDecoder();
  private readonly parser: EventSourceParser;
  private readonly onDelta: ((text: string) => void) | undefined;
  private content = '';
  private reasoning = '';
  private readonly calls: PartialToolCall[] = [];
  /** The server's tool-call index → position in `calls`. */
  private readonly slots = new Map<number, number>();
  private usage: Usage | null = null;
  private finishReason: string | null = null;
  private done = false;
  private events = 0;

  constructor({ onDelta }: { onDelta?: (text: string) => void } = {}) {
    this.onDelta = onDelta;
    this.parser = createParser({ onEvent: (e) => this.data(e.data) });
  }

  feed(chunk: Uint8Array | string): void {
    this.parser.feed(typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true }));
  }

  private data(data: string): void {
    if (this.done) return;
    if (data.trim() === '[DONE]') {
      this.done = true;
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      throw new AttemptFailure('MODEL_SERVER_ERROR', `the stream carried an event that is not JSON: ${excerpt(data)}`, true);
    }
    this.event(parsed);
  }

  /** One completion chunk (or a whole non-streamed completion: its `message` reads like a delta). */
  event(chunk: unknown): void {
    this.events++;
    if (!isRecord(chunk)) return;
    // OpenRouter and Ollama report failures after a 200 as an event carrying `error`.
    if (chunk.error !== undefined)
      throw new AttemptFailure('MODEL_SERVER_ERROR', `the stream reported an error: ${errorText(chunk.error)}`, true);
    if (isRecord(chunk.usage)) {
      this.usage = { promptTokens: Number(chunk.usage.prompt_tokens) || 0, completionTokens: Number(chunk.usage.completion_tokens) || 0 };
    }
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isRecord(choice)) return;
    const delta = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : {};
    if (typeof delta.content === 'string' && delta.content !== '') {
      this.content += delta.content;
      this.onDelta?.(delta.content);
    }
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoning === 'string') this.reasoning += reasoning;
    if (Array.isArray(delta.tool_calls)) delta.tool_calls.forEach((d, position) => isRecord(d) && this.toolDelta(d, position));
    if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
  }

  private toolDelta(d: Record<string, unknown>, position: number): void {
    const key = typeof d.index === 'number' ? d.index : position;
    const id = typeof d.id === 'string' ? d.id : '';
    const slot = this.slots.get(key);
    let call = slot === undefined ? undefined : this.calls[slot];
    const fn = isRecord(d.function) ? d.function : {};
    // Some servers number every call 0; a new id under a used index is a new call, not more of the old
    // one — and so, with neither index nor id, is a name after arguments that already close.
    const unmarked = typeof d.index !== 'number' && !id && typeof fn.name === 'string' && fn.name !== '' && closes(call?.arguments);
    if (!call || (id && call.id && id !== call.id) || unmarked) {
      call = { id: '', name: '', arguments: '' };
      this.slots.set(key, this.calls.push(call) - 1);
    }
    if (id) call.id = id;
    // A name comes once from OpenAI, in pieces from a few servers, and repeated whole from others.
    if (typeof fn.name === 'string' && fn.name !== call.name) call.name += fn.name;
    if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
    else if (isRecord(fn.arguments)) call.arguments += JSON.stringify(fn.arguments);
  }

  /**
   * The assembled reply once the body has ended. A stream cut off before `[DONE]` and before any
   * finish reason is a broken reply, worth another attempt; one that never held an event was not
   * an OpenAI-compatible endpoint at all.
   */
  finish({ endpoint, eventStream, complete = false }: { endpoint: string; eventStream: boolean; complete?: boolean }): ChatResult {
    this.feed(this.decoder.decode());
    this.parser.reset({ consume: true });
    if (this.events === 0 && !this.done && !eventStream) {
      throw new AttemptFailure(
        'MODEL_BAD_ENDPOINT',
        `'${endpoint}/chat/completions' did not answer with an event stream; is '${endpoint}' the API base (usually ending in /v1)?`,
        false,
      );
    }
    if (!complete && !this.done && this.finishReason === null) {
      throw new AttemptFailure('MODEL_SERVER_ERROR', `the stream from '${endpoint}' ended before the reply was complete`, true);
    }
    const toolCalls: ToolCall[] = this.calls.map((c) => ({
      id: c.id || `call_${randomHex()}`,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
    return {
      message: { role: 'assistant', content: this.content, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
      usage: this.usage,
      finishReason: this.finishReason,
      ...(this.reasoning ? { reasoning: this.reasoning } : {}),
    };
  }
}

/** Whether a call's arguments so far are a whole JSON object (the call is complete). */
function closes(args: string | undefined): boolean {
  if (!args?.trim()) return false;
  try {
    const v: unknown = JSON.parse(args);
    return typeof v === 'object' && v !== null;
  } catch {
    return false;
  }
}

/** Network codes after which the same request may well succeed a moment later. */
const TRANSIENT = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

function networkFailure({ err, target, midStream }: { err: unknown; target: Target; midStream: boolean }): unknown {
  const code = errorCode(err);
  if (code === undefined) return err;
  const cause = { cause: err };
  if (code === 'UND_ERR_INVALID_ARG' || code === 'ERR_INVALID_URL') {
    return new AttemptFailure('MODEL_BAD_ENDPOINT', `'${target.endpoint}' is not a usable endpoint URL: ${messageOf(err)}`, false, cause);
  }
  if (midStream)
    return new AttemptFailure('MODEL_SERVER_ERROR', `the stream from '${target.endpoint}' broke off (${code})`, TRANSIENT.has(code), cause);
  const proxy = proxyFor(target.endpoint);
  const hint = proxy
    ? ` (through the proxy ${proxy}; NO_PROXY lists hosts to reach directly)`
    : new URL(target.endpoint).port === OLLAMA_PORT
      ? '; is Ollama running (ollama serve)?'
      : '';
  return new AttemptFailure(
    'MODEL_UNREACHABLE',
    `cannot reach '${target.endpoint}': ${describeNetworkCode(code, err)}${hint}`,
    TRANSIENT.has(code),
    cause,
  );
}

function describeNetworkCode(code: string, err: unknown): string {
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND') return 'no such host';
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return 'connection timed out';
  return `${code} ${messageOf(err)}`.trim();
}

/** Node's happy-eyeballs connect fails with an AggregateError whose parts carry the code. */
function errorCode(err: unknown): string | undefined {
  if (!isRecord(err)) return undefined;
  if (typeof err.code === 'string') return err.code;
  if (Array.isArray(err.errors)) return err.errors.map(errorCode).find((c) => c !== undefined);
  return undefined;
}

const MODEL_MISSING =
  /model.{0,80}(not found|does not exist|not a valid|is invalid|unknown)|(no such|unknown|invalid) model|not a valid model/i;
/** OpenAI and vLLM (maximum context length), llama.cpp (400 "exceeds the available context size", 500 "Context size has been exceeded"), Anthropic-style gateways (prompt is too long). */
const CONTEXT_TOO_LONG =
  /context.(length|window)|maximum context|too many tokens|prompt is too long|exceeds? the (available )?context|context size has been exceeded|context (size|window) (is )?exceeded/i;
/** What Ollama ("this model does not support image input"), OpenAI ("image_url is only supported by certain models") and OpenRouter ("No endpoints found that support image input") say of images sent to a text-only model. */
const NO_VISION =
  /(support|accept|take)s? (image|vision)|image input|image_url is only supported|images? (are|is) not supported|not (a )?(multimodal|vision)|vision is not|no vision/i;
const OUT_OF_QUOTA = /insufficient_quota|exceeded your current quota|billing|insufficient credits/i;

function httpFailure({
  status,
  headers,
  text,
  target,
}: {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  target: Target;
}): AttemptFailure {
  const said = serverMessage(text);
  const url = apiUrl(target.endpoint, '/chat/completions');
  const extra = { status };
  if (status === 401 || status === 403) {
    const what = target.apiKey ? 'refused the API key' : 'wants an API key and none was sent';
    return new AttemptFailure('MODEL_AUTH', `'${target.endpoint}' ${what} (${status}): ${said}`, false, extra);
  }
  if (status === 429) {
    if (OUT_OF_QUOTA.test(text))
      return new AttemptFailure('MODEL_QUOTA', `'${target.endpoint}' says the account is out of quota (429): ${said}`, false, extra);
    return new AttemptFailure('MODEL_RATE_LIMITED', `'${target.endpoint}' is rate limiting requests (429): ${said}`, true, {
      ...extra,
      retryAfterMs: retryAfterMs(headers),
    });
  }
  // A request over the context fails the same way each time, whatever the status (llama.cpp sends 500): never retried.
  if (CONTEXT_TOO_LONG.test(said))
    return new AttemptFailure(
      'MODEL_CONTEXT_EXCEEDED',
      `the conversation is longer than model '${target.model}' accepts (${status}): ${said}`,
      false,
      extra,
    );
  if (status >= 500 || status === 408)
    return new AttemptFailure('MODEL_SERVER_ERROR', `'${target.endpoint}' failed with ${status}: ${said}`, true, extra);
  if (status >= 300 && status < 400) {
    const location = header(headers, 'location');
    return new AttemptFailure(
      'MODEL_BAD_ENDPOINT',
      `'${url}' redirects${location ? ` to '${location}'` : ''} (${status}); use the final API base as the endpoint`,
      false,
      extra,
    );
  }
  if (target.images && NO_VISION.test(said))
    return new AttemptFailure(
      'MODEL_NO_VISION',
      `model '${target.model}' at '${target.endpoint}' does not take image input (${status}): ${said}`,
      false,
      extra,
    );
  if (MODEL_MISSING.test(said))
    return new AttemptFailure(
      'MODEL_NOT_FOUND',
      `model '${target.model}' is not available at '${target.endpoint}' (${status}): ${said}`,
      false,
      extra,
    );
  if (status === 404)
    return new AttemptFailure(
      'MODEL_BAD_ENDPOINT',
      `'${url}' does not exist (404); is '${target.endpoint}' the API base (usually ending in /v1)?`,
      false,
      extra,
    );
  return new AttemptFailure('MODEL_REQUEST_REJECTED', `'${target.endpoint}' rejected the request (${status}): ${said}`, false, extra);
}

/** Retry-After in seconds or as an HTTP date, or OpenAI's `retry-after-ms`. */
function retryAfterMs(headers: IncomingHttpHeaders): number | undefined {
  const ms = Number(header(headers, 'retry-after-ms'));
  if (header(headers, 'retry-after-ms') !== undefined && Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const value = header(headers, 'retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
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

/** The context size a server names in its refusal (llama.cpp's n_ctx, OpenAI's "maximum context length is N tokens"). */
function contextOf(message: string): number | null {
  const n = Number(/(?:n_ctx|context (?:length|size|window))\D{0,30}(\d{3,7})/i.exec(message)?.[1]);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/**
 * A command that shows what the endpoint says — its models, or its answer to the key — since no
 * forge command can work until the setting is mended, and a Fix is never a placeholder (--model NAME).
 */
function askEndpoint(target: Target): string {
  // The path goes before a query the endpoint carries (?api-version=…): …/v1/models?api-version=…, not …?api-version=…/models.
  const url = shellJoin([apiUrl(target.endpoint.replace(/\/+$/, ''), '/models')]);
  return target.apiKeyEnv ? `curl -sS -H "Authorization: Bearer $${target.apiKeyEnv}" ${url}` : `curl -sS ${url}`;
}

function fixFor({ setting, target }: { setting: ModelSetting; target: Target }): string {
  // localhost:11434 without its scheme: the same address as a URL.
  if (setting === 'endpoint' && !/^https?:\/\//i.test(target.endpoint))
    return /^[\w.-]+(:\d+)?(\/|$)/.test(target.endpoint)
      ? shellJoin(['forge', 'agent', '--endpoint', `http://${target.endpoint}`])
      : 'forge agent --help';
  // Ollama's own port: the server is not running.
  if (setting === 'endpoint' && /^https?:\/\/(localhost|127\.0\.0\.1):11434\b/.test(target.endpoint)) return 'ollama serve';
  return askEndpoint(target);
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

/** The endpoint without trailing slashes; an unusable URL fails before any request. */
function apiBase(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ModelError('MODEL_BAD_ENDPOINT', `'${endpoint}' is not an http(s) URL`, {
      fix: fixFor({ setting: 'endpoint', target: { endpoint, model: '' } }),
      setting: 'endpoint',
      data: { endpoint },
    });
  }
  return endpoint.replace(/\/+$/, '');
}

/** The API base joined with a path, before a query string the endpoint carries (Azure's ?api-version=…, a proxy's ?api-key=…). */
function apiUrl(base: string, path: string): string {
  const query = base.search(/[?#]/);
  return query < 0 ? `${base}${path}` : `${base.slice(0, query).replace(/\/+$/, '')}${path}${base.slice(query)}`;
}

function authHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The human part of an error body: OpenAI's `{error: {message}}`, a bare `{error: "…"}`, or the text. */
function serverMessage(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) {
      if (parsed.error !== undefined) return errorText(parsed.error);
      if (typeof parsed.message === 'string') return parsed.message;
      if (typeof parsed.detail === 'string') return parsed.detail;
    }
  } catch {
    // Not JSON: a proxy's HTML page or a plain-text body.
  }
  return excerpt(text) || 'no details';
}

function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  return excerpt(JSON.stringify(error));
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
