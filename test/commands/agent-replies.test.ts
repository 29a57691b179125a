// forge agent against the replies small models really send, replayed through the scripted server: each ends with the right exit code and code, and no failed run exits 0.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { reply, startOpenAIServer, type ScriptStep } from '../helpers/openai-server';
import { repoWith } from '../helpers/repo';

async function agentRun(script: ScriptStep[], files: Record<string, string> = { 'notes.txt': 'one\n' }) {
  const dir = repoWith(files);
  const server = await startOpenAIServer({ script });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'small-model', '--json', 'do the task'], { cwd: dir });
    const bodies = server.chatBodies();
    const last = r.records.at(-1)!;
    return {
      r,
      dir,
      bodies,
      last,
      toolResults: (i: number) => bodies[i]!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content)),
    };
  } finally {
    await server.close();
  }
}

test('tool calls written as text — Hermes/Qwen <tool_call> tags and a fenced JSON object — run as calls, not as the answer', async () => {
  const tagged = await agentRun([
    reply({ text: 'Let me look.\n<tool_call>\n{"name": "read", "arguments": {"path": "notes.txt"}}\n</tool_call>' }),
    reply({ text: 'It says one.' }),
  ]);
  assert.is(tagged.r.code, 0, tagged.r.stderr);
  assert.match(tagged.toolResults(1)[0]!, /^notes\.txt[\s\S]*: one/);
  assert.is(tagged.last.answer, 'It says one.');
  // The call goes back into history as a call, the prose around it as the content.
  const sent = tagged.bodies[1]!.messages[2] as { content: string; tool_calls: Array<{ function: { name: string } }> };
  assert.equal([sent.content, sent.tool_calls[0]!.function.name], ['Let me look.', 'read']);
  const fenced = await agentRun([
    reply({ text: '```json\n{"name": "edit", "arguments": {"path": "notes.txt", "old": "one", "new": "two"}}\n```' }),
    reply({ text: 'Changed it.' }),
  ]);
  assert.is(fenced.r.code, 0, fenced.r.stderr);
  assert.is(readFileSync(join(fenced.dir, 'notes.txt'), 'utf8'), 'two\n');
  // A call shown as an example amid an explanation is not run: the answer is the explanation.
  const fence = '`'.repeat(3);
  const explained = await agentRun([
    reply({
      text: [
        "To create a file, forge's write tool takes the path and the whole content, and refuses to replace a file unless told to.",
        `${fence}json`,
        '{"name": "write", "arguments": {"path": "example.txt", "content": "hi"}}',
        fence,
        'Pass overwrite: true to replace an existing file; the write is atomic, so a reader never sees half of it, and parent directories are created as needed.',
      ].join('\n'),
    }),
  ]);
  assert.is(explained.r.code, 0, explained.r.stdout + explained.r.stderr);
  assert.throws(() => readFileSync(join(explained.dir, 'example.txt')), 'the example was not run');
  // A JSON example in an answer that names no tool is the answer.
  const example = await agentRun([reply({ text: 'Use this:\n```json\n{"name": "my-app", "version": "1.0.0"}\n```' })]);
  assert.equal([example.r.code, example.last.answer], [0, 'Use this:\n```json\n{"name": "my-app", "version": "1.0.0"}\n```']);
});

test('a <tool_call> that cannot be read (cut short, naming no tool) is neither run nor the answer: asked again once, then MODEL_UNREADABLE_CALL, exit 1', async () => {
  const cut = '<tool_call>{"name": "write", "arguments": {"path": "out.txt", "content": "half of it';
  const twice = await agentRun([reply({ text: cut }), reply({ text: '<tool_call>{"name": "deploy", "arguments": {}}</tool_call>' })]);
  assert.is(twice.r.code, 1);
  assert.is(twice.last.error.code, 'MODEL_UNREADABLE_CALL');
  assert.throws(() => readFileSync(join(twice.dir, 'out.txt')), 'the cut write did not run');
  assert.match(
    String(twice.bodies[1]!.messages.at(-1)!.content),
    /^Your <tool_call> could not be read, so nothing ran: its JSON could not be read \(they stop before the object closes/,
  );
  const once = await agentRun([reply({ text: cut }), reply({ text: 'It says one.' })]);
  assert.equal([once.r.code, once.last.answer], [0, 'It says one.']);
});

test('arguments: trailing commas and single quotes are repaired and the result says how they were read; a cut-off object is refused with the reason and the schema', async () => {
  const repaired = await agentRun([
    reply({ toolCalls: [{ name: 'edit', arguments: "{'path': 'notes.txt', 'old': 'one', 'new': 'two',}" }] }),
    reply({ text: 'Done.' }),
  ]);
  assert.is(repaired.r.code, 0, repaired.r.stderr);
  assert.is(readFileSync(join(repaired.dir, 'notes.txt'), 'utf8'), 'two\n');
  assert.match(
    repaired.toolResults(1)[0]!,
    /^\[The arguments were not valid JSON; read them as \{"path":"notes\.txt","old":"one","new":"two"\}\.\]/,
  );
  const cut = await agentRun([
    reply({ toolCalls: [{ name: 'write', arguments: '{"path": "new.txt", "content": "half of a fi' }] }),
    reply({ text: 'Gave up.' }),
  ]);
  const result = cut.toolResults(1)[0]!;
  assert.match(
    result,
    /^Error: the arguments of write are not a JSON object: they stop before the object closes \(cut off after \d+ characters\)/,
  );
  assert.match(result, /The arguments write takes: \{"type":"object"/);
  assert.not.ok(cut.r.stdout.includes('forge write --help'), 'no CLI hint the model cannot run');
});

test('a near-miss key is taken and said so; an unknown key is refused naming the real arguments, never with a CLI hint', async () => {
  const r = await agentRun([
    reply({ toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }),
    reply({ toolCalls: [{ name: 'read', arguments: { path: 'notes.txt', colour: 'red' } }] }),
    reply({ text: 'It says one.' }),
  ]);
  assert.is(r.r.code, 0, r.r.stderr);
  const [taken, refused] = r.toolResults(2);
  assert.match(taken!, /^\[read: took 'file_path' as 'path'\]\nnotes\.txt[\s\S]*: one/);
  assert.match(refused!, /read has no argument 'colour'; it takes path \(required\)/);
  assert.not.match(refused!, /--help/);
});

test("a reply cut by finish_reason 'length' is never used: asked again once, then MODEL_TRUNCATED, exit 1, and the cut call did not run", async () => {
  const cutWrite = { name: 'write', arguments: { path: 'out.txt', content: 'the first half' } };
  const twice = await agentRun([
    reply({ toolCalls: [cutWrite], finishReason: 'length' }),
    reply({ text: 'The answer is', finishReason: 'length' }),
  ]);
  assert.is(twice.r.code, 1);
  assert.is(twice.last.error.code, 'MODEL_TRUNCATED');
  assert.throws(() => readFileSync(join(twice.dir, 'out.txt')), 'the cut write did not run');
  assert.match(String(twice.bodies[1]!.messages.at(-1)!.content), /cut off by the length limit and was not used/);
  const once = await agentRun([reply({ text: 'The answer', finishReason: 'length' }), reply({ text: 'The answer is one.' })]);
  assert.equal([once.r.code, once.last.answer], [0, 'The answer is one.']);
});

test('an empty reply gets one nudge, then MODEL_EMPTY_REPLY, exit 1; <think> is shown but never sent back', async () => {
  const empty = await agentRun([reply({}), reply({})]);
  assert.is(empty.r.code, 1);
  assert.is(empty.last.error.code, 'MODEL_EMPTY_REPLY');
  assert.match(empty.last._next_action, /^forge agent/);
  const thinkOnly = await agentRun([
    reply({ text: '<think>I should answer.</think>' }),
    reply({ text: '<think>Really.</think>\nIt says one.' }),
  ]);
  assert.equal([thinkOnly.r.code, thinkOnly.last.answer], [0, 'It says one.'], 'a reply of reasoning alone is empty');
  assert.ok(thinkOnly.r.records.some((x) => x.type === 'thinking' && x.text === 'I should answer.'));
  assert.not.ok(JSON.stringify(thinkOnly.bodies[1]!.messages).includes('<think>'), 'no reasoning in the history');
});

test('the same call three times with nothing changed ends the run with LOOP_DETECTED, exit 1; a re-run after an edit still runs', async () => {
  const search = { name: 'search', arguments: { pattern: 'one' } };
  const loop = await agentRun([
    reply({ toolCalls: [search] }),
    reply({ toolCalls: [{ name: 'search', arguments: '{ "pattern" : "one" }' }] }),
    reply({ toolCalls: [search] }),
    reply({ text: 'never reached' }),
  ]);
  assert.is(loop.r.code, 1);
  assert.is(loop.last.error.code, 'LOOP_DETECTED');
  assert.match(loop.last.error.message, /same call a third time with nothing changed since turn 1: search/);
  assert.is(loop.bodies.length, 3);
  const cat = { name: 'bash', arguments: { command: 'cat notes.txt' } };
  const edit = (from: string, to: string) => ({ name: 'edit', arguments: { path: 'notes.txt', old: from, new: to } });
  const rerun = await agentRun([
    reply({ toolCalls: [cat] }),
    reply({ toolCalls: [edit('one', 'two')] }),
    reply({ toolCalls: [cat] }),
    reply({ text: 'Now two.' }),
  ]);
  assert.is(rerun.r.code, 0, rerun.r.stderr);
  assert.match(rerun.toolResults(3)[2]!, /^two\n\[exit 0\]/);
});

test('a near-miss loop — a read window moved by a line each turn, nothing changed — is pointed out at the second alike result and ends at the third: LOOP_DETECTED, exit 1', async () => {
  const file = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n');
  const read = (start: number) => reply({ toolCalls: [{ name: 'read', arguments: { path: 'notes.txt', start, end: start + 20 } }] });
  const run = await agentRun([read(1), read(2), read(3), read(4), reply({ text: 'never reached' })], { 'notes.txt': `${file}\n` });
  assert.equal([run.r.code, run.last.error?.code], [1, 'LOOP_DETECTED'], run.r.stderr);
  assert.match(run.last.error.message, /keep returning nearly the same result/);
  assert.match(run.toolResults(3).at(-1)!, /\[Nearly the same result as turn 2's/);
  assert.is(run.bodies.length, 4, 'the fourth alike call ended the run before another request');
  // Windows that do not overlap are progress, not a loop.
  const paging = await agentRun([read(1), read(22), reply({ text: 'It has 40 lines.' })], { 'notes.txt': `${file}\n` });
  assert.is(paging.r.code, 0, paging.r.stderr);
});

test('a read of a file that was edited since is not carried on: it is replaced by a line saying so, and the edit shows what it left', async () => {
  const run = await agentRun([
    reply({ toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] }),
    reply({ toolCalls: [{ name: 'edit', arguments: { path: 'notes.txt', old: 'one', new: 'two' } }] }),
    reply({ text: 'Changed it.' }),
  ]);
  assert.is(run.r.code, 0, run.r.stderr);
  const [read, edited] = run.toolResults(2);
  assert.match(read!, /^\[stale read of notes\.txt: changed by the edit at turn 2; read it again/);
  assert.match(edited!, /^edited notes\.txt[\s\S]*1#[0-9a-f]{4}: two/, 'the edit shows the line it left, with its anchor');
  assert.match(run.toolResults(1)[0]!, /1#[0-9a-f]{4}: one/, 'before the edit the read was whole');
});

test('a repeated call that failed the first time is reported failed again, never ok', async () => {
  const missing = reply({ toolCalls: [{ name: 'read', arguments: { path: 'missing.txt' } }] });
  const run = await agentRun([missing, missing, reply({ text: 'It does not exist.' })]);
  assert.is(run.r.code, 0, run.r.stderr);
  assert.match(run.toolResults(2).at(-1)!, /^\[Same call as turn 1, and nothing changed since: its result is the same \(it failed\)/);
  assert.equal(
    run.r.records.filter((x) => x.type === 'tool_result').map((x) => x.ok),
    [false, false],
  );
});

test('edits that undo each other: the first return to an earlier content is pointed out, the second ends the run with LOOP_DETECTED', async () => {
  const edit = (from: string, to: string) => ({ name: 'edit', arguments: { path: 'notes.txt', old: from, new: to } });
  const r = await agentRun([
    reply({ toolCalls: [edit('one', 'two')] }),
    reply({ toolCalls: [edit('two', 'one')] }),
    reply({ toolCalls: [edit('one', 'two')] }),
    reply({ text: 'never reached' }),
  ]);
  assert.is(r.r.code, 1);
  assert.is(r.last.error.code, 'LOOP_DETECTED');
  assert.match(r.toolResults(2)[1]!, /\[This put 'notes\.txt' back as it was before the task: it undoes your own edit\./);
  assert.match(r.last.error.message, /edits keep undoing each other: 'notes\.txt'/);
});

test('--mechanical: a plain replacement is done by forge replace with no model call; anything else is refused with the command that sends it to a model', async () => {
  const dir = repoWith({ 'src/a.ts': 'formatPrice(1);\n', 'src/b.ts': 'x = formatPrice;\n', 'other.ts': 'formatPrice\n' });
  // No endpoint is configured or reachable: any model call would fail the run.
  const r = await forge(['agent', '--mechanical', '--json', 'rename formatPrice to formatAmount in src/'], {
    cwd: dir,
    env: { FORGE_ENDPOINT: 'http://127.0.0.1:9/v1', FORGE_MODEL: 'none' },
  });
  assert.is(r.code, 0, r.stderr);
  assert.equal(
    [readFileSync(join(dir, 'src/a.ts'), 'utf8'), readFileSync(join(dir, 'src/b.ts'), 'utf8'), readFileSync(join(dir, 'other.ts'), 'utf8')],
    ['formatAmount(1);\n', 'x = formatAmount;\n', 'formatPrice\n'],
  );
  assert.is(r.records.at(-1)!.replacements, 2);
  const not = await forge(['agent', '--mechanical', 'remove all console.log calls'], { cwd: dir });
  assert.is(not.code, 2);
  assert.match(not.stderr, /is not a plain replacement[\s\S]*Fix: forge agent 'remove all console\.log calls'/);
});

test.run();
