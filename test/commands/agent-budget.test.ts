// forge agent's request budget and token counts, measured on the wire against the scripted server.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { reply, startOpenAIServer, type ChatRequestBody } from '../helpers/openai-server';
import { repoWith } from '../helpers/repo';

/** A request's tokens counted as bench/agent.ts counts them: its messages and tools as JSON, o200k_base. */
const bodyTokens = (b: ChatRequestBody) => countTokens(JSON.stringify({ messages: b.messages, tools: b.tools }));

test('--budget bounds every request on the wire, schemas and framing included: older results become stubs, the latest are cut, and a budget the fixed prompt cannot fit is refused before any request', async () => {
  const lines = (name: string) => Array.from({ length: 300 }, (_, i) => `${name} line ${i + 1}: a long file read whole, which fills the context fast`).join('\n') + '\n';
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
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'test-model', '--budget', String(budget), '--json', 'read every file'], { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    const bodies = server.chatBodies();
    assert.is(bodies.length, 5);
    for (const [i, b] of bodies.entries()) assert.ok(bodyTokens(b) <= budget, `request ${i + 1} was ${bodyTokens(b)} tokens, over --budget ${budget}`);
    const results = bodies[1]!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    assert.match(results[0]!, /\n\[cut to fit the token budget: the first \d+ of \d+ chars; ask for a narrower part\]$/, 'a result larger than the budget is cut, and says so');
    assert.equal(bodies[4]!.messages.slice(0, 2), bodies[0]!.messages.slice(0, 2), 'the system prompt and the task are never touched');
    assert.ok(r.records.some((x) => x.type === 'compressed'));
    const none = await forge(['agent', '--endpoint', server.url, '--model', 'test-model', '--budget', '600', '--json', 'read every file'], { cwd: dir });
    const error = none.records.at(-1)!.error;
    assert.equal([none.code, error.code], [2, 'BUDGET_TOO_SMALL']);
    assert.match(error.message, /^a token budget of 600 cannot hold the request: the system prompt, the task and the tool schemas alone are \d+ tokens$/);
    assert.match(none.records.at(-1)!._next_action, /^forge agent --budget \d+ 'read every file'$/);
    assert.is(server.chatBodies().length, 5, 'nothing was sent');
  } finally {
    await server.close();
  }
});

test('without usage from the server, tokens are counted here and marked estimated in the summary, telemetry and forge stats', async () => {
  const dir = repoWith({ 'a.txt': 'alpha\n' });
  const server = await startOpenAIServer({ script: [reply({ toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] }), reply({ text: 'It says alpha.' })] });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'test-model', '--json', 'what does a.txt say'], { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    const bodies = server.chatBodies();
    const usage = r.records.filter((x) => x.type === 'usage');
    assert.equal(usage.map((x) => [x.input, x.estimated]), bodies.map((b) => [bodyTokens(b), true]), 'each request counted as sent');
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

test.run();
