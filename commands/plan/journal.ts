// forge plan journal: what the plan gate decided, as NDJSON — the operator's drift review.
import { defineCommand } from '../../lib/cli/declare';
import { assertId } from '../../lib/errors';
import { readJournal } from '../../lib/plans/lifecycle';

export default defineCommand({
  name: 'plan journal',
  summary: 'List the plan journal: units entered, refusals, acknowledgements, budget breaches',
  tool: 'The plan journal: units, refusals, acknowledgements',
  description:
    "Streams the journal of plan contracts from the state ref, oldest first: plan_unit_entered, plan_advance, plan_completed (Decision), plan_breach_refused and plan_budget_breach (Observation), plan_breach_acknowledged (Action), plan_paused, plan_resumed and plan_ended (with the reason: forge plan end, or replaced by activate --replace) — each with timestamp, plan_id, unit, and where they apply tool, path, reason, breach and posture. --filter plans is the only journal there is today (the flag matches the seed's journal export). Read-only.",
  args: {
    'plan-id': { type: 'string', tool: '', placeholder: 'ID', description: 'Only this plan.' },
    verb: {
      type: 'string',
      tool: '',
      choices: [
        'plan_unit_entered',
        'plan_advance',
        'plan_completed',
        'plan_breach_refused',
        'plan_budget_breach',
        'plan_breach_acknowledged',
        'plan_paused',
        'plan_resumed',
        'plan_ended',
      ],
      description: 'Only this verb.',
    },
    filter: { type: 'string', tool: '', choices: ['plans'], default: 'plans', description: 'Which journal entries (plan contracts).' },
    limit: { type: 'integer', tool: 'Newest N', min: 1, placeholder: 'N', description: 'Only the newest N entries.' },
  },
  examples: [
    { command: 'forge plan journal --filter plans --json', description: 'Every plan entry as NDJSON.' },
    { command: 'forge plan journal --verb plan_breach_refused', description: 'What the gate refused.' },
  ],
  errors: { INVALID_ID: 'a plan id that is not a plain name', NOT_A_GIT_REPO: 'outside a git repository' },
  exits: { 0: 'listed (possibly nothing)', 2: 'invalid input or not a git repository' },
  mutates: false,
  mcp: { title: 'Show the plan journal', toolset: 'plans', effect: 'read' },
  async run(args, ctx) {
    const planId = args['plan-id'] === undefined ? undefined : assertId({ kind: 'plan id', value: args['plan-id'] });
    const { entries, corrupt } = await readJournal({ store: await ctx.store(), planId, verb: args.verb });
    const shown = args.limit === undefined ? entries : entries.slice(-args.limit);
    for (const e of shown) {
      const where = [e.tool, e.path].filter(Boolean).join(' ');
      await ctx.emit(
        { type: 'entry', ...e },
        `${e.timestamp}  ${e.plan_id}  ${e.unit ?? '-'}  ${e.verb}${where ? `  ${where}` : ''}${e.reason ? `  — ${e.reason}` : ''}`,
      );
    }
    const note = corrupt ? ` (${corrupt} unreadable line${corrupt === 1 ? '' : 's'} skipped)` : '';
    return {
      data: { entries: shown.length, total: entries.length, corrupt },
      text: shown.length
        ? `${shown.length} of ${entries.length} entries${note}`
        : `no journal entries${planId ? ` for ${planId}` : ''}${note}`,
      next: shown.length ? null : ctx.cmd('plan', 'status'),
    };
  },
});
