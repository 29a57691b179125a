// forge over MCP: commands as tools, generated from their declarations and called through the shared call path.
import { COMMON_ARGS, type ArgsSpec, type CommandSpec, type Entry } from './declare';
import { leaves } from './registry';
import { toolSchema } from './schema';
import type { Called } from './invoke';
import { shellSplit } from '../quote';
import { forgeCall } from './next-call';
import { cut, kebab, shown, typeName, wrongType } from './validate';
import { annotations, BEHAVIOURS, toolsetOf } from '../mcp/toolsets';
import { PassThrough } from 'node:stream';
import type { Tool } from '../mcp/sdk';

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[]; additionalProperties: false };
  annotations: ReturnType<typeof annotations>;
}

/** The tools for the selected commands (every command in the toolset table when none is given). */
export function mcpTools(entries: readonly Entry[], selected?: ReadonlySet<string>): Array<{ tool: McpTool; spec: CommandSpec<any> }> {
  return leaves(entries)
    .filter((spec) => (selected ? selected.has(spec.name) : BEHAVIOURS.has(spec.name)))
    .map((spec) => {
      const behaviour = BEHAVIOURS.get(spec.name);
      if (!behaviour) throw new Error(`'${spec.name}' is in no toolset of lib/mcp/toolsets.ts`);
      const s = toolSchema(spec);
      const title = spec.mcp ? spec.mcp.title : s.name;
      return {
        spec,
        tool: { name: s.name, title, description: s.description, inputSchema: s.parameters, annotations: annotations(behaviour) },
      };
    });
}

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  /** The same records as data (MCP's structured result): `{ records: [...] }`, as RECORDS_SCHEMA says. */
  structuredContent: { records: Array<Record<string, unknown>> };
  isError: boolean;
}

/**
 * Every tool's outputSchema: its result's NDJSON records as an array, each with the fields the I/O
 * contract gives every record (the command's own data beside them: its man page says what they are).
 * One schema for all tools, without descriptions: a client checks results with it, and none of the
 * four agents tested puts it in a model's context.
 */
export const RECORDS_SCHEMA = {
  type: 'object',
  properties: {
    records: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          ok: { type: 'boolean' },
          type: { type: 'string' },
          error: {
            type: 'object',
            properties: { code: { type: 'string' }, message: { type: 'string' } },
            required: ['code', 'message'],
          },
          // anyOf, not a type array: clients that map schemas onto one type per value (Gemini's) take it.
          _next_action: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          _or_action: { type: 'string' },
          _wait: { type: 'string' },
          _next_call: {
            type: 'object',
            properties: { name: { type: 'string' }, arguments: { type: 'object' } },
            required: ['name', 'arguments'],
          },
        },
      },
    },
  },
  required: ['records'],
} as const;

/** A result of these records: NDJSON text (for clients that read text) and the same records as structured content. */
function resultOf(records: Array<Record<string, unknown>>, isError: boolean, fallback = ''): ToolResult {
  const text = records.map((r) => JSON.stringify(r)).join('\n') || fallback;
  return { content: [{ type: 'text', text }], structuredContent: { records }, isError };
}

/**
 * The first argument the tool's inputSchema does not declare, as the CLI's error record. An NDJSON
 * request may carry common keys (`cwd`, `run-id`, `id`), but a tool call's arguments are the
 * schema's properties and nothing else (additionalProperties: false): a call that chose its own
 * `cwd` would read and write outside the repository the server was started for. A camelCase key
 * names the property it spells (`ignoreCase` is `ignore-case`), as it does on the NDJSON door.
 */
export function undeclaredError(spec: CommandSpec<any>, args: Record<string, unknown>): Record<string, unknown> | null {
  for (const key of Object.keys(args)) {
    const name = kebab(key);
    const arg = Object.hasOwn(spec.args, name) ? (spec.args as ArgsSpec)[name]! : undefined;
    if (arg && !arg.personOnly) continue;
    const tool = spec.name.replace(/[ -]/g, '_');
    const known = Object.entries(spec.args as ArgsSpec)
      .filter(([, a]) => !a.personOnly)
      .map(([n]) => n);
    // The keys an NDJSON request may carry besides the command's own: over MCP, the server's.
    const why =
      Object.hasOwn(COMMON_ARGS, name) || name === 'id'
        ? `over MCP every call runs in the directory forge mcp serves, with the server's own options (another directory is another server: forge mcp --cwd DIR)`
        : `it takes ${known.join(', ') || 'no arguments'}`;
    return {
      ok: false,
      error: { code: 'UNKNOWN_FIELD', message: `'${cut(key)}' is not an argument of tool '${tool}': ${why}`, data: { field: key } },
      _next_action: `forge schema ${tool}`,
    };
  }
  return null;
}

/**
 * The first argument whose JSON type is not the one its inputSchema declares, as the CLI's error
 * record: the CLI coerces flag text (`5` → '5'), but a tool call's arguments are typed JSON, and
 * `{"path": 5}` is a model's mistake to correct, not a file named 5. Null (absent) is left to the
 * CLI, which knows it; undeclared keys were refused before (undeclaredError).
 */
export function typeError(spec: CommandSpec<any>, args: Record<string, unknown>): Record<string, unknown> | null {
  for (const [key, value] of Object.entries(args)) {
    const name = kebab(key);
    const arg = Object.hasOwn(spec.args, name) ? (spec.args as ArgsSpec)[name]! : undefined;
    if (!arg || value === null || value === undefined) continue;
    const expected = wrongType(arg.type, value);
    if (expected) {
      return {
        ok: false,
        error: {
          code: 'INVALID_ARGUMENT',
          message: `'${name}' must be ${expected}, got ${typeName(value)} ${shown(value)}`,
          data: { field: name },
        },
        _next_action: `forge ${spec.name} --help`,
      };
    }
  }
  return null;
}

/**
 * Runs one tool call as the CLI runs one NDJSON request (`echo '{…}' | forge <cmd> --json`): the
 * same validation, errors and hints, after the arguments' names and types are checked against the
 * tool's inputSchema. The records are the result's text; a refusal or an error is an isError result
 * whose record still carries `_next_action`.
 * `call` runs the command in-process (lib/cli/invoke.ts callOnce, in the command's own bundle).
 */
export async function callTool({
  spec,
  args,
  call,
  nextCall,
}: {
  spec: CommandSpec<any>;
  args: Record<string, unknown>;
  call: (args: Record<string, unknown>) => Promise<Called>;
  /** The tool call a hint's command is, when a served tool runs it (see nextToolCall). */
  nextCall?: (command: string) => NextCall | null;
}): Promise<ToolResult> {
  const refused = undeclaredError(spec, args) ?? typeError(spec, args);
  if (refused) return resultOf([refused], true);
  const { code, records, stderr } = await call(args);
  return resultOf(nextCall ? records.map((r) => withNextCall(r, nextCall)) : records, code !== 0, stderr.trimEnd());
}

/** A next step a client can make as it is: the tool and its arguments. */
export interface NextCall {
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * The tool call a hint's `forge …` command is, when `served` has its tool and every word of it is
 * an argument of that tool's schema, of its type. A hint with --cwd or --run-id (another directory
 * or run) or for a tool not served stays a shell line only.
 */
export function nextToolCall(command: string, specOf: (words: string[]) => CommandSpec<any> | null): NextCall | null {
  const call = forgeCall(shellSplit(command) ?? [], specOf);
  if (!call || call.parsed.help || call.parsed.cwd !== undefined || call.parsed.runId !== undefined) return null;
  const { spec, parsed } = call;
  if (undeclaredError(spec, parsed.raw) || typeError(spec, parsed.raw)) return null;
  return { name: spec.name.replace(/[ -]/g, '_'), arguments: parsed.raw };
}

/** A record whose `_next_action` a served tool runs gets `_next_call` beside it. */
function withNextCall(record: Record<string, unknown>, nextCall: (command: string) => NextCall | null): Record<string, unknown> {
  const next = record._next_action;
  const call = typeof next === 'string' ? nextCall(next) : null;
  return call ? { ...record, _next_call: call } : record;
}

/** How long a client may keep forge's tool list and discovery answer (2026-07-28 cache hints): they never change while a server runs. */
const LIST_TTL_MS = 60 * 60 * 1000;

/**
 * Serves these tools over stdio until the client closes the connection; stdout carries only
 * protocol. `call` runs the command a served tool names (loading its code then, not before).
 * Both protocol eras are served, as the client's first message chooses: the 2025 handshake
 * (initialize) and the 2026-07-28 stateless core (server/discover, a version in each request's _meta).
 */
export async function serveMcp({
  tools,
  call,
  version,
}: {
  tools: ReadonlyArray<{ tool: McpTool; command: string }>;
  call: (command: string, args: Record<string, unknown>, how: CallControl) => Promise<ToolResult>;
  version: string;
}): Promise<void> {
  const [sdk, { screened }] = await Promise.all([import('../mcp/sdk'), import('../mcp/screen')]);
  // Calls not yet answered: the server waits for them (or for their cancellation) before it exits.
  const inflight = new Set<Promise<ToolResult>>();
  // JSON Schema as the declarations give it: the SDK's type for it is narrower than JSON Schema's.
  const listed = tools.map((t) => ({ ...t.tool, outputSchema: RECORDS_SCHEMA })) as unknown as Tool[];
  const byName = new Map(tools.map((t) => [t.tool.name, t.command]));
  // The low-level Server: tools come from the declarations as JSON Schema, not from zod shapes.
  // One instance per era the opening exchange picks (serveStdio's factory), all with the same tools.
  const serverFor = () => {
    const server = new sdk.Server(
      { name: 'forge', version },
      {
        capabilities: { tools: {} },
        instructions:
          'forge: git-native commands for coding agents. Every result ends with _next_action, the next command to run (null when done).',
        cacheHints: { 'tools/list': { ttlMs: LIST_TTL_MS }, 'server/discover': { ttlMs: LIST_TTL_MS } },
      },
    );
    server.setRequestHandler('tools/list', async (req) => {
      // One page holds every tool: a cursor is none forge gave.
      if (req.params?.cursor !== undefined)
        throw new sdk.ProtocolError(
          sdk.ProtocolErrorCode.InvalidParams,
          `no such cursor: ${JSON.stringify(req.params.cursor)} (forge lists every tool in one page)`,
        );
      return { tools: listed };
    });
    server.setRequestHandler('tools/call', async (req, ctx) => {
      const command = byName.get(req.params.name);
      if (!command) return unservedTool(req.params.name, [...byName.keys()]);
      const running = call(command, req.params.arguments ?? {}, {
        signal: ctx.mcpReq.signal,
        ...progressOf(req.params._meta?.progressToken, ctx.mcpReq.notify),
      });
      inflight.add(running);
      return running.finally(() => inflight.delete(running));
    });
    return server;
  };
  // The client closing our stdin ends the session once every call it made is answered: the SDK's
  // transport would abort them at end of input, so it reads a stream that ends only after them.
  const held = new PassThrough();
  const transport = new sdk.StdioServerTransport(held, process.stdout);
  // Malformed lines get their JSON-RPC error here; the SDK would drop them without a reply.
  const isMessage = (v: unknown) => sdk.isJSONRPCRequest(v) || sdk.isJSONRPCNotification(v) || sdk.isJSONRPCResponse(v);
  const input = screened(process.stdin, isMessage, (reply) => {
    transport.send(reply).catch(() => undefined);
  });
  input.pipe(held, { end: false });
  let endSession = () => {};
  const ended = new Promise<void>((resolveEnded) => {
    endSession = resolveEnded;
  });
  input.once('end', () => {
    settled(inflight).then(endSession, endSession);
  });
  const handle = sdk.serveStdio(serverFor, { transport, onerror: () => undefined });
  // A client gone (a signal, or its death) aborts the calls in flight: closing the server does.
  const gone = clientGone(async () => {
    await handle.close();
    endSession();
  });
  await ended;
  // Aborted calls end their programs before the server exits, not after.
  await settled(inflight);
  gone.stop();
  held.end();
  await handle.close();
}

/** Resolves once no call is in flight; the SDK starts a handler a tick after its message, so the last ones may not be in the set yet. */
async function settled(inflight: ReadonlySet<Promise<unknown>>): Promise<void> {
  for (let waiting = -1; waiting !== 0; ) {
    await new Promise((resolveTick) => setImmediate(resolveTick));
    waiting = inflight.size;
    await Promise.allSettled([...inflight]);
  }
}

/** The answer to a call of a tool not served: the flag that serves a forge command is the next step. */
function unservedTool(name: string, served: string[]): ToolResult {
  const set = toolsetOf(name);
  const record = set
    ? {
        ok: false,
        error: {
          code: 'UNKNOWN_TOOL',
          message: `'${name}' is not served here: it is in the '${set}' toolset (served: ${served.join(', ')})`,
        },
        _next_action: `forge mcp --toolsets default,${set}`,
      }
    : {
        ok: false,
        error: { code: 'UNKNOWN_TOOL', message: `no tool '${name}' (served: ${served.join(', ')})` },
        _next_action: 'forge schema',
      };
  return resultOf([record], true);
}

/**
 * Calls `abort` when the client is gone: it sent SIGTERM, SIGINT or SIGHUP (MCP's stdio shutdown
 * is: close stdin, wait, SIGTERM, SIGKILL — and a SIGKILL would leave a call's programs running),
 * or it died and this process was handed to another parent.
 */
function clientGone(abort: () => Promise<void>): { stop(): void } {
  const parent = process.ppid;
  const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
  const onSignal = () => {
    abort().catch(() => undefined);
  };
  for (const s of signals) process.on(s, onSignal);
  const orphaned = setInterval(() => {
    if (process.ppid !== parent) onSignal();
  }, 250);
  orphaned.unref();
  return {
    stop() {
      clearInterval(orphaned);
      for (const s of signals) process.off(s, onSignal);
    },
  };
}

/** What a call gets besides its arguments: the signal of its cancellation, and where its progress goes when the client asked for it. */
export interface CallControl {
  signal: AbortSignal;
  onProgress?: (text: string) => void;
}

/**
 * Progress for a call whose request carried a progressToken: each progress line the command would
 * show a person becomes a notifications/progress, numbered (progress must increase), the line as
 * its message. None without a token.
 */
function progressOf(
  token: string | number | undefined,
  send: (n: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number; message: string };
  }) => Promise<void>,
): Pick<CallControl, 'onProgress'> {
  if (token === undefined) return {};
  let step = 0;
  return {
    onProgress: (message) => {
      step++;
      // A client gone by now cannot be told; the call goes on to its end or its cancellation.
      send({ method: 'notifications/progress', params: { progressToken: token, progress: step, message } }).catch(() => undefined);
    },
  };
}
