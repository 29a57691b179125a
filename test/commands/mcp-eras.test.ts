// forge mcp in both protocol eras: the 2025 handshake and the 2026-07-28 stateless core, with the official SDK clients (v1 and v2) and raw JSON-RPC.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { FORGE, forgeEnv } from '../helpers/forge';
import { test } from '../helpers/harness';
import { connect, connectV2, envelope } from '../helpers/mcp';
import { ownChild } from '../helpers/owner';
import { readIfThere, running, until } from '../helpers/process';
import { repoWith, tempRepo } from '../helpers/repo';
import { MODERN_REVISIONS } from '../../lib/mcp/screen';

type Listed = { name: string; title?: string; outputSchema?: unknown };
type Called = { isError?: boolean; structuredContent?: { records?: Array<Record<string, unknown>> }; content?: unknown };

/** What every client, of either era, must get from the same server: titled tools with an outputSchema, and a call's records as data. */
async function servesTools(list: () => Promise<{ tools: Listed[] }>, call: (name: string, args: object) => Promise<Called>) {
  const { tools } = await list();
  const read = tools.find((t) => t.name === 'read')!;
  assert.is(read.title, 'Read a file window');
  assert.ok(
    tools.every((t) => t.title && t.outputSchema),
    'every tool has a title and an outputSchema',
  );
  // The SDK clients check structuredContent against the tool's outputSchema: a mismatch would throw here.
  const result = await call('read', { path: 'a.txt' });
  assert.is(result.isError, false);
  const record = result.structuredContent!.records![0]!;
  assert.equal([record.ok, record.path, record._next_action], [true, 'a.txt', null]);
  assert.equal(
    (record.lines as Array<{ text: string }>).map((l) => l.text),
    ['hello'],
  );
  // The text block carries the same records, as NDJSON, for clients that read text.
  assert.equal(JSON.parse((result.content as Array<{ text: string }>)[0]!.text), record);
}

for (const mode of [{ pin: '2026-07-28' }, 'auto', 'legacy'] as const) {
  const era = mode === 'legacy' ? '2025-11-25' : '2026-07-28';
  test(`SDK v2 client (${JSON.stringify(mode)}) connects at ${era} at once and gets titled tools with structured results`, async () => {
    const { client } = await connectV2(repoWith({ 'a.txt': 'hello\n' }), mode);
    try {
      assert.is(client.getNegotiatedProtocolVersion(), era);
      await servesTools(
        () => client.listTools(),
        (name, args) => client.callTool({ name, arguments: args as Record<string, unknown> }) as Promise<Called>,
      );
    } finally {
      await client.close();
    }
  });
}

test('SDK v1 client (2025 era) gets the same tools and structured results', async () => {
  const { client } = await connect(repoWith({ 'a.txt': 'hello\n' }));
  try {
    assert.is(client.getServerVersion()?.name, 'forge');
    await servesTools(
      () => client.listTools() as Promise<{ tools: Listed[] }>,
      (name, args) => client.callTool({ name, arguments: args as Record<string, unknown> }) as Promise<Called>,
    );
  } finally {
    await client.close();
  }
});

/** Sends `lines` to a fresh `forge mcp` in `dir`, closes its stdin, and returns its replies by id once it exits. */
async function session(dir: string, lines: unknown[]): Promise<{ byId: (id: unknown) => Record<string, any>; stderr: string }> {
  const child = ownChild(spawn(process.execPath, [FORGE, 'mcp'], { cwd: dir, env: forgeEnv(), stdio: ['pipe', 'pipe', 'pipe'] }));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(`${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
  await new Promise((done) => child.once('exit', done));
  const replies = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, any>);
  return { byId: (id) => replies.find((r) => r.id === id) ?? {}, stderr };
}

test('raw 2026-07-28: server/discover answers the first probe; every result says resultType; lists carry cache hints; a bad envelope or revision is refused', async () => {
  const dir = repoWith({ 'a.txt': 'hello\n' });
  const modern = (id: number, method: string, params: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id,
    method,
    params: { ...params, _meta: envelope() },
  });
  const { byId, stderr } = await session(dir, [
    modern(1, 'server/discover'),
    modern(2, 'tools/list'),
    modern(3, 'tools/call', { name: 'read', arguments: { path: 'a.txt' } }),
    // A slow call the client does not wait for before closing stdin: still answered.
    modern(4, 'tools/call', { name: 'validate', arguments: { module: 'M1', cmd: ['sleep 1; echo done'] } }),
    { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: envelope('2099-01-01') } },
    { jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': 5 } } },
    { jsonrpc: '2.0', id: 7, method: 'tools/list' },
    modern(8, 'tools/list', { cursor: 'page-2' }),
    '{not json',
  ]);
  const discover = byId(1).result;
  assert.equal(discover.supportedVersions, [...MODERN_REVISIONS], 'the revisions forge screens requests by are those the SDK serves');
  assert.equal([discover.resultType, discover.capabilities.tools !== undefined], ['complete', true]);
  assert.is(discover._meta['io.modelcontextprotocol/serverInfo'].name, 'forge');
  const listed = byId(2).result;
  assert.equal([listed.resultType, listed.cacheScope], ['complete', 'private']);
  assert.ok(listed.ttlMs > 0, 'the tool list never changes while the server runs: a client may keep it');
  assert.ok(listed.tools.length > 0);
  const read = byId(3).result;
  assert.equal([read.resultType, read.isError, read.structuredContent.records[0].ok], ['complete', false, true]);
  assert.equal(byId(4).result?.structuredContent?.records?.at(-1)?.passed, true, `the slow call was answered: ${JSON.stringify(byId(4))}`);
  assert.equal(
    [byId(5).error?.code, byId(5).error?.data?.supported],
    [-32022, ['2026-07-28']],
    `a request claiming a revision not served is refused, mid-session too, with those served: ${JSON.stringify(byId(5)).slice(0, 300)}`,
  );
  assert.is(byId(6).error?.code, -32602, 'a malformed envelope is invalid params');
  assert.is(byId(7).error?.code, -32602, 'a request without its envelope, once the session is in the 2026 era');
  assert.is(byId(8).error?.code, -32602, 'an unknown cursor');
  assert.is(byId(null).error?.code, -32700);
  assert.is(stderr, '');
});

test('2026-07-28 cancellation and progress: a v2 client pinned to the revision stops a validate (no process, no file) and gets its progress', async () => {
  const dir = tempRepo();
  const { client } = await connectV2(dir, { pin: '2026-07-28' });
  const pidFile = join(dir, 'pid');
  try {
    const seen: string[] = [];
    const done = await client.callTool(
      { name: 'validate', arguments: { module: 'M1', cmd: ['true', 'echo two'] } },
      { onprogress: (p) => seen.push(p.message ?? '') },
    );
    assert.equal([done.isError, seen], [false, ['[1/2] true', '[2/2] echo two']]);
    const abort = new AbortController();
    const call = client.callTool(
      { name: 'validate', arguments: { module: 'M2', cmd: ['echo $$ > pid; sleep 60; touch M'] } },
      { signal: abort.signal },
    );
    await until(() => readIfThere(pidFile).endsWith('\n'));
    const pid = Number(readIfThere(pidFile));
    abort.abort('stop');
    await call.then(
      () => assert.unreachable('a cancelled call has no result'),
      () => undefined,
    );
    // Unbounded (a zombie counts as gone): the harness's timeout is the failure if it was missed.
    await until(() => !running(pid));
    assert.not.ok(existsSync(join(dir, 'M')));
  } finally {
    await client.close();
    if (existsSync(pidFile)) {
      try {
        process.kill(-Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
      } catch {}
    }
  }
});

test.run();
