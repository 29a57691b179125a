// forge mcp calls that take time: cancellation and disconnect end their programs, progress reaches a client that asks.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import * as assert from 'uvu/assert';
import { entries } from '../../commands/index';
import { mcpTools } from '../../lib/cli/mcp-server';
import { EFFECTS } from '../../lib/plans/forge-effects';
import { FORGE, forge, forgeEnv } from '../helpers/forge';
import { test } from '../helpers/harness';
import { ownChild } from '../helpers/owner';
import { connect, opening } from '../helpers/mcp';
import { git, tempDir, tempRepo } from '../helpers/repo';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Ends what a failed check left running: the verify command's whole group. */
function reap(pidFile: string): void {
  const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
  if (pid && alive(pid)) process.kill(-pid, 'SIGKILL');
}

/** Waits (at most `tries` × 100 ms) for `ready`; whether it came. */
async function until(ready: () => boolean, tries = 200): Promise<boolean> {
  for (let i = 0; i < tries && !ready(); i++) await sleep(100);
  return ready();
}

/** A verify command that says its shell's pid, then would write M long after any test has looked. */
const SLOW = 'echo $$ > pid; sleep 60; touch M';

test('a cancelled validate ends its verify command and writes nothing: no process left, no M, no attempt recorded', async () => {
  const dir = tempRepo();
  const { client } = await connect(dir);
  try {
    const abort = new AbortController();
    const call = client.callTool({ name: 'validate', arguments: { module: 'M1', cmd: [SLOW] } }, CallToolResultSchema, {
      signal: abort.signal,
    });
    assert.ok(await until(() => existsSync(join(dir, 'pid'))), 'the verify command started');
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    abort.abort('the user pressed stop');
    await call.then(
      () => assert.unreachable('a cancelled call has no result'),
      () => undefined,
    );
    assert.ok(await until(() => !alive(pid)), `the verify command (pid ${pid}) was ended`);
    assert.not.ok(existsSync(join(dir, 'M')), 'nothing it would have written');
    // The server goes on serving, and the cancelled validation is no attempt.
    const status = await client.callTool({ name: 'validate', arguments: { module: 'M1', cmd: ['true'] } });
    const record = JSON.parse((status.content as Array<{ text: string }>)[0]!.text.split('\n').at(-1)!);
    assert.equal([status.isError, record.attempt], [false, 1], 'the next validation is the first attempt');
  } finally {
    await client.close();
    reap(join(dir, 'pid'));
  }
});

test('a client that goes away mid-call takes the call with it: the verify command is ended before the server exits', async () => {
  const dir = tempRepo();
  const { client, transport } = await connect(dir);
  const server = transport.pid!;
  const call = client.callTool({ name: 'validate', arguments: { module: 'M1', cmd: [SLOW] } }).catch(() => undefined);
  assert.ok(await until(() => existsSync(join(dir, 'pid'))), 'the verify command started');
  const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
  try {
    await client.close();
    await call;
    assert.ok(await until(() => !alive(server)), 'the server exited');
    assert.not.ok(alive(pid), `the verify command (pid ${pid}) was ended before the server exited`);
    assert.not.ok(existsSync(join(dir, 'M')));
  } finally {
    reap(join(dir, 'pid'));
  }
});

test('a call with a progress token gets each progress line the command would show a person, in order', async () => {
  const dir = tempRepo();
  const { client } = await connect(dir);
  try {
    const seen: Array<{ progress: number; message?: string }> = [];
    const r = await client.callTool({ name: 'validate', arguments: { module: 'M1', cmd: ['true', 'echo two'] } }, CallToolResultSchema, {
      onprogress: (p) => seen.push({ progress: p.progress, ...(p.message ? { message: p.message } : {}) }),
    });
    assert.is(r.isError, false);
    assert.equal(seen, [
      { progress: 1, message: '[1/2] true' },
      { progress: 2, message: '[2/2] echo two' },
    ]);
    // Without a token, none.
    let unasked = 0;
    client.setNotificationHandler((await import('@modelcontextprotocol/sdk/types.js')).ProgressNotificationSchema, () => {
      unasked++;
    });
    await client.callTool({ name: 'validate', arguments: { module: 'M1', cmd: ['true'] } });
    assert.is(unasked, 0);
  } finally {
    await client.close();
  }
});

test('a tool that runs shell code or a program, now or later, is annotated destructive and open-world: no client auto-approves it as harmless', () => {
  const tools = new Map(mcpTools(entries).map(({ spec, tool }) => [spec.name, tool]));
  const running = Object.entries(EFFECTS)
    .filter(([, row]) => (row.code?.length ?? 0) > 0 || row.program !== undefined)
    .map(([name]) => name);
  // Commands that run the verify commands or done-when check a plan or loop already holds.
  for (const name of [...running, 'plan advance', 'loop hook']) {
    const a = tools.get(name)?.annotations;
    assert.ok(a, `${name} is served`);
    assert.equal([a!.destructiveHint, a!.openWorldHint], [true, true], `${name}: ${JSON.stringify(a)}`);
  }
  assert.ok(running.includes('validate'));
});

test('raw JSON-RPC: malformed lines, invalid requests, batches, non-object arguments and unknown cursors get their error codes; stdout holds only protocol, stderr nothing', async () => {
  const child = ownChild(spawn(process.execPath, [FORGE, 'mcp'], { cwd: tempRepo(), env: forgeEnv(), stdio: ['pipe', 'pipe', 'pipe'] }));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const lines = [
    ...opening(1, 'raw'),
    '{not json',
    { jsonrpc: '2.0', id: 2 },
    [{ jsonrpc: '2.0', id: 3, method: 'tools/list' }],
    { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'read', arguments: 'README.md' } },
    { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { cursor: 'page-2' } },
    { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { arguments: {} } },
    { jsonrpc: '2.0', method: 'notifications/nonsense', params: 5, extra: true },
    { jsonrpc: '2.0', id: 6, method: 'tools/list' },
  ];
  child.stdin.end(lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  await new Promise((done) => child.once('exit', done));
  const replies = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: unknown; error?: { code: number }; result?: { tools?: unknown[] } });
  const byId = (id: unknown) => replies.filter((r) => r.id === id);
  assert.equal(
    byId(null).map((r) => r.error?.code),
    [-32700, -32600],
    'a line that is not JSON, then a batch: each answered, with no id to answer',
  );
  assert.equal([byId(2)[0]?.error?.code, byId(4)[0]?.error?.code, byId(5)[0]?.error?.code], [-32600, -32602, -32602]);
  assert.equal(byId(7)[0]?.error, { code: -32602, message: 'Invalid params: a tool call names its tool (params.name, a string)' });
  assert.ok((byId(6)[0]?.result?.tools?.length ?? 0) > 0, 'the server serves on after each of them');
  assert.is(replies.length, 8, 'an invalid notification gets no reply');
  assert.is(stderr, '', 'nothing on stderr, not even a hint at exit');
});

test('a client that dies mid-call (SIGKILL, no shutdown) takes the call with it: the server, handed to another parent, ends the verify command and exits', async () => {
  const dir = tempRepo();
  // The client: a process that starts forge mcp, sends a validate call, says the server's pid, then waits to be killed.
  const client = ownChild(
    spawn(
      process.execPath,
      [
        '-e',
        `const { spawn } = require('node:child_process');
const server = spawn(process.execPath, ${JSON.stringify([FORGE, 'mcp'])}, { stdio: ['pipe', 'pipe', 'ignore'] });
const send = (m) => server.stdin.write(JSON.stringify(m) + '\\n');
for (const m of ${JSON.stringify(opening(0, 'doomed'))}) send(m);
send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'validate', arguments: { module: 'M1', cmd: [${JSON.stringify(SLOW)}] } } });
console.log(server.pid);
setInterval(() => {}, 1000);`,
      ],
      { cwd: dir, env: forgeEnv(), stdio: ['ignore', 'pipe', 'ignore'] },
    ),
  );
  let out = '';
  client.stdout.on('data', (c: Buffer) => (out += c.toString()));
  assert.ok(await until(() => existsSync(join(dir, 'pid')) && /\d+\n/.test(out)), 'the verify command started');
  const server = Number(out.trim());
  const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
  try {
    client.kill('SIGKILL');
    assert.ok(await until(() => !alive(server)), `the server (pid ${server}) exited`);
    assert.not.ok(alive(pid), `the verify command (pid ${pid}) was ended`);
    assert.not.ok(existsSync(join(dir, 'M')));
  } finally {
    reap(join(dir, 'pid'));
    if (alive(server)) process.kill(server, 'SIGKILL');
  }
});

test('a hint a served tool runs comes as a tool call too (_next_call), one the client can make as it is; other hints stay shell lines', async () => {
  const dir = tempRepo();
  writeFileSync(join(dir, 'big.txt'), Array.from({ length: 400 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  const { client } = await connect(dir);
  try {
    const last = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args });
      return JSON.parse((r.content as Array<{ text: string }>)[0]!.text.split('\n').at(-1)!) as Record<string, any>;
    };
    const first = await last('read', { path: 'big.txt' });
    assert.equal(
      [first._next_action, first._next_call],
      ['forge read big.txt --start 151', { name: 'read', arguments: { path: 'big.txt', start: 151 } }],
    );
    const next = await last(first._next_call.name, first._next_call.arguments);
    assert.equal([next.start, next.lines[0].text], [151, 'line 151']);
    const edited = await last('edit', { path: 'big.txt', old: 'line 400', new: 'the end' });
    assert.equal([edited._next_action, '_next_call' in edited], ['git diff -- big.txt', false]);
  } finally {
    await client.close();
  }
});

test('a cancelled loop run ends its agent and pauses the loop, the cut iteration uncounted, as Ctrl-C does', async () => {
  const dir = tempRepo();
  const { client } = await connect(dir, ['--toolsets', 'loop']);
  try {
    const abort = new AbortController();
    const call = client.callTool(
      { name: 'loop_run', arguments: { prompt: 'never done', agent: ['sh', '-c', SLOW] } },
      CallToolResultSchema,
      { signal: abort.signal },
    );
    assert.ok(await until(() => existsSync(join(dir, 'pid'))), 'the agent started');
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    abort.abort('stop the loop');
    await call.then(
      () => assert.unreachable('a cancelled call has no result'),
      () => undefined,
    );
    assert.ok(await until(() => !alive(pid)), `the agent (pid ${pid}) was ended`);
    const status = await client.callTool({ name: 'loop_status', arguments: {} });
    const record = JSON.parse((status.content as Array<{ text: string }>)[0]!.text.split('\n').at(-1)!);
    assert.equal([record.status, record.iteration], ['paused', 0], JSON.stringify(record));
    assert.not.ok(existsSync(join(dir, 'M')));
  } finally {
    await client.close();
    reap(join(dir, 'pid'));
  }
});

test('a cancelled state sync ends its fetch: git and the transport it started are gone, the state ref as it was', async () => {
  const dir = tempRepo();
  // A remote behind a transport that says its pid and then waits on the pipe, as ssh does for a server that never answers.
  const transport = join(tempDir('forge-ssh-'), 'ssh.sh');
  writeFileSync(transport, `#!/bin/sh\necho $$ > '${join(dir, 'pid')}'\nwhile read -r line; do :; done\n`, { mode: 0o755 });
  git(dir, 'config', 'core.sshCommand', transport);
  git(dir, 'config', 'ssh.variant', 'ssh');
  git(dir, 'remote', 'add', 'origin', 'ssh://example.invalid/state.git');
  await forge(['memory', 'save', 'a lesson to share'], { cwd: dir });
  const before = git(dir, 'rev-parse', 'refs/forge/state');
  const { client } = await connect(dir, ['--tools', 'state_sync']);
  try {
    const abort = new AbortController();
    const call = client.callTool({ name: 'state_sync', arguments: { remote: 'origin' } }, CallToolResultSchema, { signal: abort.signal });
    assert.ok(await until(() => existsSync(join(dir, 'pid'))), 'the fetch reached its transport');
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    abort.abort('stop');
    await call.then(
      (r) => assert.unreachable(`a cancelled call has no result: ${JSON.stringify(r).slice(0, 300)}`),
      () => undefined,
    );
    assert.ok(await until(() => !alive(pid)), `the transport (pid ${pid}) is gone with its git`);
    assert.is(git(dir, 'rev-parse', 'refs/forge/state'), before);
  } finally {
    await client.close();
    const pid = existsSync(join(dir, 'pid')) ? Number(readFileSync(join(dir, 'pid'), 'utf8')) : 0;
    if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
  }
});

test.run();
