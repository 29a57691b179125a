// Every way a call to a model endpoint fails: the taxonomy (a stable code, the setting to change, retryable or not), read from the network error or the HTTP answer, and the fix that names the setting.
import { ForgeError, type DataOf } from '../errors';
import { shellJoin } from '../quote';
import type { StartTimeout } from '../timeout';
import { apiUrl, header, isRecord, messageOf, serverMessage, type IncomingHttpHeaders } from './chat-http';
import { proxyFor } from './proxy';

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

/** The setting each kind of failure is about (its exit status is the error table's, lib/error-codes.ts). */
export const FAILURES = {
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

export type FailureCode = keyof typeof FAILURES;

/** One attempt's failure, before the retry loop decides whether it is final. */
export class AttemptFailure extends Error {
  constructor(
    readonly code: FailureCode,
    message: string,
    readonly retryable: boolean,
    readonly extra: { status?: number; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message);
  }
}

/** What a request goes to: what its failures name, and what a fix may ask the endpoint. */
export interface Target {
  endpoint: string;
  model: string;
  apiKey?: string;
  apiKeyEnv?: string;
  /** The request carries images: a refusal that names them is the model's lack of vision. */
  images?: boolean;
  /** The clock of the stall watch and of the model-list look-ups a failure makes (default the wall clock). */
  startTimeout?: StartTimeout;
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

export function networkFailure({ err, target, midStream }: { err: unknown; target: Target; midStream: boolean }): unknown {
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

export function httpFailure({
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

/** The context size a server names in its refusal (llama.cpp's n_ctx, OpenAI's "maximum context length is N tokens"). */
export function contextOf(message: string): number | null {
  const n = Number(/(?:n_ctx|context (?:length|size|window))\D{0,30}(\d{3,7})/i.exec(message)?.[1]);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/**
 * A command that shows what the endpoint says — its models, or its answer to the key — since no
 * forge command can work until the setting is mended, and a Fix is never a placeholder (--model NAME).
 */
export function askEndpoint(target: Target): string {
  // The path goes before a query the endpoint carries (?api-version=…): …/v1/models?api-version=…, not …?api-version=…/models.
  const url = shellJoin([apiUrl(target.endpoint.replace(/\/+$/, ''), '/models')]);
  return target.apiKeyEnv ? `curl -sS -H "Authorization: Bearer $${target.apiKeyEnv}" ${url}` : `curl -sS ${url}`;
}

export function fixFor({ setting, target }: { setting: ModelSetting; target: Target }): string {
  // localhost:11434 without its scheme: the same address as a URL.
  if (setting === 'endpoint' && !/^https?:\/\//i.test(target.endpoint))
    return /^[\w.-]+(:\d+)?(\/|$)/.test(target.endpoint)
      ? shellJoin(['forge', 'agent', '--endpoint', `http://${target.endpoint}`])
      : 'forge agent --help';
  // Ollama's own port: the server is not running.
  if (setting === 'endpoint' && /^https?:\/\/(localhost|127\.0\.0\.1):11434\b/.test(target.endpoint)) return 'ollama serve';
  return askEndpoint(target);
}

/** The endpoint without trailing slashes; an unusable URL fails before any request. */
export function apiBase(endpoint: string): string {
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
