// The agent loop: the model proposes tool calls, forge's own commands run them, until the model answers.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
import { type CallScope, runCalls } from './execute';
import { parseArguments, splitThinking, toolCallsInText, VisibleStream } from './replies';
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
