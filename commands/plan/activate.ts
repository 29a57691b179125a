// forge plan activate: record a plan contract on the state ref and enter its first unit.
import { CONFINEMENT_ERRORS, locateWorkspace, resolveInside } from '../../lib/files/workspace';
import { defineCommand } from '../../lib/cli/declare';
import { workTreeRoot } from '../../lib/git/repo';
import { activatePlan, activeContract } from '../../lib/plans/contract';
import { assertOperator } from '../../lib/plans/operator';
import { gateLines, gateReports } from '../../lib/plans/liveness';

export default defineCommand({
  name: 'plan activate',
  summary: 'Make a plan contract the active one and enter its first unit',
  description:
    'Parses and validates the plan exactly as forge plan check --strict does (a legacy plan without envelopes is refused), records the contract at .forge/plans/<plan_id>.json on the state ref with the active pointer .forge/plans/active.json, and enters U1, journaling plan_unit_entered — all in one state commit. One plan gates at a time: while this plan or another is active or paused, activation is refused (PLAN_ALREADY_ACTIVE) unless --replace is given, which ends that plan (status ended, journaling plan_ended with the reason "replaced by …") and activates this one from its first unit in the same state commit — the way to take up an edited plan, or to switch plans. A complete or ended plan is activated again without --replace. Nothing is written when anything is refused. Last, for each agent whose gate is installed, it says whether that gate is live, as forge plan status does (gates in --json): an agent whose gate will not run is reported as running ungated.',
  args: {
    path: { type: 'string', required: true, placeholder: 'PATH', tool: '', description: 'The plan file (docs/plans/….md).' },
    replace: {
      type: 'boolean',
      tool: '',
      description: 'End the active or paused plan (this one, edited, or another) and activate this one from its first unit.',
    },
  },
  examples: [
    { command: 'forge plan activate --path docs/plans/2026-03-02-rate-limit-plan.md', description: 'Adopt a plan contract.' },
    {
      command: 'forge plan activate --path docs/plans/2026-03-02-rate-limit-plan.md --replace',
      description: 'Take up the plan again after editing it: it restarts at U1.',
    },
  ],
  errors: {
    PLAN_OPERATOR_ONLY:
      'a plan is active or paused and this runs inside a coding agent: the operator replaces a plan from a terminal of their own',
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
  // The operator's: an agent never gets it as a tool, and replacing a plan from inside an agent is refused.
  mcp: false,
  async run(args, ctx) {
    const store = await ctx.store();
    const root = (await workTreeRoot({ cwd: ctx.cwd }))?.root ?? ctx.cwd;
    // The plan is read from the work tree, by the rule the file tools keep.
    const { abs } = await resolveInside({ ws: await locateWorkspace({ cwd: ctx.cwd }), path: args.path });
    // Starting a plan when none gates is anyone's; changing the one that gates is the operator's.
    const current = await activeContract({ store }).catch(() => null);
    if (current && current.status !== 'complete')
      await assertOperator({
        action: 'replacing the active plan',
        command: ctx.cmd('plan', 'activate', '--path', args.path, ...(args.replace ? ['--replace'] : [])),
        pid: process.pid,
        ppid: process.ppid,
        env: ctx.env,
      });
    const { contract: c, ended } = await activatePlan({ store, root, abs, relPath: args.path, now: ctx.now(), replace: args.replace });
    const unit = c.units[0]!;
    // Which agents this plan really gates: an installed gate the agent will not run leaves it ungated.
    const gates = await gateReports({ cwd: ctx.cwd, env: ctx.env });
    return {
      data: {
        plan_id: c.plan_id,
        unit: unit.id,
        units: c.units.map((u) => u.id),
        status: c.status,
        ended: ended.map((e) => e.plan_id),
        gates,
      },
      text: [
        `${ended.map((e) => `ended ${e.plan_id} (was ${e.units[e.current] ? `at ${e.units[e.current]!.id}` : 'done'})\n`).join('')}activated ${c.plan_id} (${c.units.length} unit${c.units.length === 1 ? '' : 's'}); entered ${unit.id} — ${unit.title}: tools ${unit.allowed_tools.join(', ')}; paths ${unit.allowed_paths.join(', ')}`,
        ...gateLines(gates, { planActive: true }),
      ].join('\n'),
      next: ctx.cmd('plan', 'status'),
    };
  },
});
