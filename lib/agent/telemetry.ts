// What each agent task cost and did, one JSON line per task in the segments of .forge/telemetry/ on the state ref.
import type { StateStore } from '../git/state';
import type { AgentRun } from './run-state';
import type { ModelConfig } from './config-types';
import { recordableEndpoint, redactSecrets } from '../redact';
import { parseStateLines } from '../state/read';
import * as validators from '../state/validators.gen';
import { appendLines } from '../state/streams';

/** A stream of segments (lib/state/streams.ts); an earlier forge kept it in `.forge/telemetry.jsonl`. */
export const TELEMETRY_DIR = '.forge/telemetry';
/** A task is recorded by its first characters: enough to tell tasks apart in forge stats. */
export const TASK_CHARS = 200;

export interface TaskTelemetry {
  timestamp: string;
  task: string;
  model: string;
  endpoint: string;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  /** True when the server reported no usage for some call: those counts were made here (o200k_base). Absent in lines before it was recorded. */
  estimated?: boolean;
  /** Request tokens after each request's common prefix with the one before, summed. Absent in lines before it was recorded. */
  uncachedTokens?: number;
  toolCalls: number;
  cacheHits: number;
  /** Context tokens after compression over before, for the calls that needed it; null when none did. */
  compressionRatio: number | null;
  durationMs: number;
  /** True when the turn limit ended the task before the model answered. */
  exhausted: boolean;
  /** Dollars, when the profile gives rates. */
  cost: number | null;
  /** The category whose model route the task ran with (model_routes); absent in lines before routes. */
  category?: string;
}

/**
 * Appends one task's line — unless the user turned telemetry off (config.recording, see
 * lib/agent/config-recording.ts RECORDINGS); returns whether it did. The endpoint is kept without
 * credentials or query string, and the task is redacted before it is cut, so a key is never
 * recorded half (the state store redacts what it is given again on the way in).
 */
export async function recordTelemetry({
  store,
  config,
  task,
  run,
  started,
  now,
  category,
}: {
  store: StateStore;
  /** With the model the task's calls went to (routes.ts configFor). */
  config: Pick<ModelConfig, 'model' | 'endpoint' | 'cost' | 'recording'>;
  task: string;
  run: AgentRun;
  started: number;
  now: Date;
  category?: string;
}): Promise<boolean> {
  if (!config.recording.telemetry.value) return false;
  const rates = config.cost.value;
  const entry: TaskTelemetry = {
    timestamp: now.toISOString(),
    task: redactSecrets(task).slice(0, TASK_CHARS),
    model: config.model.value,
    endpoint: recordableEndpoint(config.endpoint.value),
    turns: run.turns,
    inputTokens: run.usage.input,
    outputTokens: run.usage.output,
    estimated: run.estimatedCalls > 0,
    uncachedTokens: run.uncachedTokens,
    toolCalls: run.toolCalls,
    cacheHits: run.cacheHits,
    compressionRatio: run.compression.before ? run.compression.after / run.compression.before : null,
    durationMs: now.getTime() - started,
    exhausted: run.exhausted,
    cost: rates ? (run.usage.input * rates.input + run.usage.output * rates.output) / 1e6 : null,
    ...(category ? { category } : {}),
  };
  await store.update({
    message: `agent: ${entry.model}, ${entry.inputTokens + entry.outputTokens} tokens, ${entry.toolCalls} tool calls`,
    apply: (tx) => appendLines({ tx, dir: TELEMETRY_DIR, lines: [JSON.stringify(entry)] }),
  });
  return true;
}

/** The task lines of the telemetry stream; a line that is not one is skipped and counted. */
export function parseTelemetry(text: string): { entries: TaskTelemetry[]; corrupt: number } {
  const { entries, skipped } = parseStateLines({ text, file: validators.telemetry });
  return { entries, corrupt: skipped };
}

export interface ModelStats {
  model: string;
  tasks: number;
  inputTokens: number;
  outputTokens: number;
  /** Tasks whose counts were estimated here (the server sent no usage). */
  estimatedTasks: number;
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
    const s = by.get(e.model) ?? {
      model: e.model,
      tasks: 0,
      inputTokens: 0,
      outputTokens: 0,
      estimatedTasks: 0,
      toolCalls: 0,
      cacheHits: 0,
      exhausted: 0,
      durationMs: 0,
      cost: null,
    };
    s.tasks++;
    s.inputTokens += e.inputTokens;
    s.outputTokens += e.outputTokens;
    s.estimatedTasks += e.estimated ? 1 : 0;
    s.toolCalls += e.toolCalls;
    s.cacheHits += e.cacheHits;
    s.exhausted += e.exhausted ? 1 : 0;
    s.durationMs += e.durationMs;
    if (e.cost !== null) s.cost = (s.cost ?? 0) + e.cost;
    by.set(e.model, s);
  }
  return [...by.values()].sort((a, b) => b.tasks - a.tasks || a.model.localeCompare(b.model));
}

// The state files of this module, registered with the state layer's kinds (lib/state/read.ts), which imports no feature.
declare module '../state/read' {
  interface StateKinds {
    telemetry: TaskTelemetry;
  }
}
