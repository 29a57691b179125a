// The agent loop: the model proposes tool calls, forge's own commands run them, until the model answers.
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Entry } from '../cli/declare';
import { chat, type ChatMessage, type ChatResult, type RetryPolicy, type ToolSchema, type Usage } from './chat';
import type { ModelConfig } from './config';
import { enforceBudget, newBudgetState, RECALL_TOOL, replyTokens } from './context';
import { agentTools, type AgentTools } from './tools';

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

/** The file tools: what they touch is in their arguments. */
const EDITS_FILES = new Set(['write', 'edit', 'patch']);

/** Tools after which earlier results may be stale. */
const MAY_CHANGE_FILES = new Set(['write', 'edit', 'patch', 'bash']);

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
  | { type: 'text'; text: string }
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
  /** Tool calls the gate refused. */
  refused: number;
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
export async function firstRequest({ entries, task, root, cwd, env, history, tools = agentTools({ entries, cwd, root, env }) }: { entries: readonly Entry[]; task: string; root: string; cwd: string; env: NodeJS.ProcessEnv; history?: string; tools?: AgentTools }): Promise<{ messages: ChatMessage[]; tools: ToolSchema[] }> {
  const system = [SYSTEM_PROMPT, await conventions(root), history ?? null].filter(Boolean).join('\n\n');
  const messages: ChatMessage[] = [{ role: 'system', content: system }, { role: 'user', content: task }];
  return { messages, tools: [...tools.schemas, RECALL_TOOL] };
}

/** Tokens every call starts with, counted in o200k_base: the system prompt and these tool schemas (conventions not counted). */
export async function fixedPromptTokens(tools: readonly ToolSchema[]): Promise<number> {
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
  return countTokens(JSON.stringify({ messages: [{ role: 'system', content: SYSTEM_PROMPT }], tools }));
}

/**
 * Runs the task until the model answers without a tool call or `maxTurns` model calls were made.
 * A tool call identical to an earlier one (same name and arguments) with nothing that could change
 * files in between is not run again: the model gets the earlier result with a note, at the second
 * call rather than the third.
 */
export async function runAgent({ entries, config, task, root, cwd, env, maxTurns, budget, quick = false, retry, onEvent, signal, history, tools = agentTools({ entries, cwd, root, env }), guards = {} }: { entries: readonly Entry[]; config: ModelConfig; task: string; root: string; cwd: string; env: NodeJS.ProcessEnv; maxTurns: number; budget: number; quick?: boolean; retry?: Partial<RetryPolicy>; onEvent: (e: AgentEvent) => Promise<void>; signal?: AbortSignal; history?: string; tools?: AgentTools; guards?: ToolCallGuards }): Promise<AgentRun> {
  const { messages, tools: schemas } = await firstRequest({ entries, task, root, cwd, env, history, tools });
  const budgetState = newBudgetState();
  const { archive, toolNames } = budgetState;
  // Reads by arguments and the file's size and mtime: a re-read of an unchanged file is not re-run,
  // even after edits elsewhere cleared the identical-call cache.
  const reads = new Map<string, string>();
  const seen = new Map<string, string>();
  const run: AgentRun = { answer: '', turns: 0, toolCalls: 0, cacheHits: 0, usage: { input: 0, output: 0 }, estimatedCalls: 0, uncachedTokens: 0, compression: { before: 0, after: 0 }, files: [], exhausted: false, refused: 0 };
  while (run.turns < maxTurns) {
    run.turns++;
    const fit = await enforceBudget({ messages, tools: quick ? [] : schemas, budget, state: budgetState });
    run.uncachedTokens += fit.uncached;
    if (fit.after < fit.before) {
      run.compression.before += fit.before;
      run.compression.after += fit.after;
      await onEvent({ type: 'compressed', results: fit.compressed + fit.shortened + fit.cut + fit.dropped, before: fit.before, after: fit.after });
    }
    // --quick: one call, no tools — an answer from what the prompt holds.
    const r: ChatResult = await chat({ endpoint: config.endpoint.value, model: config.model.value, apiKey: config.apiKey, apiKeyEnv: config.apiKeyEnv.value ?? undefined, messages, ...(quick ? {} : { tools: schemas }), signal, retry });
    // Without usage from the server, the request as counted for the budget and the reply counted locally.
    const usage: Usage = r.usage ?? { promptTokens: fit.after, completionTokens: await replyTokens(r.message) };
    if (!r.usage) run.estimatedCalls++;
    run.usage.input += usage.promptTokens;
    run.usage.output += usage.completionTokens;
    await onEvent({ type: 'usage', input: usage.promptTokens, output: usage.completionTokens, estimated: !r.usage });
    messages.push(r.message);
    const calls = quick ? [] : (r.message.tool_calls ?? []);
    if (r.message.content) await onEvent({ type: 'text', text: r.message.content });
    if (!calls.length) {
      run.answer = r.message.content;
      await onEvent({ type: 'done', turns: run.turns, answer: run.answer });
      return run;
    }
    for (const call of calls) {
      toolNames.set(call.id, call.function.name);
      const key = `${call.function.name} ${call.function.arguments}`;
      const version = call.function.name === 'read' ? await fileVersion(cwd, call.function.arguments) : null;
      const earlier = seen.get(key) ?? (version ? reads.get(`${key} ${version}`) : undefined);
      await onEvent({ type: 'tool_call', name: call.function.name, arguments: call.function.arguments, cached: earlier !== undefined });
      run.toolCalls++;
      let content: string;
      let ok = true;
      if (earlier !== undefined) {
        run.cacheHits++;
        content = seen.has(key)
          ? `[You already made this exact call; its result is repeated below and it was not run again. Do something different.]\n${earlier}`
          : `[Unchanged since you read it; served from cache.]\n${earlier}`;
      } else {
        let args: Record<string, unknown> = {};
        try {
          const parsed = JSON.parse(call.function.arguments || '{}');
          if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) args = parsed;
        } catch {
          ok = false;
        }
        const name = call.function.name;
        const recalled = name === 'recall' ? archive.get(String(args.id)) : undefined;
        // recall only reads this run's own archive: nothing for a contract to gate.
        const refusal = ok && name !== 'recall' && guards.gate ? await guards.gate(name, args) : null;
        const result = !ok
          ? { ok: false, text: `Error: the arguments are not a JSON object: ${call.function.arguments.slice(0, 200)}` }
          : refusal !== null
            ? { ok: false, text: refusal }
            : name === 'recall'
              ? recalled ? { ok: true, text: recalled.text } : { ok: false, text: `Error: no compressed result '${String(args.id)}' (ids: ${[...archive.keys()].join(', ') || 'none yet'})` }
              : await tools.run(name, args);
        ok = result.ok;
        content = result.text;
        if (refusal !== null) run.refused++;
        if (ok && EDITS_FILES.has(name) && typeof args.path === 'string' && !run.files.includes(args.path)) run.files.push(args.path);
        // on_edit hooks follow the file tools that changed something (they refuse whole or land
        // whole); not bash, which mostly reads and would pay a type-check for every `ls`.
        if (ok && EDITS_FILES.has(name) && guards.afterChange) content += await guards.afterChange(name, args);
        // A call that may change files makes every earlier result possibly stale: a read after an
        // edit, or the tests after a fix, must run again. Only repeats with nothing in between are caught.
        if (MAY_CHANGE_FILES.has(call.function.name)) seen.clear();
        seen.set(key, content);
        if (version && ok) reads.set(`${key} ${version}`, content);
      }
      await onEvent({ type: 'tool_result', name: call.function.name, ok, chars: content.length });
      messages.push({ role: 'tool', tool_call_id: call.id, content });
    }
  }
  run.exhausted = true;
  return run;
}
