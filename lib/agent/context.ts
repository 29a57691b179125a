// The token budget over the real request — messages with their framing, and the tool schemas — kept before every model call, prefix-stable where it can be.
import { InvalidInputError } from '../errors';
import { shellQuote } from '../quote';
import type { AssistantMessage, ChatMessage, ContentPart, ToolSchema } from './chat-types';

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

/** o200k_base, loaded on first use (its tables are a vendor bundle of their own). */
export async function tokenizer(): Promise<Count> {
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
  return countTokens;
}

/**
 * Tokens an attached image (--image) is counted as, whatever its size: about what a vision model
 * takes for one (OpenAI's high detail is 85 + 170 per 512-pixel tile; local models ~600–1500),
 * not its base64, which no model reads as text.
 */
export const IMAGE_TOKENS = 1000;

const IMAGE_STAND_IN: ContentPart = { type: 'image_url', image_url: { url: 'image' } };

const imagesIn = (m: ChatMessage): number =>
  m.role === 'user' && Array.isArray(m.content) ? m.content.filter((p) => p.type === 'image_url').length : 0;

/** The message with each image's data URL replaced by a stand-in: the image is counted as IMAGE_TOKENS instead. */
function countable(m: ChatMessage): ChatMessage {
  return imagesIn(m) && m.role === 'user' && Array.isArray(m.content)
    ? { ...m, content: m.content.map((p) => (p.type === 'image_url' ? IMAGE_STAND_IN : p)) }
    : m;
}

/** The text of a message's content, images left out. */
export function textOf(content: string | ContentPart[] | null | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}

/** The request as the budget counts it: messages and tool schemas as JSON, the way bench/agent.ts counts the recorded bodies (images as stand-ins). */
function wireText({ messages, tools }: ChatRequest): string {
  return JSON.stringify({ messages: messages.map(countable), tools: tools?.length ? tools : undefined });
}

/** Tokens of a request: its wire text and IMAGE_TOKENS per image. */
function measure(request: ChatRequest, count: Count): number {
  return count(wireText(request)) + request.messages.reduce((n, m) => n + imagesIn(m), 0) * IMAGE_TOKENS;
}

/** Tokens of the request as sent (o200k_base: close enough for every modern model, and JSON framing counts more than any chat template adds). */
export async function requestTokens(request: ChatRequest): Promise<number> {
  return measure(request, await tokenizer());
}

/**
 * The request in the order a server reads it — tool schemas first, where chat templates put them,
 * then the messages — so that a common prefix with the previous request is what a prefix cache
 * (Ollama's KV cache, hosted prompt caching) can reuse.
 */
export function prefixText({ messages, tools }: ChatRequest): string {
  return JSON.stringify({ tools: tools ?? [], messages: messages.map(countable) });
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
  /** Attached images left out (first of all, oldest first). */
  images: number;
  /** Tokens after the common prefix with the previous request. */
  uncached: number;
}

/** Pinned files (--attach) as the system prompt holds them, for a budget that cannot hold them to say so. */
export interface PinnedText {
  text: string;
  paths: readonly string[];
  /** The flags that pin them again, for the fix's command (--attach a.ts …). */
  flags: readonly string[];
}

/**
 * Leaves out attached images, oldest first, while the request is over `budget`: an image costs
 * IMAGE_TOKENS, so it goes before any text. Returns how many went.
 */
function evictImages({ messages, over }: { messages: ChatMessage[]; over: () => boolean }): number {
  let gone = 0;
  for (const [i, m] of messages.entries()) {
    if (m.role !== 'user' || !Array.isArray(m.content)) continue;
    const parts = [...m.content];
    for (const [j, p] of parts.entries()) {
      if (!over()) return gone;
      if (p.type !== 'image_url') continue;
      parts[j] = { type: 'text', text: '[an attached image was left out to fit the token budget]' };
      messages[i] = { role: 'user', content: [...parts] };
      gone++;
    }
  }
  return gone;
}

/**
 * Brings the whole request — messages, their framing and the tool schemas — under `budget` tokens,
 * never touching the system prompt (with its pinned files) or the task's text. Attached images go
 * first, oldest first; then, in order, each only while still over:
 * 1. older tool results become one-line stubs, oldest first, down to LOW_WATER of the budget (in one
 *    block, so the following calls append to an unchanged prefix); each stub names an id the
 *    `recall` tool returns the full text for;
 * 2. long argument values and texts of earlier assistant messages are shortened;
 * 3. the oldest turns are dropped whole, never the latest, when cutting the latest results would
 *    leave them less than half the room the system prompt, task and schemas leave: down to
 *    LOW_WATER, in one block;
 * 4. the latest results (the model has not seen them yet) are cut, with a note saying so.
 * When the system prompt, task and schemas alone do not fit, or nothing more can go, it fails with
 * BUDGET_TOO_SMALL rather than send a request larger than the budget. `messages` is changed in place.
 */
export async function enforceBudget({
  messages,
  tools,
  budget,
  state,
  pinned = null,
}: {
  messages: ChatMessage[];
  tools: readonly ToolSchema[];
  budget: number;
  state: BudgetState;
  pinned?: PinnedText | null;
}): Promise<Fit> {
  const count = await tokenizer();
  const before = measure({ messages, tools }, count);
  const fit: Fit = { before, after: before, compressed: 0, shortened: 0, cut: 0, dropped: 0, images: 0, uncached: 0 };
  if (before > budget) fit.images = evictImages({ messages, over: () => measure({ messages, tools }, count) > budget });
  const task = textOf(messages[1]?.content);
  const flags = pinned?.flags ?? [];
  const fixedText = wireText({ messages: messages.slice(0, 2), tools });
  if (state.fixed?.text !== fixedText) state.fixed = { text: fixedText, tokens: measure({ messages: messages.slice(0, 2), tools }, count) };
  const fixed = state.fixed.tokens;
  if (fixed > budget) throw fixedTooLarge({ budget, fixed, task, pinned, count });
  if (measure({ messages, tools }, count) > budget) {
    // Per-message costs (JSON plus the comma between them) are summed as an estimate; the
    // exact count of the whole request then decides, and any overshoot is taken off the limit.
    let limit = budget;
    for (;;) {
      fitUnder({ messages, tools, limit, lowWater: Math.floor(limit * LOW_WATER), state, count, fit });
      fit.after = measure({ messages, tools }, count);
      if (fit.after <= budget) break;
      const next = limit - (fit.after - budget);
      if (next <= fixed)
        throw budgetTooSmall({ budget, needed: fit.after, task, flags, what: 'the latest turn does not fit: the request is' });
      limit = next;
    }
  } else fit.after = measure({ messages, tools }, count);
  const text = prefixText({ messages, tools });
  const images = messages.reduce((n, m) => n + imagesIn(m), 0);
  fit.uncached = uncachedTokens(state.previous, text, count) + (state.previous === null ? images * IMAGE_TOKENS : 0);
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
  const cost = (m: ChatMessage) => count(JSON.stringify(countable(m))) + imagesIn(m) * IMAGE_TOKENS + 1;
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
      // A result already cut to fit was archived as cut: recall gives back what was shown, and says so.
      const whole = wasCut(m.content) ? 'returns the part that was shown' : 'returns it whole';
      replace(i, {
        ...m,
        content: `[compressed ${tool} result, ${m.content.length} chars: "${firstLine}" — recall {"id":"${id}"} ${whole}]`,
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
  // 3. The oldest turns, whole, never the latest, when cutting the latest results would leave them
  // less than half the room beside the fixed part (what the model just asked for comes first):
  // then down to the low-water mark, in one block, so the next calls append.
  const fixedCost = total - costs.slice(2).reduce((a, b) => a + b, 0);
  const latestCost = costs.slice(latest()).reduce((a, b) => a + b, 0);
  const share = Math.min(latestCost, Math.floor((limit - fixedCost) / 2));
  const needs = () => total - (latestCost - share);
  const drop = needs() > limit;
  while (drop && needs() > lowWater) {
    let end = 3;
    while (end < messages.length && messages[end]!.role === 'tool') end++;
    if (end > latest()) break;
    const gone = messages.splice(2, end - 2);
    total -= costs.splice(2, end - 2).reduce((a, b) => a + b, 0);
    fit.dropped += gone.filter((m) => m.role === 'assistant').length;
  }
  // 4. The latest results, largest first, cut to what is left.
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
}

/** A result replaced by a one-line stub: by the budget (recall gives it back) or as stale (staleStub). */
export function isStub(text: string): boolean {
  return text.startsWith('[compressed ') || text.startsWith('[stale ');
}

/** What stands for a read of `path` once `change` (a tool and its turn) changed the file: short, as every later request carries it. */
export function staleStub(path: string, change: string): string {
  return `[stale read of ${path}: changed by the ${change}; read it again for more than that result shows]`;
}

/** How a result cut to fit the budget ends. */
const CUT_MARK = '\n[cut to fit the token budget';

/** A result cut to fit the budget: what is left is part of it. */
export function wasCut(text: string): boolean {
  return text.includes(CUT_MARK);
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
  const note = (shown: number) => `${CUT_MARK}: the first ${shown} of ${text.length} chars; ask for a narrower part]`;
  let chars = Math.max(0, Math.floor((text.length * Math.max(0, tokens)) / total));
  while (chars > 0 && count(text.slice(0, chars) + note(chars)) > tokens) chars = Math.floor(chars * 0.8);
  return text.slice(0, chars) + note(chars);
}

/** The system prompt, pinned files, task and schemas over the budget: said of the pinned files when they alone are. */
function fixedTooLarge({
  budget,
  fixed,
  task,
  pinned,
  count,
}: {
  budget: number;
  fixed: number;
  task: string;
  pinned: PinnedText | null;
  count: Count;
}): InvalidInputError {
  const flags = pinned?.flags ?? [];
  if (!pinned?.paths.length)
    return budgetTooSmall({ budget, needed: fixed, task, flags, what: 'the system prompt, the task and the tool schemas alone are' });
  const tokens = count(pinned.text);
  const one = pinned.paths.length === 1;
  const files = `${one ? 'file' : 'files'} (${pinned.paths.join(', ')})`;
  return tokens > budget
    ? budgetTooSmall({
        budget,
        needed: fixed,
        task,
        flags,
        pinned: tokens,
        what: `the pinned ${files} alone ${one ? 'is' : 'are'} ${tokens} tokens; with the prompt, the task and the tool schemas, the request is`,
      })
    : budgetTooSmall({
        budget,
        needed: fixed,
        task,
        flags,
        pinned: tokens,
        what: `the system prompt, the pinned ${files}, the task and the tool schemas alone are`,
      });
}

/** The budget to suggest: what was needed, with room for a few turns, rounded up to 500. */
function budgetTooSmall({
  budget,
  needed,
  task,
  what,
  flags = [],
  pinned,
}: {
  budget: number;
  needed: number;
  task: string;
  what: string;
  flags?: readonly string[];
  pinned?: number;
}): InvalidInputError {
  const suggested = Math.ceil((needed + 1500) / 500) * 500;
  const fewer = pinned === undefined ? '' : ': pass a larger --budget, or attach fewer files';
  return new InvalidInputError(
    'BUDGET_TOO_SMALL',
    `a token budget of ${budget} cannot hold the request: ${what} ${needed} tokens${fewer}`,
    {
      fix: task.trim()
        ? `forge agent --budget ${suggested} ${[...flags.map(shellQuote), shellQuote(task)].join(' ')}`
        : 'forge agent --help',
      data: { budget, needed, suggested, ...(pinned === undefined ? {} : { pinned }) },
    },
  );
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

/** The context a request of `tokens` needs with room for the reply: the next power of two, as servers size theirs. */
export function contextFor(tokens: number): number {
  return 2 ** Math.ceil(Math.log2(tokens + replyRoom(tokens * 1.34)));
}

/** How to give the server a context of `tokens`: the model's own setting when forge knows it, else each common server's. */
export function raiseContext(context: ModelContext | null, tokens: number): string {
  if (context?.raise) return `${context.what}: raise it with ${context.raise(tokens)}`;
  return `give the server a larger context (Ollama: OLLAMA_CONTEXT_LENGTH=${tokens} ollama serve, or the model's num_ctx; llama.cpp: --ctx-size ${tokens})`;
}

/**
 * The budget for a run: --budget when given, else DEFAULT_BUDGET lowered to fit the model's
 * context with room for the reply, said in a note (a budget of a few thousand tokens compresses
 * early and often). A given budget that cannot fit gets a warning saying how to raise the context
 * (or which budget fits); it is kept, since the user asked for it.
 */
export function chooseBudget({ flag, context }: { flag: number | undefined; context: ModelContext | null }): {
  budget: number;
  warning: string | null;
  note: string | null;
} {
  const fits = context ? context.tokens - replyRoom(context.tokens) : Infinity;
  if (flag === undefined) {
    if (!context || fits >= DEFAULT_BUDGET) return { budget: DEFAULT_BUDGET, warning: null, note: null };
    const raise = context.raise ? `; raise it with ${context.raise(contextFor(DEFAULT_BUDGET))} for the default of ${DEFAULT_BUDGET}` : '';
    return {
      budget: fits,
      warning: null,
      note: `budget lowered to ${fits} tokens from ${DEFAULT_BUDGET}: ${context.what}${raise}`,
    };
  }
  if (!context || flag <= fits) return { budget: flag, warning: null, note: null };
  const raise = context.raise ? `raise it with ${context.raise(contextFor(flag))}, or ` : '';
  return {
    budget: flag,
    warning: `--budget ${flag} does not fit: ${context.what}; with room for the reply, requests can hold ${fits}; ${raise}pass --budget ${fits}`,
    note: null,
  };
}
