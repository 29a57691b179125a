// The MCP client: a real SDK server over stdio discovered as <server>.<tool>, broken servers skipped with one warning each, children gone at close.
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import type { McpServerConfig } from '../../../lib/agent/config-types';
import { MCP_DESCRIPTION_CHARS, startMcpServers, WIRE_NAME, type McpServers, type McpWarning } from '../../../lib/agent/mcp-client';
import { tempDir } from '../../helpers/repo';
import { readIfThere, running, until } from '../../helpers/process';
import { neverExpires, TestClock } from '../../helpers/clock';

const ECHO: McpServerConfig = { name: 'echo-server', command: [process.execPath, resolve('test/fixtures/mcp/echo-server.mjs')] };

/**
 * Runs `body` with started servers, closing them even when an assertion fails. The start-up limit
 * never expires unless the test passes a clock: a loaded machine must not make a good server look silent.
 */
async function withServers(
  options: Omit<Parameters<typeof startMcpServers>[0], 'env'> & { env?: NodeJS.ProcessEnv },
  body: (mcp: McpServers) => Promise<void>,
): Promise<void> {
  const mcp = await startMcpServers({ env: process.env, startTimeout: neverExpires, ...options });
  try {
    await body(mcp);
  } finally {
    await mcp.close();
  }
}

test("a server's tools are discovered as <server>.<tool>, sent as wire-safe names, and called by either", () =>
  withServers({ servers: [ECHO], cwd: tempDir() }, async (mcp) => {
    assert.equal(
      mcp.tools.map((t) => [t.name, t.wireName]),
      [
        ['echo-server.echo', 'echo-server__echo'],
        ['echo-server.add', 'echo-server__add'],
        ['echo-server.fail', 'echo-server__fail'],
        ['echo-server.picture', 'echo-server__picture'],
        ['echo-server.whereami', 'echo-server__whereami'],
        ['echo-server.crash', 'echo-server__crash'],
        ['echo-server.get.time v2', 'echo-server__get_time_v2'],
        ['echo-server.get_time.v2', 'echo-server__get_time_v2_2'],
        ['echo-server.report_of_the_very_long_named_things_2026', 'echo-server__report_of_the_very_long_named_things_2026'],
        ['echo-server.report_of_the_very_long_named_things_2027', 'echo-server__report_of_the_very_long_named_things_2027'],
      ],
    );
    const echo = mcp.tools[0]!;
    assert.equal(echo, {
      name: 'echo-server.echo',
      wireName: 'echo-server__echo',
      server: 'echo-server',
      tool: 'echo',
      description: 'Echo the text back',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    });
    const odd = mcp.tools.find((t) => t.tool === 'get.time v2')!;
    assert.is(odd.description.length, MCP_DESCRIPTION_CHARS, 'a long description is cut');
    assert.ok(odd.description.endsWith('…'));
    assert.equal(odd.parameters, { type: 'object', properties: {} }, '$schema dropped');
    const schemas = mcp.schemas();
    assert.equal(schemas[1], {
      type: 'function',
      function: {
        name: 'echo-server__add',
        description: 'Add two numbers',
        parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
      },
    });
    assert.ok(schemas.every((s) => WIRE_NAME.test(s.function.name)));

    assert.equal(await mcp.call('echo-server.echo', { text: 'hello' }), { ok: true, text: 'hello' });
    assert.equal(await mcp.call('echo-server__add', { a: 2, b: 3 }), { ok: true, text: '5' });
    assert.equal(await mcp.call('echo-server__get_time_v2', {}), { ok: true, text: 'noon' });
    assert.equal(await mcp.call('echo-server__get_time_v2_2', {}), { ok: true, text: 'twelve' });
    assert.equal(await mcp.call('echo-server.get_time.v2', {}), { ok: true, text: 'twelve' });
    assert.ok(mcp.has('echo-server.add') && mcp.has('echo-server__add') && !mcp.has('add'));
  }));

test('isError is ok:false; non-text parts are summarised; an unknown tool is an error result', () =>
  withServers({ servers: [ECHO], cwd: tempDir() }, async (mcp) => {
    assert.equal(await mcp.call('echo-server.fail', {}), { ok: false, text: 'it failed on purpose' });
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
      'base64',
    ).length;
    assert.equal(await mcp.call('echo-server.picture', {}), {
      ok: true,
      text: `a red dot\n[image image/png, ${png} bytes]\n[resource link file:///tmp/dot.png (dot.png)]`,
    });
    const unknown = await mcp.call('echo-server.deploy', {});
    assert.is(unknown.ok, false);
    assert.match(unknown.text, /^Error: no MCP tool 'echo-server\.deploy'\. MCP tools: echo-server__echo, echo-server__add/);
  }));

test('a server runs in its cwd (relative to the repository top) with the environment and its own env', async () => {
  const root = tempDir();
  mkdirSync(join(root, 'tools'));
  await withServers(
    { servers: [{ ...ECHO, cwd: 'tools', env: { ECHO_GREETING: 'hi' } }], cwd: root, env: { ...process.env, ECHO_GREETING: 'overridden' } },
    async (mcp) => {
      assert.equal(await mcp.call('echo-server.whereami', {}), { ok: true, text: `${join(root, 'tools')} hi` });
    },
  );
});

test('servers that cannot start, exit, never answer or have no cwd are skipped with one warning each while the good one works', async () => {
  const dir = tempDir();
  const warnings: McpWarning[] = [];
  const servers: McpServerConfig[] = [
    ECHO,
    { name: 'missing', command: ['no-such-mcp-server-xyz', '--stdio'] },
    { name: 'quitter', command: ['sh', '-c', 'echo "boom: no token" >&2; exit 3'] },
    { name: 'nowhere', command: ['node'], cwd: 'no/such/dir' },
  ];
  // The silent server, which only a timeout ends, has a test of its own.
  await withServers(
    {
      servers,
      cwd: dir,
      onWarning: (w) => warnings.push(w),
      configKey: 'profiles.t.mcp_servers',
      configPath: '/home/u/.config/forge/config.json',
    },
    async (mcp) => {
      assert.equal(warnings.map((w) => [w.server, w.key]).sort(), [
        ['missing', 'profiles.t.mcp_servers[1].command'],
        ['nowhere', 'profiles.t.mcp_servers[3].cwd'],
        ['quitter', 'profiles.t.mcp_servers[2]'],
      ]);
      const by = (name: string) => warnings.find((w) => w.server === name)!;
      assert.is(
        by('missing').message,
        "MCP server 'missing' skipped: cannot start 'no-such-mcp-server-xyz': not found on PATH; fix profiles.t.mcp_servers[1].command in /home/u/.config/forge/config.json",
      );
      assert.match(
        by('quitter').message,
        /^MCP server 'quitter' skipped: it exited before answering initialize \(it said: boom: no token\); fix profiles\.t\.mcp_servers\[2\] in /,
      );
      assert.is(by('nowhere').reason, `its cwd '${join(dir, 'no/such/dir')}' is not a directory`);
      assert.equal(
        mcp.servers.map((s) => s.name),
        ['echo-server'],
      );
      assert.equal(await mcp.call('echo-server.echo', { text: 'still here' }), { ok: true, text: 'still here' });
    },
  );
});

test('a server that never answers initialize is given up at the timeout, killed, and skipped with one warning', async () => {
  const dir = tempDir();
  const warnings: McpWarning[] = [];
  const silent: McpServerConfig = { name: 'silent', command: ['sh', '-c', 'echo $$ > silent.pid; exec sleep 600'] };
  const clock = new TestClock();
  const starting = startMcpServers({
    env: process.env,
    servers: [silent],
    cwd: dir,
    timeoutMs: 2500,
    startTimeout: clock.startTimeout,
    onWarning: (w) => warnings.push(w),
    configKey: 'profiles.t.mcp_servers',
    configPath: '/home/u/.config/forge/config.json',
  });
  // It runs and has been asked: only the timeout can end the wait now.
  await until(() => clock.pending === 1 && /^\d+\n$/.test(readIfThere(join(dir, 'silent.pid'))));
  assert.equal(warnings, [], 'nothing is given up before the limit');
  clock.expire();
  const mcp = await starting;
  try {
    assert.equal(
      warnings.map((w) => [w.server, w.key, w.reason]),
      [['silent', 'profiles.t.mcp_servers[0]', 'no answer to initialize within 2.5 s']],
    );
    assert.equal(mcp.servers, []);
    const silentPid = Number(readFileSync(join(dir, 'silent.pid'), 'utf8'));
    // Unbounded: the harness's timeout is the failure if the kill missed it.
    await until(() => !running(silentPid));
  } finally {
    await mcp.close();
  }
});

test('a server that exits during the session warns once and its calls fail without throwing', async () => {
  const warnings: McpWarning[] = [];
  await withServers({ servers: [ECHO], cwd: tempDir(), onWarning: (w) => warnings.push(w) }, async (mcp) => {
    const pid = mcp.servers[0]!.pid!;
    const crashed = await mcp.call('echo-server.crash', {});
    assert.is(crashed.ok, false);
    assert.match(crashed.text, /^Error: MCP tool echo-server\.crash failed: /);
    await until(() => !running(pid));
    await until(() => warnings.length > 0);
    assert.equal(
      warnings.map((w) => [w.server, w.key]),
      [['echo-server', 'mcp_servers[0]']],
    );
    assert.match(warnings[0]!.message, /^MCP server 'echo-server' exited during the session; its tools now fail$/);
    const after = await mcp.call('echo-server.echo', { text: 'x' });
    assert.is(after.ok, false);
  });
  assert.is(warnings.length, 1, 'close() after a crash adds no warning');
});

test('close() stops every server: their processes are gone', async () => {
  const warnings: McpWarning[] = [];
  const mcp = await startMcpServers({
    env: process.env,
    servers: [ECHO, { ...ECHO, name: 'second' }],
    cwd: tempDir(),
    startTimeout: neverExpires,
    onWarning: (w) => warnings.push(w),
  });
  const pids = mcp.servers.map((s) => s.pid!);
  assert.is(pids.length, 2);
  assert.equal(mcp.tools.filter((t) => t.server === 'second').length, 10);
  assert.ok(pids.every(running));
  await mcp.close();
  await until(() => pids.every((p) => !running(p)));
  assert.equal(warnings, [], 'a requested stop is not a warning');
});

test('no servers: no tools, nothing started, close is a no-op', async () => {
  const mcp = await startMcpServers({ env: process.env, servers: [], cwd: tempDir() });
  assert.equal([mcp.tools, mcp.schemas(), mcp.servers], [[], [], []]);
  assert.equal(await mcp.call('x.y', {}), { ok: false, text: "Error: no MCP tool 'x.y'. MCP tools: none" });
  await mcp.close();
});

test('wire names stay unique and within 64 characters when sanitising or cutting makes them clash', async () => {
  const long = 'a'.repeat(32);
  await withServers({ servers: [{ ...ECHO, name: long }], cwd: tempDir() }, async (mcp) => {
    const wire = Object.fromEntries(mcp.tools.map((t) => [t.tool, t.wireName]));
    assert.ok(
      Object.values(wire).every((w) => WIRE_NAME.test(w)),
      Object.values(wire).join(' '),
    );
    assert.is(new Set(Object.values(wire)).size, mcp.tools.length);
    assert.is(wire.whereami, `${long}__whereami`);
    assert.is(wire.report_of_the_very_long_named_things_2026, `${long}__report_of_the_very_long_named_`);
    assert.is(wire.report_of_the_very_long_named_things_2027, `${long}__report_of_the_very_long_name_2`);
    assert.equal(
      await mcp.call(`${long}__report_of_the_very_long_name_2`, {}),
      { ok: false, text: "no tool 'report_of_the_very_long_named_things_2027'" },
      'the call reaches the tool by its own name',
    );
  });
});

test.run();
