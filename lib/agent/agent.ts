// The agent loop: the model proposes tool calls, forge's own commands run them, until the model answers.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chat, type RetryPolicy } from './chat';
import type { AssistantMessage, ChatMessage, ChatResult, ToolCall, ToolSchema, Usage } from './chat-types';
import { type Attachments, taskContent } from './attach';
import type { ModelConfig } from './config-types';
import {
  contextFor,
  enforceBudget,
  type ModelContext,
  newBudgetState,
  type PinnedText,
  RECALL_TOOL,
  raiseContext,
  replyTokens,
  requestTokens,
} from './context';
import { callsInText, toolName } from './dialects';
import { type CallScope, runCalls } from './execute';
import { asksForChange, pastedEdits, saysNothingNeeded } from './outcome';
import { parseArguments, splitThinking, VisibleStream } from './replies';
import { type AgentEvent, type AgentRun, type AgentStop, newRun, type ToolCallGuards } from './run-state';
import type { AgentTools } from './tools';

export type { AgentEvent, AgentRun, AgentStop, ToolCallGuards } from './run-state';

export const SYSTEM_PROMPT = `You are forge, a coding agent in a git repository. Read before you edit, keep edits small, run the tests after a change. Tool results end with a hint (Next: …). When done, reply with a short summary and no tool call.`;

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

const NUDGE = {
  empty: 'Your reply was empty. Call a tool, or if the task is done answer with a short summary.',
  unchanged:
    'No file has changed, but the task asks for a change. Make it now with the tools (edit, write, patch) — an edit shown in your answer is not applied — or, if nothing needs to change, say so and why.',
  cut: 'Your reply was cut off by the length limit and was not used (no tool call in it ran). Send it again, shorter: one tool call, or a brief answer.',
  unreadable: (why: string) =>
    `Your <tool_call> could not be read, so nothing ran: ${why}. Send the call again as one JSON object {"name": …, "arguments": {…}} naming one of the tools.`,
};

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
}): Promise<ChatResult & { sent: number }> {
  const fit = await enforceBudget({ messages, tools: quick ? [] : schemas, budget, state: budgetState, pinned });
  run.uncachedTokens += fit.uncached;
  if (fit.after < fit.before) {
    run.compression.before += fit.before;
    run.compression.after += fit.after;
    await onEvent({
      type: 'compressed',
      results: fit.compressed + fit.shortened + fit.cut + fit.dropped,
      compressed: fit.compressed,
      shortened: fit.shortened,
      cut: fit.cut,
      dropped: fit.dropped,
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
  return { ...r, sent: fit.after };
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
  const reasoning = [thinking, r.reasoning?.trim() ?? ''].filter(Boolean).join('\n');
  if (reasoning) await onEvent({ type: 'thinking', text: reasoning });
  const notes: string[] = [];
  let text = visible;
  let calls: ToolCall[] = quick ? [] : namedCalls(r.message.tool_calls ?? [], known, notes);
  let unreadable: string[] = [];
  // Calls written as text in the answer; else in the reasoning, where some models put their only call.
  for (const [where, source] of quick || calls.length
    ? []
    : ([
        ['the answer', text],
        ['the reasoning', reasoning],
      ] as const)) {
    if (!source) continue;
    const written = callsInText(source, known);
    if (where === 'the answer') unreadable = written.unreadable;
    if (!written.calls.length) continue;
    calls = written.calls.map((c, i) => ({ id: `text_${turn}_${i + 1}`, type: 'function', function: c }));
    if (where === 'the answer') text = written.rest;
    const n = calls.length;
    notes.push(
      `${n} tool call${n === 1 ? '' : 's'} written as text in ${where} (${written.dialects.join(', ')}), run as call${n === 1 ? '' : 's'}`,
    );
    unreadable = [];
    break;
  }
  // An answer sent only as reasoning (Gemma through Ollama's /v1): that text is the answer.
  if (!quick && !calls.length && !text && !unreadable.length && r.reasoning?.trim()) {
    text = r.reasoning.trim();
    notes.push('the reply came only in the reasoning field: taken as the answer');
  }
  for (const note of notes) await onEvent({ type: 'reply_note', text: note });
  return { text, calls, unreadable };
}

/**
 * A server that counted far fewer prompt tokens than were sent cut the conversation to fit its
 * context (Ollama does so without a word, dropping the start: the system prompt and the task), so
 * the model answered something else. Counts differ by tokenizer: far fewer, and exactly a context
 * size, is truncation; so is a count that fills the context forge learned, whatever forge counted
 * (the model's tokenizer can count more than o200k does).
 */
function silentTruncation(r: ChatResult & { sent: number }, context: ModelContext | null): AgentStop | null {
  const counted = r.usage?.promptTokens;
  if (!counted || r.sent < 1024) return null;
  // Ollama keeps exactly its context when it cuts (its log: "truncating input prompt limit=4096 prompt=7268 keep=4 new=4096").
  const filled = context !== null && counted >= context.tokens;
  // A count that is no context size (num_ctx: 2048, 4096, 8192…) is a tokenizer's difference.
  if (!filled && (counted % 256 !== 0 || counted >= r.sent * 0.85)) return null;
  const budget = Math.floor(Math.min(counted, r.sent) * 0.75);
  return {
    code: 'MODEL_CONTEXT_TRUNCATED',
    message: `the server counted ${counted} prompt tokens of the ~${r.sent} sent: it cut the start of the conversation to fit its context (${counted} tokens?), so the model never saw the task whole; ${raiseContext(context, contextFor(Math.max(r.sent, counted + 1)))}, or give forge a --budget of ${budget}`,
    budget,
  };
}

/**
 * A reply with no call is the answer, unless it pastes an edit still to make — run through the patch
 * tool, whose checks decide — or the task asks for a change, no file changed and the model does not
 * say why none was needed: asked once, then TASK_NOT_DONE.
 */
async function answerOrAction({
  text,
  task,
  turn,
  known,
  tools,
  changedNothing,
  nudged,
}: {
  text: string;
  task: string;
  turn: number;
  known: ReadonlySet<string>;
  tools: AgentTools;
  changedNothing: (() => Promise<boolean>) | undefined;
  nudged: Nudge | null;
}): Promise<{ stop: AgentStop } | { nudge: string; note: string } | { calls: ToolCall[]; note: string } | { answer: true }> {
  if (pastedEdits(text) && !(await tools.applied?.(text))) {
    if (!known.has('patch'))
      return {
        stop: {
          code: 'TASK_NOT_DONE',
          message: `the model's answer pastes an edit (turn ${turn}) and no patch tool is offered to apply it`,
        },
      };
    const call: ToolCall = {
      id: `pasted_${turn}`,
      type: 'function',
      function: { name: 'patch', arguments: JSON.stringify({ diff: text }) },
    };
    return { calls: [call], note: 'the answer pastes an edit that is not in the files: run through patch' };
  }
  if (!changedNothing || !asksForChange(task) || saysNothingNeeded(text) || !(await changedNothing())) return { answer: true };
  const said = text.replace(/\s+/g, ' ').slice(0, 160);
  // A question back is the model asking the person first: the task waits for their answer (--continue).
  if (/\?\s*$/.test(text))
    return { stop: { code: 'TASK_NOT_DONE', message: `the model asks before making the change (turn ${turn}): "${said}"` } };
  if (nudged === 'unchanged')
    return {
      stop: {
        code: 'TASK_NOT_DONE',
        message: `the task asks for a change, no file changed, and the model answered twice without saying why none is needed (turn ${turn}): "${said}"`,
      },
    };
  return {
    nudge: NUDGE.unchanged,
    note: 'the task asks for a change and no file changed: asked to make it, or say why none is needed',
  };
}

/** Native calls whose name carries a prefix or a control token (`functions.edit`, `edit<|call|>`) named as the tool they mean. */
function namedCalls(calls: ToolCall[], known: ReadonlySet<string>, notes: string[]): ToolCall[] {
  return calls.map((c) => {
    if (known.has(c.function.name)) return c;
    const name = toolName(c.function.name);
    if (!known.has(name)) return c;
    notes.push(`tool name '${c.function.name}' read as ${name}`);
    return { ...c, function: { ...c.function, name } };
  });
}

type Nudge = 'empty' | 'cut' | 'unreadable' | 'unchanged';

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
  modelContext = null,
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
  changedNothing,
}: {
  config: ModelConfig;
  task: string;
  root: string;
  cwd: string;
  maxTurns: number;
  budget: number;
  /** The model's context as forge learned it: a truncation's remedy names its own setting. */
  modelContext?: ModelContext | null;
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
  /** Whether the work tree is as it was when the task began: a task that asks for a change is not done by an answer alone. */
  changedNothing?: () => Promise<boolean>;
}): Promise<AgentRun> {
  const { messages, tools: schemas } = await firstRequest({ task, root, history, git, tools, attachments });
  const known = new Set(schemas.map((s) => s.function.name));
  const budgetState = newBudgetState();
  const run = newRun();
  const scope: CallScope = {
    messages,
    cwd,
    schemas,
    archive: budgetState.archive,
    tools,
    guards,
    run,
    memory: { reads: new Map(), repeats: new Map(), versions: new Map(), undone: 0, recent: [], near: 0, readsOf: new Map() },
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
    const truncated = silentTruncation(r, modelContext);
    if (truncated) return stop(truncated);
    const { text, calls: written, unreadable } = await readReply({ r, quick, known, turn: run.turns, onEvent });
    let calls = written;
    const unusable = unusableReply({ r, text, calls, unreadable, nudged, known, turn: run.turns });
    if (unusable && 'stop' in unusable) return stop(unusable.stop);
    if (unusable) {
      nudged = unusable.nudge;
      await onEvent({ type: 'reply_note', text: unusable.note });
      messages.push(...unusable.messages);
      continue;
    }
    const nudgedBefore = nudged;
    nudged = null;
    const message: AssistantMessage = { role: 'assistant', content: text, ...(calls.length ? { tool_calls: calls } : {}) };
    messages.push(message);
    if (text) await onEvent({ type: 'text', text });
    if (!calls.length && !quick) {
      const next = await answerOrAction({ text, task, turn: run.turns, known, tools, changedNothing, nudged: nudgedBefore });
      if ('stop' in next) {
        // What the model said is kept: a session goes on from it (--continue).
        run.answer = text;
        return stop(next.stop);
      }
      if ('nudge' in next) {
        nudged = 'unchanged';
        await onEvent({ type: 'reply_note', text: next.note });
        messages.push({ role: 'user', content: next.nudge });
        continue;
      }
      if ('calls' in next) {
        calls = next.calls;
        message.tool_calls = calls;
        await onEvent({ type: 'reply_note', text: next.note });
      }
    }
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
