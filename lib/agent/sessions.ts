// Agent conversations on the state ref: each task's turn is saved, and a capped summary carries into the next.
import { assertId, RefusedError } from '../errors';
import type { StateStore } from '../git/state';
import { randomHex } from '../random';
import { type Checked, checkJson, readStateJson, type StateSource, skippedLine, stateInvalid } from '../state/read';
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
}

export interface AgentSession {
  id: string;
  createdAt: string;
  updatedAt: string;
  turns: AgentTurn[];
  /** Files pinned to every call of the session (--attach), relative to the work tree's top: --continue keeps them. */
  attached?: string[];
}

// An id typed in or read back from the state (which a sync may bring from anywhere) is checked before it names a path.
const sessionPath = (id: string) => `${SESSIONS_DIR}/${assertId({ kind: 'agent session id', value: id })}.json`;

/** A session file through its schema; one whose id is not its file's name would be saved over another session. */
function checkSession({ text, name }: { text: string; name: string }): Checked<AgentSession> {
  const r = checkJson({ text, file: validators.agentSession });
  if (r.ok && `${r.value.id}.json` !== name) return { ok: false, problem: `id: '${r.value.id}' is not the file's name` };
  return r;
}

/** Every session, newest first. A file that is not a session (a sync brings state from any clone) is left out, and `warn` told. */
export async function listSessions({
  store,
  warn,
}: {
  store: StateStore;
  warn?: (text: string) => Promise<void>;
}): Promise<AgentSession[]> {
  const head = await store.head();
  if (!head) return [];
  const out: AgentSession[] = [];
  for (const e of await store.listAt(head, SESSIONS_DIR)) {
    const path = `${SESSIONS_DIR}/${e.name}`;
    const r = checkSession({ text: (await store.readAt(head, path))?.toString('utf8') ?? '', name: e.name });
    if (r.ok) out.push(r.value);
    else await warn?.(skippedLine({ path, problem: r.problem }));
  }
  return out.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

/** The session saved as `id`: null when there is none, STATE_INVALID when the file is not one. */
async function readSession({ from, id }: { from: StateSource; id: string }): Promise<AgentSession | null> {
  const path = sessionPath(id);
  const session = await readStateJson({ from, path, file: validators.agentSession });
  if (session && session.id !== id)
    throw stateInvalid({ path, problem: `id: '${session.id}' is not the file's name`, file: validators.agentSession });
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
  const lines = session.turns.map(
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
      const session: AgentSession = {
        ...(existing ?? { id: sessionId, createdAt: turn.timestamp, turns: [] }),
        updatedAt: turn.timestamp,
        turns: [...(existing?.turns ?? []), turn],
        // Once a session pinned files, the list is what this turn had: --detach can empty it.
        ...(attached.length || existing?.attached ? { attached: [...attached] } : {}),
      };
      tx.write(sessionPath(sessionId), `${JSON.stringify(session, null, 2)}\n`);
      return session;
    },
  });
  return r.value;
}
