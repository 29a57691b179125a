// forge plan activate: record a plan contract on the state ref and enter its first unit.
import { CONFINEMENT_ERRORS, locateWorkspace, resolveInside } from '../../lib/files/workspace';
import { defineCommand } from '../../lib/cli/declare';
import { workTreeRoot } from '../../lib/git/repo';
import { activatePlan } from '../../lib/plans/contract';

export default defineCommand({
  name: 'plan activate',
  summary: 'Make a plan contract the active one and enter its first unit',
  description:
    'Parses and validates the plan exactly as forge plan check --strict does (a legacy plan without envelopes is refused), records the contract at .forge/plans/<plan_id>.json on the state ref with the active pointer .forge/plans/active.json, and enters U1, journaling plan_unit_entered — all in one state commit. One plan gates at a time: while this plan or another is active or paused, activation is refused (PLAN_ALREADY_ACTIVE) unless --replace is given, which ends that plan (status ended, journaling plan_ended with the reason "replaced by …") and activates this one from its first unit in the same state commit — the way to take up an edited plan, or to switch plans. A complete or ended plan is activated again without --replace. Nothing is written when anything is refused.',
  args: {
    path: { type: 'string', required: true, placeholder: 'PATH', tool: '', description: 'The plan file (docs/plans/….md).' },
    replace: {
      type: 'boolean',
      tool: '',
      description: 'End the active or paused plan (this one, edited, or another) and activate this one from its first unit.',
    },
  },
  examples: [
    { command: 'forge plan activate --path docs/plans/2026-01-01-fixture-plan.md', description: 'Adopt a plan contract.' },
    {
      command: 'forge plan activate --path docs/plans/2026-01-01-fixture-plan.md --replace',
      description: 'Take up the plan again after editing it: it restarts at U1.',
    },
  ],
  errors: {
    PLAN_INVALID: 'the plan does not pass forge plan check',
    LEGACY_PLAN: 'the plan has no envelopes',
    PLAN_ALREADY_ACTIVE: 'this plan or another is active or paused (without --replace)',
    PLAN_UNREADABLE: 'the active plan pointer or a contract it would replace cannot be read (without --replace)',
    NOT_A_GIT_REPO: 'outside a git repository',
    ...CONFINEMENT_ERRORS,
  },
  exits: {
    0: 'activated',
    1: "refused: invalid, legacy or already active, or in git's own files",
    2: 'invalid input or not a git repository',
  },
  mutates: true,
  // --replace ends the plan that gates and restarts at U1: the same call again changes state again (not idempotent).
  mcp: { toolset: 'plans', effect: 'additive' },
  async run(args, ctx) {
    const store = await ctx.store();
    const root = (await workTreeRoot({ cwd: ctx.cwd }))?.root ?? ctx.cwd;
    // The plan is read from the work tree, by the rule the file tools keep.
    const { abs } = await resolveInside({ ws: await locateWorkspace({ cwd: ctx.cwd }), path: args.path });
    const { contract: c, ended } = await activatePlan({ store, root, abs, relPath: args.path, now: ctx.now(), replace: args.replace });
    const unit = c.units[0]!;
    return {
      data: { plan_id: c.plan_id, unit: unit.id, units: c.units.map((u) => u.id), status: c.status, ended: ended.map((e) => e.plan_id) },
      text: `${ended.map((e) => `ended ${e.plan_id} (was ${e.units[e.current] ? `at ${e.units[e.current]!.id}` : 'done'})\n`).join('')}activated ${c.plan_id} (${c.units.length} unit${c.units.length === 1 ? '' : 's'}); entered ${unit.id} — ${unit.title}: tools ${unit.allowed_tools.join(', ')}; paths ${unit.allowed_paths.join(', ')}`,
      next: ctx.cmd('plan', 'status'),
    };
  },
});
