// The agent loop: the model proposes tool calls, forge's own commands run them, until the model answers.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Entry } from '../cli/declare';
import { chat, type ChatMessage, type ChatResult, type ToolSchema, type Usage } from './chat';
import type { ModelConfig } from './config';
import { agentTools } from './tools';

export const SYSTEM_PROMPT = `You are forge, a coding agent working in a git repository. Use the tools to read, change and check code. Read before you edit; keep edits small; after changing code, run the tests. Every tool result ends with a hint (Next: …) you may follow. When the task is done, reply with a short summary and no tool call.`;

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
  | { type: 'usage'; input: number; output: number }
  | { type: 'done'; turns: number; answer: string };

export interface AgentRun {
  answer: string;
  turns: number;
  toolCalls: number;
  cacheHits: number;
  usage: { input: number; output: number };
  /** Paths the model wrote or edited. */
  files: string[];
  /** True when the turn limit ended the run before the model answered. */
  exhausted: boolean;
}

/** The first request exactly as it would be sent: for --dry-run. */
export async function firstRequest({ entries, task, root, cwd, env, history }: { entries: readonly Entry[]; task: string; root: string; cwd: string; env: NodeJS.ProcessEnv; history?: string }): Promise<{ messages: ChatMessage[]; tools: ToolSchema[] }> {
  const system = [SYSTEM_PROMPT, await conventions(root), history ?? null].filter(Boolean).join('\n\n');
  const messages: ChatMessage[] = [{ role: 'system', content: system }, { role: 'user', content: task }];
  return { messages, tools: agentTools({ entries, cwd, root, env }).schemas };
}

/**
 * Runs the task until the model answers without a tool call or `maxTurns` model calls were made.
 * A tool call identical to an earlier one (same name and arguments) with nothing that could change
 * files in between is not run again: the model gets the earlier result with a note, at the second
 * call rather than the third.
 */
export async function runAgent({ entries, config, task, root, cwd, env, maxTurns, onEvent, signal, history }: { entries: readonly Entry[]; config: ModelConfig; task: string; root: string; cwd: string; env: NodeJS.ProcessEnv; maxTurns: number; onEvent: (e: AgentEvent) => Promise<void>; signal?: AbortSignal; history?: string }): Promise<AgentRun> {
  const tools = agentTools({ entries, cwd, root, env });
  const { messages } = await firstRequest({ entries, task, root, cwd, env, history });
  const seen = new Map<string, string>();
  const run: AgentRun = { answer: '', turns: 0, toolCalls: 0, cacheHits: 0, usage: { input: 0, output: 0 }, files: [], exhausted: false };
  while (run.turns < maxTurns) {
    run.turns++;
    const r: ChatResult = await chat({ endpoint: config.endpoint.value, model: config.model.value, apiKey: config.apiKey, apiKeyEnv: config.apiKeyEnv.value ?? undefined, messages, tools: tools.schemas, signal });
    const usage: Usage | null = r.usage;
    if (usage) {
      run.usage.input += usage.promptTokens;
      run.usage.output += usage.completionTokens;
      await onEvent({ type: 'usage', input: usage.promptTokens, output: usage.completionTokens });
    }
    messages.push(r.message);
    const calls = r.message.tool_calls ?? [];
    if (!calls.length) {
      run.answer = r.message.content;
      await onEvent({ type: 'text', text: run.answer });
      await onEvent({ type: 'done', turns: run.turns, answer: run.answer });
      return run;
    }
    for (const call of calls) {
      const key = `${call.function.name} ${call.function.arguments}`;
      const earlier = seen.get(key);
      await onEvent({ type: 'tool_call', name: call.function.name, arguments: call.function.arguments, cached: earlier !== undefined });
      run.toolCalls++;
      let content: string;
      let ok = true;
      if (earlier !== undefined) {
        run.cacheHits++;
        content = `[You already made this exact call; its result is repeated below and it was not run again. Do something different.]\n${earlier}`;
      } else {
        let args: Record<string, unknown> = {};
        try {
          const parsed = JSON.parse(call.function.arguments || '{}');
          if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) args = parsed;
        } catch {
          ok = false;
        }
        const result = ok ? await tools.run(call.function.name, args) : { ok: false, text: `Error: the arguments are not a JSON object: ${call.function.arguments.slice(0, 200)}` };
        ok = result.ok;
        content = result.text;
        if (ok && ['write', 'edit', 'patch'].includes(call.function.name) && typeof args.path === 'string' && !run.files.includes(args.path)) run.files.push(args.path);
        // A call that may change files makes every earlier result possibly stale: a read after an
        // edit, or the tests after a fix, must run again. Only repeats with nothing in between are caught.
        if (MAY_CHANGE_FILES.has(call.function.name)) seen.clear();
        seen.set(key, content);
      }
      await onEvent({ type: 'tool_result', name: call.function.name, ok, chars: content.length });
      messages.push({ role: 'tool', tool_call_id: call.id, content });
    }
  }
  run.exhausted = true;
  return run;
}
