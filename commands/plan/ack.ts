// forge plan ack: acknowledge the last soft refusal so the same call runs once under the parent rails.
import { defineCommand } from '../../lib/cli/declare';
import { assertId } from '../../lib/errors';
import { acknowledge } from '../../lib/plans/lifecycle';

export default defineCommand({
  name: 'plan ack',
  summary: 'Acknowledge the last soft refusal: the same call may run once under the parent rails',
  description:
    "After a soft refusal (plan breach: tools or plan breach: paths — outside the current unit's narrowing but within the plan's parent rails), acknowledges it: the next preflight of the same tool on the same paths passes once, and the acknowledgement is used up. The next step is the refused call itself, once: an agent makes its tool call again and its hook lets it through (a forge plan preflight of the call first would use the acknowledgement up), so the text says 'Next: retry the same call … once'; in JSON, _next_action is that retry as forge plan preflight --tool … --path …, for a program that gates its own calls with it. Hard refusals (kill switch, budget caps, rails, surface, blast radius, a later unit's call) cannot be acknowledged. Journals plan_breach_acknowledged. Defaults to the active plan.",
  args: {
    'plan-id': { type: 'string', tool: '', placeholder: 'ID', description: 'The plan (default: the active one).' },
  },
  examples: [{ command: 'forge plan ack', description: 'Let the call just refused run once.' }],
  errors: {
    NO_SOFT_BREACH: 'no soft refusal is waiting (none, already acknowledged, or a hard one)',
    NO_ACTIVE_PLAN: 'no plan is active',
    PLAN_NOT_FOUND: 'no activated plan with that id',
    PLAN_ENDED: 'the plan has ended',
    PLAN_UNREADABLE: 'the active plan pointer or the contract on the state ref cannot be read (activate --replace writes them anew)',
    PLAN_PAUSED: 'the kill switch is on',
    INVALID_ID: 'a plan id that is not a plain name',
    NOT_A_GIT_REPO: 'outside a git repository',
  },
  exits: { 0: 'acknowledged', 1: 'refused: nothing to acknowledge, no plan, or paused', 2: 'invalid input or not a git repository' },
  mutates: true,
  mcp: { title: 'Acknowledge a refusal', toolset: 'plans', effect: 'additive', idempotent: true },
  async run(args, ctx) {
    const planId = args['plan-id'] === undefined ? undefined : assertId({ kind: 'plan id', value: args['plan-id'] });
    const { contract, grant } = await acknowledge({ store: await ctx.store(), planId, now: ctx.now(), cwd: ctx.cwd });
    const call = `${grant.tool}${grant.paths.length ? ` on ${grant.paths.join(', ')}` : ''}`;
    return {
      data: { plan_id: contract.plan_id, unit: grant.unit, tool: grant.tool, paths: grant.paths, breach: grant.breach },
      text: `acknowledged in ${contract.plan_id} ${grant.unit}: ${grant.reason}\nthe same call (${call}) may run once under the parent rails`,
      // The step is the refused call itself, made again by whoever made it; a preflight of it first
      // would pass in its place and use the acknowledgement up. A program that gates its own calls
      // with forge plan preflight makes that retry with the command in _next_action.
      nextText: `retry the same call (${call}) once; its gate lets it through`,
      next: ctx.cmd('plan', 'preflight', '--tool', grant.tool, ...grant.paths.flatMap((p) => ['--path', p])),
    };
  },
});
