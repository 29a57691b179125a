// The OpenAI chat API's wire format as forge sends and reads it: messages, tool calls, tool schemas, a reply and its usage.

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
