// Resumable orchestrator snapshots: phase and module statuses of a run, stamped and listed newest first.
import { isValidId } from '../errors';
import type { StateStore } from '../git/state';
import { shellJoin } from '../quote';
import { checkJson, listStateDir, readStateJson, type StateSource } from '../state/read';
import * as validators from '../state/validators.gen';

export interface SessionState {
  runId: string;
  currentPhase: string | null;
  moduleStatuses: Record<string, string>;
  completedCount: number;
  totalCount: number;
  lastUpdatedAt: string;
  /** Same instant as lastUpdatedAt; `forge state sync` keeps the newer of two copies by it. */
  updatedAt: string;
  [extra: string]: unknown;
}

export interface SessionSummary {
  runId: string;
  lastUpdatedAt: string;
  currentPhase: string | null;
  completedCount: number;
  totalCount: number;
}

export function sessionPath(runId: string): string {
  return `.forge/sessions/${runId}.json`;
}

/** Counts a status as complete when it says the module is finished. */
const DONE = /^(done|passed|complete|completed|merged|skipped)$/i;

export interface SessionPatch {
  currentPhase?: string;
  moduleStatuses?: Record<string, string>;
  completedCount?: number;
  totalCount?: number;
  extra?: Record<string, unknown>;
}

/** The run's snapshot: null when there is none; STATE_INVALID when the file is not one (save --replace writes it anew). */
async function readSnapshot({ from, runId }: { from: StateSource; runId: string }): Promise<SessionState | null> {
  const fix = shellJoin(['forge', 'session', 'save', '--run-id', runId, '--replace']);
  const saved = await readStateJson({ from, path: sessionPath(runId), file: validators.session, fix });
  // Its run id is its file's name, whatever it says.
  return saved && { ...saved, runId };
}

/**
 * Merges a patch into the run's snapshot (fields not given keep their saved values) and stamps
 * it. Counts not given are derived from the module statuses. With `replace` the snapshot starts
 * afresh: nothing saved is kept, and a file that is not a snapshot is written over (its history
 * stays on the ref); without it such a file is refused, not lost.
 */
export async function saveSession({
  store,
  runId,
  patch,
  now,
  replace = false,
}: {
  store: StateStore;
  runId: string;
  patch: SessionPatch;
  now: Date;
  replace?: boolean;
}): Promise<SessionState> {
  const r = await store.update({
    message: `session: ${replace ? 'replace' : 'save'} ${runId}${patch.currentPhase ? ` (${patch.currentPhase})` : ''}`,
    apply: async (tx) => {
      const old = replace ? null : await readSnapshot({ from: tx, runId });
      const state = patched({ old, patch, runId, stamp: now.toISOString() });
      tx.write(sessionPath(runId), `${JSON.stringify(state, null, 2)}\n`);
      return state;
    },
  });
  return r.value;
}

/** The snapshot after a patch: fields not given keep their saved values; counts not given come from the statuses. */
function patched({
  old,
  patch,
  runId,
  stamp,
}: {
  old: SessionState | null;
  patch: SessionPatch;
  runId: string;
  stamp: string;
}): SessionState {
  const moduleStatuses = { ...(old?.moduleStatuses ?? {}), ...(patch.moduleStatuses ?? {}) };
  const statuses = Object.values(moduleStatuses);
  return {
    ...(old ?? {}),
    ...(patch.extra ?? {}),
    runId,
    currentPhase: patch.currentPhase ?? old?.currentPhase ?? null,
    moduleStatuses,
    completedCount: patch.completedCount ?? (statuses.length ? statuses.filter((s) => DONE.test(s)).length : (old?.completedCount ?? 0)),
    totalCount: patch.totalCount ?? (statuses.length ? statuses.length : (old?.totalCount ?? 0)),
    lastUpdatedAt: stamp,
    updatedAt: stamp,
  };
}

export async function loadSession({ store, runId }: { store: StateStore; runId: string }): Promise<SessionState | null> {
  return readSnapshot({ from: store, runId });
}

/** Every saved session, most recently updated first. A file that is not a snapshot is left out, and `warn` told. */
export async function listSessions({
  store,
  warn,
}: {
  store: StateStore;
  warn?: (text: string) => Promise<void>;
}): Promise<SessionSummary[]> {
  const listed = await listStateDir({
    store,
    dir: '.forge/sessions',
    named: (name) => name.endsWith('.json'),
    check: (name, text) =>
      isValidId(name.slice(0, -'.json'.length))
        ? checkJson({ text, file: validators.session })
        : { ok: false, problem: 'its name is no run id' },
    warn,
  });
  const out: SessionSummary[] = listed.map(({ name, value: s }) => ({
    runId: name.slice(0, -'.json'.length),
    lastUpdatedAt: s.lastUpdatedAt,
    currentPhase: s.currentPhase,
    completedCount: s.completedCount,
    totalCount: s.totalCount,
  }));
  return out.sort((a, b) => b.lastUpdatedAt.localeCompare(a.lastUpdatedAt) || a.runId.localeCompare(b.runId));
}

// The state files of this module, registered with the state layer's kinds (lib/state/read.ts), which imports no feature.
declare module '../state/read' {
  interface StateKinds {
    session: SessionState;
  }
}
