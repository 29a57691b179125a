// One streamed chat completion assembled from its bytes: SSE framing, text deltas, tool-call deltas joined by index, usage, finish reason and [DONE].
import { createParser, type EventSourceParser } from 'eventsource-parser';
import { randomHex } from '../random';
import { AttemptFailure } from './chat-failures';
import { errorText, excerpt, isRecord } from './chat-http';
import type { ChatResult, ToolCall, Usage } from './chat-types';

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
