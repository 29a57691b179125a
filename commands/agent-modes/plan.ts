// forge agent --plan and --resume: plan mode run with the git context, tools and pinned files it needs, and how it ended as the command's answer.
import { join, relative } from 'node:path';
import type { Outcome, RunContext } from '../../lib/cli/declare';
import type { Attachments } from '../../lib/agent/attach';
import type { RetryPolicy } from '../../lib/agent/chat';
import type { ModelConfig } from '../../lib/agent/config-types';
import type { ModelContext } from '../../lib/agent/context';
import { PLAN_MARKDOWN, type AgentPlan } from '../../lib/agent/plan';
import type { PlanModeEnd } from '../../lib/agent/plan-mode';
import type { AgentTools } from '../../lib/agent/tools';
import type { Workbench } from '../../lib/agent/workbench';
import type { AgentArgs } from './args';
import { noVisionFix } from './fixes';
import type { LiveView } from './live-view';

/** Plan mode (--plan, --resume): the planner and every step get the git context the profile asks for, where and when each runs, and the pinned files. */
export async function planModeOutcome({
  args,
  ctx,
  config,
  root,
  env,
  bench,
  retry,
  view,
  plan,
  agentTools,
  entries,
}: {
  args: AgentArgs;
  ctx: RunContext;
  config: ModelConfig;
  root: string;
  env: NodeJS.ProcessEnv;
  bench: Workbench;
  retry: Partial<RetryPolicy>;
  view: LiveView;
  plan: {
    task: string;
    resumedPlan: AgentPlan | null;
    planId: string;
    runId: string;
    attachments: Attachments | undefined;
    budget: number;
    context: ModelContext | null;
  };
  agentTools: typeof import('../../lib/cli/agent-tools').agentTools;
  entries: Parameters<typeof import('../../lib/cli/agent-tools').agentTools>[0]['entries'];
}): Promise<Outcome> {
  const [{ runPlanMode }, { gitContext }, { gitContextTool, mergeTools }] = await Promise.all([
    import('../../lib/agent/plan-mode'),
    import('../../lib/git/context'),
    import('../../lib/agent/tools'),
  ]);
  const mode = config.gitContext.value;
  // With git_context "tool", a step in its own worktree gets the tool reading that worktree.
  const gitToolAt = (tools: AgentTools, cwd: string) =>
    mode === 'tool' ? mergeTools(tools, gitContextTool({ cwd, read: (at) => gitContext({ cwd: at }) })) : tools;
  const { task, resumedPlan, planId, runId, attachments, budget, context } = plan;
  const end = await runPlanMode({
    args: {
      task,
      resume: resumedPlan,
      planId,
      runId,
      yes: args.yes,
      maxTurns: args['max-turns'],
      budget,
      modelContext: context,
      parallel: args.parallel ?? config.parallelSteps.value,
      ...(attachments ? { attachments } : {}),
      ...(mode === 'preamble' ? { gitAt: (cwd: string) => gitContext({ cwd, maxChars: budget / 2 }) } : {}),
    },
    io: ctx,
    repo: await ctx.repo(),
    store: await ctx.store(),
    cwd: ctx.cwd,
    config,
    root,
    env,
    bench,
    retry,
    onEvent: view.onEvent,
    // A step that runs at once with others works in its own worktree: the same tools, at that worktree.
    toolsAt: (dir) => gitToolAt(agentTools({ entries, cwd: join(dir, relative(root, ctx.cwd)), root: dir, env }), dir),
  }).catch((err: unknown) => {
    throw noVisionFix({ err, args, ctx, task, session: null, planner: true });
  });
  return planOutcome(end, ctx);
}

/** How plan mode ended, as the command's answer and its hint. */
function planOutcome(end: PlanModeEnd, ctx: RunContext): Outcome {
  const { plan } = end;
  const onTheRef = `git show refs/forge/state:${PLAN_MARKDOWN}`;
  if (end.ended === 'unapproved')
    return {
      data: { plan: plan.id, status: plan.status, estimate: plan.estimate },
      text: `plan ${plan.id} saved, not run: not approved (no terminal to ask on, or the review was closed)`,
      next: ctx.cmd('agent', '--resume', '--yes'),
      or: onTheRef,
    };
  if (end.ended === 'cancelled')
    return {
      data: { plan: plan.id, status: plan.status },
      text: `plan ${plan.id} cancelled; nothing was run`,
      exitCode: 1,
      next: ctx.cmd('agent', '--plan', plan.task),
    };
  if (end.ended === 'paused')
    return {
      data: end.data,
      text: `plan ${plan.id} paused: ${plan.reason}\n${end.tally}`,
      exitCode: 1,
      next: ctx.cmd('agent', '--resume'),
      or: onTheRef,
    };
  return {
    data: end.data,
    text: `plan ${plan.id} done: ${plan.steps.length === 1 ? '1 step passed its check' : `${plan.steps.length} steps passed their checks`}\n${end.tally}`,
    next: end.before ? ctx.cmd('diff', ...(end.before > 1 ? [end.before] : []), '--stat') : 'git diff --stat',
  };
}
