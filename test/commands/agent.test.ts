// forge agent against a scripted OpenAI-compatible server on loopback: tools run through forge's own commands.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { agentTools } from '../../lib/cli/agent-tools';
import { anchorOf } from '../../lib/files/anchor';
import { openRepo } from '../../lib/git/repo';
import { StateStore } from '../../lib/git/state';
import { toolCommands } from '../../commands/agent-modes/tool-commands';
import { entries } from '../../commands/index';
import { forge } from '../helpers/forge';
import { closedPort, failWith, reply, startOpenAIServer, type ChatRequestBody } from '../helpers/openai-server';
import { repoWith, tempDir, tempRepo } from '../helpers/repo';

const usage = { prompt_tokens: 900, completion_tokens: 40 };
/** A request's tokens counted as bench/agent.ts counts them: its messages and tools as JSON, o200k_base. */
const bodyTokens = (b: ChatRequestBody) => countTokens(JSON.stringify({ messages: b.messages, tools: b.tools }));

test('a multi-file task: the model writes one file and edits another through forge write and edit', async () => {
  const dir = repoWith({ 'src/main.ts': "console.log('hi');\n" });
  const server = await startOpenAIServer({
    script: [
      reply({
        toolCalls: [
          { name: 'write', arguments: { path: 'src/greet.ts', content: 'export const greet = (n: string) => `hi ${n}`;\n' } },
          {
            name: 'edit',
            arguments: {
              path: 'src/main.ts',
              old: "console.log('hi');",
              new: "import { greet } from './greet';\nconsole.log(greet('you'));",
            },
          },
        ],
        usage,
      }),
      reply({ text: ['Added ', 'greet and used it.'], usage }),
    ],
  });
  try {
    const r = await forge(
      ['agent', '--endpoint', server.url, '--model', 'test-model', '--run-id', 'r1', '--json', 'add a greet helper and use it'],
      { cwd: dir },
    );
    assert.is(r.code, 0, r.stderr);
    assert.is(readFileSync(join(dir, 'src/greet.ts'), 'utf8'), 'export const greet = (n: string) => `hi ${n}`;\n');
    assert.is(readFileSync(join(dir, 'src/main.ts'), 'utf8'), "import { greet } from './greet';\nconsole.log(greet('you'));\n");
    const summary = r.records.at(-1)!;
    assert.equal(
      [summary.answer, summary.turns, summary.toolCalls, summary.usage],
      ['Added greet and used it.', 2, 2, { input: 1800, output: 80 }],
    );
    assert.equal(
      r.records.filter((x) => x.type === 'tool_call').map((x) => x.name),
      ['write', 'edit'],
    );
    const [first, second] = server.chatBodies();
    assert.equal(
      first!.tools!.map((t: any) => t.function.name),
      ['read', 'edit', 'replace', 'patch', 'write', 'search', 'ls', 'validate', 'memory', 'bash', 'recall'],
    );
    assert.equal(
      first!.messages.map((m) => m.role),
      ['system', 'user'],
    );
    const results = second!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    assert.match(results[0]!, /^created src\/greet\.ts/);
    assert.match(results[1]!, /src\/main\.ts/);
    const logged = await forge(['logs', '--run-id', 'r1', '--json'], { cwd: dir });
    assert.equal(
      logged.records
        .filter((e) => e.type === 'event')
        .map((e) => e.event)
        .filter((c) => c === 'write' || c === 'edit'),
      ['write', 'edit'],
      'the tool calls are in the run log',
    );
    const stats = await forge(['stats', '--json'], { cwd: dir });
    const row = stats.records.find((x) => x.type === 'model')!;
    assert.equal(
      [row.model, row.tasks, row.inputTokens, row.outputTokens, row.toolCalls, row.cacheHits],
      ['test-model', 1, 1800, 80, 2, 0],
    );
  } finally {
    await server.close();
  }
});

test('a failed edit carries the fresh region, so the model fixes it without a re-read', async () => {
  const dir = repoWith({ 'src/app.ts': 'export function add(a, b) {\n  return a - b;\n}\n' });
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [{ name: 'edit', arguments: { path: 'src/app.ts', old: 'return a-b;', new: 'return a + b;' } }] }),
      // The model reads the anchor off the failed edit's region and edits by it.
      reply({
        toolCalls: [{ name: 'edit', arguments: { path: 'src/app.ts', lines: anchorOf(2, '  return a - b;'), new: '  return a + b;' } }],
      }),
      reply({ text: 'Fixed add.' }),
    ],
  });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'test-model', '--json', 'make add add'], { cwd: dir });
    const failed = server
      .chatBodies()[1]!
      .messages.filter((m) => m.role === 'tool')
      .map((m) => String(m.content))[0]!;
    assert.match(
      failed,
      /^Error: the old text was not found in 'src\/app\.ts'; the nearest region, lines 1–3:\n1#[0-9a-f]{4}: export function add\(a, b\) \{\n2#[0-9a-f]{4}: {3}return a - b;\n/,
    );
    assert.ok(failed.includes(`${anchorOf(2, '  return a - b;')}:   return a - b;`), 'the anchor the model used was in the failed result');
    assert.equal(
      r.records.filter((x) => x.type === 'tool_call').map((x) => x.name),
      ['edit', 'edit'],
      'no read between the two edits',
    );
    assert.is(r.code, 0, r.stderr);
    assert.is(readFileSync(join(dir, 'src/app.ts'), 'utf8'), 'export function add(a, b) {\n  return a + b;\n}\n');
  } finally {
    await server.close();
  }
});

test('session files on the state ref that are not sessions (a sync may bring anything) are left out, never an internal error', async () => {
  const dir = tempRepo();
  const store = new StateStore(await openRepo({ cwd: dir }), { name: 't', email: 't@t' });
  await store.update({
    message: 'odd sessions',
    apply: async (tx) => {
      tx.write(
        '.forge/agent/sessions/ag-20260101-00000001.json',
        '{"id":"ag-20260101-00000001","createdAt":"2026-01-01","updatedAt":"2026-01-01"}\n',
      );
      tx.write(
        '.forge/agent/sessions/ag-20260101-00000002.json',
        '{"id":"ag-20260101-00000002","createdAt":"2026-01-01","updatedAt":"2026-01-01","turns":[{"task":1}]}\n',
      );
      tx.write('.forge/agent/sessions/ag-20260101-00000003.json', '[]\n');
    },
  });
  store.close();
  const list = await forge(['agent', '--list', '--json'], { cwd: dir });
  assert.is(list.code, 0, list.stderr);
  assert.equal(
    list.records.filter((x) => x.type === 'session'),
    [],
  );
  const resume = await forge(['agent', '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm', '--continue', '--json', 'go on'], {
    cwd: dir,
  });
  assert.equal([resume.code, resume.records.at(-1)!.error.code], [1, 'NO_SESSION']);
});

test('--continue carries a capped summary of the session; --list shows it; an unknown session is refused', async () => {
  const dir = tempRepo();
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [{ name: 'write', arguments: { path: 'a.txt', content: 'A\n' } }] }),
      reply({ text: 'Wrote a.txt.' }),
      reply({ text: 'It holds A.' }),
    ],
  });
  try {
    const model = ['--endpoint', server.url, '--model', 'test-model'];
    const first = await forge(['agent', ...model, '--json', 'create a.txt'], { cwd: dir });
    assert.is(first.code, 0, first.stderr);
    const id = first.records.at(-1)!.session as string;
    assert.match(id, /^ag-\d{8}-[0-9a-f]{8}$/);
    const second = await forge(['agent', ...model, '--continue', 'what is in it?'], { cwd: dir });
    assert.is(second.code, 0, second.stderr);
    const system = String(server.chatBodies()[2]!.messages[0]!.content);
    assert.ok(
      system.endsWith(`Earlier in this session (${id}):\n1. Task: create a.txt\n   Result: Wrote a.txt.\n   Files changed: a.txt`),
      system,
    );
    assert.not.ok(String(server.chatBodies()[0]!.messages[0]!.content).includes('Earlier in this session'));
    const list = await forge(['agent', '--list', '--json'], { cwd: dir });
    assert.equal(
      list.records.filter((x) => x.type === 'session').map((x) => [x.id, x.turns, x.first]),
      [[id, 2, 'create a.txt']],
    );
    // The hints name the session's record on the state ref, a command that works, not a dummy task.
    const record = `forge state show .forge/agent/sessions/${id}.json`;
    assert.equal([list.records.at(-1)!._next_action, first.records.at(-1)!._or_action], [record, record]);
    const shown = await forge(record.split(' ').slice(1), { cwd: dir });
    assert.equal(
      [shown.code, JSON.parse(shown.stdout).turns.map((t: { task: string }) => t.task)],
      [0, ['create a.txt', 'what is in it?']],
    );
    const none = await forge(['agent', ...model, '--session', 'ag-nope', '--json', 'x'], { cwd: dir });
    assert.equal([none.code, none.records.at(-1)!.error.code, none.records.at(-1)!._next_action], [1, 'NO_SESSION', 'forge agent --list']);
  } finally {
    await server.close();
  }
});

test('the second identical call gets a one-line stub, not the result again — unless an edit came between', async () => {
  const dir = repoWith({ 'notes.txt': 'one\n' });
  const read = { name: 'read', arguments: { path: 'notes.txt' } };
  const edit = { name: 'edit', arguments: { path: 'notes.txt', old: 'one', new: 'two' } };
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [read] }),
      reply({ toolCalls: [read] }),
      reply({ toolCalls: [edit] }),
      reply({ toolCalls: [read] }),
      reply({ text: 'It says two.' }),
    ],
  });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'test-model', '--json', 'what do the notes say'], { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    assert.equal(
      r.records.filter((x) => x.type === 'tool_call').map((x) => x.cached),
      [false, true, false, false],
    );
    const last = server
      .chatBodies()[4]!
      .messages.filter((m) => m.role === 'tool')
      .map((m) => String(m.content));
    assert.match(last[0]!, /^\[stale read of notes\.txt: changed by the edit at turn 3; read it again/, 'the edit retired the read');
    assert.match(
      last[1]!,
      /^\[Same call as turn 1, and nothing changed since: its result is the same and is not repeated here\. Do something different, or answer; a third identical call ends the run\.\]$/,
    );
    assert.match(last[3]!, /^notes\.txt[\s\S]*: two\n/, 'the read after the edit ran again');
    assert.is(r.records.at(-1)!.cacheHits, 1);
  } finally {
    await server.close();
  }
});

test('over the budget, older tool results are compressed to stubs that recall gives back whole', async () => {
  const dir = repoWith({
    'big.txt': Array.from({ length: 300 }, (_, i) => `line ${i + 1} of a long file that fills the context window`).join('\n') + '\n',
    'small.txt': Array.from({ length: 40 }, (_, i) => `small ${i + 1} of a shorter file that still weighs in the budget`).join('\n') + '\n',
  });
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [{ name: 'read', arguments: { path: 'big.txt' } }] }),
      reply({ toolCalls: [{ name: 'read', arguments: { path: 'small.txt' } }] }),
      reply({ toolCalls: [{ name: 'recall', arguments: { id: 'r1' } }] }),
      reply({ text: 'Read both.' }),
    ],
  });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'test-model', '--budget', '4400', '--json', 'read the files'], {
      cwd: dir,
    });
    assert.is(r.code, 0, r.stderr);
    const bodies = server.chatBodies();
    for (const b of bodies) assert.ok(bodyTokens(b) <= 4400, `a request of ${bodyTokens(b)} tokens`);
    const tools = (i: number) => bodies[i]!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    const full = tools(1)[0]!;
    assert.match(full, /^big\.txt: lines 1–150 of 300/);
    assert.match(
      tools(2)[0]!,
      /^\[compressed read result, \d+ chars: "big\.txt: lines 1–150 of 300" — recall \{"id":"r1"\} returns it whole\]$/,
    );
    assert.match(tools(2)[1]!, /^small\.txt/, 'the latest result is whole');
    assert.is(tools(3)[2], full, 'recall gives the compressed result back');
    assert.equal(bodies[0]!.messages.slice(0, 2), bodies[3]!.messages.slice(0, 2), 'the system prompt and the task are never touched');
    const compressed = r.records.filter((x) => x.type === 'compressed');
    assert.ok(compressed.length >= 1 && compressed[0]!.after < compressed[0]!.before);
  } finally {
    await server.close();
  }
});

test('a re-read of an unchanged file is served from cache, even after an edit elsewhere', async () => {
  const dir = repoWith({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
  const readA = { name: 'read', arguments: { path: 'a.txt' } };
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [readA] }),
      reply({ toolCalls: [{ name: 'edit', arguments: { path: 'b.txt', old: 'beta', new: 'gamma' } }] }),
      reply({ toolCalls: [readA] }),
      reply({ text: 'ok' }),
    ],
  });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'test-model', '--json', 'look'], { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    const results = server
      .chatBodies()[3]!
      .messages.filter((m) => m.role === 'tool')
      .map((m) => String(m.content));
    assert.match(results[2]!, /^\[Unchanged since you read it; served from cache\.\]\na\.txt/);
    assert.equal(
      r.records.filter((x) => x.type === 'tool_call').map((x) => x.cached),
      [false, false, true],
    );
  } finally {
    await server.close();
  }
});

test('bash runs at the top of the repository; the turn limit ends a run that never answers', async () => {
  const dir = tempRepo();
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [{ name: 'bash', arguments: { command: 'echo out; echo err >&2; exit 3' } }] }),
      reply({ toolCalls: [{ name: 'bash', arguments: { command: 'pwd' } }] }),
    ],
  });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'test-model', '--max-turns', '2', 'loop forever'], {
      cwd: join(dir),
    });
    assert.is(r.code, 1);
    assert.match(r.stdout, /stopped after 2 model calls, 2 tool calls/);
    assert.match(r.stdout, /Next: forge agent --max-turns 4 'loop forever'\n$/);
    const tool = server
      .chatBodies()[1]!
      .messages.filter((m) => m.role === 'tool')
      .map((m) => String(m.content));
    assert.equal(tool, ['out\nerr\n[exit 3]']);
  } finally {
    await server.close();
  }
});

// A stalled stream's retry is tested in test/lib/agent/chat.test.ts, on a clock the test expires: here a
// stall would need a short --stall-seconds, and a loaded machine could make a good answer look stalled.
test('429 and 500 are retried; --quick makes one call without tools; --json streams the events', async () => {
  const dir = tempRepo();
  const server = await startOpenAIServer({
    script: [
      failWith(429, { error: { message: 'slow down' } }, { retryAfter: '0' }),
      failWith(500, 'boom'),
      reply({ text: ['Hello', ' there.'], usage: { prompt_tokens: 10, completion_tokens: 3 } }),
    ],
  });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'test-model', '--quick', '--json', 'say hello'], { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    assert.equal(
      r.records.filter((x) => x.type !== 'config').map((x) => x.type ?? 'summary'),
      ['usage', 'text', 'done', 'summary'],
    );
    assert.equal([r.records.find((x) => x.type === 'text')!.text, r.records.at(-1)!.answer], ['Hello there.', 'Hello there.']);
    const bodies = server.chatBodies();
    assert.is(bodies.length, 3, 'two failures retried, then the answer');
    assert.is(bodies[2]!.tools, undefined, '--quick offers no tools');
  } finally {
    await server.close();
  }
  const text = await startOpenAIServer({ script: [reply({ text: 'Plain answer.' })] });
  try {
    const r = await forge(['agent', '--endpoint', text.url, '--model', 'test-model', '-q', 'hi'], { cwd: dir });
    assert.match(
      r.stdout,
      /\nPlain answer\.\n\(1 model call, 0 tool calls, \d{2,3} tokens in \/ [1-9] out \(estimated: the server sent no usage\); session ag-\S+\)\nDone\.\n$/,
      '--quick changes no file: nothing to diff',
    );
  } finally {
    await text.close();
  }
});

test("a request over the context is never retried, whatever its status (llama.cpp's 400 and 500), and the Fix is a budget that fits; a server that refuses stream_options is asked again without it", async () => {
  const dir = tempRepo();
  const server = await startOpenAIServer({
    script: [
      // llama.cpp's server, as its issues quote it.
      failWith(400, {
        error: {
          code: 400,
          message: 'the request exceeds the available context size (n_ctx: 4096), try increasing it',
          type: 'exceed_context_size_error',
        },
      }),
      failWith(500, { error: { code: 500, message: 'Context size has been exceeded.', type: 'server_error' } }),
      failWith(400, { error: { message: 'Unrecognized request argument supplied: stream_options', type: 'invalid_request_error' } }),
      reply({ text: 'Hello.' }),
    ],
  });
  try {
    const run = () => forge(['agent', '--endpoint', server.url, '--model', 'm', '--quick', '--json', 'say hello'], { cwd: dir });
    const over = await run();
    assert.equal([over.code, over.records.at(-1)!.error.code], [1, 'MODEL_CONTEXT_EXCEEDED'], over.stderr);
    assert.is(over.records.at(-1)!._next_action, 'forge agent --budget 3072');
    const five = await run();
    assert.equal([five.code, five.records.at(-1)!.error.code], [1, 'MODEL_CONTEXT_EXCEEDED'], five.stderr);
    assert.is(server.chatBodies().length, 2, 'neither was retried');
    const strict = await run();
    assert.is(strict.code, 0, strict.stderr);
    const bodies = server.chatBodies();
    assert.ok(bodies[2]!.stream_options, 'asked with stream_options first');
    assert.is(bodies[3]!.stream_options, undefined, 'then at once without it');
  } finally {
    await server.close();
  }
});

test('first run with no config: Ollama is probed, and the output says what was chosen and how to change it', async () => {
  const server = await startOpenAIServer({ script: [reply({ text: 'hi.' })], models: ['qwen3:8b'] });
  try {
    const r = await forge(['agent', '-q', 'hello'], {
      cwd: tempRepo(),
      env: { FORGE_OLLAMA_URL: server.url, XDG_CONFIG_HOME: tempDir(), OPENAI_API_KEY: undefined, OPENROUTER_API_KEY: undefined },
    });
    assert.is(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^first run: no profile in \S+\/forge\/config\.json sets a model, so forge chose for you; set endpoint and model in a profile there, or pass --endpoint\/--model, to choose\n/,
    );
    assert.match(
      r.stdout,
      new RegExp(
        `\nusing endpoint ${server.url.replace(/[.]/g, '\\.')} \\(detected: Ollama answered at [^)]+\\); change it with --endpoint URL`,
      ),
    );
    assert.match(r.stdout, /\nusing model qwen3:8b \(detected: the first of the 1 models Ollama lists\)/);
    assert.is(server.chatBodies()[0]!.model, 'qwen3:8b');
  } finally {
    await server.close();
  }
});

test('an unreachable endpoint names the setting; --dry-run keeps the fixed prompt within 1,000 tokens', async () => {
  const dir = tempRepo();
  const port = await closedPort();
  const r = await forge(['agent', '--endpoint', `http://127.0.0.1:${port}/v1`, '--model', 'm', '--json', 'x'], { cwd: dir });
  const err = r.records.at(-1)!;
  assert.equal([r.code, err.error.code], [2, 'MODEL_UNREACHABLE']);
  assert.is(err._next_action, `curl -sS http://127.0.0.1:${port}/v1/models`, 'what the endpoint answers: a command, not a placeholder');
  writeFileSync(join(dir, 'AGENTS.md'), '# Rules\nUse tabs.\n');
  const dry = await forge(['agent', '--dry-run', '--json', 'add a flag'], { cwd: dir });
  assert.is(dry.code, 0, dry.stderr);
  assert.ok(dry.records[0]!.fixedTokens <= 1000, `fixed prompt is ${dry.records[0]!.fixedTokens} tokens`);
  assert.equal(dry.records[0]!.request.messages[1], { role: 'user', content: 'add a flag' });
  assert.ok(
    dry.records[0]!.request.messages[0].content.endsWith('\n\nConventions (AGENTS.md):\n# Rules\nUse tabs.'),
    'conventions go into the system prompt',
  );
});

test("the agent's own registry holds every command its tools run: the same tools as the whole registry gives", () => {
  const at = { cwd: tempDir(), root: tempDir(), env: {} };
  const own = agentTools({ entries: toolCommands, ...at }).schemas;
  assert.equal(own, agentTools({ entries, ...at }).schemas);
  assert.ok(own.length >= 9, `${own.length} tools`);
});

test.run();
