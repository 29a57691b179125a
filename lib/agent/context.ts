// The token budget over the real request — messages with their framing, and the tool schemas — kept before every model call, prefix-stable where it can be.
import { InvalidInputError } from '../errors';
import { shellQuote } from '../quote';
import type { AssistantMessage, ChatMessage, ToolSchema } from './chat';

export interface Compressed {
  id: string;
  tool: string;
  text: string;
}

/** What the budget counts of a request: everything sent but the model name and stream options. */
export interface ChatRequest {
  messages: readonly ChatMessage[];
  tools?: readonly ToolSchema[];
}

type Count = (text: string) => number;

async function tokenizer(): Promise<Count> {
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
  return countTokens;
}

/** The request as the budget counts it: messages and tool schemas as JSON, the way bench/agent.ts counts the recorded bodies. */
function wireText({ messages, tools }: ChatRequest): string {
  return JSON.stringify({ messages, tools: tools?.length ? tools : undefined });
}

/** Tokens of the request as sent (o200k_base: close enough for every modern model, and JSON framing counts more than any chat template adds). */
export async function requestTokens(request: ChatRequest): Promise<number> {
  return (await tokenizer())(wireText(request));
}

/**
 * The request in the order a server reads it — tool schemas first, where chat templates put them,
 * then the messages — so that a common prefix with the previous request is what a prefix cache
 * (Ollama's KV cache, hosted prompt caching) can reuse.
 */
export function prefixText({ messages, tools }: ChatRequest): string {
  return JSON.stringify({ tools: tools ?? [], messages });
}

/** Tokens of `current` after its longest common prefix with `previous` (both from prefixText); all of it when there is no previous request. */
export function uncachedTokens(previous: string | null, current: string, count: Count): number {
  if (previous === null) return count(current);
  const n = Math.min(previous.length, current.length);
  let at = 0;
  while (at < n && previous.charCodeAt(at) === current.charCodeAt(at)) at++;
  return at === current.length ? 0 : count(current.slice(at));
}

/** Tokens of a reply, counted locally when the server reports no usage. */
export async function replyTokens(message: AssistantMessage): Promise<number> {
  const count = await tokenizer();
  return count(message.content ?? '') + (message.tool_calls ? count(JSON.stringify(message.tool_calls)) : 0);
}

/**
 * Once compression is needed, it goes down to this share of the budget: the next calls then only
 * append, and the prefix a cache holds stays valid until the budget is reached again — instead of
 * one more result rewritten (and the cache from there on lost) at every call.
 */
export const LOW_WATER = 0.75;
/** Argument values and texts of earlier calls longer than this are shortened before turns are dropped. */
const LONG_VALUE = 200;

export interface BudgetState {
  archive: Map<string, Compressed>;
  /** Tool call id → tool name, for the stubs. */
  toolNames: Map<string, string>;
  /** The previous request's prefixText, for uncached tokens. */
  previous: string | null;
  /** The system prompt, task and schemas as last counted: the same every turn of a run, so counted once. */
  fixed: { text: string; tokens: number } | null;
}

export function newBudgetState(): BudgetState {
  return { archive: new Map(), toolNames: new Map(), previous: null, fixed: null };
}

export interface Fit {
  /** Request tokens before and after fitting. */
  before: number;
  after: number;
  /** Older tool results replaced by stubs. */
  compressed: number;
  /** Long arguments or texts of earlier calls shortened. */
  shortened: number;
  /** Results of the latest calls cut to fit. */
  cut: number;
  /** Oldest turns dropped whole. */
  dropped: number;
  /** Tokens after the common prefix with the previous request. */
  uncached: number;
}

/**
 * Brings the whole request — messages, their framing and the tool schemas — under `budget` tokens,
 * never touching the system prompt or the task. In order, each only while still over:
 * 1. older tool results become one-line stubs, oldest first, down to LOW_WATER of the budget (in one
 *    block, so the following calls append to an unchanged prefix); each stub names an id the
 *    `recall` tool returns the full text for;
 * 2. long argument values and texts of earlier assistant messages are shortened;
 * 3. the latest results (the model has not seen them yet) are cut, with a note saying so;
 * 4. the oldest turns are dropped whole.
 * When the system prompt, task and schemas alone do not fit, or nothing more can go, it fails with
 * BUDGET_TOO_SMALL rather than send a request larger than the budget. `messages` is changed in place.
 */
export async function enforceBudget({
  messages,
  tools,
  budget,
  state,
}: {
  messages: ChatMessage[];
  tools: readonly ToolSchema[];
  budget: number;
  state: BudgetState;
}): Promise<Fit> {
  const count = await tokenizer();
  const before = count(wireText({ messages, tools }));
  const fit: Fit = { before, after: before, compressed: 0, shortened: 0, cut: 0, dropped: 0, uncached: 0 };
  const task = messages[1]?.content ?? '';
  const fixedText = wireText({ messages: messages.slice(0, 2), tools });
  if (state.fixed?.text !== fixedText) state.fixed = { text: fixedText, tokens: count(fixedText) };
  const fixed = state.fixed.tokens;
  if (fixed > budget)
    throw budgetTooSmall({ budget, needed: fixed, task, what: 'the system prompt, the task and the tool schemas alone are' });
  if (before > budget) {
    // Per-message costs (JSON plus the comma between them) are summed as an estimate; the
    // exact count of the whole request then decides, and any overshoot is taken off the limit.
    let limit = budget;
    for (;;) {
      fitUnder({ messages, tools, limit, lowWater: Math.floor(limit * LOW_WATER), state, count, fit });
      fit.after = count(wireText({ messages, tools }));
      if (fit.after <= budget) break;
      const next = limit - (fit.after - budget);
      if (next <= fixed) throw budgetTooSmall({ budget, needed: fit.after, task, what: 'the latest turn does not fit: the request is' });
      limit = next;
    }
  }
  const text = prefixText({ messages, tools });
  fit.uncached = uncachedTokens(state.previous, text, count);
  state.previous = text;
  return fit;
}

function fitUnder({
  messages,
  tools,
  limit,
  lowWater,
  state,
  count,
  fit,
}: {
  messages: ChatMessage[];
  tools: readonly ToolSchema[];
  limit: number;
  lowWater: number;
  state: BudgetState;
  count: Count;
  fit: Fit;
}): void {
  const cost = (m: ChatMessage) => count(JSON.stringify(m)) + 1;
  const costs = messages.map(cost);
  let total = count(wireText({ messages: [], tools })) + costs.reduce((a, b) => a + b, 0);
  const replace = (i: number, m: ChatMessage) => {
    messages[i] = m;
    const c = cost(m);
    total += c - costs[i]!;
    costs[i] = c;
  };
  // The latest turn: the tool results after the last assistant message, which the model has not seen.
  const latest = () => messages.map((m) => m.role).lastIndexOf('assistant');
  // 1. Stubs for older results, in one block down to the low-water mark.
  if (total > limit) {
    for (let i = 2; i < latest() && total > lowWater; i++) {
      const m = messages[i]!;
      if (m.role !== 'tool' || isStub(m.content)) continue;
      const id = `r${state.archive.size + 1}`;
      const tool = state.toolNames.get(m.tool_call_id) ?? 'tool';
      state.archive.set(id, { id, tool, text: m.content });
      const firstLine = m.content.split('\n')[0]!.slice(0, 120);
      replace(i, {
        ...m,
        content: `[compressed ${tool} result, ${m.content.length} chars: "${firstLine}" — recall {"id":"${id}"} returns it whole]`,
      });
      fit.compressed++;
    }
  }
  // 2. Long arguments and texts of assistant messages, oldest first (the latest one's call has run).
  for (let i = 2; i < messages.length && total > limit; i++) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    const shorter = shortenAssistant(m);
    if (shorter) {
      replace(i, shorter);
      fit.shortened++;
    }
  }
  // 3. The latest results, largest first, cut to what is left.
  const from = latest() + 1;
  const order = messages
    .map((_, i) => i)
    .filter((i) => i >= from && messages[i]!.role === 'tool')
    .sort((a, b) => costs[b]! - costs[a]!);
  for (const i of order) {
    if (total <= limit) break;
    const m = messages[i] as Extract<ChatMessage, { role: 'tool' }>;
    const cut = cutToTokens(m.content, count(m.content) - (total - limit), count);
    if (cut === m.content) continue;
    replace(i, { ...m, content: cut });
    fit.cut++;
  }
  // 4. The oldest turns, whole: an assistant message with its results (never the latest turn).
  while (total > limit) {
    let end = 3;
    while (end < messages.length && messages[end]!.role === 'tool') end++;
    if (end > latest()) break;
    const gone = messages.splice(2, end - 2);
    total -= costs.splice(2, end - 2).reduce((a, b) => a + b, 0);
    fit.dropped += gone.filter((m) => m.role === 'assistant').length;
  }
}

function isStub(text: string): boolean {
  return text.startsWith('[compressed ');
}

/** The message with long string values in its call arguments and a long text shortened; null when nothing is long. */
function shortenAssistant(m: AssistantMessage): AssistantMessage | null {
  let changed = false;
  const short = (s: string) => {
    if (s.length <= LONG_VALUE) return s;
    changed = true;
    return `${s.slice(0, 80)}… [${s.length} chars, shortened to fit the token budget]`;
  };
  const calls = m.tool_calls?.map((c) => {
    let args: unknown;
    try {
      args = JSON.parse(c.function.arguments);
    } catch {
      // Not JSON: shortened as text, kept a valid JSON object for servers that parse it.
      return c.function.arguments.length > LONG_VALUE
        ? { ...c, function: { ...c.function, arguments: JSON.stringify({ arguments: short(c.function.arguments) }) } }
        : c;
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return c;
    const shortened = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, typeof v === 'string' ? short(v) : v]));
    return { ...c, function: { ...c.function, arguments: JSON.stringify(shortened) } };
  });
  const content = m.content === null ? null : short(m.content);
  return changed ? { ...m, content, ...(calls ? { tool_calls: calls } : {}) } : null;
}

/** The text's head within about `tokens` tokens, with a note that it was cut; the text itself when it fits. */
function cutToTokens(text: string, tokens: number, count: Count): string {
  const total = count(text);
  if (total <= tokens) return text;
  const note = (shown: number) => `\n[cut to fit the token budget: the first ${shown} of ${text.length} chars; ask for a narrower part]`;
  let chars = Math.max(0, Math.floor((text.length * Math.max(0, tokens)) / total));
  while (chars > 0 && count(text.slice(0, chars) + note(chars)) > tokens) chars = Math.floor(chars * 0.8);
  return text.slice(0, chars) + note(chars);
}

/** The budget to suggest: what was needed, with room for a few turns, rounded up to 500. */
function budgetTooSmall({ budget, needed, task, what }: { budget: number; needed: number; task: string; what: string }): InvalidInputError {
  const suggested = Math.ceil((needed + 1500) / 500) * 500;
  return new InvalidInputError('BUDGET_TOO_SMALL', `a token budget of ${budget} cannot hold the request: ${what} ${needed} tokens`, {
    fix: task.trim() ? `forge agent --budget ${suggested} ${shellQuote(task)}` : 'forge agent --help',
    data: { budget, needed, suggested },
  });
}

export const RECALL_TOOL = {
  type: 'function' as const,
  function: {
    name: 'recall',
    description: 'The full text of a compressed tool result',
    parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  },
};

/** The budget when neither --budget nor a small context says otherwise. */
export const DEFAULT_BUDGET = 12000;

/** A model's context as forge learned it, said so that a person can raise it. */
export interface ModelContext {
  tokens: number;
  /** Where the figure comes from, as a clause: "Ollama gives model 'x' 4096 tokens of context by default…". */
  what: string;
  /** The command or setting that raises it to `tokens`; null when nothing forge knows can. */
  raise: ((tokens: number) => string) | null;
}

/** Tokens of the context kept for the model's reply: a quarter, at most 4096. */
export function replyRoom(context: number): number {
  return Math.min(4096, Math.ceil(context / 4));
}

/**
 * The budget for a run: --budget when given, else DEFAULT_BUDGET lowered to fit the model's
 * context with room for the reply. A given budget that cannot fit gets a warning saying how to
 * raise the context (or which budget fits); it is kept, since the user asked for it.
 */
export function chooseBudget({ flag, context }: { flag: number | undefined; context: ModelContext | null }): {
  budget: number;
  warning: string | null;
} {
  const fits = context ? context.tokens - replyRoom(context.tokens) : Infinity;
  if (flag === undefined) return { budget: Math.min(DEFAULT_BUDGET, fits), warning: null };
  if (!context || flag <= fits) return { budget: flag, warning: null };
  // The next power of two that holds the budget and the reply.
  const needed = 2 ** Math.ceil(Math.log2(flag + replyRoom(flag * 1.34)));
  const raise = context.raise ? `raise it with ${context.raise(needed)}, or ` : '';
  return {
    budget: flag,
    warning: `--budget ${flag} does not fit: ${context.what}; with room for the reply, requests can hold ${fits}; ${raise}pass --budget ${fits}`,
  };
}
