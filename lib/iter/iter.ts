// Per-run, per-module retry state: attempts, scores and the stagnation flag that drives RETRY vs ESCALATE.
import { assertId, isValidId } from '../errors';
import type { StateStore } from '../git/state';
import { shellJoin } from '../quote';
import { readStateJson, type StateSource } from '../state/read';
import * as validators from '../state/validators.gen';

export const STATUSES = ['passed', 'failed', 'error'] as const;
export type Status = (typeof STATUSES)[number];

export interface Attempt {
  timestamp: string;
  status: Status;
  score: number | null;
  issues: string[];
  rootCause?: string;
}

export interface IterState {
  runId: string;
  moduleId: string;
  attempts: Attempt[];
  scores: number[];
  stagnant: boolean;
  lastStatus: Status | null;
  lastRootCause: string | null;
  updatedAt: string | null;
}

/** How many recent scored attempts the velocity rule looks at. */
export const VELOCITY_WINDOW = 3;

/** A run's iteration states; the id is checked here, so no caller (a plan step read back from the ref, say) can name a path outside. */
export function iterDir(runId: string): string {
  return `.forge/iterations/${assertId({ kind: 'run id', value: runId })}`;
}

export function iterPath(runId: string, moduleId: string): string {
  return `${iterDir(runId)}/${assertId({ kind: 'module id', value: moduleId })}.json`;
}

export function emptyState(runId: string, moduleId: string): IterState {
  return { runId, moduleId, attempts: [], scores: [], stagnant: false, lastStatus: null, lastRootCause: null, updatedAt: null };
}

/** How many attempts before the latest one the oscillation rule looks back over. */
export const OSCILLATION_WINDOW = 4;

/** An attempt's issues as one comparable key: trimmed, deduplicated, order-free. */
function issueSet(a: Attempt): string {
  return JSON.stringify([...new Set(a.issues.map((i) => i.trim()))].sort());
}

/** Whether an attempt failed with something to compare: a pass or an attempt without issues matches nothing. */
function failedWithIssues(a: Attempt | undefined): a is Attempt {
  return a !== undefined && a.status !== 'passed' && a.issues.length > 0;
}

/** The latest attempt failed with exactly the same non-empty set of issues as the one before it. */
export function sameAsPrev(attempts: Attempt[]): boolean {
  const [prev, last] = [attempts[attempts.length - 2], attempts[attempts.length - 1]];
  return failedWithIssues(last) && failedWithIssues(prev) && issueSet(prev) === issueSet(last);
}

/**
 * The average change of the score per attempt over the last VELOCITY_WINDOW scored attempts (fewer
 * when fewer exist); null with fewer than two scores, when there is no trend to speak of yet.
 */
export function velocity(attempts: Attempt[]): number | null {
  const window = attempts
    .map((a) => a.score)
    .filter((s): s is number => s !== null)
    .slice(-VELOCITY_WINDOW);
  if (window.length < 2) return null;
  return (window[window.length - 1]! - window[0]!) / (window.length - 1);
}

/**
 * Oscillating when the latest attempt failed with the same non-empty set of issues as one of the
 * OSCILLATION_WINDOW attempts before it other than the previous one (that case is sameAsPrev): the
 * fixes go round in a circle, undoing each other. Answers that earlier attempt's number (1-based),
 * the most recent one when several match, or null.
 */
export function oscillatesWith(attempts: Attempt[]): number | null {
  const n = attempts.length;
  const last = attempts[n - 1];
  if (!failedWithIssues(last)) return null;
  for (let i = n - 3; i >= Math.max(0, n - 1 - OSCILLATION_WINDOW); i--) {
    const earlier = attempts[i];
    if (failedWithIssues(earlier) && issueSet(earlier) === issueSet(last)) return i + 1;
  }
  return null;
}

export function isOscillating(attempts: Attempt[]): boolean {
  return oscillatesWith(attempts) !== null;
}

/**
 * Stagnant when the latest attempt did not pass and either (1) it failed with exactly the same
 * non-empty set of issues as the attempt before (sameAsPrev), or (2) over the last VELOCITY_WINDOW
 * scored attempts the score did not rise (velocity ≤ 0).
 */
export function isStagnant(attempts: Attempt[]): boolean {
  const last = attempts[attempts.length - 1];
  if (!last || last.status === 'passed') return false;
  if (sameAsPrev(attempts)) return true;
  const v = velocity(attempts);
  return v !== null && v <= 0 && attempts.filter((a) => a.score !== null).length >= VELOCITY_WINDOW;
}

/**
 * The module's saved state: null when there is none; STATE_INVALID when the file is not one (a
 * retry count read from it would be wrong, and a write over it would lose its attempts), whose Fix
 * starts the module over.
 */
async function readState({ from, runId, moduleId }: { from: StateSource; runId: string; moduleId: string }): Promise<IterState | null> {
  const fix = shellJoin(['forge', 'iter', 'reset', moduleId, '--run-id', runId]);
  const saved = await readStateJson({ from, path: iterPath(runId, moduleId), file: validators.iterState, fix });
  // Its ids are those of its path, whatever it says.
  return saved && { ...saved, runId, moduleId };
}

/** The module's state; an unknown module is a clean empty state, not an error. */
export async function getIter({ store, runId, moduleId }: { store: StateStore; runId: string; moduleId: string }): Promise<IterState> {
  return (await readState({ from: store, runId, moduleId })) ?? emptyState(runId, moduleId);
}

/** Appends one attempt and recomputes scores, stagnation and the last status in one state commit. */
export async function recordAttempt({
  store,
  runId,
  moduleId,
  attempt,
}: {
  store: StateStore;
  runId: string;
  moduleId: string;
  attempt: Attempt;
}): Promise<IterState> {
  const r = await store.update({
    message: `iter: ${runId}/${moduleId} attempt ${attempt.status}`,
    apply: async (tx) => {
      const path = iterPath(runId, moduleId);
      const state = (await readState({ from: tx, runId, moduleId })) ?? emptyState(runId, moduleId);
      state.attempts.push(attempt);
      state.scores = state.attempts.map((a) => a.score).filter((s): s is number => s !== null);
      state.stagnant = isStagnant(state.attempts);
      state.lastStatus = attempt.status;
      if (attempt.rootCause) state.lastRootCause = attempt.rootCause;
      state.updatedAt = attempt.timestamp;
      tx.write(path, `${JSON.stringify(state, null, 2)}\n`);
      return state;
    },
  });
  return r.value;
}

/** Removes one module's state, or every module's of the run; returns the module ids removed. */
export async function resetIter({ store, runId, moduleId }: { store: StateStore; runId: string; moduleId?: string }): Promise<string[]> {
  const r = await store.update({
    message: (removed: string[]) => `iter: reset ${runId}/${moduleId ?? '*'} (${removed.length} module${removed.length === 1 ? '' : 's'})`,
    apply: async (tx) => {
      const entries = await tx.list(iterDir(runId));
      // A name that is no module id (a hand edit, a hostile tree) cannot be a path forge writes: it is left alone.
      const ids = entries
        .filter((e) => e.name.endsWith('.json'))
        .map((e) => e.name.slice(0, -'.json'.length))
        .filter((id) => isValidId(id) && (!moduleId || id === moduleId));
      for (const id of ids) tx.remove(iterPath(runId, id));
      return ids;
    },
  });
  return r.value;
}

// The state files of this module, registered with the state layer's kinds (lib/state/read.ts), which imports no feature.
declare module '../state/read' {
  interface StateKinds {
    iterState: IterState;
  }
}
