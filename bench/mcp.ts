// `make bench`, mcp: the schema tokens each toolset of forge mcp puts in a client's context (o200k_base), listed by the SDK's own client.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { DEFAULT_TOOLSETS, TOOLSETS } from '../lib/mcp/toolsets';
import { FORGE, forgeEnv } from '../test/helpers/forge';
import { tempRepo } from '../test/helpers/repo';

const env = Object.fromEntries(Object.entries(forgeEnv()).filter((e): e is [string, string] => e[1] !== undefined));
const cwd = tempRepo();

/** The tools/list answer of `forge mcp <flags>`: how many tools, and their JSON's tokens. */
async function listed(flags: string[]): Promise<[number, number]> {
  const client = new Client({ name: 'forge-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [FORGE, 'mcp', ...flags], cwd, env, stderr: 'pipe' }));
  try {
    const { tools } = await client.listTools();
    return [tools.length, countTokens(JSON.stringify(tools))];
  } finally {
    await client.close();
  }
}

const rows: Array<[string, string[]]> = [
  [`default (${DEFAULT_TOOLSETS.join(',')})`, []],
  ['all', ['--toolsets', 'all']],
  ...Object.keys(TOOLSETS).map((name): [string, string[]] => [name, ['--toolsets', name]]),
];
console.log('\nforge mcp, schema tokens per toolset (tools/list as the client gets it, o200k_base; goals: default ≤ 2,500, all ≤ 5,000)');
const width = Math.max(...rows.map(([label]) => label.length));
for (const [label, flags] of rows) {
  const [tools, tokens] = await listed(flags);
  console.log(`  ${label.padEnd(width)}  ${String(tools).padStart(3)} tools  ${String(tokens).padStart(5)} tokens`);
}
