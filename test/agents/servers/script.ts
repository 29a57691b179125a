// What every scripted agent server shares: the turns a scenario scripts, served in order, and a loopback HTTP server the running test owns.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ownServer } from '../../helpers/owner';

/** One tool call the model makes: the agent's own tool name and arguments. */
export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

/** One reply of the model: tool calls (the agent runs them and asks again), or the final text. */
export type Turn = { calls: ToolCall[] } | { text: string };

export const calls = (...list: ToolCall[]): Turn => ({ calls: list });
export const say = (text: string): Turn => ({ text });

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** Parsed JSON, or the text when it is not JSON. */
  body: any;
}

/** What a test holds: where to point the agent, what it sent, and how to close it. */
export interface ScriptedServer {
  /** The base URL in the form the agent's setting takes (documented per server). */
  url: string;
  requests: RecordedRequest[];
  /** The model turns not served yet. */
  remaining(): number;
  /** What the agent sent back for each tool call, as text, in order: a refusal's reason reaches the model here. */
  toolResults(): string[];
  close(): Promise<void>;
}

/**
 * The scripted turns, served one per conversation request. Past the end every request gets a
 * final text: an agent that asks once more than the scenario expected ends instead of hanging.
 */
export class Script {
  private readonly turns: Turn[];
  served = 0;
  constructor(turns: Turn[]) {
    this.turns = [...turns];
  }
  next(): Turn {
    this.served++;
    return this.turns.shift() ?? { text: 'done' };
  }
  /** A turn the server answered with one of its own first (Codex's tool search): served again next. */
  putBack(turn: Turn): void {
    this.served--;
    this.turns.unshift(turn);
  }
  remaining(): number {
    return this.turns.length;
  }
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

/** An HTTP server on 127.0.0.1 (a free port), owned by the running test: every request recorded, then handed to `handle`. */
export async function listen(handle: Handler): Promise<{ port: number; requests: RecordedRequest[]; close(): Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const server = ownServer(
    createServer((req, res) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (s: string) => (text += s));
      req.on('end', () => {
        const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: parse(text) };
        requests.push(recorded);
        Promise.resolve()
          .then(() => handle(recorded, res))
          .catch((err: unknown) => res.destroy(err instanceof Error ? err : new Error(String(err))));
      });
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { port, requests, close };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' };

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** A tool result in whatever shape the API carries it (string, parts, object), flattened to text for assertions. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
