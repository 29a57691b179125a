// A scripted Gemini API on loopback, as Gemini CLI reaches it through GOOGLE_GEMINI_BASE_URL: streamGenerateContent as SSE, the helper calls as JSON.
import type { ServerResponse } from 'node:http';
import { asText, listen, Script, type ScriptedServer, sendJson, SSE_HEADERS, type Turn } from './script';

/**
 * The @google/genai SDK Gemini CLI uses posts `{baseUrl}/v1beta/models/<model>:streamGenerateContent?alt=sse`
 * for each turn of the conversation (the body: contents, tools' functionDeclarations,
 * systemInstruction, generationConfig) and reads `data: <GenerateContentResponse>` events; a tool
 * call is a `functionCall` part, its result comes back in the next request as a `functionResponse`
 * part. `:generateContent` (no stream) is the CLI's side questions — the model router's classifier,
 * the next-speaker check, loop detection — answered with one JSON text that says "the user speaks next".
 */
export async function startGeminiServer(turns: Turn[]): Promise<ScriptedServer> {
  const script = new Script(turns);
  let callIds = 0;
  const http = await listen((req, res) => {
    const path = req.path.split('?')[0] ?? '';
    if (req.method === 'POST' && path.endsWith(':streamGenerateContent')) return streamTurn(res, script.next(), () => `call_${++callIds}`);
    if (req.method === 'POST' && path.endsWith(':generateContent'))
      return sendJson(res, 200, response([{ text: SIDE_ANSWER }], { promptTokenCount: 10, candidatesTokenCount: 10 }));
    if (req.method === 'POST' && path.endsWith(':countTokens')) return sendJson(res, 200, { totalTokens: 100 });
    sendJson(res, 404, { error: { code: 404, message: `scripted Gemini server: no ${req.method} ${path}`, status: 'NOT_FOUND' } });
  });
  const conversation = () => http.requests.filter((r) => r.path.includes(':streamGenerateContent'));
  return {
    url: `http://127.0.0.1:${http.port}`,
    requests: http.requests,
    remaining: () => script.remaining(),
    toolResults: () => {
      // Each request carries the whole history: the last one holds every function response.
      const contents: Array<{ parts?: Array<Record<string, any>> }> = conversation().at(-1)?.body?.contents ?? [];
      return contents.flatMap((c) => c.parts ?? []).flatMap((p) => (p.functionResponse ? [asText(p.functionResponse.response)] : []));
    },
    close: http.close,
  };
}

/** Valid for every JSON schema the CLI's side questions ask for (next_speaker, the router's model_choice, the loop check). */
const SIDE_ANSWER = JSON.stringify({
  reasoning: 'scripted',
  next_speaker: 'user',
  model_choice: 'flash',
  complexity_reasoning: 'scripted',
  complexity_score: 1,
  unproductive_state_analysis: 'none',
  unproductive_state_confidence: 0,
});

function response(parts: Array<Record<string, unknown>>, usage: { promptTokenCount: number; candidatesTokenCount: number }) {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { ...usage, totalTokenCount: usage.promptTokenCount + usage.candidatesTokenCount },
    modelVersion: 'scripted',
  };
}

/** One turn as the API streams it: the parts in one event, the finish reason and usage with them. Events end in CRLF CRLF, as Google's do. */
function streamTurn(res: ServerResponse, turn: Turn, nextId: () => string): void {
  const parts =
    'text' in turn ? [{ text: turn.text }] : turn.calls.map((c) => ({ functionCall: { id: nextId(), name: c.name, args: c.args } }));
  res.writeHead(200, SSE_HEADERS);
  res.end(`data: ${JSON.stringify(response(parts, { promptTokenCount: 100, candidatesTokenCount: 10 }))}\r\n\r\n`);
}
