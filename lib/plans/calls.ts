// forge's own tool calls (forge agent's tools, forge's MCP tools) as the plan gate reads them: the paths each names.
import { parsePatch } from '../files/patch-parse';
import { FORGE_MCP_SERVER, literalDir, mcpParts, type ToolAgent } from './tools';

/** What preflight needs to know of a call: the paths it names (and, for bash, its command line). */
export function preflightArgs(name: string, args: Record<string, unknown>): { tool: string; path: string[]; command?: string } {
  const strings = (v: unknown): string[] =>
    typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  if (name === 'bash') return { tool: 'bash', path: [], command: typeof args.command === 'string' ? args.command : '' };
  if (name === 'patch') {
    try {
      const paths = parsePatch(typeof args.diff === 'string' ? args.diff : '').flatMap((p) => [p.oldPath, p.newPath]);
      return { tool: 'patch', path: [...new Set(paths.filter((p): p is string => p !== null))] };
    } catch {
      // A diff that does not parse changes nothing: patch itself will refuse it.
      return { tool: 'patch', path: [] };
    }
  }
  // Listings and searches read directories: their paths, else the glob's literal directory (a glob
  // like '*.ts' matches anywhere, so that is the whole directory they run in).
  if (name === 'search' || name === 'replace' || name === 'ls') {
    const paths = strings(args.paths);
    return { tool: name, path: paths.length ? paths : typeof args.glob === 'string' && args.glob ? [literalDir(args.glob)] : [] };
  }
  return { tool: name, path: strings(args.path) };
}

/**
 * An agent's call of one of forge's own MCP tools (mcp__forge__patch, mcp__forge__replace…): the paths
 * its arguments name, read as forge agent's gate reads them — a patch's files from its diff, a
 * replace's directories. Null for any other tool.
 */
export function forgeMcpCall(
  tool: string,
  input: Record<string, unknown>,
  agent?: ToolAgent,
): { paths: string[]; command: string | undefined } | null {
  const mcp = mcpParts(tool, agent);
  if (mcp?.server !== FORGE_MCP_SERVER) return null;
  const call = preflightArgs(mcp.tool, input);
  return { paths: call.path, command: call.command };
}
