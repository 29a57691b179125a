// forge iter update: record one attempt of a module and recompute stagnation.
import { defineCommand } from '../../lib/cli/declare';
import { assertId } from '../../lib/errors';
import { recordAttempt, STATUSES } from '../../lib/iter/iter';
import { DEFAULT_RUN } from './get';

export default defineCommand({
  name: 'iter update',
  summary: 'Record an attempt of a module (status, score, issues, root cause)',
  description:
    "Appends one attempt to the module's iteration state in one state commit and recomputes the score history and the stagnation flag. Stagnant means the latest attempt did not pass and either it failed with exactly the same non-empty set of issues as the attempt before, or over the last 3 scored attempts the score did not rise (velocity <= 0). forge validate records its attempts the same way.",
  args: {
    module: { type: 'string', tool: '', positional: true, required: true, placeholder: 'ID', description: 'The module id.' },
    status: { type: 'string', tool: '', choices: STATUSES, required: true, description: 'How the attempt ended.' },
    score: {
      type: 'number',
      tool: 'Share of checks passed',
      min: 0,
      max: 1,
      placeholder: 'N',
      description: 'The share of checks that passed, from 0 to 1.',
    },
    issue: { type: 'array', tool: '', placeholder: 'TEXT', description: 'One problem the attempt had.' },
    'root-cause': { type: 'string', tool: '', placeholder: 'TEXT', description: 'The diagnosed root cause.' },
  },
  examples: [
    {
      command: "forge iter update m3 --run-id demo --status failed --score 0.4 --issue 'auth.test fails'",
      description: 'Record a failed attempt.',
    },
    { command: 'forge iter update m3 --run-id demo --status passed --score 1', description: 'Record the passing one.' },
  ],
  errors: {
    INVALID_ID: 'a module or run id that is not a plain name',
    NOT_A_GIT_REPO: 'outside a git repository',
    STATE_CONFLICT: 'the state ref kept moving for a minute',
    STATE_INVALID: "the module's saved state is not one forge can read: it is not written over (iter reset starts it over)",
  },
  exits: {
    0: 'recorded',
    1: "the module's saved state cannot be read, or the state could not be updated",
    2: 'invalid input or not a git repository',
  },
  mutates: true,
  mcp: { title: 'Record an attempt', toolset: 'runs', effect: 'additive', idempotent: true },
  async run(args, ctx) {
    const moduleId = assertId({ kind: 'module id', value: args.module });
    const runId = ctx.runId ?? DEFAULT_RUN;
    const state = await recordAttempt({
      store: await ctx.store(),
      runId,
      moduleId,
      attempt: {
        timestamp: ctx.now().toISOString(),
        status: args.status,
        score: args.score ?? null,
        issues: args.issue,
        ...(args['root-cause'] ? { rootCause: args['root-cause'] } : {}),
      },
    });
    const attempt = state.attempts.length;
    return {
      data: { updated: true, runId, moduleId, attempt, stagnant: state.stagnant, lastStatus: state.lastStatus },
      text: `${runId}/${moduleId}: attempt ${attempt} ${args.status}${state.stagnant ? ' — stagnant: the same failure again or no progress' : ''}`,
      next: ctx.cmd('iter', 'get', moduleId, ...(ctx.runId ? [] : ['--run-id', runId])),
    };
  },
});
