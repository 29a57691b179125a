// forge agent --dry-run: the first request (the planner's with --plan) exactly as it would be sent, and its size in tokens.
import type { Outcome, RunContext } from '../../lib/cli/declare';
import type { Attachments } from '../../lib/agent/attach';
import type { AgentTools } from '../../lib/agent/tools';
import type { AgentArgs } from './args';
import { withGitContext } from './setup';

/** --dry-run: the first request with the git context the profile asks for, sized against --budget (or the default). */
export async function dryRunWithGit({
  args,
  ctx,
  env,
  inRepo,
  tools,
  task,
  root,
  history,
  attachments,
}: {
  args: AgentArgs;
  ctx: RunContext;
  env: NodeJS.ProcessEnv;
  inRepo: boolean;
  tools: AgentTools;
  task: string;
  root: string;
  history: string | undefined;
  attachments: Attachments | undefined;
}): Promise<Outcome> {
  const [{ resolveAgentSettings }, { DEFAULT_BUDGET }] = await Promise.all([
    import('../../lib/agent/config-settings'),
    import('../../lib/agent/context'),
  ]);
  const settings = await resolveAgentSettings({ flags: { profile: args.profile }, env });
  const budget = args.budget ?? DEFAULT_BUDGET;
  const dry = await withGitContext({ mode: settings.gitContext.value, inRepo, cwd: ctx.cwd, tools, budget });
  return dryRunOutcome({ plan: args.plan, task, root, history, git: dry.git, tools: dry.tools, ctx, attachments, budget: args.budget });
}

/** --dry-run: the first request (the planner's with --plan) exactly as it would be sent, and its size. */
async function dryRunOutcome({
  plan,
  task,
  root,
  history,
  git,
  tools,
  ctx,
  attachments,
  budget,
}: {
  /** --budget as given: the request is checked against it as the run would check it (without it the run sizes the budget from the model). */
  budget: number | undefined;
  plan: boolean;
  task: string;
  root: string;
  history: string | undefined;
  git: string | null;
  tools: AgentTools;
  ctx: RunContext;
  attachments: Attachments | undefined;
}): Promise<Outcome> {
  const { enforceBudget, newBudgetState, requestTokens } = await import('../../lib/agent/context');
  if (plan) {
    const { plannerMessages } = await import('../../lib/agent/planner');
    const messages = await plannerMessages({
      task,
      root,
      git,
      ...(attachments ? { pinned: attachments.pinned, images: attachments.images } : {}),
    });
    const tokens = await requestTokens({ messages });
    return {
      data: { request: { messages }, tokens },
      text: `${JSON.stringify({ messages }, null, 2)}\n${tokens} tokens (o200k_base): the planner's request`,
      next: ctx.cmd('agent', '--plan', task),
    };
  }
  const { firstRequest, fixedPromptTokens } = await import('../../lib/agent/agent');
  const request = await firstRequest({ task, root, history, git, tools, attachments });
  const fixed = await fixedPromptTokens(request.tools);
  const tokens = await requestTokens(request);
  // What the run would refuse before sending anything (BUDGET_TOO_SMALL), the dry run refuses too.
  if (budget !== undefined)
    await enforceBudget({
      messages: structuredClone(request.messages),
      tools: request.tools,
      budget,
      state: newBudgetState(),
      pinned: (await attachments?.pinned.budgetText()) ?? null,
    });
  return {
    data: { request, tokens, fixedTokens: fixed },
    text: `${JSON.stringify(request, null, 2)}\n${tokens} tokens (o200k_base), ${fixed} of them the fixed prompt (system prompt and tool schemas, without conventions)`,
    next: ctx.cmd('agent', task),
  };
}
