// forge iter reset: clear a module's (or a whole run's) retry state.
import { defineCommand } from '../../lib/cli/declare';
import { assertId, InvalidInputError } from '../../lib/errors';
import { resetIter } from '../../lib/iter/iter';
import { DEFAULT_RUN } from './get';

export default defineCommand({
  name: 'iter reset',
  summary: "Clear a module's retry state, or every module's in the run",
  description:
    'Removes .forge/iterations/<runId>/<moduleId>.json (or, with --all, every module of the run) in one state commit, so the next attempt counts from 1. The history stays in git: `git log refs/forge/state` shows the commit that removed it.',
  args: {
    module: { type: 'string', tool: '', positional: true, placeholder: 'ID', description: 'The module id (omit with --all).' },
    all: { type: 'boolean', tool: 'Every module', description: 'Reset every module of the run.' },
  },
  examples: [
    { command: 'forge iter reset m3 --run-id demo', description: 'Start m3 over.' },
    { command: 'forge iter reset --all --run-id demo', description: 'Start the whole run over.' },
  ],
  errors: {
    MISSING_ARGUMENT: 'neither a module nor --all',
    INVALID_ID: 'a module or run id that is not a plain name',
    NOT_A_GIT_REPO: 'outside a git repository',
  },
  exits: { 0: 'reset (or nothing to reset)', 1: 'the state could not be updated', 2: 'invalid input or not a git repository' },
  mutates: true,
  mcp: { title: 'Reset retry state', toolset: 'runs', effect: 'destructive', idempotent: true },
  async run(args, ctx) {
    if (!args.module && !args.all)
      throw new InvalidInputError('MISSING_ARGUMENT', 'name a module to reset, or pass --all', { fix: 'forge iter reset --help' });
    if (args.module && args.all)
      throw new InvalidInputError('INVALID_ARGUMENT', 'give a module or --all, not both', { fix: 'forge iter reset --help' });
    const moduleId = args.module ? assertId({ kind: 'module id', value: args.module }) : undefined;
    const runId = ctx.runId ?? DEFAULT_RUN;
    const removed = await resetIter({ store: await ctx.store(), runId, moduleId });
    return {
      data: { reset: removed.length > 0, runId, modules: removed },
      text: removed.length
        ? `reset ${removed.map((m) => `${runId}/${m}`).join(', ')}`
        : `nothing to reset in run ${runId}${moduleId ? ` for ${moduleId}` : ''}`,
      next: null,
    };
  },
});
