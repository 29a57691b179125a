// forge mcp: the MCP SDK's own client over stdio lists the tools (by toolset, with their annotations and token size) and calls them.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { test } from '../helpers/harness';
import { ownChild } from '../helpers/owner';
import * as assert from 'uvu/assert';
import { entries } from '../../commands/index';
import { leaves } from '../../lib/cli/registry';
import { mcpTools, RECORDS_SCHEMA } from '../../lib/cli/mcp-server';
import { annotations, BEHAVIOURS, DEFAULT_TOOLSETS, NOT_SERVED, TOOLSETS } from '../../lib/mcp/toolsets';
import { planTemplate } from '../../lib/plans/template';
import { FORGE, forge, forgeEnv } from '../helpers/forge';
import { connect, opening } from '../helpers/mcp';
import { repoWith, tempRepo } from '../helpers/repo';

const records = (r: Record<string, unknown>) =>
  (r.content as Array<{ text: string }>)[0]!.text.split('\n').map((l) => JSON.parse(l) as Record<string, any>);

/** Runs `body` with a connected client, closing it (and the server) even when an assertion fails. */
async function withClient(cwd: string, body: (client: Client) => Promise<void>, flags: string[] = []): Promise<void> {
  const { client } = await connect(cwd, flags);
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

const toolNames = (commands: string[]) => commands.map((c) => c.replace(/[ -]/g, '_')).sort();
/**
 * Schema tokens as a model's context holds them, o200k_base (as bench/agent.ts counts): each tool's
 * name, description and inputSchema as JSON — what Gemini CLI and OpenCode offer the model (the
 * agents' mcp scenario checks it); title, annotations and outputSchema are the client's.
 */
const schemaTokens = (tools: Array<{ name: string; description?: string; inputSchema: unknown }>) =>
  countTokens(JSON.stringify(tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))));

test('--toolsets all serves every command, each with the annotations its declaration gives, at most 110 schema tokens a tool', () =>
  withClient(
    tempRepo(),
    async (client) => {
      const { tools } = await client.listTools();
      const expected = leaves(entries).filter((c) => !NOT_SERVED.includes(c.name));
      assert.equal(tools.map((t) => t.name).sort(), toolNames(expected.map((c) => c.name)));
      for (const spec of expected) {
        const served = tools.find((t) => t.name === spec.name.replace(/[ -]/g, '_'))!;
        assert.equal(served.annotations, annotations(BEHAVIOURS.get(spec.name)!), spec.name);
      }
      const hints = (name: string) => tools.find((t) => t.name === name)!.annotations!;
      assert.equal([hints('read').readOnlyHint, hints('read').openWorldHint, hints('read').destructiveHint], [true, false, undefined]);
      assert.equal(hints('state_show').readOnlyHint, true);
      assert.equal(
        [hints('memory_save').readOnlyHint, hints('memory_save').destructiveHint, hints('memory_save').idempotentHint],
        [false, false, true],
      );
      assert.equal([hints('edit').destructiveHint, hints('undo').destructiveHint], [true, true]);
      assert.equal([hints('state_sync').openWorldHint, hints('agent').openWorldHint, hints('loop_run').openWorldHint], [true, true, true]);
      // validate runs its verify commands: any shell command, so open-world and destructive (test/commands/mcp-calls.test.ts holds every such tool to it).
      assert.equal(
        [hints('plan_check').openWorldHint, hints('validate').openWorldHint, hints('validate').destructiveHint],
        [false, true, true],
      );
      // Per tool, so a new command's schema is held to the same leanness without breaking the cap for all
      // (110: 105 before each inputSchema said additionalProperties: false, some 5 tokens a tool).
      const perTool = schemaTokens(tools) / tools.length;
      assert.ok(perTool <= 110, `all tools' schemas: ${schemaTokens(tools)} tokens, ${perTool.toFixed(1)} per tool`);
      assert.ok(schemaTokens(tools) <= 5000, `all tools' schemas: ${schemaTokens(tools)} tokens (goal ≤ 5,000)`);
    },
    ['--toolsets', 'all'],
  ));

test('the toolset table holds every command but those for a shell (mcp, completion) exactly once', () => {
  const listed = Object.values(TOOLSETS).flatMap((t) => Object.keys(t.commands));
  assert.equal(
    listed.slice().sort(),
    leaves(entries)
      .filter((c) => !NOT_SERVED.includes(c.name))
      .map((c) => c.name)
      .sort(),
  );
});

test('by default: files, plans, validate and memory in at most 2,500 tokens; no pushes, undo, agent or installers', () =>
  withClient(tempRepo(), async (client) => {
    const { tools } = await client.listTools();
    assert.equal(tools.map((t) => t.name).sort(), toolNames(DEFAULT_TOOLSETS.flatMap((s) => Object.keys(TOOLSETS[s]!.commands))));
    for (const name of ['state_sync', 'undo', 'agent', 'loop_run', 'plan_install_hook', 'init'])
      assert.not.ok(
        tools.some((t) => t.name === name),
        name,
      );
    for (const name of [
      'read',
      'edit',
      'write',
      'replace',
      'patch',
      'search',
      'plan_advance',
      'plan_ack',
      'validate',
      'memory_save',
      'memory_recall',
    ])
      assert.ok(
        tools.some((t) => t.name === name),
        name,
      );
    for (const name of ['plan_activate', 'plan_end', 'plan_pause', 'plan_resume'])
      assert.not.ok(
        tools.some((t) => t.name === name),
        `${name} is the operator's`,
      );
    assert.ok(schemaTokens(tools) <= 2500, `default schemas: ${schemaTokens(tools)} tokens`);
    const refused = await client.callTool({ name: 'state_sync', arguments: {} });
    assert.equal([refused.isError, records(refused)[0]!.error.code], [true, 'UNKNOWN_TOOL']);
    // The answer names the toolset that serves it and the server line that does.
    assert.match(records(refused)[0]!.error.message, /^'state_sync' is not served here: it is in the 'state' toolset/);
    assert.is(records(refused)[0]!._next_action, 'forge mcp --toolsets default,state');
    const nothing = await client.callTool({ name: 'frobnicate', arguments: {} });
    assert.equal([records(nothing)[0]!.error.code, records(nothing)[0]!._next_action], ['UNKNOWN_TOOL', 'forge schema']);
  }));

test('--toolsets and --tools pick what is served, comma-separated or repeated', () =>
  withClient(
    tempRepo(),
    async (client) => {
      const { tools } = await client.listTools();
      assert.equal(
        tools.map((t) => t.name).sort(),
        [
          'diff',
          'memory_recall',
          'memory_save',
          'plan_status',
          'state_export',
          'state_log',
          'state_show',
          'state_sync',
          'checkpoint',
          'undo',
        ].sort(),
      );
    },
    ['--toolsets', 'state,memory', '--toolsets', 'checkpoints', '--tools', 'plan status', '--tools', 'state_show'],
  ));

test('--tools alone serves just those tools', () =>
  withClient(
    tempRepo(),
    async (client) => {
      assert.equal((await client.listTools()).tools.map((t) => t.name).sort(), ['plan_check', 'read']);
    },
    ['--tools', 'read,plan_check'],
  ));

test('an unknown toolset or tool is INVALID_ARGUMENT naming the valid ones, with a working fix', async () => {
  const dir = tempRepo();
  const set = await forge(['mcp', '--toolsets', 'files,plan', '--json'], { cwd: dir });
  assert.is(set.code, 2);
  const setErr = JSON.parse(set.stdout.trim());
  assert.is(setErr.error.code, 'INVALID_ARGUMENT');
  assert.match(setErr.error.message, /unknown toolset 'plan'; toolsets: default, all, files, plans, validate, memory,/);
  assert.is(setErr._next_action, 'forge mcp --toolsets files');
  const tool = await forge(['mcp', '--tools', 'read,deploy'], { cwd: dir });
  assert.is(tool.code, 2);
  assert.match(tool.stderr, /unknown tool 'deploy'; tools: agent, checkpoint, diff, edit,/);
  assert.match(tool.stderr, /Fix: forge mcp --tools read\n/);
});

test('an argument of the wrong JSON type is refused before the command runs', async () => {
  const dir = repoWith({ '5': 'a file named 5\n', 'src/app.ts': 'x\n' });
  await withClient(dir, async (client) => {
    const path = await client.callTool({ name: 'read', arguments: { path: 5 } });
    assert.equal(
      [path.isError, records(path)[0]!.error.code, records(path)[0]!.error.message, records(path)[0]!._next_action],
      [true, 'INVALID_ARGUMENT', "'path' must be a string, got number 5", 'forge read --help'],
    );
    const flag = await client.callTool({ name: 'write', arguments: { path: 'src/app.ts', content: 'y\n', overwrite: 'true' } });
    assert.equal([flag.isError, records(flag)[0]!.error.code], [true, 'INVALID_ARGUMENT']);
    assert.is(readFileSync(join(dir, 'src/app.ts'), 'utf8'), 'x\n');
    const list = await client.callTool({ name: 'search', arguments: { pattern: 'x', paths: 'src' } });
    assert.equal([list.isError, records(list)[0]!.error.message], [true, '\'paths\' must be an array of strings, got string "src"']);
    const camel = await client.callTool({ name: 'search', arguments: { pattern: 'x', ignoreCase: 'yes' } });
    assert.equal([camel.isError, records(camel)[0]!.error.data.field], [true, 'ignore-case']);
    writeFileSync(join(dir, 'src/app.ts'), 'x\n');
    const ok = await client.callTool({ name: 'read', arguments: { path: 'src/app.ts', start: 1, blame: false } });
    assert.is(ok.isError, false);
  });
});

test('a call may not choose its directory or any other key its schema does not declare: UNKNOWN_FIELD, and nothing is read or written', async () => {
  const dir = repoWith({ 'src/app.ts': 'here\n' });
  const other = repoWith({ 'src/app.ts': 'other\n' });
  await withClient(dir, async (client) => {
    const { tools } = await client.listTools();
    assert.ok(
      tools.every((t) => (t.inputSchema as { additionalProperties?: unknown }).additionalProperties === false),
      'every inputSchema closes its properties',
    );
    const etc = await client.callTool({ name: 'read', arguments: { path: 'passwd', cwd: '/etc' } });
    const refused = records(etc)[0]!;
    assert.equal(
      [etc.isError, refused.ok, refused.error.code, refused.error.data, refused._next_action],
      [true, false, 'UNKNOWN_FIELD', { field: 'cwd' }, 'forge schema read'],
    );
    assert.match(
      refused.error.message,
      /^'cwd' is not an argument of tool 'read': over MCP every call runs in the directory forge mcp serves/,
    );
    assert.not.match((etc.content as Array<{ text: string }>)[0]!.text, /root:/);
    const write = await client.callTool({ name: 'write', arguments: { path: 'planted.txt', content: 'x\n', cwd: other } });
    assert.equal([write.isError, records(write)[0]!.error.code], [true, 'UNKNOWN_FIELD']);
    assert.not.ok(existsSync(join(other, 'planted.txt')), 'nothing written in the other repository');
    assert.not.ok(existsSync(join(dir, 'planted.txt')), 'nor in the served one');
    // The other common keys of an NDJSON request are not a tool's either, camelCase or not.
    for (const extra of [{ runId: 'r1' }, { 'run-id': 'r1' }, { id: 7 }, { json: true }, { frobnicate: 1 }]) {
      const r = await client.callTool({ name: 'read', arguments: { path: 'src/app.ts', ...extra } });
      assert.equal([r.isError, records(r)[0]!.error.code, records(r)[0]!.error.data.field], [true, 'UNKNOWN_FIELD', Object.keys(extra)[0]]);
    }
    const unknown = await client.callTool({ name: 'read', arguments: { path: 'src/app.ts', frobnicate: 1 } });
    assert.match(records(unknown)[0]!.error.message, /^'frobnicate' is not an argument of tool 'read': it takes path, /);
    const ok = await client.callTool({ name: 'read', arguments: { path: 'src/app.ts' } });
    assert.equal([ok.isError, records(ok)[0]!.lines.map((l: { text: string }) => l.text)], [false, ['here']]);
  });
  // The server's own --cwd is the one directory it serves.
  await withClient(
    dir,
    async (client) => {
      const r = await client.callTool({ name: 'read', arguments: { path: 'src/app.ts' } });
      assert.equal(records(r)[0]!.lines[0].text, 'other');
    },
    ['--cwd', other],
  );
  // On the NDJSON door cwd is the caller's own option, as before.
  const piped = await forge(['read', '--json'], { cwd: dir, input: `${JSON.stringify({ path: 'src/app.ts', cwd: other })}\n` });
  assert.equal([piped.code, piped.records[0]!.lines[0].text], [0, 'other']);
});

test('read, edit and plan check run as the CLI runs them; errors are isError results carrying the fix', async () => {
  const dir = repoWith({
    'src/app.ts': 'export const a = 1;\nexport const b = 2;\n',
    'docs/plans/p.md': planTemplate({ slug: 'demo', date: '2026-01-01' }),
  });
  await withClient(dir, async (client) => {
    const read = await client.callTool({ name: 'read', arguments: { path: 'src/app.ts' } });
    assert.is(read.isError, false);
    assert.equal(
      records(read)[0]!.lines.map((l: { text: string }) => l.text),
      ['export const a = 1;', 'export const b = 2;'],
    );
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

test('tools/list answers exactly the tools the declarations give (the build derives them, so listing loads no command)', async () => {
  const child = ownChild(
    spawn(process.execPath, [FORGE, 'mcp', '--toolsets', 'all'], {
      cwd: tempRepo(),
      env: forgeEnv(),
      stdio: ['pipe', 'pipe', 'ignore'],
    }),
  );
  const session = [...opening(1), { jsonrpc: '2.0', id: 2, method: 'tools/list' }];
  child.stdin.end(session.map((m) => `${JSON.stringify(m)}\n`).join(''));
  let out = '';
  for await (const chunk of child.stdout) out += chunk;
  const listed = out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .find((m) => m.id === 2);
  assert.equal(
    listed.result.tools,
    mcpTools(entries).map((t) => ({ ...t.tool, outputSchema: RECORDS_SCHEMA })),
  );
});

/** Where a schema leaves a value free-form, which strict tool modes (OpenAI's, Anthropic's) cannot express: each as its JSON path. */
function freeForm(schema: Record<string, any>, at: string): string[] {
  if (schema.type === 'object') {
    const own = schema.properties && schema.additionalProperties === false ? [] : [at];
    return [...own, ...Object.entries(schema.properties ?? {}).flatMap(([k, v]) => freeForm(v as Record<string, any>, `${at}.${k}`))];
  }
  if (schema.type === 'array') return schema.items?.type ? freeForm(schema.items, `${at}[]`) : [at];
  return [];
}

test("every tool's inputSchema is expressible in strict tool modes: no object without its properties, no array without typed items", async () => {
  const loose = mcpTools(entries).flatMap(({ tool }) => freeForm(tool.inputSchema, tool.name));
  assert.equal(loose, []);
  // session_save's free-form fields travel as JSON text (or as an object, from a client that sends one).
  const dir = tempRepo();
  await withClient(
    dir,
    async (client) => {
      for (const state of ['{"startedAt":"2026-04-15T10:00:00Z"}', { owner: 'ci' }]) {
        const saved = await client.callTool({ name: 'session_save', arguments: { phase: 'plan', state } });
        assert.is(saved.isError, false, JSON.stringify(saved));
      }
      const bad = await client.callTool({ name: 'session_save', arguments: { state: 'not json' } });
      assert.equal([bad.isError, records(bad)[0]!.error.code], [true, 'INVALID_ARGUMENT']);
    },
    ['--toolsets', 'all'],
  );
  const loaded = (await forge(['session', 'load', '--json'], { cwd: dir })).records[0]!;
  assert.equal([loaded.startedAt, loaded.owner, loaded.currentPhase], ['2026-04-15T10:00:00Z', 'ci', 'plan']);
});

test('a server started with a relative FORGE_CWD serves that directory: its calls do not apply it a second time', async () => {
  const root = repoWith({ 'sub/a.txt': 'in sub\n' });
  const { client } = await connect(root, [], { FORGE_CWD: 'sub' });
  try {
    const r = await client.callTool({ name: 'read', arguments: { path: 'a.txt' } });
    const text = (r.content as Array<{ text: string }>)[0]!.text;
    assert.equal([r.isError, /in sub/.test(text)], [false, true], text);
  } finally {
    await client.close();
  }
});

test("a tool call that names a run id is UNKNOWN_FIELD (the server's run is its own), and nothing is spooled", async () => {
  const repo = tempRepo();
  const { client } = await connect(repo);
  try {
    for (const id of ['../../../../x', 'a/b\nc']) {
      const r = await client.callTool({ name: 'memory_save', arguments: { pattern: 'lesson', 'run-id': id } });
      assert.is(r.isError, true);
      assert.is(JSON.parse((r.content as Array<{ text: string }>)[0]!.text).error.code, 'UNKNOWN_FIELD');
    }
  } finally {
    await client.close();
  }
  assert.not.ok(existsSync(join(repo, '.git', 'forge', 'pending')), 'nothing spooled');
});

test('the schema tool describes every command it is asked for, though its own bundle holds none of them', async () => {
  const repo = tempRepo();
  const { client } = await connect(repo, ['--toolsets', 'all']);
  try {
    const one = await client.callTool({ name: 'schema', arguments: { command: ['read'] } });
    const records = (one.structuredContent as { records: Array<Record<string, unknown>> }).records;
    assert.equal([one.isError, records.filter((r) => r.type === 'tool').map((r) => r.name)], [false, ['read']]);
    const all = await client.callTool({ name: 'schema', arguments: {} });
    const tools = (all.structuredContent as { records: Array<Record<string, unknown>> }).records.filter((r) => r.type === 'tool');
    assert.ok(tools.length > 40, `${tools.length} tools`);
  } finally {
    await client.close();
  }
});

test.run();
