// forge agent --list and --rollback: the sessions on the state ref, and a session's turns moved back or forward.
import type { Outcome, RunContext } from '../../lib/cli/declare';
import { InvalidInputError } from '../../lib/errors';
import type { AgentSession } from '../../lib/agent/sessions';
import type { AgentArgs } from './args';

/** --list: the sessions on the state ref, newest first. */
export async function listOutcome(ctx: RunContext): Promise<Outcome> {
  const { activeCount, listSessions, SESSIONS_DIR } = await import('../../lib/agent/sessions');
  const sessions = await listSessions({ store: await ctx.store(), warn: (text) => ctx.warn(text) });
  for (const x of sessions)
    await ctx.emit(
      { type: 'session', id: x.id, updatedAt: x.updatedAt, turns: x.turns.length, active: activeCount(x), first: x.turns[0]?.task ?? '' },
      `${x.id}  ${x.updatedAt}  ${x.turns.length} turn${x.turns.length === 1 ? '' : 's'}${activeCount(x) < x.turns.length ? ` (${x.turns.length - activeCount(x)} rolled back)` : ''}  ${(x.turns[0]?.task ?? '').slice(0, 60)}`,
    );
  return {
    data: { sessions: sessions.length },
    text: sessions.length ? `${sessions.length} session${sessions.length === 1 ? '' : 's'}` : 'no forge agent sessions yet',
    next: sessions.length ? ctx.cmd('state', 'show', `${SESSIONS_DIR}/${sessions[0]!.id}.json`) : null,
  };
}

/**
 * --rollback N: the session's active pointer N turns back (or forward, for -N), nothing deleted; the
 * hint names the forge undo that takes the rolled-back turns' files back, when their checkpoint is still kept.
 */
export async function rollbackOutcome(args: AgentArgs, ctx: RunContext): Promise<Outcome> {
  const n = args.rollback!;
  const extra = args.task?.trim()
    ? 'task'
    : args.plan || args.resume
      ? '--plan or --resume'
      : args.quick || args.mechanical || args['dry-run']
        ? '--quick, --mechanical or --dry-run'
        : null;
  const onSession = args.session !== undefined ? ['--session', args.session] : [];
  const command = (k: number) => ctx.cmd('agent', '--rollback', k, ...onSession);
  if (extra)
    throw new InvalidInputError('CONFLICTING_ARGUMENTS', `--rollback moves a session's turns and runs nothing: it takes no ${extra}`, {
      fix: command(n),
    });
  const { findSession, rollbackSession, SESSIONS_DIR } = await import('../../lib/agent/sessions');
  const store = await ctx.store();
  const session = await findSession({ store, id: args.session ?? null });
  const show = ctx.cmd('state', 'show', `${SESSIONS_DIR}/${session.id}.json`);
  const r = await rollbackSession({ store, session, n, now: ctx.now(), command, show });
  const first = Math.min(r.before, r.after) + 1;
  const listed = r.moved.map((t, i) => ({ turn: first + i, task: t.task, files: t.files }));
  for (const t of listed)
    await ctx.emit(
      { type: n > 0 ? 'rolled_back' : 'restored', ...t },
      `  turn ${t.turn}: ${t.task.replace(/\s+/g, ' ').slice(0, 70)}${t.files.length ? ` (${t.files.join(', ')})` : ''}`,
    );
  const turns = (k: number) => `${k} turn${k === 1 ? '' : 's'}`;
  const state = `${r.after} of ${r.session.turns.length} active`;
  const data = { session: session.id, active: r.after, turns: r.session.turns.length, moved: listed.length };
  if (n < 0)
    return {
      data,
      text: `session ${session.id}: restored ${turns(listed.length)} (${state}); the files are as they are now`,
      next: show,
      or: command(listed.length),
    };
  // The checkpoint before the earliest rolled-back turn holds the files as they were before it.
  const undo = await undoCommand({ ctx, turns: r.moved });
  return {
    data: { ...data, undo },
    text: `session ${session.id}: rolled back ${turns(listed.length)} (${state}); nothing is deleted: ${command(-listed.length)} restores ${listed.length === 1 ? 'it' : 'them'}${undo ? `; ${undo} takes ${listed.length === 1 ? 'its' : 'their'} files back` : ''}`,
    next: undo ?? show,
    or: command(-listed.length),
  };
}

/** The forge undo that restores the files as they were before these turns: their first checkpoint, by its number now; null when they changed no file. */
async function undoCommand({ ctx, turns }: { ctx: RunContext; turns: AgentSession['turns'] }): Promise<string | null> {
  if (!turns.some((t) => t.files.length)) return null;
  const oid = turns.find((t) => t.checkpoint)?.checkpoint;
  const { listCheckpoints } = await import('../../lib/git/checkpoint');
  const kept = oid ? (await listCheckpoints({ cwd: ctx.cwd }).catch(() => [])).find((c) => c.oid === oid && c.n !== null) : undefined;
  return kept ? ctx.cmd('undo', kept.n!) : ctx.cmd('undo', '--list');
}
