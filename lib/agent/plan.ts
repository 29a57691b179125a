// Plan mode's module plan: its steps, their progress on the state ref (JSON, and .forge/agent/plan.md for people), the cost estimate.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RefusedError } from '../errors';
import type { StateStore } from '../git/state';
import type { Module } from '../plans/modules';
import { verifyCommands } from '../plans/modules';
import { randomHex } from '../random';
import { readStateJson, stateInvalid } from '../state/read';
import * as validators from '../state/validators.gen';
import type { CostPerMtok } from './config-types';
import { stepCategory } from './routes';

export const PLANS_DIR = '.forge/agent/plans';
export const CURRENT_PLAN = `${PLANS_DIR}/current.json`;
/** The plan in progress as Markdown, for people: `git show refs/forge/state:.forge/agent/plan.md`. */
export const PLAN_MARKDOWN = '.forge/agent/plan.md';
/** Where an earlier forge kept that view, beside the activated contracts of .forge/plans/; removed when a plan is saved. */
const OLD_PLAN_MARKDOWN = '.forge/plan.md';

export type StepStatus = 'pending' | 'done' | 'failed';
/** proposed: waiting for approval; paused: a step failed (or the run was cut) and --resume goes on. */
export type PlanStatus = 'proposed' | 'running' | 'paused' | 'done' | 'cancelled';

export interface PlanStep {
  id: string;
  title: string;
  objective: string;
  files: string[];
  /** Symbols the planner named: the step gets their definitions rather than whole files. */
  symbols: string[];
  verify: string[];
  doneWhen: string;
  dependsOn: string[];
  /** The planner's category, the model route the step runs with; absent in plans made before routes (standard). */
  category?: string;
  status: StepStatus;
  /** The person's note from the review, added to the instruction. */
  note?: string;
  /** What the step left for later steps: modified files and their top symbols (no model call). */
  summary?: string;
  attempts: number;
  /** The tail of the last failed verification, shown to the next attempt. */
  failure?: string;
  tokens: { input: number; output: number };
}

export interface AgentPlan {
  id: string;
  task: string;
  status: PlanStatus;
  createdAt: string;
  updatedAt: string;
  model: string;
  planner: string;
  /** The run id the plan's tool calls, preflights and validations are recorded under: --run-id, else the plan's id. */
  runId: string;
  plannerTokens: { input: number; output: number };
  estimate: PlanEstimate;
  steps: PlanStep[];
  /** Why it is paused or cancelled. */
  reason?: string;
  /** The checkpoint taken before the first step ran: forge undo goes back to it. */
  checkpoint?: string;
  /** The files pinned with --attach, relative to the work tree's top: --resume pins them again. */
  attached?: string[];
}

export interface PlanEstimate {
  low: number;
  high: number;
  /** Dollars, when the profile has rates. */
  usdLow: number | null;
  usdHigh: number | null;
}

/** A new plan's id: also its run id (unless the caller gave one), chosen before planning so every call of the plan is logged under it. */
export function newPlanId(now: Date): string {
  return `plan-${now.toISOString().slice(0, 10).replace(/-/g, '')}-${randomHex().slice(0, 8)}`;
}

export function newPlan({
  id = newPlanId(new Date()),
  runId = id,
  task,
  modules,
  model,
  planner,
  plannerTokens,
  now,
}: {
  id?: string;
  runId?: string;
  task: string;
  modules: Module[];
  model: string;
  planner: string;
  plannerTokens: { input: number; output: number };
  now: Date;
}): AgentPlan {
  const steps: PlanStep[] = modules.map((m) => ({
    id: m.id,
    title: m.title,
    objective: m.objective,
    files: m.files,
    symbols: m.symbols ?? [],
    verify: verifyCommands(m),
    doneWhen: Array.isArray(m.doneWhen) ? m.doneWhen.join('; ') : m.doneWhen,
    dependsOn: m.dependsOn ?? [],
    category: stepCategory(m.category),
    status: 'pending',
    attempts: 0,
    tokens: { input: 0, output: 0 },
  }));
  const at = now.toISOString();
  return {
    id,
    task,
    status: 'proposed',
    createdAt: at,
    updatedAt: at,
    model,
    planner,
    runId,
    plannerTokens,
    estimate: { low: 0, high: 0, usdLow: null, usdHigh: null },
    steps: orderSteps(steps),
  };
}

/** Dependencies first, the planner's order otherwise (plan check has already refused cycles). */
function orderSteps(steps: PlanStep[]): PlanStep[] {
  const out: PlanStep[] = [];
  const placed = new Set<string>();
  while (out.length < steps.length) {
    const next = steps.find((s) => !placed.has(s.id) && s.dependsOn.every((d) => placed.has(d)));
    // An unknown dependency is a plan check error too; never loop on one.
    const step = next ?? steps.find((s) => !placed.has(s.id))!;
    out.push(step);
    placed.add(step.id);
  }
  return out;
}

/** Calls a step usually takes: one to look, one to change, one to answer — up to twice that. */
export const TURNS_LOW = 3;
export const TURNS_HIGH = 6;

/**
 * Tokens the steps will send, from what each step starts with (its exact first request, counted with
 * o200k_base): every model call of a step resends its context, and a step usually makes 3 to 6 calls.
 * Output is guessed at a tenth of the input, for the money figure only.
 */
export function estimatePlan({
  firstRequests,
  plannerTokens,
  cost,
}: {
  firstRequests: number[];
  plannerTokens: number;
  cost: CostPerMtok | null;
}): PlanEstimate {
  const base = firstRequests.reduce((a, b) => a + b, 0);
  const low = plannerTokens + base * TURNS_LOW;
  const high = plannerTokens + base * TURNS_HIGH;
  const usd = (tokens: number) => (cost ? (tokens * cost.input + tokens * 0.1 * cost.output) / 1e6 : null);
  return { low, high, usdLow: usd(low), usdHigh: usd(high) };
}

export function formatTokens(n: number): string {
  return n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

export function describeEstimate(e: PlanEstimate): string {
  const money = e.usdLow !== null && e.usdHigh !== null ? ` · ~$${e.usdLow.toFixed(4)}–$${e.usdHigh.toFixed(4)}` : '';
  return `est. ${formatTokens(e.low)}–${formatTokens(e.high)} tokens${money}`;
}

const MARK: Record<StepStatus, string> = { pending: ' ', done: 'x', failed: '!' };

/** The plan as Markdown: the task, the estimate, each step with its status, files, checks and summary. */
export function planMarkdown(plan: AgentPlan): string {
  const lines = [
    `# Plan: ${plan.task}`,
    '',
    `${plan.id} · ${plan.status}${plan.reason ? ` (${plan.reason})` : ''} · ${plan.steps.length} steps · ${describeEstimate(plan.estimate)} · model ${plan.model}${plan.planner !== plan.model ? `, planned by ${plan.planner}` : ''}`,
    '',
  ];
  plan.steps.forEach((s, i) => {
    lines.push(`- [${MARK[s.status]}] **Step ${i + 1} (${s.id}): ${s.title}**`, `  ${s.objective}`);
    if (s.files.length) lines.push(`  Files: ${s.files.join(', ')}${s.symbols.length ? ` (symbols: ${s.symbols.join(', ')})` : ''}`);
    lines.push(`  Verify: ${s.verify.map((c) => `\`${c}\``).join(', ') || '—'} · done when: ${s.doneWhen}`);
    if (s.note) lines.push(`  Note: ${s.note}`);
    if (s.summary) lines.push(`  Result: ${s.summary}`);
    if (s.status === 'failed' && s.failure) lines.push(`  Failed (attempt ${s.attempts}): ${s.failure.split('\n')[0]}`);
  });
  return `${lines.join('\n')}\n`;
}

/** Saves the plan and makes it the current one; .forge/agent/plan.md follows it. */
export async function savePlan({ store, plan, message }: { store: StateStore; plan: AgentPlan; message: string }): Promise<void> {
  await store.update({
    message: `agent plan ${plan.id}: ${message}`,
    apply: async (tx) => {
      tx.write(`${PLANS_DIR}/${plan.id}.json`, `${JSON.stringify(plan, null, 2)}\n`);
      tx.write(CURRENT_PLAN, `${JSON.stringify({ id: plan.id })}\n`);
      tx.write(PLAN_MARKDOWN, planMarkdown(plan));
      if (await tx.read(OLD_PLAN_MARKDOWN)) tx.remove(OLD_PLAN_MARKDOWN);
    },
  });
}

/** The current plan, to resume; refused when there is none, or it is done or cancelled; STATE_INVALID when either file is not what it should be. */
export async function resumablePlan({ store }: { store: StateStore }): Promise<AgentPlan> {
  const none = () => new RefusedError('NO_PLAN', 'no forge agent plan to resume', { fix: 'forge agent --help' });
  const pointer = await readStateJson({ from: store, path: CURRENT_PLAN, file: validators.agentPlanPointer });
  if (!pointer) throw none();
  const path = `${PLANS_DIR}/${pointer.id}.json`;
  const plan = await readStateJson({ from: store, path, file: validators.agentPlan });
  if (!plan) throw none();
  if (plan.id !== pointer.id) throw stateInvalid({ path, problem: `id: '${plan.id}' is not the file's name`, file: validators.agentPlan });
  if (plan.status === 'done' || plan.status === 'cancelled')
    throw new RefusedError('NO_PLAN', `plan ${plan.id} is ${plan.status}: nothing to resume`, {
      fix: `git show refs/forge/state:${PLAN_MARKDOWN}`,
    });
  return plan;
}

/** A file window the step starts with; the model reads further itself. */
export const STEP_FILE_LINES = 200;

/** Top symbols of a file, for a summary line: declarations at the outermost level first. */
export function topSymbols(symbols: Array<{ name: string; container?: string }>, limit = 5): string[] {
  const names = [...symbols.filter((s) => !s.container), ...symbols.filter((s) => s.container)].map((s) => s.name);
  return [...new Set(names)].slice(0, limit);
}

/**
 * The carry-forward line of a finished step: each file it changed, with its top symbols — computed
 * from the files themselves, no model call. Removed files say so.
 */
export async function stepSummary({ root, changed }: { root: string; changed: string[] }): Promise<string> {
  const { extractSymbols } = await import('../files/symbols');
  const parts: string[] = [];
  for (const path of changed.slice(0, 12)) {
    const text = await readFile(join(root, path), 'utf8').catch(() => null);
    if (text === null) {
      parts.push(`removed ${path}`);
      continue;
    }
    const names = topSymbols((await extractSymbols({ path, text })).symbols);
    parts.push(`modified ${path}${names.length ? ` [${names.join(', ')}]` : ''}`);
  }
  if (changed.length > 12) parts.push(`and ${changed.length - 12} more files`);
  return parts.join('; ') || 'changed no files';
}

// The state files of this module, registered with the state layer's kinds (lib/state/read.ts), which imports no feature.
declare module '../state/read' {
  interface StateKinds {
    agentPlan: AgentPlan;
  }
}
