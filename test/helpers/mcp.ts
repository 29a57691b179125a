// An MCP client of forge mcp for the tests: the official SDK's over stdio (v1, of the 2025 era, or v2 of either era), or the raw lines a session opens with.
import { Client as ClientV2, type VersionNegotiationMode } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { FORGE, forgeEnv } from './forge';

const childEnv = (extra: Record<string, string> = {}) =>
  Object.fromEntries(Object.entries(forgeEnv(extra)).filter((e): e is [string, string] => e[1] !== undefined));

/** `forge mcp` started in `cwd` with `flags` (and more environment), and a client connected to it (closing the client ends the server). */
export async function connect(
  cwd: string,
  flags: string[] = [],
  extraEnv: Record<string, string> = {},
): Promise<{ client: Client; transport: StdioClientTransport }> {
  const env = childEnv(extraEnv);
  const transport = new StdioClientTransport({ command: process.execPath, args: [FORGE, 'mcp', ...flags], cwd, env, stderr: 'pipe' });
  const client = new Client({ name: 'forge-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/**
 * `forge mcp` in `cwd` with a client of SDK v2 negotiating as `mode` says: 'legacy' (the 2025
 * handshake), 'auto' (a server/discover probe, then whichever era the server speaks) or a pinned revision.
 */
export async function connectV2(
  cwd: string,
  mode: VersionNegotiationMode,
  flags: string[] = [],
): Promise<{ client: ClientV2; transport: StdioClientTransportV2 }> {
  const transport = new StdioClientTransportV2({
    command: process.execPath,
    args: [FORGE, 'mcp', ...flags],
    cwd,
    env: childEnv(),
    stderr: 'pipe',
  });
  const client = new ClientV2({ name: 'forge-test-v2', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(transport);
  return { client, transport };
}

/** The `_meta` a 2026-07-28 request carries: its revision, the client and its capabilities. */
export function envelope(version = '2026-07-28'): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientInfo': { name: 'forge-test', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

/** The two messages a 2025-era client opens a raw session with: initialize (request `id`) and initialized. */
export function opening(id = 0, name = 'forge-test'): Array<Record<string, unknown>> {
  return [
    {
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name, version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
  ];
}
