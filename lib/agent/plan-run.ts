// Runs a plan's pending and failed steps: one after another in the work tree, or in groups at once each in its own worktree (parallel.ts), the plan saved as each step ends.
import { savePlan, stepSummary, type AgentPlan, type PlanStep } from './plan';
import { attemptStep, stepRoute, type PlanProgress, type PlanRunOptions } from './steps';

function planProgress(o: PlanRunOptions): PlanProgress {
  let plan: AgentPlan = { ...o.plan, status: 'running', reason: undefined };
  const save = async (message: string) => {
    plan = { ...plan, updatedAt: new Date().toISOString() };
    await savePlan({ store: o.store, plan, message });
  };
  return {
    plan: () => plan,
    save,
    done: async (step, { run }, changed) => {
      step.status = 'done';
      step.failure = undefined;
      step.summary = await stepSummary({ root: o.root, changed });
      await save(`step ${step.id} done`);
      await o.onPlanEvent({ type: 'step_done', step, index: plan.steps.indexOf(step), run });
    },
    failed: async (step, { run, verdict }) => {
      const index = plan.steps.indexOf(step);
      step.status = 'failed';
      step.failure = verdict.failure;
      plan = { ...plan, status: 'paused', reason: `step ${index + 1} (${step.id}) failed its check` };
      await save(`step ${step.id} failed; paused`);
      await o.onPlanEvent({ type: 'step_failed', step, index, run, verdict });
    },
  };
}

/** One step in the work tree itself: a checkpoint, an attempt, done or failed. False when it failed (the plan is paused). */
async function runStepHere(o: PlanRunOptions, progress: PlanProgress, step: PlanStep): Promise<boolean> {
  const plan = progress.plan();
  const index = plan.steps.indexOf(step);
  const cp = await o.checkpoint(`step ${index + 1} (${step.id}) of ${plan.id}: ${step.title}`);
  // The tree before the plan's first step: what the sweep and the auto-commit compare against.
  plan.checkpoint ??= cp ?? undefined;
  await o.onPlanEvent({ type: 'step_start', step, index, total: plan.steps.length, checkpoint: cp });
  const attempt = await attemptStep({ o, plan, step, root: o.root, tools: stepRoute(o, step).tools, guards: o.guards });
  if (!attempt.verdict.passed) {
    await progress.failed(step, attempt);
    return false;
  }
  await progress.done(step, attempt, cp ? await o.changedSince(cp) : attempt.run.files);
  return true;
}

/**
 * Runs the plan's pending and failed steps in order. Each step: a checkpoint, a fresh agent run on its
 * prompt, then forge validate. A step that passes gets its carry-forward summary; one that fails (or
 * whose run hit the turn limit) pauses the plan there, saved for --resume. With `parallel` above 1,
 * independent steps run at once, each in its own worktree (lib/agent/parallel.ts).
 */
export async function executePlan(o: PlanRunOptions): Promise<AgentPlan> {
  const progress = planProgress(o);
  await progress.save('running');
  const { stepGroups, runTogether } = await import('./parallel');
  for (const group of stepGroups(progress.plan(), o.toolsAt ? (o.parallel ?? 1) : 1)) {
    const ok = group.length === 1 ? await runStepHere(o, progress, group[0]!) : await runTogether({ o, progress, group, runStepHere });
    if (!ok) return progress.plan();
  }
  const plan: AgentPlan = { ...progress.plan(), status: 'done', updatedAt: new Date().toISOString() };
  await savePlan({ store: o.store, plan, message: 'done' });
  return plan;
}
