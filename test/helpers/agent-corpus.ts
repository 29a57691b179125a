// The corpus of reply shapes small local models and their servers really send (test/fixtures/agent-replies/corpus.json, each with the public page that shows it), as tests of forge agent: a shape forge can read ends with exit 0 and notes.txt changed; one that cannot be run safely ends non-zero, by forge's own refusal, with notes.txt untouched.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { forge } from './forge';
import { test } from './harness';
import { failWith, raw, reply, type ScriptStep, startOpenAIServer } from './openai-server';
import { repoWith } from './repo';

interface CorpusCall {
  name: string;
  /** Sent as it is: JSON, or any raw string a model produced. */
  arguments: string;
}

interface Turn {
  /** The content; '' or absent for none. */
  text?: string;
  tool_calls?: CorpusCall[];
  /** Sent as `reasoning_content`, as llama.cpp, vLLM and DeepSeek do. */
  reasoning?: string;
  /** false: one non-streamed `chat.completion` body instead of an event stream. */
  stream?: boolean;
  finish_reason?: string;
}

interface Case {
  id: string;
  source: string;
  shape: string;
  turns: Turn[];
  expect: 'recovered' | 'refused';
  file: string;
  after: string;
  /** Tool calls the run must have made, when the shape is about how many run (a call sent twice in one reply runs once). */
  toolCalls?: number;
}

const TASK = 'In notes.txt change one to two';
const BEFORE = 'one\n';
const corpus = JSON.parse(readFileSync('test/fixtures/agent-replies/corpus.json', 'utf8')) as Case[];

/** What a server says when forge asks for a reply past the scripted ones: a 400 forge does not retry, so the run ends at once and the test names why. */
const PAST_SCRIPT = 'corpus: no reply is scripted past the last turn';
/** Codes that say the transport failed, not that forge refused the reply. */
const TRANSPORT = new Set(['MODEL_SERVER_ERROR', 'MODEL_BAD_ENDPOINT', 'MODEL_UNREACHABLE', 'MODEL_STALLED', 'MODEL_REQUEST_REJECTED']);

/** Streamed text arrives in small deltas, as tokens do: tags and special tokens are cut across events. */
const PIECE = 7;

function pieces(text: string): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let at = 0; at < chars.length; at += PIECE) out.push(chars.slice(at, at + PIECE).join(''));
  return out;
}

const finishOf = (turn: Turn) => turn.finish_reason ?? (turn.tool_calls?.length ? 'tool_calls' : 'stop');

/** The server step that sends one turn: `reply()` where it can say it, exact bytes where it cannot (reasoning_content, a non-streamed body). */
function stepOf(turn: Turn, n: number): ScriptStep {
  const calls = turn.tool_calls ?? [];
  if (turn.stream === false) return raw([completionBody(turn, n)], { contentType: 'application/json' });
  if (turn.reasoning !== undefined) return raw(sseEvents(turn, n));
  return reply({
    text: pieces(turn.text ?? ''),
    toolCalls: calls.map((c, i) => ({ id: `call_${n}_${i}`, name: c.name, arguments: c.arguments })),
    finishReason: finishOf(turn),
  });
}

/** A non-streamed completion, as Ollama and vLLM answer `stream: false` (and some servers answer regardless). */
function completionBody(turn: Turn, n: number): string {
  const calls = turn.tool_calls ?? [];
  const message: Record<string, unknown> = { role: 'assistant', content: turn.text ?? null };
  if (turn.reasoning !== undefined) message.reasoning_content = turn.reasoning;
  if (calls.length)
    message.tool_calls = calls.map((c, i) => ({
      id: `call_${n}_${i}`,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  return JSON.stringify({
    id: `chatcmpl-corpus-${n}`,
    object: 'chat.completion',
    created: 0,
    model: 'small-model',
    choices: [{ index: 0, message, finish_reason: finishOf(turn) }],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
  });
}

/** A streamed completion with `reasoning_content` deltas before the content, as llama.cpp and vLLM's reasoning parsers stream it. */
function sseEvents(turn: Turn, n: number): string[] {
  const event = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({
      id: `chatcmpl-corpus-${n}`,
      object: 'chat.completion.chunk',
      created: 0,
      model: 'small-model',
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
  const events = [event({ role: 'assistant', content: '' })];
  for (const p of pieces(turn.reasoning ?? '')) events.push(event({ reasoning_content: p }));
  for (const p of pieces(turn.text ?? '')) events.push(event({ content: p }));
  (turn.tool_calls ?? []).forEach((c, index) => {
    events.push(event({ tool_calls: [{ index, id: `call_${n}_${index}`, type: 'function', function: { name: c.name, arguments: '' } }] }));
    for (const p of pieces(c.arguments)) events.push(event({ tool_calls: [{ index, function: { arguments: p } }] }));
  });
  events.push(event({}, finishOf(turn)));
  events.push('data: [DONE]\n\n');
  return events;
}

/** What a client reads back from the bytes `stepOf` writes: the check that a failure below is forge's and not a malformed stream. */
function decode(step: ScriptStep): { content: string; reasoning: string; calls: CorpusCall[]; finish: string | null } {
  const out = { content: '', reasoning: '', calls: [] as CorpusCall[], finish: null as string | null };
  const take = (choice: Record<string, any>, delta: Record<string, any>) => {
    if (typeof delta.content === 'string') out.content += delta.content;
    if (typeof delta.reasoning_content === 'string') out.reasoning += delta.reasoning_content;
    for (const [i, d] of ((delta.tool_calls as Array<Record<string, any>>) ?? []).entries()) {
      const at = typeof d.index === 'number' ? d.index : i;
      out.calls[at] ??= { name: '', arguments: '' };
      out.calls[at]!.name += d.function?.name ?? '';
      out.calls[at]!.arguments += d.function?.arguments ?? '';
    }
    if (typeof choice.finish_reason === 'string') out.finish = choice.finish_reason;
  };
  assert.is(step.type, 'raw');
  const writes = (step as Extract<ScriptStep, { type: 'raw' }>).writes.map(String);
  if ((step as Extract<ScriptStep, { type: 'raw' }>).contentType === 'application/json') {
    const choice = JSON.parse(writes.join('')).choices[0];
    take(choice, choice.message);
    return out;
  }
  const blocks = writes.join('').split('\n\n');
  assert.is(blocks.pop(), '', 'the stream ends with a blank line');
  assert.is(blocks.pop(), 'data: [DONE]', 'the stream ends with [DONE]');
  for (const block of blocks) {
    assert.match(block, /^data: \{.*\}$/s, 'one data line per event');
    const choice = JSON.parse(block.slice('data: '.length)).choices[0];
    take(choice, choice.delta);
  }
  return out;
}

/** The corpus itself: unique ids, sources, and turns that decode as written (a failure below is then forge's). */
export function corpusCheck(): void {
  test(`the corpus: ${corpus.length} cases, each with a unique id, the public page that shows its shape, and turns a client decodes as written`, () => {
    assert.ok(corpus.length >= 64, `${corpus.length} cases`);
    const ids = new Set<string>();
    for (const c of corpus) {
      const at = `case ${c.id}`;
      assert.match(c.id, /^[a-z0-9]+(-[a-z0-9]+)*$/, `${at}: kebab-case id`);
      assert.not.ok(ids.has(c.id), `${at}: duplicate id`);
      ids.add(c.id);
      assert.match(c.source, /^https:\/\/\S+$/, `${at}: source`);
      assert.match(c.shape, /^[^\n]+$/, `${at}: one-line shape`);
      assert.ok(['recovered', 'refused'].includes(c.expect), `${at}: expect`);
      assert.is(c.file, 'notes.txt', `${at}: file`);
      if (c.expect === 'refused') assert.is(c.after, BEFORE, `${at}: a refused case leaves the file as it was`);
      assert.ok(c.turns.length > 0, `${at}: turns`);
      c.turns.forEach((turn, i) => {
        const step = stepOf(turn, i + 1);
        if (step.type !== 'raw') return;
        const read = decode(step);
        assert.equal(
          [read.content, read.reasoning, read.calls, read.finish],
          [turn.text ?? '', turn.reasoning ?? '', turn.tool_calls ?? [], finishOf(turn)],
          `${at}, turn ${i + 1}`,
        );
      });
    }
  });
}

/**
 * One test per case: `as written` sends each turn as the case says, `flipped` sends streamed turns
 * as one completion body and non-streamed ones as a stream — every shape in both forms.
 */
export function corpusCases(form: 'as written' | 'flipped'): void {
  for (const c of corpus) {
    test(`${c.id} (${c.expect}, ${form === 'flipped' ? 'the other form' : 'as written'}) ${c.source}`, async () => {
      const dir = repoWith({ [c.file]: BEFORE });
      const turns = form === 'flipped' ? c.turns.map(flipped) : c.turns;
      const past = Array.from({ length: 3 }, () => failWith(400, { error: { message: PAST_SCRIPT, type: 'invalid_request_error' } }));
      const server = await startOpenAIServer({ script: [...turns.map((t, i) => stepOf(t, i + 1)), ...past] });
      try {
        const r = await forge(['agent', '--endpoint', server.url, '--model', 'small-model', '--json', TASK], { cwd: dir });
        const content = readFileSync(join(dir, c.file), 'utf8');
        const asked = server.chatBodies().length;
        const last = r.records.at(-1);
        const seen =
          `${c.shape}\n  exit ${r.code}, ${c.file} ${JSON.stringify(content)}, ${asked} replies asked for (${c.turns.length} scripted), ` +
          `last record ${JSON.stringify(last ?? null).slice(0, 600)}\n  stderr: ${r.stderr.trim().slice(-600)}`;
        const pastScript = `forge asked for reply ${asked} after the ${c.turns.length} scripted: the run went on past the model's last word. ${seen}`;
        if (c.expect === 'recovered') {
          assert.is(r.code, 0, `expected exit 0 (the task done). ${seen}`);
          assert.is(content, c.after, `exit 0, but ${c.file} was not changed as the task asked. ${seen}`);
          assert.ok(asked <= c.turns.length, pastScript);
          if (c.toolCalls !== undefined) assert.is(last?.toolCalls, c.toolCalls, `tool calls run. ${seen}`);
        } else {
          assert.is.not(r.code, 0, `expected a refusal (exit != 0): this shape cannot be run safely. ${seen}`);
          assert.is(content, c.after, `${c.file} changed though the run was refused. ${seen}`);
          assert.ok(asked <= c.turns.length, pastScript);
          const code = last?.error?.code;
          assert.ok(
            typeof code === 'string' && !TRANSPORT.has(code),
            `the run ended without forge refusing it (error code ${code}). ${seen}`,
          );
        }
      } finally {
        await server.close();
      }
    });
  }
}

/** The same turn in the other transport form. */
function flipped(turn: Turn): Turn {
  const { stream, ...rest } = turn;
  return stream === false ? rest : { ...rest, stream: false };
}
