// forge mcp under the MCP Inspector's CLI, the protocol's reference client: both eras, structured results, and tool schemas it finds portable.
import { spawn } from 'node:child_process';
import { delimiter } from 'node:path';
import * as assert from 'uvu/assert';
import { binOf, INSPECTOR, isInstalled, NODE_22, node22BinDir } from '../../scripts/agents/agents';
import { FORGE, forgeEnv } from '../helpers/forge';
import { test } from '../helpers/harness';
import { ownChild } from '../helpers/owner';
import { repoWith } from '../helpers/repo';

/** `mcp-inspector --cli <args> node forge mcp …` in `cwd`, on the Node it needs: exit code, stdout, stderr. */
async function inspector(
  cwd: string,
  args: string[],
  serverFlags: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  if (!isInstalled(INSPECTOR) || !isInstalled(NODE_22))
    throw new Error(
      "the MCP Inspector is not installed: run 'node --import tsx scripts/agents/install.ts inspector' (make test-agents does)",
    );
  const env = { ...forgeEnv(), PATH: [node22BinDir(), process.env.PATH].join(delimiter), NO_COLOR: '1' };
  const child = ownChild(
    spawn(binOf(INSPECTOR), ['--cli', ...args, process.execPath, FORGE, 'mcp', ...serverFlags], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number>((done) => child.once('close', (c) => done(c ?? -1)));
  return { code, stdout, stderr };
}

test('every tool of every toolset passes the Inspector --strict: no error and no portability warning', async () => {
  const r = await inspector(
    repoWith({ 'a.txt': 'hello\n' }),
    ['--strict', '--format', 'json', '--method', 'tools/list'],
    ['--toolsets', 'all'],
  );
  assert.is(r.code, 0, r.stderr);
  assert.not.match(r.stderr, /warning|error/i, 'the Inspector found nothing to report');
  const tools = (JSON.parse(r.stdout).result?.tools ?? JSON.parse(r.stdout).tools) as Array<{ name: string; title?: string }>;
  assert.ok(tools.length >= 40 && tools.every((t) => t.title), `${tools.length} tools, each titled`);
});

for (const era of ['legacy', 'modern', 'auto']) {
  test(`the Inspector (--protocol-era ${era}) calls read and gets its records as structured content`, async () => {
    const r = await inspector(repoWith({ 'a.txt': 'hello\n' }), [
      '--protocol-era',
      era,
      '--format',
      'json',
      '--method',
      'tools/call',
      '--tool-name',
      'read',
      '--tool-args-json',
      '{"path":"a.txt"}',
    ]);
    assert.is(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout).result;
    assert.is(result.isError, false);
    const record = result.structuredContent.records[0];
    assert.equal([record.ok, record.lines[0].text], [true, 'hello']);
    // The 2026-07-28 era stamps the server's identity on every result; the 2025 era has no such field.
    assert.is(result._meta?.['io.modelcontextprotocol/serverInfo']?.name, era === 'legacy' ? undefined : 'forge');
  });
}

test.run();
