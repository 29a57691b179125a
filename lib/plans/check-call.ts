// One tool call checked against the active plan contract, as forge plan preflight and forge agent's gate both ask it.
import { stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import type { StateStore } from '../git/state';
import type { Contract } from './contract';
import { canonicalTool, mutatesByName, surfaceOfCommand, type Breach, type Decision, type ToolCall } from './gate';
import { preflight } from './lifecycle';
import type { Surface } from './markdown';
import { toolInfo, type ToolAgent } from './tools';

/** The refusal codes, by the rule broken. */
export const BREACH_CODES = {
  kill_switch: 'PLAN_PAUSED',
  budget_cap: 'BUDGET_CAP_REACHED',
  rails: 'PLAN_BREACH_RAILS',
  surface: 'PLAN_BREACH_SURFACE',
  blast_radius: 'PLAN_BREACH_BLAST_RADIUS',
  later_unit: 'PLAN_BREACH_UNIT',
  tools: 'PLAN_BREACH_TOOLS',
  paths: 'PLAN_BREACH_PATHS',
} as const satisfies Record<Breach, string>;

/** A call as its caller describes it: paths as given (relative to `base`), the command line of a bash call. */
export interface CallRequest {
  tool: string;
  agent?: ToolAgent;
  paths: readonly string[];
  command?: string;
  /** Given by the caller; else read from a bash command line, else artifacts_only. */
  surface?: Surface;
  /** The call changes its paths (implied for tools that do: edit, write, patch…). */
  writes: boolean;
  tokens: number;
  runId: string | null;
}

export interface CallCheck {
  /** The call as the gate judged it: its paths relative to the repository root. */
  call: ToolCall;
  /** Null when no contract is active. */
  contract: Contract | null;
  decision: Decision;
}

/**
 * The call's paths relative to the repository root. A search or listing reads its directories whole
 * (marked with a trailing '/', the root as './'), and with no path it reads the directory it runs in.
 */
async function callPaths({
  tool,
  agent,
  paths,
  base,
  root,
}: {
  tool: string;
  agent: ToolAgent | undefined;
  paths: readonly string[];
  base: string;
  root: string;
}): Promise<string[]> {
  const scope = toolInfo(tool, agent).scope;
  const out: string[] = [];
  for (const p of scope && !paths.length ? ['.'] : paths) {
    const abs = resolve(base, p);
    const rel = relative(root, abs).split(sep).join('/');
    const dir = scope && (await stat(abs).catch(() => null))?.isDirectory();
    if (dir) out.push(rel ? `${rel}/` : './');
    else if (rel) out.push(rel);
  }
  return out;
}

/**
 * Decides the call against the active contract and records what the decision asks for (a refusal in
 * the journal, budgets used): paths are resolved from `base` (the directory the call runs in) to the
 * repository `root`, the surface is read from a bash command line when none is given.
 */
export async function checkCall({
  store,
  request,
  base,
  root,
  now,
}: {
  store: StateStore;
  request: CallRequest;
  base: string;
  root: string;
  now: Date;
}): Promise<CallCheck> {
  const { tool, agent, command } = request;
  const surface =
    request.surface ?? (command !== undefined && canonicalTool(tool, agent) === 'bash' ? surfaceOfCommand(command) : 'artifacts_only');
  const call: ToolCall = {
    tool,
    ...(agent ? { agent } : {}),
    paths: await callPaths({ tool, agent, paths: request.paths, base, root }),
    tokens: request.tokens,
    mutates: request.writes || mutatesByName(tool, agent),
    surface,
    runId: request.runId,
  };
  return { call, ...(await preflight({ store, call, now })) };
}

/** What a refused caller is to do: acknowledge a soft refusal, advance past a unit, or stay within the plan. */
export function remedyOf(decision: Decision, unit: string | null): { verb: 'ack' | 'advance' | 'status'; advice: string } {
  if (decision.posture === 'soft')
    return { verb: 'ack', advice: 'Run `forge plan ack`, then retry this exact call once; it will run under the parent rails.' };
  if (decision.breach === 'later_unit') return { verb: 'advance', advice: `Finish ${unit} first, then run \`forge plan advance\`.` };
  return { verb: 'status', advice: 'A hard refusal: no acknowledgement applies. Stay within the plan (`forge plan status`).' };
}
