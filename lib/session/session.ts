// Resumable orchestrator snapshots: phase and module statuses of a run, stamped and listed newest first.
import type { StateStore } from '../git/state';

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

/**
 * Merges a patch into the run's snapshot (fields not given keep their saved values) and stamps
 * it. Counts not given are derived from the module statuses.
 */
export async function saveSession({
  store,
  runId,
  patch,
  now,
}: {
  store: StateStore;
  runId: string;
  patch: SessionPatch;
  now: Date;
}): Promise<SessionState> {
  const r = await store.update({
    message: `session: save ${runId}${patch.currentPhase ? ` (${patch.currentPhase})` : ''}`,
    apply: async (tx) => {
      const path = sessionPath(runId);
      const old = parseSession(await tx.readText(path));
      const moduleStatuses = { ...(old?.moduleStatuses ?? {}), ...(patch.moduleStatuses ?? {}) };
      const stamp = now.toISOString();
      const statuses = Object.values(moduleStatuses);
      const state: SessionState = {
        ...(old ?? {}),
        ...(patch.extra ?? {}),
        runId,
        currentPhase: patch.currentPhase ?? old?.currentPhase ?? null,
        moduleStatuses,
        completedCount:
          patch.completedCount ?? (statuses.length ? statuses.filter((s) => DONE.test(s)).length : (old?.completedCount ?? 0)),
        totalCount: patch.totalCount ?? (statuses.length ? statuses.length : (old?.totalCount ?? 0)),
        lastUpdatedAt: stamp,
        updatedAt: stamp,
      };
      tx.write(path, `${JSON.stringify(state, null, 2)}\n`);
      return state;
    },
  });
  return r.value;
}

function parseSession(text: string | undefined): SessionState | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as SessionState;
  } catch {
    return null;
  }
}

export async function loadSession({ store, runId }: { store: StateStore; runId: string }): Promise<SessionState | null> {
  return parseSession((await store.read(sessionPath(runId)))?.toString('utf8'));
}

/** Every saved session, most recently updated first. */
export async function listSessions({ store }: { store: StateStore }): Promise<SessionSummary[]> {
  const head = await store.head();
  if (!head) return [];
  const out: SessionSummary[] = [];
  for (const entry of await store.listAt(head, '.forge/sessions')) {
    if (!entry.name.endsWith('.json')) continue;
    const s = parseSession((await store.readAt(head, `.forge/sessions/${entry.name}`))?.toString('utf8'));
    if (!s) continue;
    out.push({
      runId: s.runId ?? entry.name.replace(/\.json$/, ''),
      lastUpdatedAt: s.lastUpdatedAt ?? '',
      currentPhase: s.currentPhase ?? null,
      completedCount: s.completedCount ?? 0,
      totalCount: s.totalCount ?? 0,
    });
  }
  return out.sort((a, b) => b.lastUpdatedAt.localeCompare(a.lastUpdatedAt) || a.runId.localeCompare(b.runId));
}
