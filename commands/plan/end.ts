// forge plan end: stop the active plan before its last unit, so nothing is gated by it any more.
import { defineCommand } from '../../lib/cli/declare';
import { assertOperator } from '../../lib/plans/operator';
import { assertId, InvalidInputError } from '../../lib/errors';
import { endPlan } from '../../lib/plans/contract';

export default defineCommand({
  name: 'plan end',
  summary: 'End the active plan before its last unit: the gate stops',
  tool: 'End the active plan',
  description:
    'Ends a plan contract (default: the active one) that is active, paused or complete: its status becomes ended, the active pointer is cleared, and plan_ended is journaled with the reason — in one state commit. From then on preflight allows every call and forge plan status says no plan is active; the contract and its journal stay on the state ref. To take up an edited plan in one step, forge plan activate --path PATH --replace ends the old one and activates the new.',
  args: {
    'plan-id': { type: 'string', tool: '', placeholder: 'ID', description: 'The plan to end (default: the active one).' },
    reason: { type: 'string', placeholder: 'TEXT', tool: '', description: 'Why, for the journal (default: "ended by forge plan end").' },
  },
  examples: [
    { command: "forge plan end --reason 'scope changed: replanning'", description: 'Stop gating with the active plan.' },
    { command: 'forge plan end --plan-id 2026-03-02-rate-limit --json', description: 'End a plan by its id; one record.' },
  ],
  errors: {
    PLAN_OPERATOR_ONLY:
      'run inside a coding agent (Claude Code, Codex CLI, Gemini CLI, OpenCode, forge agent): the operator runs it from a terminal of their own',
    NO_ACTIVE_PLAN: 'no plan is active (and no --plan-id)',
    PLAN_NOT_FOUND: 'no activated plan with that id',
    PLAN_ENDED: 'the plan has ended already',
    PLAN_UNREADABLE: 'the active plan pointer or the contract on the state ref cannot be read (activate --replace writes them anew)',
    INVALID_ID: 'a plan id that is not a plain name',
    MISSING_ARGUMENT: 'a blank --reason',
    NOT_A_GIT_REPO: 'outside a git repository',
  },
  exits: { 0: 'ended', 1: 'refused: no plan, or ended already', 2: 'invalid input, no such plan, or not a git repository' },
  mutates: true,
  // The operator's: an agent never gets it as a tool, and run inside an agent it is refused.
  mcp: false,
  async run(args, ctx) {
    const planId = args['plan-id'] === undefined ? undefined : assertId({ kind: 'plan id', value: args['plan-id'] });
    if (args.reason !== undefined && !args.reason.trim())
      throw new InvalidInputError('MISSING_ARGUMENT', 'the reason must not be blank: leave --reason out for the default', {
        fix: 'forge plan end --help',
      });
    await assertOperator({
      action: 'forge plan end',
      command: ctx.cmd(
        'plan',
        'end',
        ...(args['plan-id'] === undefined ? [] : ['--plan-id', args['plan-id']]),
        ...(args.reason === undefined ? [] : ['--reason', args.reason]),
      ),
      pid: process.pid,
      ppid: process.ppid,
      env: ctx.env,
    });
    const c = await endPlan({ store: await ctx.store(), planId, reason: args.reason?.trim() ?? null, now: ctx.now(), cwd: ctx.cwd });
    const at = c.units[c.current];
    return {
      data: { plan_id: c.plan_id, status: c.status, unit: at?.id ?? null, source: c.source },
      text: `ended ${c.plan_id}${at ? ` at ${at.id} (${c.current} of ${c.units.length} units done)` : ''}: nothing is gated by it now`,
      next: ctx.cmd('plan', 'status'),
    };
  },
});
