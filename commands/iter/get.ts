// forge iter get: a module's retry state in a run.
import { defineCommand } from '../../lib/cli/declare';
import { assertId } from '../../lib/errors';
import { getIter } from '../../lib/iter/iter';

export const DEFAULT_RUN = 'default';

export default defineCommand({
  name: 'iter get',
  summary: "Show a module's attempts, scores and stagnation flag",
  description:
    "Reads .forge/iterations/<runId>/<moduleId>.json from the state ref: every attempt (timestamp, status, score, issues), the score history, the last status and root cause, and whether the module is stagnant. A module never attempted is a clean empty state. The run id defaults to 'default'. Read-only.",
  args: {
    module: { type: 'string', tool: '', positional: true, required: true, placeholder: 'ID', description: 'The module id.' },
  },
  examples: [{ command: 'forge iter get m3 --run-id 2026-04-15-1', description: 'How often has m3 been tried in this run?' }],
  errors: {
    INVALID_ID: 'a module or run id that is not a plain name',
    NOT_A_GIT_REPO: 'outside a git repository',
    STATE_INVALID: "the module's saved state is not one forge can read (iter reset starts it over)",
  },
  exits: { 0: 'shown', 1: "the module's saved state cannot be read", 2: 'invalid input or not a git repository' },
  mutates: false,
  mcp: { title: 'Show retry state', toolset: 'runs', effect: 'read' },
  async run(args, ctx) {
    const moduleId = assertId({ kind: 'module id', value: args.module });
    const runId = ctx.runId ?? DEFAULT_RUN;
    const state = await getIter({ store: await ctx.store(), runId, moduleId });
    const n = state.attempts.length;
    const text = n
      ? [
          `${runId}/${moduleId}: ${n} attempt${n === 1 ? '' : 's'}, last ${state.lastStatus}${state.stagnant ? ', STAGNANT' : ''}`,
          ...state.attempts.map(
            (a, i) =>
              `  ${i + 1}. ${a.timestamp} ${a.status}${a.score === null ? '' : ` score ${a.score}`}${a.issues.length ? ` — ${a.issues.join('; ')}` : ''}`,
          ),
          ...(state.lastRootCause ? [`  root cause: ${state.lastRootCause}`] : []),
        ].join('\n')
      : `${runId}/${moduleId}: no attempts yet`;
    return {
      data: { ...state },
      text,
      next: state.stagnant ? ctx.cmd('logs', '--run-id', runId, '--module', moduleId) : null,
    };
  },
});
