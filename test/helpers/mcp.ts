// An MCP client of forge mcp for the tests: the official SDK's over stdio, or the raw lines a session opens with.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { FORGE, forgeEnv } from './forge';

/** `forge mcp` started in `cwd` with `flags`, and a client connected to it (closing the client ends the server). */
export async function connect(cwd: string, flags: string[] = []): Promise<{ client: Client; transport: StdioClientTransport }> {
  const env = Object.fromEntries(Object.entries(forgeEnv()).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [FORGE, 'mcp', ...flags], cwd, env, stderr: 'pipe' });
  const client = new Client({ name: 'forge-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
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
