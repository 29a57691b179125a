// Agent conversations on the state ref: each task's turn is saved, a capped summary carries into the next, and --rollback moves the active pointer.
import { assertId, InvalidInputError, RefusedError } from '../errors';
import type { StateStore } from '../git/state';
import { randomHex } from '../random';
import { type Checked, checkJson, listStateDir, readStateJson, type StateSource, stateInvalid } from '../state/read';
import * as validators from '../state/validators.gen';

export const SESSIONS_DIR = '.forge/agent/sessions';
/** The summary a continued task starts with stays under this many characters: the oldest turns go first. */
export const SUMMARY_CAP = 1500;

export interface AgentTurn {
  timestamp: string;
  task: string;
  answer: string;
  /** Files the turn wrote or edited (write, edit and patch calls that named a path). */
  files: string[];
  toolCalls: number;
  model: string;
  /** The checkpoint taken before the turn (forge undo restores it); absent for --quick and older sessions. */
  checkpoint?: string;
}

/** Turns that were rolled back when a new turn was added after them: kept, no longer restorable by --rollback. */
export interface AbandonedTurns {
  at: string;
  /** How many turns were active then: these came after them. */
  after: number;
  turns: AgentTurn[];
}

export interface AgentSession {
  id: string;
  createdAt: string;
  updatedAt: string;
  turns: AgentTurn[];
  /**
   * How many of `turns` are active (the pointer --rollback moves); the later ones are rolled back
   * and --rollback -N restores them. Absent (sessions saved before it existed): all are active.
   */
  active?: number;
  abandoned?: AbandonedTurns[];
  /** Files pinned to every call of the session (--attach), relative to the work tree's top: --continue keeps them. */
  attached?: string[];
}

/** The turns a continued task builds on. */
export const activeTurns = (s: AgentSession): AgentTurn[] => s.turns.slice(0, activeCount(s));
export const activeCount = (s: AgentSession): number => s.active ?? s.turns.length;

// An id typed in or read back from the state (which a sync may bring from anywhere) is checked before it names a path.
const sessionPath = (id: string) => `${SESSIONS_DIR}/${assertId({ kind: 'agent session id', value: id })}.json`;

/** A session file through its schema; one whose id is not its file's name would be saved over another session. */
function checkSession({ text, name }: { text: string; name: string }): Checked<AgentSession> {
  const r = checkJson({ text, file: validators.agentSession });
  if (r.ok && `${r.value.id}.json` !== name) return { ok: false, problem: `id: '${r.value.id}' is not the file's name` };
  if (r.ok && badPointer(r.value)) return { ok: false, problem: badPointer(r.value)! };
  return r;
}

/** What is wrong with a session's active pointer, or null: it counts turns, so a whole number from 0 to their number. */
function badPointer(s: AgentSession): string | null {
  if (s.active === undefined) return null;
  return Number.isInteger(s.active) && s.active >= 0 && s.active <= s.turns.length
    ? null
    : `active: ${s.active} is not a whole number from 0 to ${s.turns.length} (the session's turns)`;
}

/** Every session, newest first. A file that is not a session (a sync brings state from any clone) is left out, and `warn` told. */
export async function listSessions({
  store,
  warn,
}: {
  store: StateStore;
  warn?: (text: string) => Promise<void>;
}): Promise<AgentSession[]> {
  const listed = await listStateDir({ store, dir: SESSIONS_DIR, check: (name, text) => checkSession({ text, name }), warn });
  return listed.map((l) => l.value).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

/** The session saved as `id`: null when there is none, STATE_INVALID when the file is not one. */
async function readSession({ from, id }: { from: StateSource; id: string }): Promise<AgentSession | null> {
  const path = sessionPath(id);
  const session = await readStateJson({ from, path, file: validators.agentSession });
  if (session && session.id !== id)
    throw stateInvalid({ path, problem: `id: '${session.id}' is not the file's name`, file: validators.agentSession });
  const bad = session && badPointer(session);
  if (bad) throw stateInvalid({ path, problem: bad, file: validators.agentSession });
  return session;
}

/** The session to continue: the one named, or the most recent. */
export async function findSession({ store, id }: { store: StateStore; id: string | null }): Promise<AgentSession> {
  const found = id === null ? (await listSessions({ store }))[0] : await readSession({ from: store, id });
  if (!found)
    throw new RefusedError('NO_SESSION', id === null ? 'no earlier forge agent session to continue' : `no forge agent session '${id}'`, {
      fix: 'forge agent --list',
    });
  return found;
}

/** Earlier turns as a few lines, newest kept when the cap bites. */
export function sessionSummary(session: AgentSession, cap = SUMMARY_CAP): string {
  const lines = activeTurns(session).map(
    (t, i) =>
      `${i + 1}. Task: ${t.task.replace(/\s+/g, ' ').slice(0, 300)}\n   Result: ${t.answer.replace(/\s+/g, ' ').slice(0, 400)}${t.files.length ? `\n   Files changed: ${t.files.join(', ')}` : ''}`,
  );
  let kept: string[] = [];
  for (const line of [...lines].reverse()) {
    if ([line, ...kept].join('\n').length > cap) break;
    kept = [line, ...kept];
  }
  const dropped = lines.length - kept.length;
  return `Earlier in this session (${session.id})${dropped ? `, ${dropped} older turn${dropped === 1 ? '' : 's'} left out` : ''}:\n${kept.join('\n')}`;
}

/** Appends a turn to the session (a new one when `id` is null), with the files now pinned to it; returns the session. */
export async function saveTurn({
  store,
  id,
  turn,
  attached = [],
}: {
  store: StateStore;
  id: string | null;
  turn: AgentTurn;
  attached?: readonly string[];
}): Promise<AgentSession> {
  const sessionId = id ?? `ag-${turn.timestamp.slice(0, 10).replace(/-/g, '')}-${randomHex().slice(0, 8)}`;
  const r = await store.update({
    message: `agent: session ${sessionId} turn`,
    apply: async (tx) => {
      // A file that is not a session is not written over: its turns would be lost.
      const existing = await readSession({ from: tx, id: sessionId });
      const base: AgentSession = existing ?? { id: sessionId, createdAt: turn.timestamp, updatedAt: turn.timestamp, turns: [] };
      // After a rollback the new turn follows the active ones, as a commit after git reset does; the
      // rolled-back turns are kept in the file (and in the state ref's history), not deleted.
      const kept = activeTurns(base);
      const dropped = base.turns.slice(kept.length);
      const session: AgentSession = {
        ...base,
        updatedAt: turn.timestamp,
        turns: [...kept, turn],
        ...(base.active !== undefined ? { active: kept.length + 1 } : {}),
        ...(dropped.length ? { abandoned: [...(base.abandoned ?? []), { at: turn.timestamp, after: kept.length, turns: dropped }] } : {}),
        // Once a session pinned files, the list is what this turn had: --detach can empty it.
        ...(attached.length || existing?.attached ? { attached: [...attached] } : {}),
      };
      tx.write(sessionPath(sessionId), `${JSON.stringify(session, null, 2)}\n`);
      return session;
    },
  });
  return r.value;
}

/** A rollback's outcome: the pointer before and after, and the turns it rolled back or restored. */
export interface RollbackResult {
  session: AgentSession;
  before: number;
  after: number;
  moved: AgentTurn[];
}

/**
 * Moves the session's active pointer back `n` turns (forward for a negative `n`, restoring turns
 * rolled back before); no turn is deleted. Moving past the first turn, or past the last, is refused.
 */
export async function rollbackSession({
  store,
  session: chosen,
  n,
  now,
  command,
  show,
}: {
  store: StateStore;
  session: AgentSession;
  n: number;
  now: Date;
  /** The command line a fix names, with its flags: (n) => `forge agent --rollback ${n}`. */
  command: (n: number) => string;
  /** The fix when there is nothing to move either way: a command that shows the session. */
  show: string;
}): Promise<RollbackResult> {
  const r = await store.update({
    message: `agent: session ${chosen.id} rollback ${n}`,
    apply: async (tx) => {
      const session = (await readSession({ from: tx, id: chosen.id })) ?? chosen;
      const before = activeCount(session);
      const after = before - n;
      const back = n > 0;
      if (n === 0 || after < 0 || after > session.turns.length) {
        const room = back ? before : session.turns.length - before;
        throw new InvalidInputError(
          'ROLLBACK_OUT_OF_RANGE',
          n === 0
            ? '--rollback 0 moves nothing: give how many turns to roll back (a negative number restores)'
            : `session '${session.id}' has ${room} turn${room === 1 ? '' : 's'} to ${back ? 'roll back' : 'restore'} (${before} of ${session.turns.length} active): cannot ${back ? 'roll back' : 'restore'} ${Math.abs(n)}`,
          {
            // Nothing to move this way: the other way if it can, else the session as it is.
            fix: room ? command(back ? room : -room) : show,
            data: { session: session.id, active: before, turns: session.turns.length, rollback: n },
          },
        );
      }
      const updated: AgentSession = { ...session, active: after, updatedAt: now.toISOString() };
      tx.write(sessionPath(session.id), `${JSON.stringify(updated, null, 2)}\n`);
      const moved = back ? session.turns.slice(after, before) : session.turns.slice(before, after);
      return { session: updated, before, after, moved };
    },
  });
  return r.value;
}

/** Replies that answer the previous turn rather than set a new task: "yes", "ok, go ahead", "no", "the second one", "2". */
const REPLY_WORDS = new Set(
  (
    'y yes yep yeah yup sure ok okay k fine go ahead on for it do please proceed continue sounds good lgtm looks great perfect ' +
    'thanks thank you right correct agreed approve approved n no nope dont not stop that this one the first second third last option'
  ).split(' '),
);
/** The previous turn's answer a reply carries: the proposal or question it answers. */
export const REPLY_CONTEXT_CAP = 2000;

export function isShortReply(task: string): boolean {
  const words = task
    .toLowerCase()
    .replace(/[’']/g, '')
    .split(/[\s,.!;:]+/)
    .filter(Boolean);
  if (!words.length || words.length > 6) return false;
  return words.every((w) => REPLY_WORDS.has(w)) || (words.length <= 2 && /^(option )?([a-e]|[1-9])$/.test(words.join(' ')));
}

/**
 * In a continued session, a short reply ("yes", "go ahead") as the model should get it: with the
 * previous turn it answers (its task and the model's answer, capped), not bare. Null for a task.
 */
export function replyInContext(task: string, session: AgentSession): { text: string; turn: number } | null {
  const turns = activeTurns(session);
  const last = turns.at(-1);
  if (!last || !isShortReply(task)) return null;
  const answer = last.answer.length > REPLY_CONTEXT_CAP ? `…${last.answer.slice(-REPLY_CONTEXT_CAP)}` : last.answer;
  return {
    turn: turns.length,
    text: `${task.trim()}\n\n(This is my reply to your previous turn. I had asked: ${last.task.replace(/\s+/g, ' ').slice(0, 300)}\nYou answered:\n${answer}\nAct on my reply to that answer.)`,
  };
}

// The state files of this module, registered with the state layer's kinds (lib/state/read.ts), which imports no feature.
declare module '../state/read' {
  interface StateKinds {
    agentSession: AgentSession;
  }
}
