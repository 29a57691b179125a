// The token budget, enforced before every model call: older tool results are compressed first, the task never.
import type { ChatMessage } from './chat';

export interface Compressed {
  id: string;
  tool: string;
  text: string;
}

/** Tokens of the messages as the model will see them (o200k_base, close enough for every modern model). */
export async function countMessageTokens(messages: readonly ChatMessage[]): Promise<number> {
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
  let n = 0;
  for (const m of messages) {
    n += 4 + countTokens(m.content ?? '');
    if (m.role === 'assistant' && m.tool_calls) for (const c of m.tool_calls) n += countTokens(c.function.name) + countTokens(c.function.arguments);
  }
  return n;
}

/**
 * Brings the context under `budget` tokens by replacing tool results with a one-line stub, oldest
 * first, never touching the system prompt, the task, or the results of the latest turn (the model
 * has not seen them yet). Each stub names an id the `recall` tool returns the full text for.
 * Returns what it compressed; `messages` is changed in place.
 */
export async function enforceBudget({ messages, budget, archive, toolNames }: { messages: ChatMessage[]; budget: number; archive: Map<string, Compressed>; toolNames: Map<string, string> }): Promise<{ before: number; after: number; compressed: number }> {
  const before = await countMessageTokens(messages);
  let after = before;
  let compressed = 0;
  if (before <= budget) return { before, after, compressed };
  // The latest turn: the tool results after the last assistant message stay whole.
  const lastAssistant = messages.map((m) => m.role).lastIndexOf('assistant');
  for (let i = 2; i < lastAssistant && after > budget; i++) {
    const m = messages[i]!;
    if (m.role !== 'tool' || m.content.startsWith('[compressed ')) continue;
    const id = `r${archive.size + 1}`;
    const tool = toolNames.get(m.tool_call_id) ?? 'tool';
    archive.set(id, { id, tool, text: m.content });
    const firstLine = m.content.split('\n')[0]!.slice(0, 120);
    messages[i] = { ...m, content: `[compressed ${tool} result, ${m.content.length} chars: "${firstLine}" — recall {"id":"${id}"} returns it whole]` };
    compressed++;
    after = await countMessageTokens(messages);
  }
  return { before, after, compressed };
}

export const RECALL_TOOL = {
  type: 'function' as const,
  function: { name: 'recall', description: 'The full text of a compressed tool result', parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
};
