// A scripted OpenAI-compatible chat completions API on loopback, as OpenCode reaches it through an @ai-sdk/openai-compatible provider: each turn an SSE stream of chunks.
import type { ServerResponse } from 'node:http';
import { asText, listen, Script, type ScriptedServer, sendJson, SSE_HEADERS, type Turn } from './script';

/**
 * OpenCode posts `{baseURL}/chat/completions` with `stream: true` and reads `data: <chunk>` events
 * up to `data: [DONE]`; a tool call is a `delta.tool_calls` entry (id, function name, JSON
 * arguments) with `finish_reason: "tool_calls"`, its result the next request's `role: "tool"`
 * message. A request that offers no tools is OpenCode's side question (the session's title), answered
 * with a title and not taken from the script.
 */
export async function startChatServer(turns: Turn[]): Promise<ScriptedServer> {
  const script = new Script(turns);
  let chats = 0;
  const http = await listen((req, res) => {
    const path = req.path.split('?')[0] ?? '';
    if (req.method === 'POST' && path.endsWith('/chat/completions')) {
      const side = !(req.body?.tools?.length > 0);
      return streamTurn(res, side ? { text: 'scripted session' } : script.next(), ++chats, req.body?.model ?? '');
    }
    sendJson(res, 404, { error: { message: `scripted chat server: no ${req.method} ${path}`, type: 'invalid_request_error' } });
  });
  const conversation = () => http.requests.filter((r) => r.path.split('?')[0]!.endsWith('/chat/completions') && r.body?.tools?.length > 0);
  return {
    url: `http://127.0.0.1:${http.port}/v1`,
    requests: http.requests,
    remaining: () => script.remaining(),
    toolResults: () => {
      const messages: Array<Record<string, any>> = conversation().at(-1)?.body?.messages ?? [];
      return messages.filter((m) => m.role === 'tool').map((m) => asText(m.content));
    },
    close: http.close,
  };
}

function streamTurn(res: ServerResponse, turn: Turn, n: number, model: string): void {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const events = [chunk({ role: 'assistant', content: '' })];
  if ('text' in turn) events.push(chunk({ content: turn.text }), chunk({}, 'stop'));
  else {
    turn.calls.forEach((c, index) =>
      events.push(
        chunk({
          tool_calls: [
            { index, id: `call_${n}_${index}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } },
          ],
        }),
      ),
    );
    events.push(chunk({}, 'tool_calls'));
  }
  events.push(
    `data: ${JSON.stringify({ id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 0, model, choices: [], usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } })}\n\n`,
    'data: [DONE]\n\n',
  );
  res.writeHead(200, SSE_HEADERS);
  res.end(events.join(''));
}
