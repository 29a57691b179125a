// forge over MCP: commands as tools, generated from their declarations and run through the same CLI path.
import { COMMON_ARGS, type ArgsSpec, type CommandSpec, type Entry } from './declare';
import { leaves } from './registry';
import { toolSchema } from './schema';
import type { Invocation } from './invoke';
import { shellSplit } from '../quote';
import { forgeCall } from './next-call';
import { cut, kebab, shown, typeName, wrongType } from './validate';
import { annotations, BEHAVIOURS, toolsetOf } from '../mcp/toolsets';

export interface McpTool {
  name: string;
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
      return { spec, tool: { name: s.name, description: s.description, inputSchema: s.parameters, annotations: annotations(behaviour) } };
    });
}

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  isError: boolean;
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
 * `invoke` runs the command in-process (lib/cli/invoke.ts, or the invoke of the command's own bundle).
 */
export async function callTool({
  spec,
  args,
  invoke,
  nextCall,
}: {
  spec: CommandSpec<any>;
  args: Record<string, unknown>;
  invoke: (args: Record<string, unknown>) => Promise<Invocation>;
  /** The tool call a hint's command is, when a served tool runs it (see nextToolCall). */
  nextCall?: (command: string) => NextCall | null;
}): Promise<ToolResult> {
  const refused = undeclaredError(spec, args) ?? typeError(spec, args);
  if (refused) return { content: [{ type: 'text', text: JSON.stringify(refused) }], isError: true };
  const { code, stdout, stderr } = await invoke(args);
  const text = stdout.trimEnd() || stderr.trimEnd();
  return { content: [{ type: 'text', text: nextCall ? withNextCalls(text, nextCall) : text }], isError: code !== 0 };
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

/** Each record of a result whose `_next_action` a served tool runs gets `_next_call` beside it. */
function withNextCalls(text: string, nextCall: (command: string) => NextCall | null): string {
  return text
    .split('\n')
    .map((line) => {
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        return line;
      }
      const next = (record as { _next_action?: unknown } | null)?._next_action;
      const call = typeof next === 'string' ? nextCall(next) : null;
      return call ? JSON.stringify({ ...(record as object), _next_call: call }) : line;
    })
    .join('\n');
}

/**
 * Serves these tools over stdio until the client closes the connection; stdout carries only
 * protocol. `call` runs the command a served tool names (loading its code then, not before).
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
  // The low-level Server: tools come from the declarations as JSON Schema, not from zod shapes.
  const [
    { Server, StdioServerTransport, CallToolRequestSchema, ListToolsRequestSchema, ErrorCode, McpError, JSONRPCMessageSchema },
    { screened },
  ] = await Promise.all([import('../mcp/sdk'), import('../mcp/screen')]);
  const byName = new Map(tools.map((t) => [t.tool.name, t.command]));
  const server = new Server(
    { name: 'forge', version },
    {
      capabilities: { tools: {} },
      instructions:
        'forge: git-native commands for coding agents. Every result ends with _next_action, the next command to run (null when done).',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async (req) => {
    // One page holds every tool: a cursor is none forge gave.
    if (req.params?.cursor !== undefined)
      throw new McpError(
        ErrorCode.InvalidParams,
        `no such cursor: ${JSON.stringify(req.params.cursor)} (forge lists every tool in one page)`,
      );
    return { tools: tools.map((t) => t.tool) };
  });
  // Calls not yet answered: the server waits for them (cancelled) before it exits.
  const inflight = new Set<Promise<ToolResult>>();
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const command = byName.get(req.params.name);
    if (!command) {
      // A forge command this server was not asked to serve: the flag that serves it is the next step.
      const set = toolsetOf(req.params.name);
      const record = set
        ? {
            ok: false,
            error: {
              code: 'UNKNOWN_TOOL',
              message: `'${req.params.name}' is not served here: it is in the '${set}' toolset (served: ${[...byName.keys()].join(', ')})`,
            },
            _next_action: `forge mcp --toolsets default,${set}`,
          }
        : {
            ok: false,
            error: { code: 'UNKNOWN_TOOL', message: `no tool '${req.params.name}' (served: ${[...byName.keys()].join(', ')})` },
            _next_action: 'forge schema',
          };
      return { content: [{ type: 'text', text: JSON.stringify(record) }], isError: true };
    }
    const running = call(command, req.params.arguments ?? {}, {
      signal: extra.signal,
      ...progressOf(req.params._meta?.progressToken, extra.sendNotification),
    });
    inflight.add(running);
    return running.finally(() => inflight.delete(running));
  });
  // Malformed lines get their JSON-RPC error here; the SDK would drop them without a reply.
  const input = screened(
    process.stdin,
    (v) => JSONRPCMessageSchema.safeParse(v).success,
    (reply) => {
      transport.send(reply).catch(() => undefined);
    },
  );
  const transport = new StdioServerTransport(input);
  // The client closing our stdin ends the session, once every line it sent has been taken.
  const closed = new Promise<void>((resolvePromise) => {
    transport.onclose = () => resolvePromise();
    input.once('end', () => resolvePromise());
  });
  const gone = clientGone(() => server.close());
  await server.connect(transport);
  await closed;
  // Calls in flight are answered before the server exits (a pipeline's requests), unless the client
  // is gone: then closing aborted them, and their programs are ended before it exits, not left behind.
  // The SDK starts a handler a tick after its message: the last ones may not be in flight yet.
  for (let settled = -1; settled !== 0; ) {
    await new Promise((resolveTick) => setImmediate(resolveTick));
    settled = inflight.size;
    await Promise.allSettled([...inflight]);
  }
  gone.stop();
  await server.close();
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
