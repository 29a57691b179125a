// forge agent --mechanical: a plain replacement task done by forge replace, with no model call.
import type { Outcome, RunContext } from '../../lib/cli/declare';
import { InvalidInputError } from '../../lib/errors';
import type { AgentArgs } from './args';

/** --mechanical: seed 004's mechanical mode — no model, no checkpoint of its own; forge replace writes all files or none. */
export async function mechanicalOutcome(args: AgentArgs, ctx: RunContext): Promise<Outcome> {
  if (
    args.plan ||
    args.resume ||
    args.quick ||
    args.continue ||
    args.session !== undefined ||
    args.attach.length ||
    args.image.length ||
    args.detach.length
  )
    throw new InvalidInputError(
      'CONFLICTING_ARGUMENTS',
      '--mechanical runs no model: it goes with no --plan, --resume, --quick, --continue, --session, --attach or --image',
      {
        fix: args.task?.trim() ? ctx.cmd('agent', '--mechanical', args.task) : 'forge agent --help',
      },
    );
  const { parseMechanical } = await import('../../lib/agent/mechanical');
  const m = parseMechanical(args.task ?? '');
  if (!m)
    throw new InvalidInputError(
      'NOT_MECHANICAL',
      `'${(args.task ?? '').slice(0, 80)}' is not a plain replacement: --mechanical reads "replace|rename|change OLD with|to NEW [in PATH, …]"`,
      { fix: args.task?.trim() ? ctx.cmd('agent', args.task) : 'forge agent --help' },
    );
  const { default: replace } = await import('../replace');
  return replace.run(
    { old: m.old, new: m.replacement, paths: m.paths, glob: m.glob, regex: false, 'ignore-case': false, check: false },
    ctx,
  );
}
