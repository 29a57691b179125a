// forge plan status: the active plan, its current unit, budgets used and the kill switch.
import { defineCommand } from '../../lib/cli/declare';
import { ForgeError } from '../../lib/errors';
import { STATE_REF } from '../../lib/git/state';
import { ACTIVE_PATH, activationCommand, activeContract } from '../../lib/plans/contract';

export default defineCommand({
  name: 'plan status',
  summary: 'Show the active plan: current unit, budgets used, kill switch',
  description:
    'Reads the active plan contract from the state ref: its current unit and what that unit allows, the budgets used against the caps of the blast radius, and whether the kill switch is on (with its reason). Read-only. No active plan is an answer, not an error.',
  args: {},
  examples: [{ command: 'forge plan status --json', description: 'The active contract as one record.' }],
  errors: {
    NOT_A_GIT_REPO: 'outside a git repository',
    PLAN_UNREADABLE: 'a plan is active but its pointer or contract on the state ref cannot be read',
  },
  exits: { 0: 'shown (or no active plan)', 1: 'the active plan cannot be read', 2: 'not a git repository' },
  mutates: false,
  mcp: { toolset: 'plans', effect: 'read' },
  async run(_args, ctx) {
    const c = await activeContract({ store: await ctx.store() }).catch((err: unknown) => {
      // The gate's hint is this command; here the next step is to look at the state itself.
      if (err instanceof ForgeError && err.code === 'PLAN_UNREADABLE') err.fix = `git show ${STATE_REF}:${ACTIVE_PATH}`;
      throw err;
    });
    if (!c) return { data: { active: false }, text: 'no active plan', next: await activationCommand({ cwd: ctx.cwd }) };
    const unit = c.units[c.current];
    const caps = c.envelope.parent_blast_radius.budget_caps ?? {};
    const budget = [
      `runs ${c.used.runs.length}${caps.runs !== undefined ? `/${caps.runs}` : ''}`,
      `tokens ${c.used.tokens}${caps.tokens !== undefined ? `/${caps.tokens}` : ''}`,
      `files ${c.used.files.length}${caps.files_changed !== undefined ? `/${caps.files_changed}` : ''}`,
    ].join(', ');
    const lines = [
      `${c.plan_id}: ${c.status}${c.status === 'paused' ? ` — kill switch on: ${c.pausedReason}` : ''}`,
      unit
        ? `unit ${unit.id} (${c.current + 1} of ${c.units.length}) — ${unit.title}: tools ${unit.allowed_tools.join(', ')}; paths ${unit.allowed_paths.join(', ')}${unit.context_tokens_expected !== undefined ? `; tokens ${c.used.unitTokens}/${unit.context_tokens_expected} expected` : ''}`
        : `all ${c.units.length} units done`,
      ...(c.pendingBreach ? [`waiting for ack: ${c.pendingBreach.reason}`] : []),
      ...(c.grant ? [`acknowledged, unused: ${c.grant.tool}${c.grant.paths.length ? ` on ${c.grant.paths.join(', ')}` : ''}`] : []),
      `budgets used: ${budget}`,
      `source: ${c.source}`,
    ];
    return {
      data: {
        active: c.status !== 'complete',
        plan_id: c.plan_id,
        status: c.status,
        pausedReason: c.pausedReason,
        unit: unit?.id ?? null,
        unitIndex: c.current,
        units: c.units.map((u) => u.id),
        used: c.used,
        caps,
        pendingBreach: c.pendingBreach,
        grant: c.grant,
        source: c.source,
      },
      text: lines.join('\n'),
      next:
        c.status === 'paused'
          ? ctx.cmd('plan', 'resume')
          : c.pendingBreach
            ? ctx.cmd('plan', 'ack')
            : c.status === 'active'
              ? ctx.cmd('plan', 'advance')
              : null,
    };
  },
});
