// `make bench`, mcp: the schema tokens each toolset of forge mcp puts in a model's context and in a client's listing (o200k_base), listed by the SDK's own client.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { DEFAULT_TOOLSETS, TOOLSETS } from '../lib/mcp/toolsets';
import { FORGE, forgeEnv } from '../test/helpers/forge';
import { tempRepo } from '../test/helpers/repo';

const env = Object.fromEntries(Object.entries(forgeEnv()).filter((e): e is [string, string] => e[1] !== undefined));
const cwd = tempRepo();

/**
 * The tools/list answer of `forge mcp <flags>` (to a 2026-era client): how many tools, the tokens of
 * what a model is offered (name, description, inputSchema: what Gemini CLI and OpenCode send), and of
 * the whole listing (title, annotations and outputSchema too: the client's).
 */
async function listed(flags: string[]): Promise<[number, number, number]> {
  const client = new Client({ name: 'forge-bench', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [FORGE, 'mcp', ...flags], cwd, env, stderr: 'pipe' }));
  try {
    const { tools } = await client.listTools();
    const offered = tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
    return [tools.length, countTokens(JSON.stringify(offered)), countTokens(JSON.stringify(tools))];
  } finally {
    await client.close();
  }
}

const rows: Array<[string, string[]]> = [
  [`default (${DEFAULT_TOOLSETS.join(',')})`, []],
  ['all', ['--toolsets', 'all']],
  ...Object.keys(TOOLSETS).map((name): [string, string[]] => [name, ['--toolsets', name]]),
];
console.log(
  '\nforge mcp, schema tokens per toolset (o200k_base): offered to the model (goals: default ≤ 2,500, all ≤ 5,000), and the whole tools/list',
);
const width = Math.max(...rows.map(([label]) => label.length));
for (const [label, flags] of rows) {
  const [tools, offered, whole] = await listed(flags);
  console.log(
    `  ${label.padEnd(width)}  ${String(tools).padStart(3)} tools  ${String(offered).padStart(5)} tokens offered  ${String(whole).padStart(5)} listed`,
  );
}
