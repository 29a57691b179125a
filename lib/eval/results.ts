// forge eval's results: one record per eval on the state ref (.forge/eval/<id>.json), summed per task, agent and model, and put side by side.
import type { StateStore } from '../git/state';
import { RefusedError } from '../errors';
import { readStateJson } from '../state/read';
import * as validators from '../state/validators.gen';
import type { EvalAgentName } from './agents';
import type { RunResult } from './run';

export const EVAL_DIR = '.forge/eval';

/** One `forge eval`: where it ran, against what, and every run's figures. */
export interface EvalRecord {
  id: string;
  startedAt: string;
  /** The upstream without credentials or query. */
  endpoint: string;
  model: string;
  agents: EvalAgentName[];
  suite: string;
  /** Each task's targets, as its task.json gave them when it ran. */
  targets?: Record<string, { toolCalls?: number; tokens?: number }>;
  runs: RunResult[];
}

declare module '../state/read' {
  interface StateKinds {
    evalRecord: EvalRecord;
  }
}

/** What the runs of one task by one agent and model add up to. */
export interface TaskSummary {
  type: 'task';
  eval: string;
  task: string;
  agent: EvalAgentName;
  model: string;
  runs: number;
  passed: number;
  /** passed / runs, 0 to 1. */
  successRate: number;
  /** Means per run, rounded: what one attempt at the task costs. */
  toolCalls: number;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  uncachedTokens: number;
  largestRequest: number;
  wallMs: number;
  looped: number;
  /** Re-reads per run, the mean. */
  reReads: number;
}

const mean = (xs: number[]) => (xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : 0);

/** The runs summed per task, agent and model, in the order they first ran. */
export function summarize(record: Pick<EvalRecord, 'id' | 'runs'>): TaskSummary[] {
  const groups = new Map<string, RunResult[]>();
  for (const r of record.runs) {
    const key = `${r.task}\u0000${r.agent}\u0000${r.model}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map((runs) => {
    const passed = runs.filter((r) => r.success).length;
    return {
      type: 'task',
      eval: record.id,
      task: runs[0]!.task,
      agent: runs[0]!.agent,
      model: runs[0]!.model,
      runs: runs.length,
      passed,
      successRate: passed / runs.length,
      toolCalls: mean(runs.map((r) => r.toolCalls)),
      requests: mean(runs.map((r) => r.requests)),
      promptTokens: mean(runs.map((r) => r.promptTokens)),
      completionTokens: mean(runs.map((r) => r.completionTokens)),
      uncachedTokens: mean(runs.map((r) => r.uncachedTokens)),
      largestRequest: mean(runs.map((r) => r.largestRequest)),
      wallMs: mean(runs.map((r) => r.wallMs)),
      looped: runs.filter((r) => r.looped).length,
      reReads: mean(runs.map((r) => r.reReads ?? 0)),
    };
  });
}

export async function saveEval({ store, record }: { store: StateStore; record: EvalRecord }): Promise<void> {
  const passed = record.runs.filter((r) => r.success).length;
  await store.update({
    message: `eval ${record.id}: ${passed} of ${record.runs.length} runs passed (${record.agents.join(', ')}, ${record.model})`,
    apply: async (tx) => tx.write(`${EVAL_DIR}/${record.id}.json`, `${JSON.stringify(record, null, 2)}\n`),
  });
}

/** The evals recorded on the state ref, oldest first; `ids` picks some (an unknown id is refused). */
export async function loadEvals({ store, ids }: { store: StateStore; ids: string[] }): Promise<EvalRecord[]> {
  const head = await store.head();
  const entries = head ? await store.listAt(head, EVAL_DIR) : [];
  const names = entries.filter((e) => e.name.endsWith('.json')).map((e) => e.name.slice(0, -'.json'.length));
  for (const id of ids)
    if (!names.includes(id))
      throw new RefusedError('NO_EVAL_RESULTS', `no eval '${id}' on the state ref (evals: ${names.join(', ') || 'none'})`, {
        fix: 'forge eval --compare',
      });
  const records: EvalRecord[] = [];
  for (const name of ids.length ? ids : names) {
    const record = await readStateJson({ from: store, path: `${EVAL_DIR}/${name}.json`, file: validators.evalRecord });
    if (record) records.push(record);
  }
  return records.sort((a, b) => (a.startedAt < b.startedAt ? -1 : 1));
}
