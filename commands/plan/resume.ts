// forge plan resume: clear a plan's kill switch.
import { defineCommand } from '../../lib/cli/declare';
import { assertOperator } from '../../lib/plans/operator';
import { assertId } from '../../lib/errors';
import { setPaused } from '../../lib/plans/contract';

export default defineCommand({
  name: 'plan resume',
  summary: "Clear a plan's kill switch",
  description: 'Resumes a paused plan contract (default: the active one); budget caps still apply. Journals plan_resumed.',
  args: {
    'plan-id': { type: 'string', tool: '', placeholder: 'ID', description: 'The plan to resume (default: the active one).' },
  },
  examples: [
    { command: 'forge plan resume', description: 'Let the agent go on.' },
    { command: 'forge plan resume --plan-id 2026-03-02-rate-limit', description: 'Resume a plan by its id.' },
  ],
  errors: {
    PLAN_OPERATOR_ONLY:
      'run inside a coding agent (Claude Code, Codex CLI, Gemini CLI, OpenCode, forge agent): the operator runs it from a terminal of their own',
    NO_ACTIVE_PLAN: 'no plan is active (and no --plan-id)',
    PLAN_NOT_FOUND: 'no activated plan with that id',
    PLAN_ENDED: 'the plan has ended',
    PLAN_UNREADABLE: 'the active plan pointer or the contract on the state ref cannot be read (activate --replace writes them anew)',
    NOT_PAUSED: 'the plan is not paused',
    PLAN_COMPLETE: 'the plan is complete',
    INVALID_ID: 'a plan id that is not a plain name',
    NOT_A_GIT_REPO: 'outside a git repository',
  },
  exits: { 0: 'resumed', 1: 'refused: no plan, ended, not paused, or complete', 2: 'invalid input, no such plan, or not a git repository' },
  mutates: true,
  // The operator's: an agent never gets it as a tool, and run inside an agent it is refused.
  mcp: false,
  async run(args, ctx) {
    const planId = args['plan-id'] === undefined ? undefined : assertId({ kind: 'plan id', value: args['plan-id'] });
    await assertOperator({
      action: 'forge plan resume',
      command: ctx.cmd('plan', 'resume', ...(args['plan-id'] === undefined ? [] : ['--plan-id', args['plan-id']])),
      pid: process.pid,
      ppid: process.ppid,
      env: ctx.env,
    });
    const c = await setPaused({ store: await ctx.store(), planId, reason: null, now: ctx.now(), cwd: ctx.cwd });
    return { data: { plan_id: c.plan_id, status: c.status }, text: `resumed ${c.plan_id}`, next: ctx.cmd('plan', 'status') };
  },
});
