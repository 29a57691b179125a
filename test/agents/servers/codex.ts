// A scripted OpenAI Responses API on loopback, as Codex CLI reaches it through a model_providers entry (wire_api = "responses"): each turn an SSE stream of response events.
import type { ServerResponse } from 'node:http';
import { asText, listen, type RecordedRequest, Script, type ScriptedServer, sendJson, SSE_HEADERS, type Turn } from './script';

/**
 * Codex posts `{base_url}/responses` with `stream: true` (the body: model, instructions, input items,
 * tools) and reads `event: <type>` / `data: <json>` pairs until `response.completed`; a stream that
 * ends without it is an error Codex retries. A tool call is a `response.output_item.done` whose
 * item is a `function_call` (JSON `arguments`: exec_command's `cmd`) or, for a tool the request
 * declares `type: "custom"` (apply_patch, freeform), a `custom_tool_call` whose `input` is the
 * patch text — scripted as `{ name: 'apply_patch', args: { input } }`. Results come back in the next
 * request's `input` as `function_call_output` / `custom_tool_call_output` items.
 */
export async function startCodexServer(turns: Turn[]): Promise<ScriptedServer> {
  const script = new Script(turns);
  let responses = 0;
  const http = await listen((req, res) => {
    const path = req.path.split('?')[0] ?? '';
    if (req.method === 'POST' && path.endsWith('/responses')) return streamTurn(res, script.next(), req, ++responses);
    sendJson(res, 404, { error: { message: `scripted Responses server: no ${req.method} ${path}`, type: 'invalid_request_error' } });
  });
  const conversation = () => http.requests.filter((r) => r.method === 'POST' && r.path.split('?')[0]!.endsWith('/responses'));
  return {
    url: `http://127.0.0.1:${http.port}/v1`,
    requests: http.requests,
    remaining: () => script.remaining(),
    toolResults: () => {
      const input: Array<Record<string, any>> = conversation().at(-1)?.body?.input ?? [];
      return input.filter((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output').map((i) => asText(i.output));
    },
    close: http.close,
  };
}

/** The names of the tools this request declares as custom (freeform) rather than JSON functions. */
function customTools(req: RecordedRequest): Set<string> {
  const tools: Array<{ type?: string; name?: string }> = req.body?.tools ?? [];
  return new Set(tools.filter((t) => t.type === 'custom' && t.name).map((t) => t.name!));
}

function streamTurn(res: ServerResponse, turn: Turn, req: RecordedRequest, n: number): void {
  const custom = customTools(req);
  const items =
    'text' in turn
      ? [{ type: 'message', role: 'assistant', id: `msg_${n}`, content: [{ type: 'output_text', text: turn.text }] }]
      : turn.calls.map((c, i) =>
          custom.has(c.name)
            ? { type: 'custom_tool_call', call_id: `call_${n}_${i}`, name: c.name, input: String(c.args.input ?? '') }
            : { type: 'function_call', call_id: `call_${n}_${i}`, name: c.name, arguments: JSON.stringify(c.args) },
        );
  const id = `resp_${n}`;
  const events = [
    { type: 'response.created', response: { id } },
    ...items.map((item) => ({ type: 'response.output_item.done', item })),
    {
      type: 'response.completed',
      response: {
        id,
        usage: { input_tokens: 100, input_tokens_details: null, output_tokens: 10, output_tokens_details: null, total_tokens: 110 },
      },
    },
  ];
  res.writeHead(200, SSE_HEADERS);
  res.end(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(''));
}
