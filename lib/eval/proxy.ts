// The recording proxy forge eval puts between an agent and its model: every request passed on as it came, every reply streamed back as it comes, each model call metered on the way.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from 'undici';
import { type Dialect, dialectOf, type Metered, meterReply } from './meter';

/** One model call as the proxy saw it. */
export interface RecordedCall extends Metered {
  dialect: Dialect;
  path: string;
  /** The request body as sent, for the tokens a prefix cache could not reuse. */
  body: string;
  status: number;
  ms: number;
}

export interface RecordingProxy {
  /** The base URL to give the agent: the upstream's path on the proxy's own origin. */
  url: string;
  /** The model calls so far, in the order they were made. */
  calls: RecordedCall[];
  /** Requests that were no model call (model listings, Ollama's /api/show), counted apart. */
  otherRequests: number;
  close(): Promise<void>;
}

/** Hop-by-hop headers a proxy must not pass on (RFC 9110 §7.6.1), and the ones the next hop sets itself. */
const HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
]);

function passHeaders(
  headers: IncomingMessage['headers'] | Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP.has(name.toLowerCase())) out[name] = value;
  return out;
}

/** The agent's headers with the upstream's own key in place of the placeholder it was given: the header each API reads. */
function withKey(headers: Record<string, string | string[]>, apiKey: string | undefined): Record<string, string | string[]> {
  if (!apiKey) return headers;
  const out = { ...headers };
  for (const name of Object.keys(out)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') out[name] = `Bearer ${apiKey}`;
    if (lower === 'x-api-key' || lower === 'x-goog-api-key' || lower === 'api-key') out[name] = apiKey;
  }
  if (!Object.keys(out).some((n) => ['authorization', 'x-api-key', 'x-goog-api-key', 'api-key'].includes(n.toLowerCase())))
    out.authorization = `Bearer ${apiKey}`;
  return out;
}

/** A reply's text as the client reads it: passed on compressed, read here through the encoding the server named. */
function decoded(body: Buffer, encoding: string | string[] | undefined): string {
  const zlib = process.getBuiltinModule('node:zlib') as typeof import('node:zlib');
  const steps = String(encoding ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e && e !== 'identity')
    .reverse();
  const decoders: Record<string, (b: Buffer) => Buffer> = {
    gzip: zlib.gunzipSync,
    'x-gzip': zlib.gunzipSync,
    br: zlib.brotliDecompressSync,
    deflate: zlib.inflateSync,
  };
  let out = body;
  try {
    for (const e of steps) out = decoders[e]?.(out) ?? out;
  } catch {
    // A body its encoding does not describe: metered as it came (its usage then estimated).
    return body.toString('utf8');
  }
  return out.toString('utf8');
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Listens on 127.0.0.1 and forwards each request to `upstream` (an API base such as
 * http://localhost:11434/v1): the path after the base is kept, the reply streamed back chunk by
 * chunk (an agent's stall timer sees what it would see), and each model call recorded with what its
 * reply says it cost.
 */
export async function startRecordingProxy({
  upstream,
  apiKey,
  signal,
}: {
  upstream: string;
  /** The upstream's key: it replaces whatever placeholder the agent sent, in the header its API reads. */
  apiKey?: string;
  signal?: AbortSignal;
}): Promise<RecordingProxy> {
  const base = new URL(upstream);
  const basePath = base.pathname.replace(/\/+$/, '');
  const calls: RecordedCall[] = [];
  const proxy = { otherRequests: 0 };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const started = Date.now();
    const body = await readAll(req);
    const path = req.url ?? '/';
    const dialect = dialectOf(path);
    if (!dialect) proxy.otherRequests++;
    const target = new URL(path, base.origin);
    // The upstream only: a request for another host (an absolute or //host target) is not passed on.
    if (!path.startsWith('/') || target.origin !== base.origin) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `forge eval's proxy passes requests to ${base.origin} only` } }));
      return;
    }
    // The base's query (Azure's ?api-version=) goes with every call, as the agent would have sent it.
    for (const [k, v] of base.searchParams) if (!target.searchParams.has(k)) target.searchParams.set(k, v);
    const { request } = await import('undici');
    let upstreamReply: Dispatcher.ResponseData;
    try {
      upstreamReply = await request(target, {
        method: (req.method ?? 'GET') as 'GET',
        headers: withKey(passHeaders(req.headers), apiKey),
        body: body.length ? body : undefined,
        signal,
      });
    } catch (err) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `forge eval's proxy could not reach ${base.origin}: ${(err as Error).message}` } }));
      return;
    }
    res.writeHead(upstreamReply.statusCode, passHeaders(upstreamReply.headers));
    const kept: Buffer[] = [];
    for await (const chunk of upstreamReply.body) {
      if (dialect) kept.push(chunk as Buffer);
      res.write(chunk);
    }
    res.end();
    if (dialect)
      calls.push({
        dialect,
        path: path.split('?')[0]!,
        body: body.toString('utf8'),
        status: upstreamReply.statusCode,
        ms: Date.now() - started,
        ...meterReply(dialect, decoded(Buffer.concat(kept), upstreamReply.headers['content-encoding'])),
      });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${basePath}${base.search}`,
    calls,
    get otherRequests() {
      return proxy.otherRequests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
