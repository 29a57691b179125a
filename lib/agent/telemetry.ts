// What each agent task cost and did, one JSON line per task in .forge/telemetry.jsonl on the state ref.
import type { StateStore } from '../git/state';

export const TELEMETRY_PATH = '.forge/telemetry.jsonl';

export interface TaskTelemetry {
  timestamp: string;
  task: string;
  model: string;
  endpoint: string;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  toolCalls: number;
  cacheHits: number;
  /** Context tokens after compression over before, for the calls that needed it; null when none did. */
  compressionRatio: number | null;
  durationMs: number;
  /** True when the turn limit ended the task before the model answered. */
  exhausted: boolean;
  /** Dollars, when the profile gives rates. */
  cost: number | null;
}

export async function recordTelemetry({ store, entry }: { store: StateStore; entry: TaskTelemetry }): Promise<void> {
  await store.update({
    message: `agent: ${entry.model}, ${entry.inputTokens + entry.outputTokens} tokens, ${entry.toolCalls} tool calls`,
    apply: async (tx) => {
      const text = await tx.readText(TELEMETRY_PATH);
      tx.write(TELEMETRY_PATH, `${text}${text && !text.endsWith('\n') ? '\n' : ''}${JSON.stringify(entry)}\n`);
    },
  });
}

export function parseTelemetry(text: string): { entries: TaskTelemetry[]; corrupt: number } {
  const entries: TaskTelemetry[] = [];
  let corrupt = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      entries.push(JSON.parse(line) as TaskTelemetry);
    } catch {
      corrupt++;
    }
  }
  return { entries, corrupt };
}

export interface ModelStats {
  model: string;
  tasks: number;
  inputTokens: number;
  outputTokens: number;
  toolCalls: number;
  cacheHits: number;
  exhausted: number;
  durationMs: number;
  cost: number | null;
}

/** Totals per model, most-used first. */
export function summarise(entries: TaskTelemetry[]): ModelStats[] {
  const by = new Map<string, ModelStats>();
  for (const e of entries) {
    const s = by.get(e.model) ?? { model: e.model, tasks: 0, inputTokens: 0, outputTokens: 0, toolCalls: 0, cacheHits: 0, exhausted: 0, durationMs: 0, cost: null };
    s.tasks++;
    s.inputTokens += e.inputTokens;
    s.outputTokens += e.outputTokens;
    s.toolCalls += e.toolCalls;
    s.cacheHits += e.cacheHits;
    s.exhausted += e.exhausted ? 1 : 0;
    s.durationMs += e.durationMs;
    if (e.cost !== null) s.cost = (s.cost ?? 0) + e.cost;
    by.set(e.model, s);
  }
  return [...by.values()].sort((a, b) => b.tasks - a.tasks || a.model.localeCompare(b.model));
}
