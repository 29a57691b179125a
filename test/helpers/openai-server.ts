// A scripted OpenAI-compatible server on loopback: streams chat replies from a script in order and records every request.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { own } from './owner';

/**
 * The script format. Each POST /v1/chat/completions consumes the next step:
 *
 * - `reply`  a streamed completion: text deltas, then tool calls whose arguments arrive in
 *            several deltas, a finish reason, a usage chunk, `[DONE]`.
 * - `error`  an HTTP error status with a body (JSON or text) and optional Retry-After.
 * - `stall`  headers and some text, then silence with the connection held open (or no headers at all).
 * - `raw`    exact bytes in exact writes, for framing the other steps do not produce.
 *
 * Build steps with `reply()`, `failWith()`, `modelNotFound()`, `stall()` and `raw()` below.
 */
export type ScriptStep = ReplyStep | ErrorStep | StallStep | RawStep;

export interface ScriptedToolCall {
  /** Default `call_<request>_<n>`. */
  id?: string;
  name: string;
  /** A string is sent as it is (even if it is not valid JSON); an object is JSON-encoded. */
  arguments: string | Record<string, unknown>;
  /** How many deltas the arguments are cut into; default 4. */
  pieces?: number;
}

export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export interface ReplyStep {
  type: 'reply';
  /** Text deltas in order; a string is one delta. */
  text?: string | string[];
  toolCalls?: ScriptedToolCall[];
  /** Sent as a final `choices: []` chunk, as OpenAI does with `stream_options.include_usage`. Omit for a server that reports none. */
  usage?: WireUsage;
  /** Default 'tool_calls' when there are tool calls, else 'stop'. */
  finishReason?: string;
  /** Wait before sending the headers: a slow model, for bench/ (a test waits on `after`, an event, not on time). */
  delayMs?: number;
  /** Send nothing, headers included, until this settles (a slow model that answers when the test says). */
  after?: Promise<unknown>;
  /** Put an SSE comment (`: keep-alive`) before every event, as proxies and OpenRouter do. */
  comments?: boolean;
  /** Cut the whole SSE body into writes of this many bytes, splitting lines, events and UTF-8 characters. */
  writeBytes?: number;
  /** Drop the connection after the text deltas: no finish reason, no usage, no `[DONE]`. */
  cutOff?: boolean;
  /**
   * Serve this step to the first chat request it matches, wherever it is in the script (requests
   * that come at once arrive in any order); steps without it are served in order.
   */
  when?: (body: ChatRequestBody) => boolean;
  /**
   * Hold the reply until this many chat requests have arrived (so two requests are provably in
   * flight at once). No deadline: a count never reached holds it until the server closes (the
   * harness's per-test timeout is the failure), so a slow machine cannot turn the wait into a 500.
   */
  holdUntilChats?: number;
}

export interface ErrorStep {
  type: 'error';
  status: number;
  /** A string is sent as text/plain, anything else as JSON. */
  body?: unknown;
  /** The Retry-After header, e.g. '1' (seconds). */
  retryAfter?: string;
  headers?: Record<string, string>;
}

export interface StallStep {
  type: 'stall';
  /** Text deltas sent before going silent. */
  text?: string[];
  /** Go silent before even sending the headers. */
  beforeHeaders?: boolean;
}

export interface RawStep {
  type: 'raw';
  /** Each entry is one write, with a short pause between writes so they tend to arrive as separate chunks. */
  writes: Array<string | Buffer>;
  status?: number;
  /** Default `text/event-stream`. */
  contentType?: string;
}

export function reply(step: Omit<ReplyStep, 'type'> = {}): ReplyStep {
  return { type: 'reply', ...step };
}

export function failWith(
  status: number,
  body?: unknown,
  options: { retryAfter?: string; headers?: Record<string, string> } = {},
): ErrorStep {
  return { type: 'error', status, body, ...options };
}

/** The 404 Ollama sends for a model it has not pulled. */
export function modelNotFound(model: string): ErrorStep {
  return failWith(404, {
    error: { message: `model "${model}" not found, try pulling it first`, type: 'api_error', param: null, code: null },
  });
}

export function stall(step: Omit<StallStep, 'type'> = {}): StallStep {
  return { type: 'stall', ...step };
}

export function raw(writes: Array<string | Buffer>, options: Omit<RawStep, 'type' | 'writes'> = {}): RawStep {
  return { type: 'raw', writes, ...options };
}

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON when the body is JSON, else the text ('' for none). */
  body: unknown;
}

/** What a chat request carried, as the client sent it. */
export interface ChatRequestBody {
  model: string;
  messages: Array<Record<string, unknown>>;
  tools?: Array<Record<string, unknown>>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

export interface OpenAIServer {
  /** The API base to hand to the client: `http://127.0.0.1:<port>/v1`. */
  url: string;
  /** Every request in arrival order, models and unknown paths included. */
  requests: RecordedRequest[];
  /** The bodies of the chat requests only, in order. */
  chatBodies(): ChatRequestBody[];
  /** Appends steps to the script (for conversations scripted turn by turn). */
  enqueue(...steps: ScriptStep[]): void;
  /** Steps not yet served. */
  remaining(): number;
  /** Stops listening and drops open connections, stalled ones included. */
  close(): Promise<void>;
}

export interface OpenAIServerOptions {
  script?: ScriptStep[];
  /** What GET /v1/models answers: a list of ids, or an error or stall step. */
  models?: string[] | ErrorStep | StallStep;
  /** Answer Ollama's native POST /api/show and GET /api/ps for every model, as an Ollama would; without it both are 404s. */
  ollama?: OllamaInfo;
  /** Serve HTTPS with this key and certificate (test/fixtures/tls: a client trusts it through NODE_EXTRA_CA_CERTS). */
  tls?: { key: Buffer; cert: Buffer };
}

export interface OllamaInfo {
  /** model_info `<architecture>.context_length`: what the model was trained for. */
  contextLength: number;
  /** `num_ctx` in the Modelfile's parameters. */
  numCtx?: number;
  /** The model is loaded with this context (GET /api/ps lists it). */
  loadedContext?: number;
}

export async function startOpenAIServer({
  script = [],
  models = ['test-model'],
  ollama,
  tls,
}: OpenAIServerOptions = {}): Promise<OpenAIServer> {
  const queue = [...script];
  const requests: RecordedRequest[] = [];
  let chats = 0;
  let closed = false;
  const waiting: Array<() => void> = [];
  const arrived = () => {
    for (const wake of waiting.splice(0)) wake();
  };
  /** Resolves true once `n` chat requests have arrived, false if the server closes first. */
  const chatsReach = async (n: number): Promise<boolean> => {
    while (chats < n) {
      if (closed) return false;
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    return true;
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    void handle(req, res).catch((err: unknown) => {
      res.destroy(err instanceof Error ? err : new Error(String(err)));
    });
  };
  const server = tls ? createTlsServer(tls, onRequest) : createServer(onRequest);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: parseBody(text) };
    requests.push(recorded);
    // The path without the query string an endpoint may carry (?api-version=…, ?api-key=…).
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/v1/models') {
      if (Array.isArray(models))
        return sendJson(res, 200, {
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'scripted' })),
        });
      return serveStep(res, models, { requestNumber: 0, model: '' });
    }
    if (ollama && req.method === 'POST' && path === '/api/show') {
      const parameters =
        ollama.numCtx === undefined ? 'temperature 0.7' : `num_ctx                        ${ollama.numCtx}\ntemperature 0.7`;
      return sendJson(res, 200, {
        parameters,
        details: { family: 'qwen3' },
        model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': ollama.contextLength },
      });
    }
    if (ollama && req.method === 'GET' && path === '/api/ps') {
      const model = (requests.find((r) => r.path === '/api/show')?.body as { model?: string } | undefined)?.model ?? '';
      return sendJson(res, 200, {
        models:
          ollama.loadedContext === undefined ? [] : [{ name: model, model, size: 1, size_vram: 1, context_length: ollama.loadedContext }],
      });
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
      return;
    }
    chats++;
    arrived();
    const body = recorded.body as ChatRequestBody;
    const at = queue.findIndex((s) => s.type !== 'reply' || !s.when || s.when(body));
    const step = at < 0 ? undefined : queue.splice(at, 1)[0];
    if (step?.type === 'reply' && step.holdUntilChats !== undefined && !(await chatsReach(step.holdUntilChats)))
      return sendJson(res, 500, {
        error: { message: `scripted server: held for ${step.holdUntilChats} requests at once; only ${chats} came` },
      });
    if (!step) return sendJson(res, 500, { error: { message: `scripted server: no step left for chat request ${chats}` } });
    const model = (recorded.body as Partial<ChatRequestBody>).model ?? '';
    return serveStep(res, step, { requestNumber: chats, model });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      closed = true;
      arrived();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  server.once('close', own({ what: `scripted model server on 127.0.0.1:${port}`, open: () => server.listening, close }));
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}/v1`,
    requests,
    chatBodies: () =>
      requests.filter((r) => r.method === 'POST' && r.path.split('?')[0] === '/v1/chat/completions').map((r) => r.body as ChatRequestBody),
    enqueue: (...steps) => void queue.push(...steps),
    remaining: () => queue.length,
    close,
  };
}

/** A loopback port nothing listens on (bound by the OS, then released): an unreachable endpoint. */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function serveStep(res: ServerResponse, step: ScriptStep, ctx: { requestNumber: number; model: string }): Promise<void> {
  switch (step.type) {
    case 'error': {
      const headers: Record<string, string> = {
        ...step.headers,
        ...(step.retryAfter === undefined ? {} : { 'retry-after': step.retryAfter }),
      };
      if (typeof step.body === 'string') res.writeHead(step.status, { 'content-type': 'text/plain', ...headers }).end(step.body);
      else sendJson(res, step.status, step.body ?? { error: { message: `scripted ${step.status}` } }, headers);
      return;
    }
    case 'stall':
      // Holding the response open without ending it is the stall; close() drops the connection.
      if (step.beforeHeaders) return;
      res.writeHead(200, SSE_HEADERS);
      for (const text of step.text ?? []) res.write(sse(chunk(ctx, { content: text })));
      return;
    case 'raw':
      res.writeHead(step.status ?? 200, { 'content-type': step.contentType ?? 'text/event-stream' });
      await writeApart(res, step.writes);
      res.end();
      return;
    case 'reply':
      return serveReply(res, step, ctx);
  }
}

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' };

async function serveReply(res: ServerResponse, step: ReplyStep, ctx: { requestNumber: number; model: string }): Promise<void> {
  if (step.delayMs) await sleep(step.delayMs);
  if (step.after) await step.after;
  const events = replyEvents(step, ctx);
  res.writeHead(200, SSE_HEADERS);
  if (step.cutOff) {
    await writeApart(res, events);
    res.destroy();
    return;
  }
  if (step.writeBytes) {
    const all = Buffer.from(events.join(''));
    const writes: Buffer[] = [];
    for (let at = 0; at < all.length; at += step.writeBytes) writes.push(all.subarray(at, at + step.writeBytes));
    await writeApart(res, writes);
  } else {
    await writeApart(res, events);
  }
  res.end();
}

/** The SSE events of one reply, in the shape OpenAI streams them. */
function replyEvents(step: ReplyStep, ctx: { requestNumber: number; model: string }): string[] {
  const deltas: Array<Record<string, unknown>> = [{ role: 'assistant', content: '' }];
  const texts = step.text === undefined ? [] : typeof step.text === 'string' ? [step.text] : step.text;
  for (const content of texts) deltas.push({ content });
  const calls = step.toolCalls ?? [];
  if (!step.cutOff) {
    calls.forEach((call, index) => {
      const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      const id = call.id ?? `call_${ctx.requestNumber}_${index}`;
      deltas.push({ tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] });
      for (const piece of splitInto(args, call.pieces ?? 4)) deltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
    });
  }
  const events = deltas.map((delta) => sse(chunk(ctx, delta)));
  if (!step.cutOff) {
    events.push(sse(chunk(ctx, {}, step.finishReason ?? (calls.length ? 'tool_calls' : 'stop'))));
    if (step.usage)
      events.push(
        sse({
          ...envelope(ctx),
          choices: [],
          usage: { ...step.usage, total_tokens: step.usage.prompt_tokens + step.usage.completion_tokens },
        }),
      );
    events.push('data: [DONE]\n\n');
  }
  return step.comments ? events.map((e) => `: keep-alive\n\n${e}`) : events;
}

function envelope(ctx: { requestNumber: number; model: string }) {
  return { id: `chatcmpl-${ctx.requestNumber}`, object: 'chat.completion.chunk', created: 0, model: ctx.model };
}

function chunk(ctx: { requestNumber: number; model: string }, delta: Record<string, unknown>, finishReason: string | null = null) {
  return { ...envelope(ctx), choices: [{ index: 0, delta, finish_reason: finishReason }] };
}

function sse(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

/** `pieces` slices of nearly equal length (by code point, so no piece holds half a character). */
function splitInto(text: string, pieces: number): string[] {
  const chars = Array.from(text);
  const size = Math.max(1, Math.ceil(chars.length / Math.max(1, pieces)));
  const out: string[] = [];
  for (let at = 0; at < chars.length; at += size) out.push(chars.slice(at, at + size).join(''));
  return out;
}

/** One write per entry with a pause between, so the client tends to read them as separate chunks. */
async function writeApart(res: ServerResponse, writes: Array<string | Buffer>): Promise<void> {
  for (const [i, w] of writes.entries()) {
    if (i > 0) await sleep(1);
    if (res.destroyed) return;
    res.write(w);
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (s: string) => (text += s));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
