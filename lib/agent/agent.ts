// The agent loop: the model proposes tool calls, forge's own commands run them, until the model answers.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  chat,
  type AssistantMessage,
  type ChatMessage,
  type ChatResult,
  type RetryPolicy,
  type ToolCall,
  type ToolSchema,
  type Usage,
} from './chat';
import type { ModelConfig } from './config';
import { enforceBudget, newBudgetState, RECALL_TOOL, replyTokens, requestTokens } from './context';
import { parseArguments, splitThinking, toolCallsInText, VisibleStream } from './replies';
import type { AgentTools } from './tools';

export const SYSTEM_PROMPT = `You are forge, a coding agent in a git repository. Read before you edit, keep edits small, run the tests after a change. Tool results end with a hint (Next: …). When done, reply with a short summary and no tool call.`;

/** The read call's file as size and mtime, or null when it cannot be stat'ed. */
async function fileVersion(cwd: string, args: string): Promise<string | null> {
  try {
    const path = (JSON.parse(args) as { path?: unknown }).path;
    if (typeof path !== 'string') return null;
    const s = await stat(resolve(cwd, path));
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return null;
  }
}

/** The file tools (on_edit hooks follow them); write and edit name their one file in `path`. */
const EDITS_FILES = new Set(['write', 'edit', 'patch', 'replace']);

/** Tools after which earlier results may be stale. */
const MAY_CHANGE_FILES = new Set(['write', 'edit', 'patch', 'replace', 'bash']);

/** Conventions files an agent should follow, first found wins; capped so they stay a preamble. */
const CONVENTION_FILES = ['AGENTS.md', 'CLAUDE.md', '.forge/conventions.md'];
const CONVENTIONS_CAP = 2000;

export async function conventions(root: string): Promise<string | null> {
  for (const f of CONVENTION_FILES) {
    const text = await readFile(join(root, f), 'utf8').catch(() => null);
    if (text?.trim()) return `Conventions (${f}):\n${text.trim().slice(0, CONVENTIONS_CAP)}`;
  }
  return null;
}

export type AgentEvent =
  /** A model call is about to be made (a terminal shows a spinner until text arrives). */
  | { type: 'request'; turn: number }
  | { type: 'text'; text: string }
  /** Reasoning the model wrote (`<think>`): shown, never sent back. */
  | { type: 'thinking'; text: string }
  /** Something forge noticed about a reply: tool calls read from text, a reply cut off or empty. */
  | { type: 'reply_note'; text: string }
  | { type: 'tool_call'; name: string; arguments: string; cached: boolean }
  | { type: 'tool_result'; name: string; ok: boolean; chars: number }
  | { type: 'usage'; input: number; output: number; estimated: boolean }
  | { type: 'compressed'; results: number; before: number; after: number }
  | { type: 'done'; turns: number; answer: string };

export interface AgentRun {
  answer: string;
  turns: number;
  toolCalls: number;
  cacheHits: number;
  usage: { input: number; output: number };
  /** Model calls whose usage the server did not report: their counts are local o200k_base estimates. */
  estimatedCalls: number;
  /** Request tokens after each request's common prefix with the one before, summed: what no prefix cache could serve. */
  uncachedTokens: number;
  /** Context tokens before and after compression, summed over the calls that needed it. */
  compression: { before: number; after: number };
  /** Paths the model wrote or edited. */
  files: string[];
  /** True when the turn limit ended the run before the model answered. */
  exhausted: boolean;
  /** Why the run ended without an answer, when it was not the turn limit: the run failed. */
  stopped: AgentStop | null;
  /** Tool calls the gate refused. */
  refused: number;
}

/** A run that ended without finishing its task, and why (each a stable error code of forge agent). */
export interface AgentStop {
  code: 'MODEL_EMPTY_REPLY' | 'MODEL_TRUNCATED' | 'MODEL_UNREADABLE_CALL' | 'LOOP_DETECTED';
  message: string;
}

/**
 * What a caller adds around each tool call: a gate that may refuse it (an active plan contract), and
 * text appended to the result of a call that changed files (on_edit hooks), so the model sees a
 * compiler error in the same turn as its edit.
 */
export interface ToolCallGuards {
  /** Null lets the call run; a string is the refusal the model gets instead of a result. */
  gate?: (name: string, args: Record<string, unknown>) => Promise<string | null>;
  afterChange?: (name: string, args: Record<string, unknown>) => Promise<string>;
}

/** The first request exactly as it would be sent: for --dry-run. */
export async function firstRequest({
  task,
  root,
  history,
  tools,
}: {
  task: string;
  root: string;
  history?: string;
  tools: AgentTools;
}): Promise<{ messages: ChatMessage[]; tools: ToolSchema[] }> {
  const system = [SYSTEM_PROMPT, await conventions(root), history ?? null].filter(Boolean).join('\n\n');
  const messages: ChatMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: task },
  ];
  return { messages, tools: [...tools.schemas, RECALL_TOOL] };
}

/** Tokens every call starts with, counted in o200k_base: the system prompt and these tool schemas (conventions not counted). */
export async function fixedPromptTokens(tools: readonly ToolSchema[]): Promise<number> {
  return requestTokens({ messages: [{ role: 'system', content: SYSTEM_PROMPT }], tools });
}

/** The same call, argument order and spacing aside. */
function callKey(name: string, raw: string): string {
  const parsed = parseArguments(raw);
  if (!parsed.ok) return `${name} ${raw}`;
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, x]) => [k, sorted(x)]),
          )
        : v;
  return `${name} ${JSON.stringify(sorted(parsed.value))}`;
}

async function contentHash(path: string): Promise<string | null> {
  const data = await readFile(path).catch(() => null);
  return data ? createHash('sha1').update(data).digest('hex') : null;
}

const NUDGE = {
  empty: 'Your reply was empty. Call a tool, or if the task is done answer with a short summary.',
  cut: 'Your reply was cut off by the length limit and was not used (no tool call in it ran). Send it again, shorter: one tool call, or a brief answer.',
  unreadable: (why: string) =>
    `Your <tool_call> could not be read, so nothing ran: ${why}. Send the call again as one JSON object {"name": …, "arguments": {…}} naming one of the tools.`,
};

/**
 * Runs the task until the model answers without a tool call, `maxTurns` model calls were made, or
 * the run cannot honestly go on (`stopped`): a reply cut off by the length limit twice in a row, an
 * empty reply twice in a row, a `<tool_call>` that cannot be read twice in a row, the same call a third time with nothing changed in between, or edits
 * that keep putting a file back as it was. Tool calls written as text (Hermes `<tool_call>` tags, a
 * fenced JSON object naming a tool) are run as calls; `<think>` blocks are shown, never sent back.
 */
export async function runAgent({
  config,
  task,
  root,
  cwd,
  maxTurns,
  budget,
  quick = false,
  retry,
  onEvent,
  onDelta,
  signal,
  history,
  tools,
  guards = {},
}: {
  config: ModelConfig;
  task: string;
  root: string;
  cwd: string;
  maxTurns: number;
  budget: number;
  quick?: boolean;
  retry?: Partial<RetryPolicy>;
  onEvent: (e: AgentEvent) => Promise<void>;
  /** The reply's visible text as it streams in (reasoning left out). */
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
  history?: string;
  /** forge's commands as tools (lib/cli/agent-tools.ts), with any MCP servers' merged in. */
  tools: AgentTools;
  guards?: ToolCallGuards;
}): Promise<AgentRun> {
  const { messages, tools: schemas } = await firstRequest({ task, root, history, tools });
  const known = new Set(schemas.map((s) => s.function.name));
  const budgetState = newBudgetState();
  const { archive, toolNames } = budgetState;
  // Reads by arguments and the file's size and mtime: a re-read of an unchanged file is not re-run,
  // even after edits elsewhere cleared the identical-call record.
  const reads = new Map<string, string>();
  // Calls since the last one that may have changed files: the turn each was first made and how often.
  const repeats = new Map<string, { turn: number; count: number }>();
  // Each edited file's contents this task, by hash: going back to one is undoing an edit.
  const versions = new Map<string, Array<{ hash: string; turn: number }>>();
  let undone = 0;
  let nudged: 'empty' | 'cut' | 'unreadable' | null = null;
  const run: AgentRun = {
    answer: '',
    turns: 0,
    toolCalls: 0,
    cacheHits: 0,
    usage: { input: 0, output: 0 },
    estimatedCalls: 0,
    uncachedTokens: 0,
    compression: { before: 0, after: 0 },
    files: [],
    exhausted: false,
    stopped: null,
    refused: 0,
  };
  const stop = (code: AgentStop['code'], message: string): AgentRun => {
    run.stopped = { code, message };
    return run;
  };
  while (run.turns < maxTurns) {
    run.turns++;
    const fit = await enforceBudget({ messages, tools: quick ? [] : schemas, budget, state: budgetState });
    run.uncachedTokens += fit.uncached;
    if (fit.after < fit.before) {
      run.compression.before += fit.before;
      run.compression.after += fit.after;
      await onEvent({
        type: 'compressed',
        results: fit.compressed + fit.shortened + fit.cut + fit.dropped,
        before: fit.before,
        after: fit.after,
      });
    }
    await onEvent({ type: 'request', turn: run.turns });
    const shown = new VisibleStream();
    const live =
      onDelta &&
      ((piece: string) => {
        const visible = shown.feed(piece);
        if (visible) onDelta(visible);
      });
    // --quick: one call, no tools — an answer from what the prompt holds.
    const r: ChatResult = await chat({
      endpoint: config.endpoint.value,
      model: config.model.value,
      apiKey: config.apiKey,
      apiKeyEnv: config.apiKeyEnv.value ?? undefined,
      messages,
      ...(quick ? {} : { tools: schemas }),
      signal,
      retry,
      ...(live ? { onDelta: live } : {}),
    });
    // Without usage from the server, the request as counted for the budget and the reply counted locally.
    const usage: Usage = r.usage ?? { promptTokens: fit.after, completionTokens: await replyTokens(r.message) };
    if (!r.usage) run.estimatedCalls++;
    run.usage.input += usage.promptTokens;
    run.usage.output += usage.completionTokens;
    await onEvent({ type: 'usage', input: usage.promptTokens, output: usage.completionTokens, estimated: !r.usage });
    const { visible, thinking } = splitThinking(r.message.content);
    if (thinking) await onEvent({ type: 'thinking', text: thinking });
    let text = visible;
    let calls: ToolCall[] = quick ? [] : (r.message.tool_calls ?? []);
    let unreadable: string[] = [];
    if (!quick && !calls.length && text) {
      const written = toolCallsInText(text, known);
      unreadable = written.unreadable;
      if (written.calls.length) {
        calls = written.calls.map((c, i) => ({ id: `text_${run.turns}_${i + 1}`, type: 'function', function: c }));
        text = written.rest;
        await onEvent({
          type: 'reply_note',
          text: `${calls.length} tool call${calls.length === 1 ? '' : 's'} written as text, run as calls`,
        });
      }
    }
    // A tagged call that cannot be read (cut short, no known tool) is neither run nor the answer.
    if (!calls.length && unreadable.length && r.finishReason !== 'length') {
      if (nudged === 'unreadable')
        return stop(
          'MODEL_UNREADABLE_CALL',
          `the model's <tool_call> could not be read twice in a row (turn ${run.turns}); nothing of it ran`,
        );
      nudged = 'unreadable';
      const parsed = parseArguments(unreadable[0]!);
      const why = parsed.ok
        ? `it names no tool forge has (tools: ${[...known].join(', ')})`
        : `its JSON could not be read (${parsed.reason})`;
      await onEvent({ type: 'reply_note', text: `a <tool_call> that could not be read (${why}): not run; asked again` });
      messages.push({ role: 'assistant', content: text });
      messages.push({ role: 'user', content: NUDGE.unreadable(why) });
      continue;
    }
    // A reply the length limit cut is not the model's answer, and its calls may be cut too: none runs.
    if (r.finishReason === 'length') {
      if (nudged === 'cut')
        return stop(
          'MODEL_TRUNCATED',
          `the model's reply was cut off by the length limit twice in a row (turn ${run.turns}); nothing of it was used`,
        );
      nudged = 'cut';
      await onEvent({ type: 'reply_note', text: 'reply cut off by the length limit: not used; asked again, shorter' });
      if (text) messages.push({ role: 'assistant', content: text });
      messages.push({ role: 'user', content: NUDGE.cut });
      continue;
    }
    // Nothing at all (what Ollama sends when it drops streamed tool calls): one nudge, then a failure.
    if (!calls.length && !text) {
      if (nudged === 'empty')
        return stop('MODEL_EMPTY_REPLY', `the model sent an empty reply twice in a row (turn ${run.turns}): no answer and no tool call`);
      nudged = 'empty';
      await onEvent({ type: 'reply_note', text: 'empty reply: asked again' });
      messages.push({ role: 'user', content: NUDGE.empty });
      continue;
    }
    nudged = null;
    const message: AssistantMessage = { role: 'assistant', content: text, ...(calls.length ? { tool_calls: calls } : {}) };
    messages.push(message);
    if (text) await onEvent({ type: 'text', text });
    if (!calls.length) {
      run.answer = text;
      await onEvent({ type: 'done', turns: run.turns, answer: run.answer });
      return run;
    }
    for (const call of calls) {
      const name = call.function.name;
      toolNames.set(call.id, name);
      const key = callKey(name, call.function.arguments);
      const version = name === 'read' ? await fileVersion(cwd, call.function.arguments) : null;
      const repeat = repeats.get(key);
      if (repeat && repeat.count >= 2) {
        await onEvent({ type: 'tool_call', name, arguments: call.function.arguments, cached: true });
        return stop(
          'LOOP_DETECTED',
          `the model made the same call a third time with nothing changed since turn ${repeat.turn}: ${name} ${call.function.arguments.slice(0, 200)}`,
        );
      }
      const cachedRead = repeat ? undefined : version ? reads.get(`${key} ${version}`) : undefined;
      await onEvent({
        type: 'tool_call',
        name,
        arguments: call.function.arguments,
        cached: repeat !== undefined || cachedRead !== undefined,
      });
      run.toolCalls++;
      let content: string;
      let ok = true;
      if (repeat) {
        // The second identical call: a stub, not the whole result again.
        repeat.count++;
        run.cacheHits++;
        content = `[Same call as turn ${repeat.turn}, and nothing changed since: its result is the same and is not repeated here. Do something different, or answer; a third identical call ends the run.]`;
      } else if (cachedRead !== undefined) {
        run.cacheHits++;
        content = `[Unchanged since you read it; served from cache.]\n${cachedRead}`;
        repeats.set(key, { turn: run.turns, count: 1 });
      } else {
        const parsed = parseArguments(call.function.arguments);
        const args = parsed.ok ? parsed.value : {};
        const schema = schemas.find((s) => s.function.name === name);
        const recalled = name === 'recall' ? archive.get(String(args.id)) : undefined;
        // recall only reads this run's own archive: nothing for a contract to gate.
        const refusal = parsed.ok && name !== 'recall' && guards.gate ? await guards.gate(name, args) : null;
        const path = parsed.ok && EDITS_FILES.has(name) && typeof args.path === 'string' ? resolve(cwd, args.path) : null;
        if (path && !versions.has(path)) {
          const hash = await contentHash(path);
          versions.set(path, hash ? [{ hash, turn: 0 }] : []);
        }
        const result = !parsed.ok
          ? {
              ok: false,
              text: `Error: the arguments of ${name} are not a JSON object: ${parsed.reason}. Sent: ${call.function.arguments.slice(0, 200)}${schema ? `\nThe arguments ${name} takes: ${JSON.stringify(schema.function.parameters)}` : ''}`,
            }
          : refusal !== null
            ? { ok: false, text: refusal }
            : name === 'recall'
              ? recalled
                ? { ok: true, text: recalled.text }
                : {
                    ok: false,
                    text: `Error: no compressed result '${String(args.id)}' (ids: ${[...archive.keys()].join(', ') || 'none yet'})`,
                  }
              : await tools.run(name, args);
        ok = result.ok;
        content =
          parsed.ok && parsed.repaired
            ? `[The arguments were not valid JSON; read them as ${JSON.stringify(args).slice(0, 200)}.]\n${result.text}`
            : result.text;
        if (refusal !== null) run.refused++;
        if (ok && EDITS_FILES.has(name) && typeof args.path === 'string' && !run.files.includes(args.path)) run.files.push(args.path);
        if (ok && path) {
          const hash = await contentHash(path);
          const seen = versions.get(path)!;
          const earlier = hash ? seen.slice(0, -1).find((v) => v.hash === hash) : undefined;
          if (earlier) {
            if (++undone >= 2)
              return stop(
                'LOOP_DETECTED',
                `the model's edits keep undoing each other: '${String(args.path)}' went back to an earlier content again (turn ${run.turns})`,
              );
            content += `\n[This put '${String(args.path)}' back as it was ${earlier.turn ? `after turn ${earlier.turn}` : 'before the task'}: it undoes your own edit. Do not go back and forth; a second time ends the run.]`;
          }
          if (hash) seen.push({ hash, turn: run.turns });
        }
        // on_edit hooks follow the file tools that changed something (they refuse whole or land
        // whole); not bash, which mostly reads and would pay a type-check for every `ls`.
        if (ok && EDITS_FILES.has(name) && guards.afterChange) content += await guards.afterChange(name, args);
        // A call that may change files makes every earlier result possibly stale: a read after an
        // edit, or the tests after a fix, must run again. Only repeats with nothing in between count.
        if (MAY_CHANGE_FILES.has(name)) repeats.clear();
        repeats.set(key, { turn: run.turns, count: 1 });
        if (version && ok) reads.set(`${key} ${version}`, content);
      }
      await onEvent({ type: 'tool_result', name, ok, chars: content.length });
      messages.push({ role: 'tool', tool_call_id: call.id, content });
    }
  }
  run.exhausted = true;
  return run;
}
