// forge session save: snapshot a run's progress so a later session can resume it.
import { defineCommand } from '../../lib/cli/declare';
import { assertId, InvalidInputError } from '../../lib/errors';
import { saveSession } from '../../lib/session/session';
import { DEFAULT_RUN } from '../iter/get';

export default defineCommand({
  name: 'session save',
  summary: "Save a resumable snapshot of a run's phase and module statuses",
  description:
    "Writes .forge/sessions/<runId>.json on the state ref in one commit. Fields not given keep their saved values (none with --replace); module statuses merge by module. A saved file forge cannot read as a snapshot is refused (STATE_INVALID), not written over, unless --replace. completedCount and totalCount, when not given, are derived from the module statuses (done, passed, complete, merged and skipped count as complete). Every save stamps lastUpdatedAt. The run id defaults to 'default'.",
  args: {
    phase: { type: 'string', tool: '', placeholder: 'NAME', description: 'The current phase (plan, execute, validate…).' },
    'module-status': { type: 'array', tool: 'ID=STATUS', placeholder: 'ID=STATUS', description: 'A module and its status, e.g. m1=done.' },
    completed: { type: 'integer', tool: '', min: 0, placeholder: 'N', description: 'Modules completed (default: derived).' },
    total: { type: 'integer', tool: '', min: 0, placeholder: 'N', description: 'Modules in the run (default: derived).' },
    state: {
      type: 'object',
      tool: 'Extra fields, as a JSON object',
      placeholder: 'JSON',
      description: 'More fields to keep in the snapshot, as a JSON object.',
    },
    // Throwing away what is saved is the person's call: not offered to a model.
    replace: {
      type: 'boolean',
      personOnly: true,
      description: 'Start the snapshot afresh: keep nothing saved (and write over a file on the state ref that is not a snapshot).',
    },
  },
  examples: [
    {
      command: 'forge session save --run-id demo --phase execute --module-status m1=done --module-status m2=running',
      description: 'Save progress after m1.',
    },
    {
      command: 'echo \'{"run-id":"demo","phase":"validate","state":{"startedAt":"2026-04-15T10:00:00Z"}}\' | forge session save',
      description: 'The same through NDJSON, with an extra field.',
    },
  ],
  errors: {
    INVALID_ARGUMENT: 'a module status not written ID=STATUS, or state that is not an object',
    INVALID_ID: 'a run or module id that is not a plain name',
    NOT_A_GIT_REPO: 'outside a git repository',
    STATE_INVALID: 'the saved snapshot is not one forge can read (--replace writes it anew)',
  },
  exits: {
    0: 'saved',
    1: 'the saved snapshot cannot be read, or the state could not be updated',
    2: 'invalid input or not a git repository',
  },
  mutates: true,
  mcp: { title: 'Save a session', toolset: 'runs', effect: 'additive', idempotent: true },
  async run(args, ctx) {
    const runId = ctx.runId ?? DEFAULT_RUN;
    const moduleStatuses: Record<string, string> = {};
    for (const pair of args['module-status']) {
      const m = /^([^=]+)=(.+)$/.exec(pair);
      if (!m)
        throw new InvalidInputError('INVALID_ARGUMENT', `module status '${pair}' is not ID=STATUS`, { fix: 'forge session save --help' });
      moduleStatuses[assertId({ kind: 'module id', value: m[1]! })] = m[2]!;
    }
    const state = await saveSession({
      store: await ctx.store(),
      runId,
      now: ctx.now(),
      replace: args.replace,
      patch: {
        currentPhase: args.phase,
        moduleStatuses: args['module-status'].length ? moduleStatuses : undefined,
        completedCount: args.completed,
        totalCount: args.total,
        extra: args.state,
      },
    });
    return {
      data: { saved: true, runId, lastUpdatedAt: state.lastUpdatedAt },
      text: `saved session ${runId}: phase ${state.currentPhase ?? '-'}, ${state.completedCount}/${state.totalCount} modules complete`,
      next: ctx.cmd('session', 'load', ...(ctx.runId ? [] : ['--run-id', runId])),
    };
  },
});
