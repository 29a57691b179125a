// What reaches forge mcp's protocol layer: each line of stdin checked as JSON-RPC first, so a malformed one gets its error reply instead of silence.
import { StringDecoder } from 'node:string_decoder';
import { Transform, type Readable } from 'node:stream';
import type { JSONRPCMessage } from './sdk';

/** Whether a parsed value is a JSON-RPC message the SDK takes (its JSONRPCMessageSchema: the SDK is loaded by the caller, not here). */
export type IsMessage = (value: unknown) => boolean;

/** JSON-RPC 2.0's codes for a message that cannot be served (the SDK drops these lines without a word). */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

/** MCP's code for a request that claims a protocol revision the server does not serve (the SDK's ProtocolErrorCode.UnsupportedProtocolVersion). */
export const UNSUPPORTED_VERSION = -32022;

/** The `_meta` key of a 2026-era request's protocol revision. */
const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

/**
 * The 2026-era revisions served: the SDK's own list (SUPPORTED_MODERN_PROTOCOL_VERSIONS, not exported),
 * which server/discover answers with — test/commands/mcp-eras.test.ts holds the two equal.
 */
export const MODERN_REVISIONS: readonly string[] = ['2026-07-28'];

/** A line longer than this is refused as it arrives, not buffered (the SDK's own limit). */
const MAX_LINE = 10 * 1024 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function failure(id: unknown, code: number, message: string): JSONRPCMessage {
  const replyTo = typeof id === 'string' || typeof id === 'number' ? id : null;
  return { jsonrpc: '2.0', id: replyTo, error: { code, message } } as unknown as JSONRPCMessage;
}

/**
 * One line of input: passed on when it is a JSON-RPC message the server can take, else the error
 * reply it gets — or nothing, for an invalid notification (JSON-RPC never answers one). A tool call
 * whose `arguments` is no object is invalid params, said as such (the SDK answers it with an
 * internal error holding its validator's dump).
 */
export function screenLine(line: string, isMessage: IsMessage): { pass: true } | { pass: false; reply: JSONRPCMessage | null } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { pass: false, reply: failure(null, PARSE_ERROR, 'Parse error: the line is not JSON') };
  }
  if (Array.isArray(value))
    return { pass: false, reply: failure(null, INVALID_REQUEST, 'Invalid Request: batches are not served; send one message a line') };
  if (!isMessage(value)) {
    if (isObject(value) && typeof value.method === 'string' && !('id' in value)) return { pass: false, reply: null };
    const id = isObject(value) ? value.id : null;
    return { pass: false, reply: failure(id, INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response') };
  }
  const message = value as Record<string, unknown>;
  const params = isObject(message.params) ? message.params : {};
  if (message.method === 'tools/call' && params.arguments !== undefined && !isObject(params.arguments))
    return { pass: false, reply: failure(message.id, INVALID_PARAMS, "Invalid params: a tool call's arguments are an object") };
  if (message.method === 'tools/call' && typeof params.name !== 'string')
    return {
      pass: false,
      reply: failure(message.id, INVALID_PARAMS, 'Invalid params: a tool call names its tool (params.name, a string)'),
    };
  // Each 2026-era request names its revision: one not served is refused whenever it comes (the SDK
  // checks only a session's first message, and would serve a later one as the revision it pinned).
  const claimed = isObject(params._meta) ? params._meta[VERSION_KEY] : undefined;
  if ('id' in message && typeof claimed === 'string' && !MODERN_REVISIONS.includes(claimed)) {
    const reply = failure(message.id, UNSUPPORTED_VERSION, `Unsupported protocol version: ${claimed}`) as {
      error: Record<string, unknown>;
    };
    reply.error.data = { supported: [...MODERN_REVISIONS], requested: claimed };
    return { pass: false, reply: reply as unknown as JSONRPCMessage };
  }
  return { pass: true };
}

/**
 * `input` with every line screenLine refuses taken out; each refusal's reply goes to `reply`. A
 * line over MAX_LINE is let go of as it arrives — one error for it, the bytes up to its end read
 * and dropped — so memory is bounded by the limit, and the lines after it are served.
 */
export function screened(input: Readable, isMessage: IsMessage, reply: (message: JSONRPCMessage) => void): Readable {
  // A character split between two chunks is decoded whole.
  const decoder = new StringDecoder('utf8');
  let parts: string[] = [];
  let held = 0;
  let skipping = false;
  const take = (line: string, out: Transform) => {
    const text = line.replace(/\r$/, '');
    if (!text.trim()) return;
    const seen = screenLine(text, isMessage);
    if (seen.pass) out.push(`${text}\n`);
    else if (seen.reply) reply(seen.reply);
  };
  const feed = (text: string, out: Transform) => {
    for (let at = 0; at < text.length; ) {
      const nl = text.indexOf('\n', at);
      const piece = text.slice(at, nl < 0 ? text.length : nl);
      at = nl < 0 ? text.length : nl + 1;
      if (!skipping) {
        held += piece.length;
        if (held > MAX_LINE) {
          [skipping, parts, held] = [true, [], 0];
          reply(failure(null, INVALID_REQUEST, `Invalid Request: a message over ${MAX_LINE} bytes`));
        } else parts.push(piece);
      }
      if (nl < 0) return;
      if (!skipping) take(parts.join(''), out);
      [skipping, parts, held] = [false, [], 0];
    }
  };
  const filter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      feed(decoder.write(chunk), this);
      done();
    },
    flush(done) {
      feed(decoder.end(), this);
      if (!skipping && parts.length) take(parts.join(''), this);
      done();
    },
  });
  return input.pipe(filter);
}
