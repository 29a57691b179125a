// forge mcp: the MCP SDK's own client over stdio lists the tools and calls read, edit and plan check.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { entries } from '../../commands/index';
import { leaves } from '../../lib/cli/registry';
import { planTemplate } from '../../lib/plans/template';
import { FORGE, forgeEnv } from '../helpers/forge';
import { repoWith, tempRepo } from '../helpers/repo';

async function connect(cwd: string) {
  const env = Object.fromEntries(Object.entries(forgeEnv()).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [FORGE, 'mcp'], cwd, env, stderr: 'pipe' });
  const client = new Client({ name: 'forge-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const records = (r: Record<string, unknown>) => ((r.content as Array<{ text: string }>)[0]!.text).split('\n').map((l) => JSON.parse(l) as Record<string, any>);

/** Runs `body` with a connected client, closing it (and the server) even when an assertion fails. */
async function withClient(cwd: string, body: (client: Client) => Promise<void>): Promise<void> {
  const client = await connect(cwd);
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

test('tools mirror the declarations, with read-only and destructive hints', () => withClient(tempRepo(), async (client) => {
  const { tools } = await client.listTools();
  const expected = leaves(entries).filter((c) => c.name !== 'mcp');
  assert.equal(tools.map((t) => t.name).sort(), expected.map((c) => c.name.replace(/[ -]/g, '_')).sort());
  const read = tools.find((t) => t.name === 'read')!;
  assert.equal([read.annotations?.readOnlyHint, read.annotations?.destructiveHint, read.inputSchema.required], [true, false, ['path']]);
  assert.equal([tools.find((t) => t.name === 'edit')!.annotations?.destructiveHint], [true]);
}));

test('read, edit and plan check run as the CLI runs them; errors are isError results carrying the fix', async () => {
  const dir = repoWith({ 'src/app.ts': 'export const a = 1;\nexport const b = 2;\n', 'docs/plans/p.md': planTemplate({ slug: 'demo', date: '2026-01-01' }) });
  await withClient(dir, async (client) => {
    const read = await client.callTool({ name: 'read', arguments: { path: 'src/app.ts' } });
    assert.is(read.isError, false);
    assert.equal(records(read)[0]!.lines.map((l: { text: string }) => l.text), ['export const a = 1;', 'export const b = 2;']);
    const edit = await client.callTool({ name: 'edit', arguments: { path: 'src/app.ts', old: 'b = 2', new: 'b = 3' } });
    assert.is(edit.isError, false);
    assert.is(readFileSync(join(dir, 'src/app.ts'), 'utf8'), 'export const a = 1;\nexport const b = 3;\n');
    const check = await client.callTool({ name: 'plan_check', arguments: {} });
    assert.equal([check.isError, records(check).at(-1)!.errors], [false, 0]);
    const missing = await client.callTool({ name: 'edit', arguments: { path: 'src/app.ts', old: 'no such text', new: 'x' } });
    assert.is(missing.isError, true);
    const err = records(missing).at(-1)!;
    assert.is(err.ok, false);
    assert.type(err.error.code, 'string');
    assert.match(err._next_action, /^forge read src\/app\.ts/);
    const bad = await client.callTool({ name: 'read', arguments: { path: 'src/app.ts', start: 'ten' } });
    assert.equal([bad.isError, records(bad)[0]!.error.code], [true, 'INVALID_ARGUMENT']);
    const unknown = await client.callTool({ name: 'deploy', arguments: {} });
    assert.equal([unknown.isError, records(unknown)[0]!._next_action], [true, 'forge schema']);
  });
});

test.run();
