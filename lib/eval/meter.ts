// What one model call cost, read off the wire whatever agent made it: the API it speaks, the tokens the server counted, and the tool calls it answered with.

import { isRecord } from '../agent/chat-http';

/** The model APIs the recording proxy reads; any other path (a model listing, Ollama's /api/show) is passed through uncounted. */
export type Dialect = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';

/** Which API a request path speaks, or null for one that is no model call. */
export function dialectOf(path: string): Dialect | null {
  const bare = path.split('?')[0]!;
  if (bare.endsWith('/chat/completions')) return 'openai-chat';
  if (bare.endsWith('/responses')) return 'openai-responses';
  if (bare.endsWith('/messages')) return 'anthropic';
  if (/:(stream)?generateContent$/i.test(bare)) return 'gemini';
  return null;
}

export interface ToolCall {
  name: string;
  /** The arguments as the model sent them (a JSON text, or the object's JSON), to tell a repeated call. */
  args: string;
}

export interface Metered {
  /** As the server counted them in its reply, or null when it sent none (then they are estimated). */
  promptTokens: number | null;
  completionTokens: number | null;
  toolCalls: ToolCall[];
  /** The reply's text as the model wrote it (with the tool calls, what completion tokens are estimated from when the server counts none). */
  text: string;
}

type Json = Record<string, unknown>;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v ?? {}));

/** The JSON values of a reply: each `data:` line of a server-sent event stream, or the body (a JSON array is Gemini's stream without SSE). */
export function replyValues(body: string): unknown[] {
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const value: unknown = JSON.parse(trimmed);
      return Array.isArray(value) ? value : [value];
    } catch {
      // A stream whose first event is not framed as SSE: read its lines below.
    }
  }
  const values: unknown[] = [];
  for (const line of body.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (!data || data === '[DONE]') continue;
    try {
      values.push(JSON.parse(data));
    } catch {
      // A torn or foreign line: the rest of the stream still counts.
    }
  }
  return values;
}

/** Tool calls assembled from numbered fragments (OpenAI's deltas, Anthropic's content blocks). */
class Fragments {
  private readonly calls = new Map<number, { name: string; args: string }>();
  start(index: number, name: string): void {
    const call = this.calls.get(index);
    if (call) call.name ||= name;
    else this.calls.set(index, { name, args: '' });
  }
  append(index: number, piece: string): void {
    if (!this.calls.has(index)) this.calls.set(index, { name: '', args: '' });
    this.calls.get(index)!.args += piece;
  }
  list(): ToolCall[] {
    return [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => c);
  }
}

function openAiChat(values: unknown[]): Metered {
  const out: Metered = { promptTokens: null, completionTokens: null, toolCalls: [], text: '' };
  const fragments = new Fragments();
  for (const v of values) {
    if (!isRecord(v)) continue;
    if (isRecord(v.usage)) {
      out.promptTokens = num(v.usage.prompt_tokens) ?? out.promptTokens;
      out.completionTokens = num(v.usage.completion_tokens) ?? out.completionTokens;
    }
    for (const choice of Array.isArray(v.choices) ? v.choices : []) {
      if (!isRecord(choice)) continue;
      const part = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : null;
      if (typeof part?.content === 'string') out.text += part.content;
      for (const [i, call] of (Array.isArray(part?.tool_calls) ? part.tool_calls : []).entries()) {
        if (!isRecord(call)) continue;
        const index = num(call.index) ?? i;
        const fn = isRecord(call.function) ? call.function : {};
        if (typeof fn.name === 'string') fragments.start(index, fn.name);
        if (fn.arguments !== undefined) fragments.append(index, text(fn.arguments));
      }
    }
  }
  out.toolCalls = fragments.list();
  return out;
}

function openAiResponses(values: unknown[]): Metered {
  const out: Metered = { promptTokens: null, completionTokens: null, toolCalls: [], text: '' };
  // A stream sends each finished item (response.output_item.done) and then the response, whose
  // output may be left empty (Codex reads the items); a reply without a stream is the response.
  const streamed = values
    .filter((v): v is Json => isRecord(v) && v.type === 'response.output_item.done' && isRecord(v.item))
    .map((v) => v.item);
  const responses = values.map((v) => (isRecord(v) && isRecord(v.response) ? v.response : v)).filter(isRecord);
  const final = responses.filter((r) => Array.isArray(r.output) || isRecord(r.usage)).at(-1);
  if (final && isRecord(final.usage)) {
    out.promptTokens = num(final.usage.input_tokens);
    out.completionTokens = num(final.usage.output_tokens);
  }
  const items = final && Array.isArray(final.output) && final.output.length ? final.output : streamed;
  for (const item of items) {
    if (isRecord(item) && item.type === 'message' && Array.isArray(item.content))
      for (const part of item.content) if (isRecord(part) && typeof part.text === 'string') out.text += part.text;
    if (!isRecord(item) || typeof item.type !== 'string' || !item.type.endsWith('_call')) continue;
    const name = typeof item.name === 'string' ? item.name : item.type;
    out.toolCalls.push({ name, args: text(item.arguments ?? item.input ?? item.action) });
  }
  return out;
}

function anthropic(values: unknown[]): Metered {
  const out: Metered = { promptTokens: null, completionTokens: null, toolCalls: [], text: '' };
  const fragments = new Fragments();
  const input = (usage: Json) =>
    (num(usage.input_tokens) ?? 0) + (num(usage.cache_creation_input_tokens) ?? 0) + (num(usage.cache_read_input_tokens) ?? 0);
  for (const v of values) {
    if (!isRecord(v)) continue;
    // A reply without a stream is the message itself.
    const message = v.type === 'message_start' && isRecord(v.message) ? v.message : v.type === 'message' ? v : null;
    if (message) {
      if (isRecord(message.usage)) {
        out.promptTokens = input(message.usage);
        out.completionTokens = num(message.usage.output_tokens) ?? out.completionTokens;
      }
      for (const [i, block] of (Array.isArray(message.content) ? message.content : []).entries()) {
        if (isRecord(block) && block.type === 'text' && typeof block.text === 'string') out.text += block.text;
        if (isRecord(block) && block.type === 'tool_use') {
          fragments.start(i, String(block.name ?? ''));
          fragments.append(i, text(block.input));
        }
      }
    }
    if (v.type === 'content_block_start' && isRecord(v.content_block) && v.content_block.type === 'tool_use')
      fragments.start(num(v.index) ?? 0, String(v.content_block.name ?? ''));
    if (v.type === 'content_block_delta' && isRecord(v.delta) && v.delta.type === 'text_delta') out.text += String(v.delta.text ?? '');
    if (v.type === 'content_block_delta' && isRecord(v.delta) && v.delta.type === 'input_json_delta')
      fragments.append(num(v.index) ?? 0, String(v.delta.partial_json ?? ''));
    if (v.type === 'message_delta' && isRecord(v.usage)) {
      out.completionTokens = num(v.usage.output_tokens) ?? out.completionTokens;
      if (num(v.usage.input_tokens) !== null) out.promptTokens = input(v.usage);
    }
  }
  out.toolCalls = fragments.list();
  return out;
}

function gemini(values: unknown[]): Metered {
  const out: Metered = { promptTokens: null, completionTokens: null, toolCalls: [], text: '' };
  for (const v of values) {
    if (!isRecord(v)) continue;
    // Each chunk carries the counts so far: the last one holds the whole call's.
    if (isRecord(v.usageMetadata)) {
      out.promptTokens = num(v.usageMetadata.promptTokenCount) ?? out.promptTokens;
      out.completionTokens = num(v.usageMetadata.candidatesTokenCount) ?? out.completionTokens;
    }
    for (const candidate of Array.isArray(v.candidates) ? v.candidates : []) {
      const parts = isRecord(candidate) && isRecord(candidate.content) ? candidate.content.parts : null;
      for (const part of Array.isArray(parts) ? parts : []) {
        if (isRecord(part) && typeof part.text === 'string') out.text += part.text;
        if (isRecord(part) && isRecord(part.functionCall))
          out.toolCalls.push({ name: String(part.functionCall.name ?? ''), args: text(part.functionCall.args) });
      }
    }
  }
  return out;
}

const READERS: Record<Dialect, (values: unknown[]) => Metered> = {
  'openai-chat': openAiChat,
  'openai-responses': openAiResponses,
  anthropic,
  gemini,
};

/** The reply of one model call, metered: what the server said it cost and the tool calls it made. */
export function meterReply(dialect: Dialect, body: string): Metered {
  return READERS[dialect](replyValues(body));
}
