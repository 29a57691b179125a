// forge agent's request budget and token counts, measured on the wire against the scripted server.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { reply, startOpenAIServer, type ChatRequestBody } from '../helpers/openai-server';
import { repoWith } from '../helpers/repo';

/** A request's tokens counted as bench/agent.ts counts them: its messages and tools as JSON, o200k_base. */
const bodyTokens = (b: ChatRequestBody) => countTokens(JSON.stringify({ messages: b.messages, tools: b.tools }));

test('--budget bounds every request on the wire, schemas and framing included: older results become stubs, the latest are cut, and a budget the fixed prompt cannot fit is refused before any request', async () => {
  const lines = (name: string) =>
    Array.from({ length: 300 }, (_, i) => `${name} line ${i + 1}: a long file read whole, which fills the context fast`).join('\n') + '\n';
  const dir = repoWith({ 'a.txt': lines('alpha'), 'b.txt': lines('beta'), 'c.txt': lines('gamma') });
  const read = (path: string) => ({ name: 'read', arguments: { path } });
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [read('a.txt')] }),
      reply({ toolCalls: [read('b.txt'), read('c.txt')] }),
      reply({ toolCalls: [{ name: 'write', arguments: { path: 'notes.txt', content: 'a summary of all three files. '.repeat(200) } }] }),
      reply({ toolCalls: [read('a.txt'), { name: 'ls', arguments: {} }] }),
      reply({ text: 'Read them all.' }),
    ],
  });
  try {
    const budget = 2500;
    const r = await forge(
      ['agent', '--endpoint', server.url, '--model', 'test-model', '--budget', String(budget), '--json', 'read every file'],
      { cwd: dir },
    );
    assert.is(r.code, 0, r.stderr);
    const bodies = server.chatBodies();
    assert.is(bodies.length, 5);
    for (const [i, b] of bodies.entries())
      assert.ok(bodyTokens(b) <= budget, `request ${i + 1} was ${bodyTokens(b)} tokens, over --budget ${budget}`);
    const results = bodies[1]!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    assert.match(
      results[0]!,
      /\n\[cut to fit the token budget: the first \d+ of \d+ chars; ask for a narrower part\]$/,
      'a result larger than the budget is cut, and says so',
    );
    assert.equal(bodies[4]!.messages.slice(0, 2), bodies[0]!.messages.slice(0, 2), 'the system prompt and the task are never touched');
    const fits = r.records.filter((x) => x.type === 'compressed');
    // The first fit had no older result to compress: it cut the latest, and says so.
    assert.equal([fits[0]!.cut, fits[0]!.compressed, fits[0]!.results], [1, 0, 1]);
    assert.ok(
      fits.some((x) => x.compressed > 0),
      'older results were compressed later',
    );
    const none = await forge(['agent', '--endpoint', server.url, '--model', 'test-model', '--budget', '600', '--json', 'read every file'], {
      cwd: dir,
    });
    const error = none.records.at(-1)!.error;
    assert.equal([none.code, error.code], [2, 'BUDGET_TOO_SMALL']);
    assert.match(
      error.message,
      /^a token budget of 600 cannot hold the request: the system prompt, the task and the tool schemas alone are \d+ tokens$/,
    );
    assert.match(none.records.at(-1)!._next_action, /^forge agent --budget \d+ 'read every file'$/);
    assert.is(server.chatBodies().length, 5, 'nothing was sent');
  } finally {
    await server.close();
  }
});

test('a re-read whose first result the budget compressed is served again, not refused as a repeat; a server that counts exactly its context of a longer request cut it: MODEL_CONTEXT_TRUNCATED', async () => {
  const lines = (name: string) =>
    Array.from({ length: 60 }, (_, i) => `${name} line ${i + 1}: text that fills the context`).join('\n') + '\n';
  const dir = repoWith({ 'a.txt': lines('alpha'), 'b.txt': lines('beta') });
  const read = (path: string) => ({ name: 'read', arguments: { path } });
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [read('a.txt')] }),
      reply({ toolCalls: [read('b.txt')] }),
      reply({ toolCalls: [read('a.txt')] }),
      reply({ text: 'Read both.' }),
      // Ollama past its context: the head of the conversation dropped, its context (here 1024) counted exactly.
      reply({ text: 'What would you like me to help with?', usage: { prompt_tokens: 1024, completion_tokens: 9 } }),
    ],
  });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'm', '--budget', '2200', '--json', 'read a.txt and b.txt'], {
      cwd: dir,
    });
    assert.is(r.code, 0, r.stderr);
    const bodies = server.chatBodies();
    assert.match(
      String(bodies[2]!.messages.find((m) => m.role === 'tool')!.content),
      /^\[compressed read result/,
      'the first read was compressed',
    );
    const again = String(bodies[3]!.messages.at(-1)!.content);
    assert.not.match(again, /Same call/, 'not refused as a repeat');
    assert.match(again, /alpha line 1:/, 'the file is before the model again');
    const task = `read a.txt, then ${'keep every line of it in mind while you work; '.repeat(60)}`;
    const cut = await forge(['agent', '--endpoint', server.url, '--model', 'm', '--json', task], { cwd: dir });
    const error = cut.records.at(-1)!.error;
    assert.equal([cut.code, error.code], [1, 'MODEL_CONTEXT_TRUNCATED'], cut.stderr);
    assert.match(error.message, /^the server counted 1024 prompt tokens of the ~\d+ sent: it cut the start of the conversation/);
    // A server forge knows nothing of: each common server's setting, sized to what was sent.
    assert.match(
      error.message,
      /give the server a larger context \(Ollama: OLLAMA_CONTEXT_LENGTH=4096 ollama serve, or the model's num_ctx; llama\.cpp: --ctx-size 4096\), or give forge a --budget of 768; the task is not done/,
    );
    assert.match(cut.records.at(-1)!._next_action, /^forge agent --budget 768 /);
  } finally {
    await server.close();
  }
});

test('without usage from the server, tokens are counted here and marked estimated in the summary, telemetry and forge stats', async () => {
  const dir = repoWith({ 'a.txt': 'alpha\n' });
  const server = await startOpenAIServer({
    script: [reply({ toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] }), reply({ text: 'It says alpha.' })],
  });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'test-model', '--json', 'what does a.txt say'], { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    const bodies = server.chatBodies();
    const usage = r.records.filter((x) => x.type === 'usage');
    assert.equal(
      usage.map((x) => [x.input, x.estimated]),
      bodies.map((b) => [bodyTokens(b), true]),
      'each request counted as sent',
    );
    assert.ok(usage.every((x) => x.output > 0));
    const summary = r.records.at(-1)!;
    assert.equal([summary.usageEstimated, summary.usage.input], [true, bodyTokens(bodies[0]!) + bodyTokens(bodies[1]!)]);
    const stats = await forge(['stats', '--json'], { cwd: dir });
    const row = stats.records.find((x) => x.type === 'model')!;
    assert.equal([row.inputTokens, row.estimatedTasks], [summary.usage.input, 1]);
    const text = await forge(['stats'], { cwd: dir });
    assert.match(text.stdout, /estimated for 1 task whose server sent no usage/);
  } finally {
    await server.close();
  }
});

test("the budget fits the context Ollama gives the model: 4096 by default, a loaded model's own; a --budget that cannot fit is warned about once, with how to raise it", async () => {
  const dir = repoWith({ 'a.txt': Array.from({ length: 300 }, (_, i) => `line ${i + 1} of a file read whole`).join('\n') + '\n' });
  const script = () => [reply({ toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] }), reply({ text: 'Done.' })];
  const server = await startOpenAIServer({ script: script(), ollama: { contextLength: 40960 } });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'qwen3:8b', '--json', 'read a.txt'], { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    assert.equal(server.requests.find((q) => q.path === '/api/show')?.body, { model: 'qwen3:8b' });
    for (const b of server.chatBodies()) assert.ok(bodyTokens(b) <= 3072, `a request of ${bodyTokens(b)} tokens in a context of 4096`);
    // A default budget lowered to fit is said once, on stderr and as a record: no warning about a flag.
    assert.equal(
      r.records.filter((x) => x.type === 'notice').map((x) => [x.kind, x.text]),
      [
        [
          'note',
          "budget lowered to 3072 tokens from 12000: Ollama gives 'qwen3:8b' 4096 tokens of context by default (below 24 GiB of VRAM) and cuts longer requests silently; raise it with OLLAMA_CONTEXT_LENGTH=16384 ollama serve for the default of 12000",
        ],
      ],
    );
    assert.match(r.stderr, /^warning: budget lowered to 3072 tokens from 12000: /m);
    server.enqueue(...script());
    const warned = await forge(['agent', '--endpoint', server.url, '--model', 'qwen3:8b', '--budget', '12000', 'read a.txt'], { cwd: dir });
    assert.is(warned.code, 0, warned.stderr);
    assert.not.ok(warned.stdout.includes('warning:'), 'the warning is on stderr, not among the results');
    const lines = warned.stderr.split('\n').filter((l) => l.startsWith('warning: --budget'));
    assert.equal(lines, [
      "warning: --budget 12000 does not fit: Ollama gives 'qwen3:8b' 4096 tokens of context by default (below 24 GiB of VRAM) and cuts longer requests silently; with room for the reply, requests can hold 3072; raise it with OLLAMA_CONTEXT_LENGTH=16384 ollama serve, or pass --budget 3072",
    ]);
  } finally {
    await server.close();
  }
  const loaded = await startOpenAIServer({ script: script(), ollama: { contextLength: 40960, loadedContext: 8192 } });
  try {
    const r = await forge(['agent', '--endpoint', loaded.url, '--model', 'qwen3:8b', '--budget', '7000', '--json', 'read a.txt'], {
      cwd: dir,
    });
    assert.is(r.code, 0, r.stderr);
    assert.match(
      r.records.find((x) => x.type === 'notice')!.text,
      /^--budget 7000 does not fit: Ollama runs 'qwen3:8b' with a context of 8192 tokens and cuts longer requests silently; with room for the reply, requests can hold 6144; raise it with OLLAMA_CONTEXT_LENGTH=16384 ollama serve, or pass --budget 6144$/,
    );
  } finally {
    await loaded.close();
  }
});

test("a count that fills the context Ollama gives the model is a cut, whatever forge counted (its tokenizer is not the model's); the remedy is that model's own setting", async () => {
  const dir = repoWith({ 'a.txt': Array.from({ length: 120 }, (_, i) => `line ${i + 1} of a file read whole`).join('\n') + '\n' });
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] }),
      // Ollama's runner: "truncating input prompt limit=4096 prompt=7268 keep=4 new=4096" (github.com/steveh250/MAF, README).
      reply({ text: 'Hello! What can I do for you?', usage: { prompt_tokens: 4096, completion_tokens: 8 } }),
    ],
    ollama: { contextLength: 40960, loadedContext: 4096 },
  });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'qwen3:8b', '--json', 'read a.txt and fix its typos'], {
      cwd: dir,
    });
    const error = r.records.at(-1)!.error;
    assert.equal([r.code, error.code], [1, 'MODEL_CONTEXT_TRUNCATED'], r.stderr);
    assert.ok(
      server.chatBodies().every((b) => bodyTokens(b) <= 3072),
      'forge kept to the budget it chose',
    );
    assert.match(
      error.message,
      /^the server counted 4096 prompt tokens of the ~\d+ sent: .*; Ollama runs 'qwen3:8b' with a context of 4096 tokens and cuts longer requests silently: raise it with OLLAMA_CONTEXT_LENGTH=8192 ollama serve, or give forge a --budget of \d+; the task is not done/,
    );
    assert.match(r.records.at(-1)!._next_action, /^forge agent --budget \d+ /);
  } finally {
    await server.close();
  }
});

test.run();
