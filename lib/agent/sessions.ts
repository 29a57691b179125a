// Agent conversations on the state ref: each task's turn is saved, and a capped summary carries into the next.
import { assertId, RefusedError } from '../errors';
import type { StateStore } from '../git/state';
import { randomHex } from '../random';

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
}

// An id read back from the state (which a sync may bring from anywhere) is checked like one typed in.
const sessionPath = (id: string) => `${SESSIONS_DIR}/${assertId({ kind: 'agent session id', value: id })}.json`;

export async function listSessions({ store }: { store: StateStore }): Promise<AgentSession[]> {
  const head = await store.head();
  if (!head) return [];
  const out: AgentSession[] = [];
  for (const e of await store.listAt(head, SESSIONS_DIR)) {
    let value: unknown;
    try {
      value = JSON.parse((await store.readAt(head, `${SESSIONS_DIR}/${e.name}`))?.toString('utf8') ?? '');
    } catch {
      continue;
    }
    // A file that does not parse, or is not a session (a sync brings state from any clone), is not offered for resuming.
    if (isSession(value)) out.push(value);
  }
  return out.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

/** Whether a parsed state file has a session's shape: what listing, summing up and continuing rely on. */
function isSession(v: unknown): v is AgentSession {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  const turnOk = (t: unknown) =>
    typeof t === 'object' &&
    t !== null &&
    typeof (t as AgentTurn).task === 'string' &&
    typeof (t as AgentTurn).answer === 'string' &&
    Array.isArray((t as AgentTurn).files);
  return (
    typeof s.id === 'string' &&
    typeof s.createdAt === 'string' &&
    typeof s.updatedAt === 'string' &&
    Array.isArray(s.turns) &&
    s.turns.every(turnOk)
  );
}

/** The session to continue: the one named, or the most recent. */
export async function findSession({ store, id }: { store: StateStore; id: string | null }): Promise<AgentSession> {
  if (id !== null) assertId({ kind: 'agent session id', value: id });
  const sessions = await listSessions({ store });
  const found = id === null ? sessions[0] : sessions.find((s) => s.id === id);
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

/** Appends a turn to the session (a new one when `id` is null); returns the session. */
export async function saveTurn({ store, id, turn }: { store: StateStore; id: string | null; turn: AgentTurn }): Promise<AgentSession> {
  const sessionId = id ?? `ag-${turn.timestamp.slice(0, 10).replace(/-/g, '')}-${randomHex().slice(0, 8)}`;
  const r = await store.update({
    message: `agent: session ${sessionId} turn`,
    apply: async (tx) => {
      let session: AgentSession = { id: sessionId, createdAt: turn.timestamp, updatedAt: turn.timestamp, turns: [] };
      const existing = await tx.read(sessionPath(sessionId));
      if (existing) session = JSON.parse(existing.toString('utf8')) as AgentSession;
      session = { ...session, updatedAt: turn.timestamp, turns: [...session.turns, turn] };
      tx.write(sessionPath(sessionId), `${JSON.stringify(session, null, 2)}\n`);
      return session;
    },
  });
  return r.value;
}
