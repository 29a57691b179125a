// forge plan pause: engage a plan's kill switch, with a reason every later refusal will show.
import { defineCommand } from '../../lib/cli/declare';
import { assertOperator } from '../../lib/plans/operator';
import { assertId, InvalidInputError } from '../../lib/errors';
import { setPaused } from '../../lib/plans/contract';

export default defineCommand({
  name: 'plan pause',
  summary: "Engage a plan's kill switch (the reason is mandatory)",
  tool: "Engage a plan's kill switch",
  description:
    'Pauses a plan contract (default: the active one): every tool call gated by it is refused until forge plan resume, and each refusal shows the reason. Journals plan_paused. The reason must not be blank.',
  args: {
    'plan-id': { type: 'string', tool: '', placeholder: 'ID', description: 'The plan to pause (default: the active one).' },
    reason: { type: 'string', required: true, placeholder: 'TEXT', description: 'Why: shown on every refusal while paused.' },
  },
  examples: [
    { command: "forge plan pause --reason 'waiting for review'", description: 'Stop the agent at the next tool call.' },
    { command: "forge plan pause --plan-id 2026-03-02-rate-limit --reason 'waiting for review'", description: 'Pause a plan by its id.' },
  ],
  errors: {
    PLAN_OPERATOR_ONLY:
      'run inside a coding agent (Claude Code, Codex CLI, Gemini CLI, OpenCode, forge agent): the operator runs it from a terminal of their own',
    NO_ACTIVE_PLAN: 'no plan is active (and no --plan-id)',
    PLAN_NOT_FOUND: 'no activated plan with that id',
    PLAN_ENDED: 'the plan has ended',
    PLAN_UNREADABLE: 'the active plan pointer or the contract on the state ref cannot be read (activate --replace writes them anew)',
    PLAN_COMPLETE: 'the plan is complete',
    INVALID_ID: 'a plan id that is not a plain name',
    MISSING_ARGUMENT: 'a blank reason',
    NOT_A_GIT_REPO: 'outside a git repository',
  },
  exits: { 0: 'paused', 1: 'refused: no plan, ended or complete', 2: 'invalid input, no such plan, or not a git repository' },
  mutates: true,
  // The operator's: an agent never gets it as a tool, and run inside an agent it is refused.
  mcp: false,
  async run(args, ctx) {
    const planId = args['plan-id'] === undefined ? undefined : assertId({ kind: 'plan id', value: args['plan-id'] });
    if (!args.reason.trim())
      throw new InvalidInputError('MISSING_ARGUMENT', 'the reason must not be blank: it is shown on every refusal', {
        fix: 'forge plan pause --help',
      });
    await assertOperator({
      action: 'forge plan pause',
      command: ctx.cmd('plan', 'pause', ...(args['plan-id'] === undefined ? [] : ['--plan-id', args['plan-id']]), '--reason', args.reason),
      pid: process.pid,
      ppid: process.ppid,
      env: ctx.env,
    });
    const c = await setPaused({ store: await ctx.store(), planId, reason: args.reason.trim(), now: ctx.now(), cwd: ctx.cwd });
    return {
      data: { plan_id: c.plan_id, status: c.status, reason: c.pausedReason },
      text: `paused ${c.plan_id}: ${c.pausedReason}`,
      next: ctx.cmd('plan', 'resume', ...(planId === undefined ? [] : ['--plan-id', c.plan_id])),
    };
  },
});
