// One plan step: the message it starts with in a fresh context (its instruction, its files, the carry-forward summary), an attempt with its category's model, and its check by forge validate.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ForgeError } from '../errors';
import { PinnedFiles } from './attach';
import { isFile } from '../fs/stat';
import { grepWords } from '../git/grep';
import type { Repo } from '../git/repo';
import type { StateStore } from '../git/state';
import { validateModule, type ModuleValidation } from '../validate/module';
import type { CheckResult } from '../validate/types';
import { DEFAULT_MAX_ATTEMPTS } from '../validate/verdict';
import { runAgent, type AgentEvent, type AgentRun, type ToolCallGuards } from './agent';
import type { RetryPolicy } from './chat';
import type { ModelConfig } from './config-types';
import type { ModelContext } from './context';
import { STEP_FILE_LINES, type AgentPlan, type PlanStep } from './plan';
import { configFor, stepCategory, type StepCategory } from './routes';
import type { AgentTools } from './tools';

/** Where a named symbol is defined: a path and its lines. */
interface SymbolSpot {
  name: string;
  path: string;
  line: number;
  endLine: number;
}

/** Each verify command's time, as forge validate's default. */
const VERIFY_TIMEOUT_MS = 120_000;

/** Files searched for a symbol the step's own files do not define. */
const SYMBOL_SEARCH_FILES = 20;

/**
 * Finds each symbol in the step's files first, then in the repository's files that mention it as a
 * word (git grep), through the symbol index — so a step gets a function's definition, not its file.
 */
async function locateSymbols({ root, names, files }: { root: string; names: string[]; files: string[] }): Promise<SymbolSpot[]> {
  if (!names.length) return [];
  const { extractSymbols } = await import('../files/symbols');
  const found: SymbolSpot[] = [];
  const lookIn = async (path: string, wanted: Set<string>) => {
    const text = await readFile(join(root, path), 'utf8').catch(() => null);
    if (text === null) return;
    for (const s of (await extractSymbols({ path, text })).symbols) {
      if (wanted.has(s.name)) {
        found.push({ name: s.name, path, line: s.line, endLine: s.endLine });
        wanted.delete(s.name);
      }
    }
  };
  const missing = new Set(names);
  for (const f of files) if (missing.size) await lookIn(f, missing);
  if (!missing.size) return found;
  // One git grep for the rest; a file that names a symbol as a word may define it.
  const { hits } = await grepWords({ root, words: [...missing], exclude: files });
  for (const name of [...missing]) {
    const candidates = [...new Set(hits.filter((h) => h.word === name).map((h) => h.path))].slice(0, SYMBOL_SEARCH_FILES);
    for (const path of candidates) {
      await lookIn(path, new Set([name]));
      if (found.some((s) => s.name === name)) break;
    }
  }
  return found;
}

/**
 * The one message a step starts with: its instruction, what earlier steps left (the carry-forward
 * summary), and its files as anchored windows — the definitions of its symbols where it names some.
 */
export async function stepPrompt({
  plan,
  step,
  root,
  tools,
}: {
  plan: AgentPlan;
  step: PlanStep;
  root: string;
  tools: AgentTools;
}): Promise<string> {
  const index = plan.steps.indexOf(step);
  const parts = [
    `Step ${index + 1} of ${plan.steps.length}: ${step.title}`,
    step.objective,
    `Done when: ${step.doneWhen}`,
    `It will be checked with: ${step.verify.join(' && ')}`,
  ];
  if (step.note) parts.push(`User note: ${step.note}`);
  if (step.failure) parts.push(`An earlier attempt at this step failed its check:\n${step.failure}`);
  const earlier = plan.steps.filter((s) => s.status === 'done' && s.summary);
  if (earlier.length) parts.push(`Earlier steps (done):\n${earlier.map((s) => `- ${s.id} ${s.title}: ${s.summary}`).join('\n')}`);
  const spots = await locateSymbols({ root, names: step.symbols, files: step.files });
  const shown: string[] = [];
  for (const spot of spots) {
    const r = await tools.run('read', { path: spot.path, start: spot.line, end: Math.min(spot.endLine, spot.line + STEP_FILE_LINES - 1) });
    if (r.ok) shown.push(`${spot.name}:\n${r.text}`);
  }
  for (const path of step.files) {
    if (spots.some((s) => s.path === path)) continue;
    if (!(await isFile(join(root, path)))) {
      shown.push(`${path}: does not exist yet`);
      continue;
    }
    const r = await tools.run('read', { path, start: 1, end: STEP_FILE_LINES });
    shown.push(r.text);
  }
  if (shown.length) parts.push(`Files:\n${shown.join('\n\n')}`);
  parts.push('Do this step only, then reply with a one-line summary and no tool call.');
  return parts.join('\n\n');
}

export interface StepVerdict {
  passed: boolean;
  recommendation: string;
  /** Failed checks with their output tails, for the person and the next attempt. */
  failure: string;
}

/** What a step's check needs: where its run is recorded (the plan's run id) and the environment its commands run in. */
export interface StepCheckContext {
  repo: Repo;
  store: StateStore;
  runId: string;
  env: NodeJS.ProcessEnv;
  now: () => Date;
}

/** Runs the step's verify commands (and checks its files) as forge validate does, recorded under the plan's run. */
export async function verifyStep({ step, root, check }: { step: PlanStep; root: string; check: StepCheckContext }): Promise<StepVerdict> {
  const files: string[] = [];
  for (const f of step.files) if (await isFile(join(root, f))) files.push(f);
  let validation: ModuleValidation;
  try {
    validation = await validateModule({
      repo: async () => check.repo,
      store: async () => check.store,
      cwd: root,
      cwdMissing: false,
      runId: check.runId,
      moduleId: step.id,
      files,
      commands: step.verify,
      contracts: [],
      planPath: undefined,
      timeoutMs: VERIFY_TIMEOUT_MS,
      maxAttempts: DEFAULT_MAX_ATTEMPTS,
      env: check.env,
      now: check.now(),
    });
  } catch (err) {
    // A step that cannot be checked (nothing to check, a step id forge refuses) has not passed.
    if (!(err instanceof ForgeError)) throw err;
    return { passed: false, recommendation: 'ESCALATE', failure: `${err.code}: ${err.message}` };
  }
  const tailOf = (x: CheckResult) =>
    typeof x.tail === 'string' && x.tail.trim() ? `\n${x.tail.trimEnd().split('\n').slice(-15).join('\n')}` : '';
  const failed = validation.results.filter((x) => !x.passed);
  const failure = failed.length
    ? failed.map((x) => `${x.type} ${x.name}: ${x.message}${tailOf(x)}`).join('\n')
    : validation.attempt.status === 'passed'
      ? ''
      : validation.verdict.reason;
  return { passed: validation.attempt.status === 'passed', recommendation: validation.verdict.recommendation, failure };
}

export type PlanEvent =
  | { type: 'step_start'; step: PlanStep; index: number; total: number; checkpoint: string | null }
  | { type: 'step_done'; step: PlanStep; index: number; run: AgentRun }
  | { type: 'step_failed'; step: PlanStep; index: number; run: AgentRun; verdict: StepVerdict }
  /** Steps that start at once, each in its own worktree of the checkpoint. */
  | { type: 'steps_together'; steps: PlanStep[]; indexes: number[]; checkpoint: string }
  /** A step of such a group that runs again on its own, after the group, and why. */
  | { type: 'step_sequential'; step: PlanStep; index: number; reason: string };

export interface PlanRunOptions {
  config: ModelConfig;
  store: StateStore;
  /** Where each step's check is recorded. */
  check: StepCheckContext;
  plan: AgentPlan;
  root: string;
  cwd: string;
  /** Made with the plan's run id (FORGE_RUN_ID), so every call lands in its log. */
  tools: AgentTools;
  /** The tools a step of this category gets (MCP servers scoped by category); without it, `tools`. */
  toolsFor?: (category: StepCategory) => AgentTools;
  guards: ToolCallGuards;
  maxTurns: number;
  budget: number;
  /** The model's context as forge learned it (for a truncation's remedy); null when unknown. */
  modelContext?: ModelContext | null;
  retry?: Partial<RetryPolicy>;
  /** A checkpoint of the work tree before a step; its commit, or null outside git. */
  checkpoint: (summary: string) => Promise<string | null>;
  /** Files changed since a checkpoint (untracked included). */
  changedSince: (checkpoint: string) => Promise<string[]>;
  onAgentEvent: (e: AgentEvent) => Promise<void>;
  onPlanEvent: (e: PlanEvent) => Promise<void>;
  /** Independent steps that may run at once (parallel_steps); 1 or absent: one after another. */
  parallel?: number;
  /** forge's own tools working in another worktree (same run id): what a step running in its own worktree gets. */
  toolsAt?: (root: string) => AgentTools;
  /** The guards for calls in another worktree (the contract gate, on_edit hooks run there). */
  guardsAt?: (root: string) => ToolCallGuards;
  /** Files pinned (--attach) to every call of every step; a step in its own worktree reads that worktree's copies. */
  pinned?: PinnedFiles;
  /** The git preamble of a directory, computed when a step starts there. */
  gitAt?: (cwd: string) => Promise<string | null>;
}

/** The pinned files as a step at `root` reads them: the work tree's, or the same paths in the step's own worktree. */
function pinnedAt(o: PlanRunOptions, root: string): PinnedFiles | undefined {
  if (!o.pinned?.files.length) return undefined;
  if (root === o.root) return o.pinned;
  return new PinnedFiles(
    o.pinned.files.map((f) => ({ abs: join(root, f.path), path: f.path })),
    o.pinned.flags,
    root,
  );
}

/** A step's request over --budget: the fix goes on with the plan under a larger budget (the task's fix would name the step's prompt). */
function budgetFix(err: unknown): unknown {
  if (err instanceof ForgeError && err.code === 'BUDGET_TOO_SMALL') {
    const suggested = (err.data as { suggested?: number } | undefined)?.suggested;
    err.fix = `forge agent --resume${suggested ? ` --budget ${suggested}` : ''}`;
  }
  return err;
}

/** The model (its category's route) and the tools (MCP servers in scope) a step runs with. */
export function stepRoute(
  o: Pick<PlanRunOptions, 'config' | 'tools' | 'toolsFor'>,
  step: PlanStep,
): { config: ModelConfig; tools: AgentTools } {
  const category = stepCategory(step.category);
  return { config: configFor(o.config, category), tools: o.toolsFor?.(category) ?? o.tools };
}

/** What one attempt at a step gave: the model's run and the check's verdict. */
export interface StepAttempt {
  run: AgentRun;
  verdict: StepVerdict;
}

/**
 * One attempt at a step where `root` is (the work tree, or the step's own worktree): a fresh agent
 * run on its prompt, then its check. Counts the attempt and its tokens on the step.
 */
export async function attemptStep({
  o,
  plan,
  step,
  root,
  tools,
  guards,
  signal,
}: {
  o: PlanRunOptions;
  plan: AgentPlan;
  step: PlanStep;
  root: string;
  tools: AgentTools;
  guards: ToolCallGuards;
  signal?: AbortSignal;
}): Promise<StepAttempt> {
  const task = await stepPrompt({ plan, step, root, tools });
  const cwd = root === o.root ? o.cwd : root;
  const pinned = pinnedAt(o, root);
  const run = await runAgent({
    config: stepRoute(o, step).config,
    task,
    root,
    cwd,
    maxTurns: o.maxTurns,
    budget: o.budget,
    modelContext: o.modelContext ?? null,
    retry: o.retry,
    onEvent: o.onAgentEvent,
    tools,
    guards,
    git: (await o.gitAt?.(cwd)) ?? null,
    ...(pinned ? { attachments: { pinned, images: [] } } : {}),
    ...(signal ? { signal } : {}),
  }).catch((err: unknown) => {
    throw budgetFix(err);
  });
  step.attempts++;
  step.tokens = { input: step.tokens.input + run.usage.input, output: step.tokens.output + run.usage.output };
  const verdict = run.exhausted
    ? { passed: false, recommendation: 'RETRY', failure: `the step's agent run hit the turn limit (${o.maxTurns}) before answering` }
    : run.stopped
      ? { passed: false, recommendation: 'RETRY', failure: `the step's agent run failed (${run.stopped.code}): ${run.stopped.message}` }
      : await verifyStep({ step, root, check: o.check });
  return { run, verdict };
}

/** How executePlan's steps (plan-run.ts) share the plan: saving it, and marking a step done or failed. */
export interface PlanProgress {
  plan(): AgentPlan;
  save(message: string): Promise<void>;
  /** A step that passed: its carry-forward summary from the files it changed, saved, reported. */
  done(step: PlanStep, attempt: StepAttempt, changed: string[]): Promise<void>;
  /** A step that failed: the plan paused there, saved, reported. */
  failed(step: PlanStep, attempt: StepAttempt): Promise<void>;
}
