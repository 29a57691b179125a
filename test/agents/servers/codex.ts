// A scripted OpenAI Responses API on loopback, as Codex CLI reaches it through a model_providers entry (wire_api = "responses"): each turn an SSE stream of response events.
import type { ServerResponse } from 'node:http';
import {
  asText,
  listen,
  type RecordedRequest,
  Script,
  type ScriptedServer,
  sendJson,
  SSE_HEADERS,
  type ToolCall,
  type Turn,
} from './script';

/**
 * Codex posts `{base_url}/responses` with `stream: true` (the body: model, instructions, input items,
 * tools) and reads `event: <type>` / `data: <json>` pairs until `response.completed`; a stream that
 * ends without it is an error Codex retries. A tool call is a `response.output_item.done` whose
 * item is a `function_call` (JSON `arguments`: exec_command's `cmd`) or, for a tool the request
 * declares `type: "custom"` (apply_patch, freeform), a `custom_tool_call` whose `input` is the
 * patch text — scripted as `{ name: 'apply_patch', args: { input } }`. Results come back in the next
 * request's `input` as `function_call_output` / `custom_tool_call_output` items.
 *
 * MCP tools are deferred: Codex offers only `tool_search`, answers a `tool_search_call` with the
 * matching tools grouped in namespaces (`mcp__<server>`), and runs a `function_call` that names its
 * namespace. A scripted call `mcp__<server>__<tool>` becomes that call, after one search turn of the
 * server's own (not taken from the script) the first time any is made.
 */
export async function startCodexServer(turns: Turn[]): Promise<ScriptedServer> {
  const script = new Script(turns);
  let responses = 0;
  let searched = false;
  const http = await listen((req, res) => {
    const path = req.path.split('?')[0] ?? '';
    if (req.method === 'POST' && path.endsWith('/responses')) {
      const turn = script.next();
      if (!searched && 'calls' in turn && turn.calls.some((c) => MCP_NAME.test(c.name))) {
        searched = true;
        script.putBack(turn);
        return streamItems(
          res,
          [
            {
              type: 'tool_search_call',
              call_id: `search_${++responses}`,
              execution: 'client',
              status: 'completed',
              arguments: { query: 'forge', limit: 100 },
            },
          ],
          responses,
        );
      }
      return streamTurn(res, turn, req, ++responses);
    }
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

/** `mcp__<server>__<tool>`: an MCP tool, called by its namespace and name. */
const MCP_NAME = /^(mcp__[^_]+(?:_[^_]+)*)__(.+)$/;

function streamTurn(res: ServerResponse, turn: Turn, req: RecordedRequest, n: number): void {
  const custom = customTools(req);
  const call = (c: ToolCall, i: number) => {
    const mcp = MCP_NAME.exec(c.name);
    if (mcp)
      return { type: 'function_call', call_id: `call_${n}_${i}`, namespace: mcp[1], name: mcp[2], arguments: JSON.stringify(c.args) };
    return custom.has(c.name)
      ? { type: 'custom_tool_call', call_id: `call_${n}_${i}`, name: c.name, input: String(c.args.input ?? '') }
      : { type: 'function_call', call_id: `call_${n}_${i}`, name: c.name, arguments: JSON.stringify(c.args) };
  };
  const items =
    'text' in turn
      ? [{ type: 'message', role: 'assistant', id: `msg_${n}`, content: [{ type: 'output_text', text: turn.text }] }]
      : turn.calls.map(call);
  streamItems(res, items, n);
}

function streamItems(res: ServerResponse, items: Array<Record<string, unknown>>, n: number): void {
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
