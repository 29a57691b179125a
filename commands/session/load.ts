// forge session load: read a run's saved snapshot.
import { defineCommand } from '../../lib/cli/declare';
import { loadSession } from '../../lib/session/session';
import { DEFAULT_RUN } from '../iter/get';

export default defineCommand({
  name: 'session load',
  summary: "Load a run's saved snapshot to resume it",
  description:
    "Reads .forge/sessions/<runId>.json from the state ref. A run with no snapshot answers found: false (not an error) and points at the list. The run id defaults to 'default'. Read-only.",
  args: {},
  examples: [{ command: 'forge session load --run-id demo', description: 'Where did run demo stop?' }],
  errors: {
    INVALID_ID: 'a run id that is not a plain name',
    NOT_A_GIT_REPO: 'outside a git repository',
    STATE_INVALID: 'the saved snapshot is not one forge can read',
  },
  exits: { 0: 'loaded, or found: false', 1: 'the saved snapshot cannot be read', 2: 'invalid input or not a git repository' },
  mutates: false,
  mcp: { title: 'Load a session', toolset: 'runs', effect: 'read' },
  async run(_args, ctx) {
    const runId = ctx.runId ?? DEFAULT_RUN;
    const state = await loadSession({ store: await ctx.store(), runId });
    if (!state) {
      return { data: { found: false, runId }, text: `no saved session for run ${runId}`, next: ctx.cmd('session', 'list') };
    }
    const modules = Object.entries(state.moduleStatuses ?? {}).map(([m, s]) => `  ${m}: ${s}`);
    return {
      data: { found: true, ...state },
      text: [
        `session ${runId}: phase ${state.currentPhase ?? '-'}, ${state.completedCount}/${state.totalCount} modules complete, saved ${state.lastUpdatedAt}`,
        ...modules,
      ].join('\n'),
      next: null,
    };
  },
});
