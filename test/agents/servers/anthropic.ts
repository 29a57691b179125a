// A scripted Anthropic Messages API on loopback, as Claude Code reaches it through ANTHROPIC_BASE_URL: each turn an SSE stream of message events.
import type { ServerResponse } from 'node:http';
import { asText, listen, type RecordedRequest, Script, type ScriptedServer, sendJson, SSE_HEADERS, type Turn } from './script';

/**
 * Claude Code posts `{ANTHROPIC_BASE_URL}/v1/messages` (`?beta=true`) with `stream: true` and reads
 * `event: <type>` / `data: <json>` pairs: message_start, then per content block
 * content_block_start / content_block_delta (`text_delta`, or `input_json_delta` for a tool_use's
 * input) / content_block_stop, then message_delta (stop_reason `tool_use` or `end_turn`) and
 * message_stop. A tool's result comes back as a `tool_result` block of the next user message. A
 * request that offers no tools is a side question (a title, a quota probe), answered with text and
 * not taken from the script; `count_tokens` gets a count.
 */
export async function startAnthropicServer(turns: Turn[]): Promise<ScriptedServer> {
  const script = new Script(turns);
  let messages = 0;
  const isConversation = (r: RecordedRequest) =>
    r.method === 'POST' && /\/v1\/messages$/.test(r.path.split('?')[0]!) && r.body?.tools?.length > 0;
  const http = await listen((req, res) => {
    const path = req.path.split('?')[0] ?? '';
    if (req.method === 'POST' && path.endsWith('/v1/messages/count_tokens')) return sendJson(res, 200, { input_tokens: 100 });
    if (req.method === 'POST' && path.endsWith('/v1/messages')) {
      const turn = isConversation(req) ? script.next() : { text: 'scripted' };
      return req.body?.stream === false ? sendJson(res, 200, message(turn, ++messages, req)) : streamTurn(res, turn, ++messages, req);
    }
    sendJson(res, 404, {
      type: 'error',
      error: { type: 'not_found_error', message: `scripted Messages server: no ${req.method} ${path}` },
    });
  });
  return {
    url: `http://127.0.0.1:${http.port}`,
    requests: http.requests,
    remaining: () => script.remaining(),
    toolResults: () => {
      const history: Array<{ role: string; content: unknown }> = http.requests.filter(isConversation).at(-1)?.body?.messages ?? [];
      return history
        .flatMap((m) => (m.role === 'user' && Array.isArray(m.content) ? m.content : []))
        .filter((b: { type?: string }) => b.type === 'tool_result')
        .map((b: { content?: unknown }) => asText(b.content));
    },
    close: http.close,
  };
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

const blocksOf = (turn: Turn, n: number): Block[] =>
  'text' in turn
    ? [{ type: 'text', text: turn.text }]
    : turn.calls.map((c, i) => ({ type: 'tool_use', id: `toolu_${n}_${i}`, name: c.name, input: c.args }));

const USAGE = { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

/** The whole message, for a caller that asked for no stream. */
function message(turn: Turn, n: number, req: RecordedRequest) {
  return {
    id: `msg_${n}`,
    type: 'message',
    role: 'assistant',
    model: req.body?.model ?? 'scripted',
    content: blocksOf(turn, n),
    stop_reason: 'text' in turn ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    usage: USAGE,
  };
}

function streamTurn(res: ServerResponse, turn: Turn, n: number, req: RecordedRequest): void {
  const events: Array<Record<string, unknown>> = [
    { type: 'message_start', message: { ...message(turn, n, req), content: [], stop_reason: null, usage: { ...USAGE, output_tokens: 1 } } },
  ];
  blocksOf(turn, n).forEach((block, index) => {
    if (block.type === 'text') {
      events.push(
        { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } },
      );
    } else {
      const { input, ...start } = block;
      events.push(
        { type: 'content_block_start', index, content_block: { ...start, input: {} } },
        { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) } },
      );
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push(
    {
      type: 'message_delta',
      delta: { stop_reason: 'text' in turn ? 'end_turn' : 'tool_use', stop_sequence: null },
      usage: { output_tokens: 10 },
    },
    { type: 'message_stop' },
  );
  res.writeHead(200, SSE_HEADERS);
  res.end(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(''));
}
