// forge's own tool calls (forge agent's tools, forge's MCP tools) as the plan gate reads them: what each does, by the command it runs.
import { type ForgeEffects, forgeCommand, forgeEffects } from './forge-effects';
import { FORGE_MCP_SERVER, mcpParts, type ToolAgent } from './tools';

/** What preflight needs to know of a call: the paths it names, a bash call's command line, and what one of forge's commands does. */
export interface ForgeCall {
  tool: string;
  path: string[];
  command?: string;
  effects?: ForgeEffects;
}

/** A call of forge's tool `name` with `args` (as its declaration names them), or of forge agent's bash. */
export function preflightArgs(name: string, args: Record<string, unknown>): ForgeCall {
  if (name === 'bash') return { tool: 'bash', path: [], command: typeof args.command === 'string' ? args.command : '' };
  const command = forgeCommand(name);
  if (!command) return { tool: name, path: typeof args.path === 'string' ? [args.path] : [] };
  const effects = forgeEffects(command, args);
  return { tool: name, path: [...effects.reads, ...effects.writes], effects };
}

/**
 * An agent's call of one of forge's own MCP tools (mcp__forge__patch, mcp__forge__validate…): what
 * its arguments make the command do — a patch's files from its diff, a replace's directories, the
 * verify commands validate runs. Null for any other tool.
 */
export function forgeMcpCall(
  tool: string,
  input: Record<string, unknown>,
  agent?: ToolAgent,
): { paths: string[]; command: undefined; effects?: ForgeEffects } | null {
  const mcp = mcpParts(tool, agent);
  if (mcp?.server !== FORGE_MCP_SERVER) return null;
  const call = preflightArgs(mcp.tool, input);
  return { paths: call.path, command: undefined, ...(call.effects ? { effects: call.effects } : {}) };
}
