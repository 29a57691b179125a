// forge over MCP: every command a tool, generated from its declaration and run through the same CLI path.
import type { CommandSpec, Entry } from '../cli/declare';
import { leaves } from '../cli/registry';
import { toolSchema } from '../cli/schema';
import { invoke } from '../cli/invoke';

/** Commands that make no sense as tools of an MCP client: the server itself. */
const NOT_TOOLS = new Set(['mcp']);

export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[] };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: boolean };
}

export function mcpTools(entries: readonly Entry[]): Array<{ tool: McpTool; spec: CommandSpec<any> }> {
  return leaves(entries)
    .filter((spec) => !NOT_TOOLS.has(spec.name))
    .map((spec) => {
      const s = toolSchema(spec);
      return { spec, tool: { name: s.name, description: s.description, inputSchema: s.parameters, annotations: { title: `forge ${spec.name}`, readOnlyHint: !spec.mutates, destructiveHint: spec.mutates, openWorldHint: false } } };
    });
}

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  isError: boolean;
}

/**
 * Runs one tool call as the CLI runs one NDJSON request (`echo '{…}' | forge <cmd> --json`): the
 * same validation, errors and hints. The records are the result's text; a refusal or an error is
 * an isError result whose record still carries `_next_action`.
 */
export async function callTool({ entries, spec, args, cwd, env }: { entries: readonly Entry[]; spec: CommandSpec<any>; args: Record<string, unknown>; cwd: string; env: NodeJS.ProcessEnv }): Promise<ToolResult> {
  const { code, stdout, stderr } = await invoke({ entries, spec, args, cwd, env, json: true });
  const text = stdout.trimEnd() || stderr.trimEnd();
  return { content: [{ type: 'text', text }], isError: code !== 0 };
}

/** Serves every command over stdio until the client closes the connection; stdout carries only protocol. */
export async function serveMcp({ entries, version, cwd, env }: { entries: readonly Entry[]; version: string; cwd: string; env: NodeJS.ProcessEnv }): Promise<void> {
  // The low-level Server: tools come from the declarations as JSON Schema, not from zod shapes.
  const [{ Server }, { StdioServerTransport }, { CallToolRequestSchema, ListToolsRequestSchema }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const tools = mcpTools(entries);
  const byName = new Map(tools.map((t) => [t.tool.name, t.spec]));
  const server = new Server({ name: 'forge', version }, { capabilities: { tools: {} }, instructions: 'forge: git-native commands for coding agents. Every result ends with _next_action, the next command to run (null when done).' });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map((t) => t.tool) }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const spec = byName.get(req.params.name);
    if (!spec) {
      const record = { ok: false, error: { code: 'UNKNOWN_TOOL', message: `no tool '${req.params.name}'` }, _next_action: 'forge schema' };
      return { content: [{ type: 'text', text: JSON.stringify(record) }], isError: true };
    }
    return callTool({ entries, spec, args: req.params.arguments ?? {}, cwd, env });
  });
  const transport = new StdioServerTransport();
  // The client closing our stdin ends the session.
  const closed = new Promise<void>((resolvePromise) => {
    transport.onclose = () => resolvePromise();
    process.stdin.once('end', () => resolvePromise());
  });
  await server.connect(transport);
  await closed;
}
