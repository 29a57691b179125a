// forge plan status: the active plan, its current unit, budgets used and the kill switch.
import { defineCommand } from '../../lib/cli/declare';
import { ForgeError } from '../../lib/errors';
import { STATE_REF } from '../../lib/git/state';
import { ACTIVE_PATH, activationCommand, activeContract } from '../../lib/plans/contract';
import { gateLines, gateReports } from '../../lib/plans/liveness';

export default defineCommand({
  name: 'plan status',
  summary: 'Show the active plan: current unit, budgets used, kill switch',
  description:
    "Reads the active plan contract from the state ref: its current unit and what that unit allows, the budgets used against the caps of the blast radius, and whether the kill switch is on (with its reason). Then, for each agent whose gate is installed where it could load it (forge plan install-hook), whether the gate is live: in a file the agent reads (a project's .claude/settings.json or .gemini/settings.json only when the agent starts in that directory), trusted (Codex's recorded hook and project trust, Gemini CLI's trusted folders), not turned off, and run by a release that blocks a call forge cannot answer (claude --version against 2.1.295, codex --version against 0.124.0: one short --version per agent). An agent whose gate is not live runs ungated, and is reported so. --json carries gates: [{agent, live, state, file, scope, startAt, version, reason, fix}], state one of live, not-loaded, untrusted, disabled, too-old, fails-open. Read-only. No active plan is an answer, not an error.",
  args: {},
  examples: [{ command: 'forge plan status --json', description: 'The active contract as one record.' }],
  errors: {
    NOT_A_GIT_REPO: 'outside a git repository',
    PLAN_UNREADABLE: 'a plan is active but its pointer or contract on the state ref cannot be read',
  },
  exits: { 0: 'shown (or no active plan)', 1: 'the active plan cannot be read', 2: 'not a git repository' },
  mutates: false,
  mcp: { title: 'Show the active plan', toolset: 'plans', effect: 'read' },
  async run(_args, ctx) {
    const c = await activeContract({ store: await ctx.store() }).catch((err: unknown) => {
      // The gate's hint is this command; here the next step is to look at the state itself.
      if (err instanceof ForgeError && err.code === 'PLAN_UNREADABLE') err.fix = `git show ${STATE_REF}:${ACTIVE_PATH}`;
      throw err;
    });
    const gates = await gateReports({ cwd: ctx.cwd, env: ctx.env });
    if (!c)
      return {
        data: { active: false, gates },
        text: ['no active plan', ...gateLines(gates, { planActive: false })].join('\n'),
        next: await activationCommand({ cwd: ctx.cwd }),
      };
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
      ...gateLines(gates, { planActive: c.status !== 'complete' }),
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
        gates,
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
