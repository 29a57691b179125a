// forge agent --plan / --resume: plan (or load) → show with its estimate → review → run the steps → how it ended.
import type { Repo } from '../git/repo';
import type { StateStore } from '../git/state';
import type { Attachments } from './attach';
import { firstRequest, fixedPromptTokens, type AgentEvent } from './agent';
import type { RetryPolicy } from './chat';
import type { ModelConfig } from './config-types';
import type { ModelContext } from './context';
import { describeEstimate, estimatePlan, formatTokens, newPlan, savePlan, type AgentPlan } from './plan';
import { makePlan } from './planner';
import { emitSweep, hooksThenCommit } from './report';
import type { AgentIO } from './io';
import { stepGroups } from './parallel';
import { describeStep, reviewPlan, type StepHints } from './review';
import { configFor, routedModel, stepCategory } from './routes';
import type { AgentTools } from './tools';
import { executePlan } from './plan-run';
import { stepPrompt, type PlanEvent } from './steps';
import type { Workbench } from './workbench';

export interface PlanModeArgs {
  task: string;
  /** The plan to go on with (--resume), else null: plan the task. */
  resume: AgentPlan | null;
  /** For a new plan: its id, and the run id its calls are logged under (env's FORGE_RUN_ID). */
  planId: string;
  runId: string;
  yes: boolean;
  maxTurns: number;
  budget: number;
  /** The model's context as forge learned it (for a truncation's remedy); null when unknown. */
  modelContext?: ModelContext | null;
  /** Independent steps that may run at once (--parallel, parallel_steps). */
  parallel: number;
  /** --attach (and a resumed plan's pinned files): in the planner's request and every call of every step; --image: the planner's only. */
  attachments?: Attachments;
  /** The git preamble where a request is made (the profile's git_context "preamble"), computed then; absent: none. */
  gitAt?: (cwd: string) => Promise<string | null>;
}

/** Each step's first request in tokens: the fixed prompt (with the MCP tools in its scope) plus its instruction, files and summary. */
async function firstRequestTokens({
  plan,
  root,
  bench,
  context = '',
}: {
  plan: AgentPlan;
  root: string;
  bench: Workbench;
  /** What every step's system prompt carries besides forge's: the git preamble and the pinned files. */
  context?: string;
}): Promise<number[]> {
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
  const extra = context ? countTokens(context) : 0;
  const out: number[] = [];
  for (const step of plan.steps) {
    const tools = bench.toolsFor(stepCategory(step.category));
    const fixed = await fixedPromptTokens((await firstRequest({ task: '', root, tools })).tools);
    out.push(fixed + extra + countTokens(await stepPrompt({ plan, step, root, tools: bench.tools })));
  }
  return out;
}

/** Co-change hints for each step: files the last commits changed together with the step's files. */
async function coChangeHints({ plan, root }: { plan: AgentPlan; root: string }): Promise<StepHints> {
  const { changeHistory, suggestCoChanges } = await import('../git/cochange');
  const history = await changeHistory({ cwd: root });
  const hints: StepHints = {};
  for (const step of plan.steps) {
    const found = suggestCoChanges({ history, files: step.files });
    if (found.length) hints[step.id] = found;
  }
  return hints;
}

/** The groups of steps that would run at once, said for the review. */
function togetherLines(plan: AgentPlan, parallel: number): string[] {
  if (parallel < 2) return [];
  const groups = stepGroups(plan, parallel).filter((g) => g.length > 1);
  return groups.map((g) => `runs at once (parallel_steps ${parallel}), each in its own worktree: ${g.map((s) => s.id).join(' + ')}`);
}

function planText(plan: AgentPlan, config: ModelConfig, hints: StepHints, parallel: number): string {
  const head = `Plan ${plan.id}: ${plan.task}\n${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'} · ${describeEstimate(plan.estimate)}${plan.planner !== plan.model ? ` · planned by ${plan.planner}, run by ${plan.model}` : ''}`;
  const routed = Object.keys(config.routes.value).length > 0;
  const steps = plan.steps.map(
    (s, i) =>
      `${s.status === 'done' ? '✓' : s.status === 'failed' ? '✗' : '·'} ${describeStep(s, i, plan.steps.length, hints[s.id])}${routed ? `\n  model: ${routedModel(config, stepCategory(s.category))} (${stepCategory(s.category)})` : ''}`,
  );
  return [head, ...steps, ...togetherLines(plan, parallel)].join('\n');
}

/** A new plan: the planner's modules (corrected once if they failed forge plan check), with its estimate, saved as proposed. */
async function proposePlan({
  args,
  io,
  store,
  config,
  root,
  env,
  bench,
  retry,
  cwd,
}: {
  args: PlanModeArgs;
  io: AgentIO;
  store: StateStore;
  config: ModelConfig;
  root: string;
  env: NodeJS.ProcessEnv;
  bench: Workbench;
  retry: Partial<RetryPolicy>;
  cwd: string;
}): Promise<AgentPlan> {
  const planner = config.plannerModel.value ?? config.model.value;
  await io.progress(`⟳ planning via ${planner}: ${args.task}`);
  const context = {
    git: (await args.gitAt?.(cwd)) ?? null,
    ...(args.attachments ? { pinned: args.attachments.pinned, images: args.attachments.images } : {}),
  };
  const made = await makePlan({ config, task: args.task, root, env, retry, context, budget: args.budget });
  if (made.corrected)
    await io.emit(
      { type: 'plan_corrected', findings: made.corrected },
      `the first plan failed forge plan check (${made.corrected.map((f) => f.code).join(', ')}); the planner corrected it`,
    );
  for (const w of made.warnings)
    await io.emit({ type: 'plan_warning', code: w.code, message: w.message }, `warning: ${w.code}: ${w.message}`);
  await recordPlanner({ store, config, planner, planId: args.planId, task: args.task, made, now: io.now() });
  const plan = newPlan({
    id: args.planId,
    runId: args.runId,
    task: args.task,
    modules: made.modules,
    model: config.model.value,
    planner,
    plannerTokens: made.usage,
    now: io.now(),
  });
  if (args.attachments?.pinned.files.length) plan.attached = args.attachments.pinned.paths;
  plan.estimate = estimatePlan({
    firstRequests: await firstRequestTokens({
      plan,
      root,
      bench,
      context: [context.git ?? '', (await args.attachments?.pinned.text()) ?? ''].join('\n'),
    }),
    plannerTokens: made.usage.input + made.usage.output,
    cost: config.cost.value,
  });
  await savePlan({ store, plan, message: 'proposed' });
  return plan;
}

/** The planner's call as a telemetry line: its model, its tokens (a corrected plan is two calls). */
async function recordPlanner({
  store,
  config,
  planner,
  planId,
  task,
  made,
  now,
}: {
  store: StateStore;
  config: ModelConfig;
  planner: string;
  planId: string;
  task: string;
  made: Awaited<ReturnType<typeof makePlan>>;
  now: Date;
}): Promise<void> {
  const { recordTelemetry } = await import('./telemetry');
  const calls = made.corrected ? 2 : 1;
  await recordTelemetry({
    store,
    config:
      planner === config.model.value
        ? config
        : { ...config, model: { value: planner, source: config.plannerModel.source }, cost: { value: null, source: config.cost.source } },
    task: `${planId} planner: ${task}`,
    run: {
      answer: '',
      turns: calls,
      toolCalls: 0,
      cacheHits: 0,
      usage: made.usage,
      estimatedCalls: made.usage.estimated,
      uncachedTokens: made.usage.input,
      compression: { before: 0, after: 0 },
      files: [],
      exhausted: false,
      stopped: null,
      refused: 0,
    },
    started: now.getTime(),
    now,
    category: 'planner',
  });
}

/** The plan as one record (its steps without their run state, with the model each runs with, their co-change hints and the groups that run at once) and as text. */
async function showPlan(io: AgentIO, plan: AgentPlan, config: ModelConfig, hints: StepHints, parallel: number): Promise<void> {
  const steps = plan.steps.map(({ id, title, objective, files, symbols, verify, doneWhen, dependsOn, status, category }) => ({
    id,
    title,
    objective,
    files,
    symbols,
    verify,
    doneWhen,
    dependsOn,
    status,
    category: stepCategory(category),
    model: routedModel(config, stepCategory(category)),
    cochange: hints[id] ?? [],
  }));
  const together = parallel > 1 ? stepGroups(plan, parallel).map((g) => g.map((s) => s.id)) : null;
  await io.emit(
    { type: 'plan', id: plan.id, task: plan.task, status: plan.status, estimate: plan.estimate, steps, ...(together ? { together } : {}) },
    planText(plan, config, hints, parallel),
  );
}

/** Reports each step as it starts, passes or fails; after a step, its hooks, auto-commit and telemetry. */
function stepReporter({
  io,
  store,
  config,
  bench,
  plan,
}: {
  io: AgentIO;
  store: StateStore;
  config: ModelConfig;
  bench: Workbench;
  plan: AgentPlan;
}): (e: PlanEvent) => Promise<void> {
  const started = new Map<string, number>();
  return async (e) => {
    if (e.type === 'steps_together') {
      const ids = e.steps.map((s) => s.id);
      await io.emit(
        { type: 'steps_together', steps: ids, checkpoint: e.checkpoint },
        `⇉ steps ${ids.join(' + ')} run at once, each in its own worktree`,
      );
      return;
    }
    const label = `step ${e.index + 1}/${plan.steps.length} ${e.step.id}`;
    if (e.type === 'step_sequential') {
      await io.emit(
        { type: 'step_sequential', step: e.step.id, index: e.index, reason: e.reason },
        `↻ ${label} runs again on its own: ${e.reason}`,
      );
      return;
    }
    const category = stepCategory(e.step.category);
    const stepConfig = configFor(config, category);
    if (e.type === 'step_start') {
      started.set(e.step.id, Date.now());
      await io.emit(
        { type: 'step_start', step: e.step.id, index: e.index, checkpoint: e.checkpoint, category, model: stepConfig.model.value },
        `▶ ${label}: ${e.step.title}${e.step.attempts ? ` (attempt ${e.step.attempts + 1})` : ''}${Object.keys(config.routes.value).length ? ` · ${category} → ${stepConfig.model.value}` : ''}`,
      );
      return;
    }
    if (e.type === 'step_done')
      await io.emit(
        { type: 'step_done', step: e.step.id, index: e.index, summary: e.step.summary, tokens: e.run.usage },
        `✓ ${label}: ${e.step.summary} (${e.run.usage.input} tokens in, ${e.run.usage.output} out)`,
      );
    else
      await io.emit(
        {
          type: 'step_failed',
          step: e.step.id,
          index: e.index,
          recommendation: e.verdict.recommendation,
          failure: e.verdict.failure,
          tokens: e.run.usage,
        },
        `✗ ${label} failed its check:\n${e.verdict.failure}`,
      );
    if (e.type === 'step_done') {
      const message = `${plan.task.split('\n')[0]!.slice(0, 50)} — ${e.step.id}: ${e.step.title}`;
      await hooksThenCommit({ io, bench, event: 'on_step_done', at: 'step', message });
    }
    const { recordTelemetry } = await import('./telemetry');
    await recordTelemetry({
      store,
      config: stepConfig,
      task: `${plan.id} ${e.step.id}: ${e.step.title}`,
      run: e.run,
      started: started.get(e.step.id) ?? Date.now(),
      now: io.now(),
      category,
    });
  };
}

/** A plan whose every step passed: what changed since its first checkpoint, on_task_done, auto-commit; the checkpoint's number. */
async function finishPlan({ io, bench, plan }: { io: AgentIO; bench: Workbench; plan: AgentPlan }): Promise<number | null> {
  let before: number | null = null;
  if (plan.checkpoint) {
    const swept = await bench.sweep(plan.checkpoint);
    before = swept.number;
    await emitSweep({ io, checkpoint: plan.checkpoint, ...swept });
  }
  const body = plan.steps.map((s) => `- ${s.id} ${s.title}: ${s.summary ?? ''}`).join('\n');
  await hooksThenCommit({ io, bench, event: 'on_task_done', at: 'plan', message: `${plan.task.split('\n')[0]!.slice(0, 72)}\n\n${body}` });
  return before;
}

/** Tokens per step against the estimate: the summary record and its line. */
function tokenTally(plan: AgentPlan): { data: Record<string, unknown>; tally: string } {
  const perStep = plan.steps.map((s) => ({
    id: s.id,
    status: s.status,
    attempts: s.attempts,
    input: s.tokens.input,
    output: s.tokens.output,
  }));
  const total = perStep.reduce((a, s) => ({ input: a.input + s.input, output: a.output + s.output }), {
    input: plan.plannerTokens.input,
    output: plan.plannerTokens.output,
  });
  const data = { plan: plan.id, status: plan.status, steps: perStep, planner: plan.plannerTokens, total, estimate: plan.estimate };
  const tally = `tokens: planning ${formatTokens(plan.plannerTokens.input + plan.plannerTokens.output)}, ${perStep.map((s) => `${s.id} ${formatTokens(s.input + s.output)}`).join(', ')}; total ${formatTokens(total.input + total.output)} (estimate ${formatTokens(plan.estimate.low)}–${formatTokens(plan.estimate.high)})`;
  return { data, tally };
}

/** How plan mode ended: saved without approval, cancelled in review, paused at a failed step, or done. */
export type PlanModeEnd =
  | { ended: 'unapproved'; plan: AgentPlan }
  | { ended: 'cancelled'; plan: AgentPlan }
  | {
      ended: 'paused' | 'done';
      plan: AgentPlan;
      /** The summary record: each step's status, attempts and tokens, the planner's and the total. */
      data: Record<string, unknown>;
      /** The tokens line: planning, each step, total against the estimate. */
      tally: string;
      /** The number of the checkpoint before the plan (for forge diff N), when there is one. */
      before: number | null;
    };

/**
 * Plans the task (or takes the plan to resume), shows it with its estimate, has it reviewed, runs its
 * steps and reports each through `io`; the caller turns how it ended into an answer.
 */
export async function runPlanMode({
  args,
  io,
  repo,
  store,
  cwd,
  config,
  root,
  env,
  bench,
  retry,
  onEvent,
  toolsAt,
}: {
  args: PlanModeArgs;
  io: AgentIO;
  repo: Repo;
  store: StateStore;
  cwd: string;
  config: ModelConfig;
  root: string;
  env: NodeJS.ProcessEnv;
  bench: Workbench;
  retry: Partial<RetryPolicy>;
  onEvent: (e: AgentEvent) => Promise<void>;
  /** forge's own tools in another worktree, for steps that run at once. */
  toolsAt?: (root: string) => AgentTools;
}): Promise<PlanModeEnd> {
  let plan = args.resume ?? (await proposePlan({ args, io, store, config, root, env, bench, retry, cwd }));
  // A resumed plan keeps the files pinned now (its own, less --detach, plus any --attach).
  if (args.resume && args.attachments) plan = { ...plan, attached: args.attachments.pinned.paths };
  // Hints are for a new plan's review: a resumed one was reviewed when it was made.
  const hints = args.resume ? {} : await coChangeHints({ plan, root });
  await showPlan(io, plan, config, hints, args.parallel);
  if (plan.status === 'proposed' && !args.yes) {
    const verdict = await reviewPlan({ plan, ask: (q) => io.ask(q), hints });
    if (verdict === null) return { ended: 'unapproved', plan };
    if (verdict === 'cancelled') {
      plan = { ...plan, status: 'cancelled', reason: 'cancelled in review' };
      await savePlan({ store, plan, message: 'cancelled' });
      return { ended: 'cancelled', plan };
    }
  }
  plan = await executePlan({
    config,
    store,
    check: { repo, store, runId: plan.runId, env, now: () => io.now() },
    plan,
    root,
    cwd,
    tools: bench.tools,
    toolsFor: bench.toolsFor,
    guards: bench.guards,
    maxTurns: args.maxTurns,
    budget: args.budget,
    modelContext: args.modelContext ?? null,
    retry,
    checkpoint: (summary) => bench.checkpoint(summary, 'step'),
    changedSince: (c) => bench.changedSince(c),
    onAgentEvent: onEvent,
    onPlanEvent: stepReporter({ io, store, config, bench, plan }),
    parallel: args.parallel,
    guardsAt: (dir) => bench.guardsAt(dir),
    ...(args.attachments?.pinned.files.length ? { pinned: args.attachments.pinned } : {}),
    ...(args.gitAt ? { gitAt: args.gitAt } : {}),
    ...(toolsAt ? { toolsAt } : {}),
  });
  const before = plan.status === 'done' ? await finishPlan({ io, bench, plan }) : null;
  return { ended: plan.status === 'done' ? 'done' : 'paused', plan, ...tokenTally(plan), before };
}
