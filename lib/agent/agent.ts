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
import { type Attachments, taskContent } from './attach';
import type { ModelConfig } from './config';
import { type PinnedText, enforceBudget, newBudgetState, RECALL_TOOL, replyTokens, requestTokens } from './context';
import { parseArguments, splitThinking, toolCallsInText, VisibleStream, type ParsedArguments } from './replies';
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
  /** A call about to go out, to `model` (a plan step's may differ from the run's: model_routes). */
  | { type: 'request'; turn: number; model: string }
  | { type: 'text'; text: string }
  /** Reasoning the model wrote (`<think>`): shown, never sent back. */
  | { type: 'thinking'; text: string }
  /** Something forge noticed about a reply: tool calls read from text, a reply cut off or empty. */
  | { type: 'reply_note'; text: string }
  | { type: 'tool_call'; name: string; arguments: string; cached: boolean }
  | { type: 'tool_result'; name: string; ok: boolean; chars: number }
  | { type: 'usage'; input: number; output: number; estimated: boolean }
  /** The request was brought under the budget: older results compressed, attached images left out. */
  | { type: 'compressed'; results: number; before: number; after: number; images?: number }
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

/** What the task attaches: pinned files (in the system prompt of every call) and images (with the task). */
export type TaskAttachments = Pick<Attachments, 'pinned' | 'images'>;

/** The system prompt: forge's, the conventions, the session's earlier turns, and the pinned files as they are now. */
async function systemPrompt({
  root,
  history,
  git,
  attachments,
}: {
  root: string;
  history?: string;
  git?: string | null;
  attachments?: TaskAttachments;
}): Promise<string> {
  const pinned = attachments ? await attachments.pinned.text() : '';
  return [SYSTEM_PROMPT, git ?? null, await conventions(root), history ?? null, pinned || null].filter(Boolean).join('\n\n');
}

/** The first request exactly as it would be sent: for --dry-run. */
export async function firstRequest({
  task,
  root,
  history,
  git,
  tools,
  attachments,
}: {
  task: string;
  root: string;
  history?: string;
  /** The repository's git state (lib/git/context.ts), capped: the preamble. */
  git?: string | null;
  tools: AgentTools;
  attachments?: TaskAttachments;
}): Promise<{ messages: ChatMessage[]; tools: ToolSchema[] }> {
  const messages: ChatMessage[] = [
    { role: 'system', content: await systemPrompt({ root, history, git, attachments }) },
    { role: 'user', content: taskContent(task, attachments?.images ?? []) },
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

/** What a run remembers between calls, to answer repeats and notice loops. */
interface RunMemory {
  // Reads by arguments and the file's size and mtime: a re-read of an unchanged file is not re-run,
  // even after edits elsewhere cleared the identical-call record.
  reads: Map<string, string>;
  // Calls since the last one that may have changed files: the turn each was first made and how often.
  repeats: Map<string, { turn: number; count: number }>;
  // Each edited file's contents this task, by hash: going back to one is undoing an edit.
  versions: Map<string, Array<{ hash: string; turn: number }>>;
  undone: number;
}

/** What every call of a run shares: where it runs, the tools and their schemas, compressed results for recall. */
interface CallScope {
  cwd: string;
  schemas: ToolSchema[];
  archive: Map<string, { text: string }>;
  tools: AgentTools;
  guards: ToolCallGuards;
  run: AgentRun;
  memory: RunMemory;
}

/** A call's result, or the reason the run must end. */
type CallOutcome = { content: string; ok: boolean } | { stop: AgentStop };

const newRun = (): AgentRun => ({
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
});

/** One model call: the request brought under budget, the reply streamed, its usage counted (estimated when the server sends none). */
async function callModel({
  config,
  messages,
  schemas,
  budget,
  budgetState,
  pinned,
  quick,
  retry,
  signal,
  run,
  onEvent,
  onDelta,
}: {
  config: ModelConfig;
  messages: ChatMessage[];
  schemas: ToolSchema[];
  budget: number;
  budgetState: ReturnType<typeof newBudgetState>;
  pinned: PinnedText | null;
  quick: boolean;
  retry: Partial<RetryPolicy> | undefined;
  signal: AbortSignal | undefined;
  run: AgentRun;
  onEvent: (e: AgentEvent) => Promise<void>;
  onDelta: ((text: string) => void) | undefined;
}): Promise<ChatResult> {
  const fit = await enforceBudget({ messages, tools: quick ? [] : schemas, budget, state: budgetState, pinned });
  run.uncachedTokens += fit.uncached;
  if (fit.after < fit.before) {
    run.compression.before += fit.before;
    run.compression.after += fit.after;
    await onEvent({
      type: 'compressed',
      results: fit.compressed + fit.shortened + fit.cut + fit.dropped,
      before: fit.before,
      after: fit.after,
      ...(fit.images ? { images: fit.images } : {}),
    });
  }
  await onEvent({ type: 'request', turn: run.turns, model: config.model.value });
  const shown = new VisibleStream();
  const live =
    onDelta &&
    ((piece: string) => {
      const visible = shown.feed(piece);
      if (visible) onDelta(visible);
    });
  // --quick: one call, no tools — an answer from what the prompt holds.
  const r = await chat({
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
  return r;
}

/** The reply's text and tool calls: calls an open model wrote as text are taken as calls; tagged ones that cannot be read are kept apart. */
async function readReply({
  r,
  quick,
  known,
  turn,
  onEvent,
}: {
  r: ChatResult;
  quick: boolean;
  known: ReadonlySet<string>;
  turn: number;
  onEvent: (e: AgentEvent) => Promise<void>;
}): Promise<{ text: string; calls: ToolCall[]; unreadable: string[] }> {
  const { visible, thinking } = splitThinking(r.message.content);
  if (thinking) await onEvent({ type: 'thinking', text: thinking });
  let text = visible;
  let calls: ToolCall[] = quick ? [] : (r.message.tool_calls ?? []);
  let unreadable: string[] = [];
  if (!quick && !calls.length && text) {
    const written = toolCallsInText(text, known);
    unreadable = written.unreadable;
    if (written.calls.length) {
      calls = written.calls.map((c, i) => ({ id: `text_${turn}_${i + 1}`, type: 'function', function: c }));
      text = written.rest;
      await onEvent({
        type: 'reply_note',
        text: `${calls.length} tool call${calls.length === 1 ? '' : 's'} written as text, run as calls`,
      });
    }
  }
  return { text, calls, unreadable };
}

type Nudge = 'empty' | 'cut' | 'unreadable';

/**
 * A reply that cannot be used — a tagged call that cannot be read, a reply cut by the length limit,
 * nothing at all: the first time the model is asked again (the note and messages to send), the
 * second time in a row the run ends. Null for a reply to act on.
 */
function unusableReply({
  r,
  text,
  calls,
  unreadable,
  nudged,
  known,
  turn,
}: {
  r: ChatResult;
  text: string;
  calls: ToolCall[];
  unreadable: string[];
  nudged: Nudge | null;
  known: ReadonlySet<string>;
  turn: number;
}): { stop: AgentStop } | { nudge: Nudge; note: string; messages: ChatMessage[] } | null {
  // A tagged call that cannot be read (cut short, no known tool) is neither run nor the answer.
  if (!calls.length && unreadable.length && r.finishReason !== 'length') {
    if (nudged === 'unreadable')
      return {
        stop: {
          code: 'MODEL_UNREADABLE_CALL',
          message: `the model's <tool_call> could not be read twice in a row (turn ${turn}); nothing of it ran`,
        },
      };
    const parsed = parseArguments(unreadable[0]!);
    const why = parsed.ok
      ? `it names no tool forge has (tools: ${[...known].join(', ')})`
      : `its JSON could not be read (${parsed.reason})`;
    return {
      nudge: 'unreadable',
      note: `a <tool_call> that could not be read (${why}): not run; asked again`,
      messages: [
        { role: 'assistant', content: text },
        { role: 'user', content: NUDGE.unreadable(why) },
      ],
    };
  }
  // A reply the length limit cut is not the model's answer, and its calls may be cut too: none runs.
  if (r.finishReason === 'length') {
    if (nudged === 'cut')
      return {
        stop: {
          code: 'MODEL_TRUNCATED',
          message: `the model's reply was cut off by the length limit twice in a row (turn ${turn}); nothing of it was used`,
        },
      };
    return {
      nudge: 'cut',
      note: 'reply cut off by the length limit: not used; asked again, shorter',
      messages: [...(text ? [{ role: 'assistant' as const, content: text }] : []), { role: 'user', content: NUDGE.cut }],
    };
  }
  // Nothing at all (what Ollama sends when it drops streamed tool calls): one nudge, then a failure.
  if (!calls.length && !text) {
    if (nudged === 'empty')
      return {
        stop: {
          code: 'MODEL_EMPTY_REPLY',
          message: `the model sent an empty reply twice in a row (turn ${turn}): no answer and no tool call`,
        },
      };
    return { nudge: 'empty', note: 'empty reply: asked again', messages: [{ role: 'user', content: NUDGE.empty }] };
  }
  return null;
}

/** A call run for the first time since nothing changed: its arguments read, the gate asked, the tool (or recall) run. */
async function runFresh({
  call,
  parsed,
  scope,
}: {
  call: ToolCall;
  parsed: ParsedArguments;
  scope: CallScope;
}): Promise<{ args: Record<string, unknown>; ok: boolean; content: string; refused: boolean }> {
  const name = call.function.name;
  if (!parsed.ok) {
    const schema = scope.schemas.find((s) => s.function.name === name);
    return {
      args: {},
      ok: false,
      refused: false,
      content: `Error: the arguments of ${name} are not a JSON object: ${parsed.reason}. Sent: ${call.function.arguments.slice(0, 200)}${schema ? `\nThe arguments ${name} takes: ${JSON.stringify(schema.function.parameters)}` : ''}`,
    };
  }
  const args = parsed.value;
  // recall only reads this run's own archive: nothing for a contract to gate.
  const refusal = name !== 'recall' && scope.guards.gate ? await scope.guards.gate(name, args) : null;
  if (refusal !== null) return { args, ok: false, refused: true, content: refusal };
  let result: { ok: boolean; text: string };
  if (name === 'recall') {
    const recalled = scope.archive.get(String(args.id));
    result = recalled
      ? { ok: true, text: recalled.text }
      : {
          ok: false,
          text: `Error: no compressed result '${String(args.id)}' (ids: ${[...scope.archive.keys()].join(', ') || 'none yet'})`,
        };
  } else result = await scope.tools.run(name, args);
  const content = parsed.repaired
    ? `[The arguments were not valid JSON; read them as ${JSON.stringify(args).slice(0, 200)}.]\n${result.text}`
    : result.text;
  return { args, ok: result.ok, refused: false, content };
}

/** After an edit landed: a note when it put the file back as it was earlier (undoing the model's own edit), or the end of the run the second time. */
async function noteUndo({ path, shown, scope }: { path: string; shown: string; scope: CallScope }): Promise<string | { stop: AgentStop }> {
  const { memory, run } = scope;
  const hash = await contentHash(path);
  const seen = memory.versions.get(path)!;
  const earlier = hash ? seen.slice(0, -1).find((v) => v.hash === hash) : undefined;
  if (hash) seen.push({ hash, turn: run.turns });
  if (!earlier) return '';
  if (++memory.undone >= 2)
    return {
      stop: {
        code: 'LOOP_DETECTED',
        message: `the model's edits keep undoing each other: '${shown}' went back to an earlier content again (turn ${run.turns})`,
      },
    };
  return `\n[This put '${shown}' back as it was ${earlier.turn ? `after turn ${earlier.turn}` : 'before the task'}: it undoes your own edit. Do not go back and forth; a second time ends the run.]`;
}

/**
 * One tool call: a third identical call with nothing changed ends the run; the second gets a stub; a
 * re-read of an unchanged file is served from cache; anything else runs (runFresh), then the files it
 * changed are noted, on_edit hooks run, and what may now be stale is forgotten.
 */
async function executeCall({
  call,
  scope,
  onEvent,
}: {
  call: ToolCall;
  scope: CallScope;
  onEvent: (e: AgentEvent) => Promise<void>;
}): Promise<CallOutcome> {
  const { run, memory, cwd, guards } = scope;
  const name = call.function.name;
  const key = callKey(name, call.function.arguments);
  const version = name === 'read' ? await fileVersion(cwd, call.function.arguments) : null;
  const repeat = memory.repeats.get(key);
  if (repeat && repeat.count >= 2) {
    await onEvent({ type: 'tool_call', name, arguments: call.function.arguments, cached: true });
    return {
      stop: {
        code: 'LOOP_DETECTED',
        message: `the model made the same call a third time with nothing changed since turn ${repeat.turn}: ${name} ${call.function.arguments.slice(0, 200)}`,
      },
    };
  }
  const cachedRead = repeat ? undefined : version ? memory.reads.get(`${key} ${version}`) : undefined;
  await onEvent({ type: 'tool_call', name, arguments: call.function.arguments, cached: repeat !== undefined || cachedRead !== undefined });
  run.toolCalls++;
  if (repeat) {
    // The second identical call: a stub, not the whole result again.
    repeat.count++;
    run.cacheHits++;
    return {
      ok: true,
      content: `[Same call as turn ${repeat.turn}, and nothing changed since: its result is the same and is not repeated here. Do something different, or answer; a third identical call ends the run.]`,
    };
  }
  if (cachedRead !== undefined) {
    run.cacheHits++;
    memory.repeats.set(key, { turn: run.turns, count: 1 });
    return { ok: true, content: `[Unchanged since you read it; served from cache.]\n${cachedRead}` };
  }
  const parsed = parseArguments(call.function.arguments);
  const named = parsed.ok && EDITS_FILES.has(name) && typeof parsed.value.path === 'string' ? parsed.value.path : null;
  const path = named === null ? null : resolve(cwd, named);
  if (path && !memory.versions.has(path)) {
    const hash = await contentHash(path);
    memory.versions.set(path, hash ? [{ hash, turn: 0 }] : []);
  }
  const fresh = await runFresh({ call, parsed, scope });
  let { content } = fresh;
  if (fresh.refused) run.refused++;
  if (fresh.ok && named !== null && !run.files.includes(named)) run.files.push(named);
  if (fresh.ok && path) {
    const note = await noteUndo({ path, shown: named!, scope });
    if (typeof note !== 'string') return note;
    content += note;
  }
  // on_edit hooks follow the file tools that changed something (they refuse whole or land
  // whole); not bash, which mostly reads and would pay a type-check for every `ls`.
  if (fresh.ok && EDITS_FILES.has(name) && guards.afterChange) content += await guards.afterChange(name, fresh.args);
  // A call that may change files makes every earlier result possibly stale: a read after an
  // edit, or the tests after a fix, must run again. Only repeats with nothing in between count.
  if (MAY_CHANGE_FILES.has(name)) memory.repeats.clear();
  memory.repeats.set(key, { turn: run.turns, count: 1 });
  if (version && fresh.ok) memory.reads.set(`${key} ${version}`, content);
  return { ok: fresh.ok, content };
}

/** The reply's calls in order, each result appended to the messages; the reason the run must end, or null. */
async function runCalls({
  calls,
  scope,
  messages,
  toolNames,
  onEvent,
}: {
  calls: ToolCall[];
  scope: CallScope;
  messages: ChatMessage[];
  toolNames: Map<string, string>;
  onEvent: (e: AgentEvent) => Promise<void>;
}): Promise<AgentStop | null> {
  for (const call of calls) {
    toolNames.set(call.id, call.function.name);
    const outcome = await executeCall({ call, scope, onEvent });
    if ('stop' in outcome) return outcome.stop;
    await onEvent({ type: 'tool_result', name: call.function.name, ok: outcome.ok, chars: outcome.content.length });
    messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.content });
  }
  return null;
}

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
  git,
  tools,
  guards = {},
  attachments,
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
  git?: string | null;
  /** forge's commands as tools (lib/cli/agent-tools.ts), with any MCP servers' merged in. */
  tools: AgentTools;
  guards?: ToolCallGuards;
  /** Files pinned to every call (read again when they change) and images sent with the task. */
  attachments?: TaskAttachments;
}): Promise<AgentRun> {
  const { messages, tools: schemas } = await firstRequest({ task, root, history, git, tools, attachments });
  const known = new Set(schemas.map((s) => s.function.name));
  const budgetState = newBudgetState();
  const run = newRun();
  const scope: CallScope = {
    cwd,
    schemas,
    archive: budgetState.archive,
    tools,
    guards,
    run,
    memory: { reads: new Map(), repeats: new Map(), versions: new Map(), undone: 0 },
  };
  const stop = (s: AgentStop): AgentRun => {
    run.stopped = s;
    return run;
  };
  let nudged: Nudge | null = null;
  while (run.turns < maxTurns) {
    run.turns++;
    // Pinned files as they are now: a file the task changed is sent as changed.
    if (attachments?.pinned.files.length && run.turns > 1)
      messages[0] = { role: 'system', content: await systemPrompt({ root, history, git, attachments }) };
    const pinned = (await attachments?.pinned.budgetText()) ?? null;
    const r = await callModel({ config, messages, schemas, budget, budgetState, pinned, quick, retry, signal, run, onEvent, onDelta });
    const { text, calls, unreadable } = await readReply({ r, quick, known, turn: run.turns, onEvent });
    const unusable = unusableReply({ r, text, calls, unreadable, nudged, known, turn: run.turns });
    if (unusable && 'stop' in unusable) return stop(unusable.stop);
    if (unusable) {
      nudged = unusable.nudge;
      await onEvent({ type: 'reply_note', text: unusable.note });
      messages.push(...unusable.messages);
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
    const stopped = await runCalls({ calls, scope, messages, toolNames: budgetState.toolNames, onEvent });
    if (stopped) return stop(stopped);
  }
  run.exhausted = true;
  return run;
}
