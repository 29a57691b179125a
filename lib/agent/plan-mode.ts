// forge agent --plan / --resume: plan (or load) → show with its estimate → review → run the steps → say where it stands.
import type { Entry, Outcome, RunContext } from '../cli/declare';
import { firstRequest, fixedPromptTokens, type AgentEvent } from './agent';
import type { RetryPolicy } from './chat';
import type { ModelConfig } from './config';
import { describeEstimate, estimatePlan, formatTokens, newPlan, PLAN_MARKDOWN, savePlan, type AgentPlan } from './plan';
import { makePlan } from './planner';
import { emitSweep } from './report';
import { describeStep, reviewPlan } from './review';
import { executePlan, stepPrompt, type PlanEvent } from './steps';
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
}

/** Each step's first request in tokens: the fixed prompt plus its instruction, files and summary. */
async function firstRequestTokens({
  entries,
  plan,
  root,
  env,
  bench,
}: {
  entries: readonly Entry[];
  plan: AgentPlan;
  root: string;
  env: NodeJS.ProcessEnv;
  bench: Workbench;
}): Promise<number[]> {
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
  const fixed = await fixedPromptTokens((await firstRequest({ entries, task: '', root, cwd: root, env, tools: bench.tools })).tools);
  const out: number[] = [];
  for (const step of plan.steps) out.push(fixed + countTokens(await stepPrompt({ plan, step, root, tools: bench.tools })));
  return out;
}

function planText(plan: AgentPlan): string {
  const head = `Plan ${plan.id}: ${plan.task}\n${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'} · ${describeEstimate(plan.estimate)}${plan.planner !== plan.model ? ` · planned by ${plan.planner}, run by ${plan.model}` : ''}`;
  const steps = plan.steps.map(
    (s, i) => `${s.status === 'done' ? '✓' : s.status === 'failed' ? '✗' : '·'} ${describeStep(s, i, plan.steps.length)}`,
  );
  return [head, ...steps].join('\n');
}

export async function runPlanMode({
  args,
  ctx,
  entries,
  config,
  root,
  env,
  bench,
  retry,
  onEvent,
}: {
  args: PlanModeArgs;
  ctx: RunContext;
  entries: readonly Entry[];
  config: ModelConfig;
  root: string;
  env: NodeJS.ProcessEnv;
  bench: Workbench;
  retry: Partial<RetryPolicy>;
  onEvent: (e: AgentEvent) => Promise<void>;
}): Promise<Outcome> {
  const store = await ctx.store();
  let plan: AgentPlan;
  if (args.resume) {
    plan = args.resume;
  } else {
    const planner = config.plannerModel.value ?? config.model.value;
    await ctx.progress(`⟳ planning via ${planner}: ${args.task}`);
    const made = await makePlan({ config, task: args.task, root, env, retry });
    if (made.corrected)
      await ctx.emit(
        { type: 'plan_corrected', findings: made.corrected },
        `the first plan failed forge plan check (${made.corrected.map((f) => f.code).join(', ')}); the planner corrected it`,
      );
    for (const w of made.warnings)
      await ctx.emit({ type: 'plan_warning', code: w.code, message: w.message }, `warning: ${w.code}: ${w.message}`);
    plan = newPlan({
      id: args.planId,
      runId: args.runId,
      task: args.task,
      modules: made.modules,
      model: config.model.value,
      planner,
      plannerTokens: made.usage,
      now: ctx.now(),
    });
    plan.estimate = estimatePlan({
      firstRequests: await firstRequestTokens({ entries, plan, root, env, bench }),
      plannerTokens: made.usage.input + made.usage.output,
      cost: config.cost.value,
    });
    await savePlan({ store, plan, message: 'proposed' });
  }
  await ctx.emit(
    {
      type: 'plan',
      id: plan.id,
      task: plan.task,
      status: plan.status,
      estimate: plan.estimate,
      steps: plan.steps.map(({ id, title, objective, files, symbols, verify, doneWhen, dependsOn, status }) => ({
        id,
        title,
        objective,
        files,
        symbols,
        verify,
        doneWhen,
        dependsOn,
        status,
      })),
    },
    planText(plan),
  );

  if (plan.status === 'proposed' && !args.yes) {
    const verdict = await reviewPlan({ plan, ask: (q) => ctx.ask(q) });
    if (verdict === null) {
      return {
        data: { plan: plan.id, status: plan.status, estimate: plan.estimate },
        text: `plan ${plan.id} saved, not run: not approved (no terminal to ask on, or the review was closed)`,
        next: ctx.cmd('agent', '--resume', '--yes'),
        or: `git show refs/forge/state:${PLAN_MARKDOWN}`,
      };
    }
    if (verdict === 'cancelled') {
      plan = { ...plan, status: 'cancelled', reason: 'cancelled in review' };
      await savePlan({ store, plan, message: 'cancelled' });
      return {
        data: { plan: plan.id, status: plan.status },
        text: `plan ${plan.id} cancelled; nothing was run`,
        exitCode: 1,
        next: ctx.cmd('agent', '--plan', plan.task),
      };
    }
  }

  let stepStarted = Date.now();
  const onPlanEvent = async (e: PlanEvent) => {
    if (e.type === 'step_start') stepStarted = Date.now();
    const label = `step ${e.index + 1}/${plan.steps.length} ${e.step.id}`;
    if (e.type === 'step_start')
      await ctx.emit(
        { type: 'step_start', step: e.step.id, index: e.index, checkpoint: e.checkpoint },
        `▶ ${label}: ${e.step.title}${e.step.attempts ? ` (attempt ${e.step.attempts + 1})` : ''}`,
      );
    else if (e.type === 'step_done')
      await ctx.emit(
        { type: 'step_done', step: e.step.id, index: e.index, summary: e.step.summary, tokens: e.run.usage },
        `✓ ${label}: ${e.step.summary} (${e.run.usage.input} tokens in, ${e.run.usage.output} out)`,
      );
    else
      await ctx.emit(
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
      const report = await bench.hook('on_step_done');
      if (report) await ctx.emit({ type: 'hooks', text: report }, report);
      const commit = await bench.commit('step', `${plan.task.split('\n')[0]!.slice(0, 50)} — ${e.step.id}: ${e.step.title}`);
      if (commit) await ctx.emit({ type: 'commit', commit }, `committed ${commit.slice(0, 10)} (auto_commit)`);
    }
    if (e.type !== 'step_start') {
      const { recordTelemetry } = await import('./telemetry');
      await recordTelemetry({
        store,
        config,
        task: `${plan.id} ${e.step.id}: ${e.step.title}`,
        run: e.run,
        started: stepStarted,
        now: ctx.now(),
      });
    }
  };
  plan = await executePlan({
    entries,
    config,
    store,
    plan,
    root,
    cwd: ctx.cwd,
    env,
    tools: bench.tools,
    guards: bench.guards,
    maxTurns: args.maxTurns,
    budget: args.budget,
    retry,
    checkpoint: (summary) => bench.checkpoint(summary, 'step'),
    changedSince: (c) => bench.changedSince(c),
    onAgentEvent: onEvent,
    onPlanEvent,
  });

  let before: number | null = null;
  if (plan.status === 'done') {
    if (plan.checkpoint) {
      const swept = await bench.sweep(plan.checkpoint);
      before = swept.number;
      await emitSweep({ ctx, checkpoint: plan.checkpoint, ...swept });
    }
    const report = await bench.hook('on_task_done');
    if (report) await ctx.emit({ type: 'hooks', text: report }, report);
    const body = plan.steps.map((s) => `- ${s.id} ${s.title}: ${s.summary ?? ''}`).join('\n');
    const commit = await bench.commit('plan', `${plan.task.split('\n')[0]!.slice(0, 72)}\n\n${body}`);
    if (commit) await ctx.emit({ type: 'commit', commit }, `committed ${commit.slice(0, 10)} (auto_commit)`);
  }
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
  if (plan.status === 'paused') {
    return {
      data,
      text: `plan ${plan.id} paused: ${plan.reason}\n${tally}`,
      exitCode: 1,
      next: ctx.cmd('agent', '--resume'),
      or: `git show refs/forge/state:${PLAN_MARKDOWN}`,
    };
  }
  return {
    data,
    text: `plan ${plan.id} done: ${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'} passed their checks\n${tally}`,
    next: before ? ctx.cmd('diff', ...(before > 1 ? [before] : []), '--stat') : 'git diff --stat',
  };
}
