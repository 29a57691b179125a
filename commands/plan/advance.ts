// forge plan advance: leave the current unit with its evidence, entering the next or completing the plan.
import { defineCommand } from '../../lib/cli/declare';
import { assertId } from '../../lib/errors';
import { workTreeRoot } from '../../lib/git/repo';
import { advance } from '../../lib/plans/lifecycle';
import { runShell } from '../../lib/process/program';

export default defineCommand({
  name: 'plan advance',
  summary: 'Move the active plan to its next unit once the evidence holds',
  description:
    "Checks the current unit's advance_evidence_required — verification_pass: true runs the unit's verification command through sh at the top of the repository (the whole process group is killed after --timeout) and needs exit 0 — then journals plan_advance (with the evidence) and plan_unit_entered for the next unit, in one state commit. After the last unit the plan is complete (plan_completed) and preflight stops gating. A failed verification changes nothing and shows the tail of the output. --evidence adds notes to the journal entry. Refused while the kill switch is on.",
  args: {
    'plan-id': { type: 'string', tool: '', placeholder: 'ID', description: 'The plan (default: the active one).' },
    evidence: { type: 'array', placeholder: 'TEXT', description: 'A note for the journal: what shows the unit is done.' },
    timeout: {
      type: 'integer',
      tool: 'Seconds for the verify command',
      min: 1,
      default: 600,
      placeholder: 'SECONDS',
      description: 'Time allowed for the verification command.',
    },
  },
  examples: [
    { command: 'forge plan advance --evidence "src/app.ts handles the empty case"', description: 'U1 is done: enter U2.' },
    { command: 'forge plan advance --json', description: 'Run the verification and advance; one record.' },
  ],
  errors: {
    VERIFICATION_FAILED: "the unit's verification command failed",
    NO_ACTIVE_PLAN: 'no plan is active',
    PLAN_NOT_FOUND: 'no activated plan with that id',
    PLAN_ENDED: 'the plan has ended',
    PLAN_UNREADABLE: 'the active plan pointer or the contract on the state ref cannot be read (activate --replace writes them anew)',
    PLAN_PAUSED: 'the kill switch is on',
    PLAN_COMPLETE: 'every unit is done',
    PLAN_CHANGED: 'the plan moved while the verification ran',
    INVALID_ID: 'a plan id that is not a plain name',
    NOT_A_GIT_REPO: 'outside a git repository',
  },
  exits: {
    0: 'advanced (or completed)',
    1: 'refused: verification failed, paused, complete or no plan',
    2: 'invalid input or not a git repository',
  },
  mutates: true,
  mcp: { title: 'Advance the plan', toolset: 'plans', effect: 'destructive', openWorld: true },
  async run(args, ctx) {
    const planId = args['plan-id'] === undefined ? undefined : assertId({ kind: 'plan id', value: args['plan-id'] });
    const root = (await workTreeRoot({ cwd: ctx.cwd }))?.root ?? ctx.cwd;
    const r = await advance({
      store: await ctx.store(),
      planId,
      evidence: args.evidence,
      now: ctx.now(),
      verify: (command) => runShell({ command, cwd: root, timeoutMs: args.timeout * 1000, env: ctx.env, signal: ctx.signal }),
      cwd: ctx.cwd,
    });
    const verified = r.verification
      ? `verification passed: ${r.verification.command} (${(r.verification.durationMs / 1000).toFixed(1)} s)\n`
      : '';
    const data = {
      plan_id: r.contract.plan_id,
      from: r.from.id,
      to: r.to?.id ?? null,
      status: r.to ? 'active' : 'complete',
      verification: r.verification
        ? { command: r.verification.command, exitCode: r.verification.exitCode, durationMs: r.verification.durationMs }
        : null,
    };
    if (!r.to) return { data, text: `${verified}${r.contract.plan_id}: ${r.from.id} done — the plan is complete`, next: null };
    return {
      data,
      text: `${verified}${r.contract.plan_id}: ${r.from.id} done; entered ${r.to.id} — ${r.to.title}: tools ${r.to.allowed_tools.join(', ')}; paths ${r.to.allowed_paths.join(', ')}`,
      next: ctx.cmd('plan', 'status'),
    };
  },
});
