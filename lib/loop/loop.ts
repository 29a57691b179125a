// Loop state on the state ref: one current loop, its iterations, and the rules that end or pause it.
import { ForgeError, RefusedError } from '../errors';
import type { StateStore, StateTx } from '../git/state';
import { processAlive } from '../process/alive';
import { randomHex } from '../random';
import { readStateJson, type StateSource, stateInvalid } from '../state/read';
import * as validators from '../state/validators.gen';

export const CURRENT_PATH = '.forge/loops/current.json';

export function loopPath(loopId: string): string {
  return `.forge/loops/${loopId}.json`;
}

export type LoopStatus = 'active' | 'paused' | 'complete' | 'max_reached' | 'cancelled';
/** hook: the agent's Stop (or AfterAgent) hook continues the session; run: forge loop run starts the agent each time. */
export type Driver = 'hook' | 'run';
/** The agents whose hook can drive a loop (lib/loop/stop-hooks.ts says how each is read and answered). */
export const LOOP_AGENTS = ['claude', 'codex', 'gemini'] as const;
export type LoopAgent = (typeof LOOP_AGENTS)[number];
export type Control = 'complete' | 'pause' | 'promise';

/** How many empty, identical or failed iterations in a row pause the loop as stuck. */
export const STUCK_AFTER = 3;
export const DEFAULT_MAX_ITERATIONS = 20;

export interface DoneWhenResult {
  passed: boolean;
  exitCode: number | null;
  timedOut: boolean;
  tail: string;
}

export interface IterationRecord {
  n: number;
  endedAt: string;
  /** Characters of the agent's last response, and a digest to see it repeat. */
  chars: number;
  digest: string;
  control: Control | null;
  /** The run driver's agent exit code. */
  exitCode?: number | null;
  doneWhen?: DoneWhenResult;
  /**
   * The hook driver's answer went on with the session: which consecutive Stop-hook block of the
   * agent's turn that was (Claude Code ends a turn after a cap of them, whatever the hook says).
   */
  hookBlock?: number;
  /** For a hook that sends every reply since the prompt (Gemini CLI): that whole text as this call got it. */
  accumulated?: Accumulated;
}

/** A text by its length and exact digest: enough to know it again as the start of a longer one. */
export interface Accumulated {
  chars: number;
  sha1: string;
}

export interface Loop {
  loop_id: string;
  prompt: string;
  promptFile: string | null;
  /** Iterations completed. */
  iteration: number;
  max: number;
  promise: string | null;
  doneWhen: string | null;
  doneWhenTimeout: number;
  status: LoopStatus;
  /** Why the loop is paused or stopped. */
  reason: string | null;
  driver: Driver;
  /** The agent whose hook drives a hook loop: given to forge loop start, or the first hook to bind it; null until then. */
  agent: LoopAgent | null;
  /** The agent session a hook loop is bound to (the first valid one to stop). */
  session: string | null;
  /** The agent command of a run loop. */
  command: string[] | null;
  /** The run id the agent's forge calls and done-when checks log under. */
  runId: string;
  /** The pid of the `forge loop run` driving a run loop right now. */
  runnerPid: number | null;
  startedAt: string;
  updatedAt: string;
  iterations: IterationRecord[];
}

function save(tx: StateTx, loop: Loop): void {
  tx.write(loopPath(loop.loop_id), `${JSON.stringify(loop, null, 2)}\n`);
}

/** The loop the current pointer names: null when none was started; STATE_INVALID when the pointer or the loop cannot be read. */
async function currentIn(from: StateSource): Promise<Loop | null> {
  // Starting a loop writes the pointer anew.
  const fix = 'forge loop start --help';
  const pointer = await readStateJson({ from, path: CURRENT_PATH, file: validators.loopPointer, fix });
  if (!pointer) return null;
  const path = loopPath(pointer.loop_id);
  const loop = await readStateJson({ from, path, file: validators.loop, fix });
  // A loop saved under another's name would be written back over that one.
  if (loop && loop.loop_id !== pointer.loop_id)
    throw stateInvalid({ path, problem: `loop_id: '${loop.loop_id}' is not the file's name`, file: validators.loop, fix });
  return loop;
}

/** The current loop (the last one started), whatever its status. */
export function currentLoop({ store }: { store: StateStore }): Promise<Loop | null> {
  return currentIn(store);
}

/** Whether a `forge loop run` is driving this loop now (its pid is alive). */
export function isDriven(loop: Loop): boolean {
  return loop.runnerPid !== null && processAlive(loop.runnerPid);
}

export function isLive(loop: Loop | null): loop is Loop {
  return loop !== null && (loop.status === 'active' || loop.status === 'paused');
}

export interface StartOptions {
  prompt: string;
  promptFile: string | null;
  max: number;
  promise: string | null;
  doneWhen: string | null;
  doneWhenTimeout: number;
  driver: Driver;
  agent: LoopAgent | null;
  session: string | null;
  command: string[] | null;
}

/** Starts a loop; refused while another is active or paused (one loop per repository at a time). */
export async function startLoop({ store, options, now }: { store: StateStore; options: StartOptions; now: Date }): Promise<Loop> {
  const stamp = now.toISOString();
  const id = `loop-${stamp.slice(0, 10).replace(/-/g, '')}-${randomHex().slice(0, 8)}`;
  const r = await store.update({
    message: `loop: start ${id} (${options.driver}, max ${options.max})`,
    apply: async (tx) => {
      // A current loop that cannot be read is no live one: the new loop takes the pointer, the old file stays.
      const existing = await currentIn(tx).catch((err: unknown) => {
        if (err instanceof ForgeError && err.code === 'STATE_INVALID') return null;
        throw err;
      });
      if (isLive(existing))
        throw new RefusedError(
          'LOOP_ACTIVE',
          `loop ${existing.loop_id} is ${existing.status} (iteration ${existing.iteration} of ${existing.max})`,
          { fix: 'forge loop cancel' },
        );
      const loop: Loop = {
        loop_id: id,
        ...options,
        iteration: 0,
        status: 'active',
        reason: null,
        runId: id,
        runnerPid: null,
        startedAt: stamp,
        updatedAt: stamp,
        iterations: [],
      };
      save(tx, loop);
      tx.write(CURRENT_PATH, `${JSON.stringify({ loop_id: id, updatedAt: stamp })}\n`);
      return loop;
    },
  });
  return r.value;
}

/** Applies `change` to the current loop in one state commit; `change` may refuse by throwing. */
export async function updateLoop<T>({
  store,
  message,
  change,
}: {
  store: StateStore;
  message: string;
  change: (loop: Loop) => { loop: Loop; value: T };
}): Promise<T> {
  const r = await store.update({
    message,
    apply: async (tx) => {
      const loop = await currentIn(tx);
      if (!loop) throw new RefusedError('NO_LOOP', 'no loop has been started in this repository', { fix: 'forge loop start --help' });
      const next = change(loop);
      if (next.loop !== loop) save(tx, next.loop);
      return next.value;
    },
  });
  return r.value;
}

/** Pause, resume or cancel, each allowed only from the states where it means something. */
export function setLoopStatus({
  store,
  to,
  reason,
  now,
}: {
  store: StateStore;
  to: 'paused' | 'active' | 'cancelled';
  reason: string | null;
  now: Date;
}): Promise<Loop> {
  const from: Record<typeof to, LoopStatus[]> = { paused: ['active'], active: ['paused'], cancelled: ['active', 'paused'] };
  return updateLoop({
    store,
    message: `loop: ${to === 'active' ? 'resume' : to === 'paused' ? 'pause' : 'cancel'}`,
    change: (loop) => {
      if (!from[to].includes(loop.status)) {
        const verb = to === 'active' ? 'resume' : to === 'paused' ? 'pause' : 'cancel';
        throw new RefusedError(
          loop.status === 'active' || loop.status === 'paused' ? 'LOOP_NOT_PAUSED' : 'LOOP_ENDED',
          `cannot ${verb} loop ${loop.loop_id}: it is ${loop.status}${loop.reason ? ` (${loop.reason})` : ''}`,
          { fix: 'forge loop status' },
        );
      }
      const next = { ...loop, status: to, reason: to === 'active' ? null : reason, updatedAt: now.toISOString() };
      return { loop: next, value: next };
    },
  });
}

/** Why the last iterations say the agent is stuck, if they do. */
export function stuckReason(records: IterationRecord[]): string | null {
  if (records.length < STUCK_AFTER) return null;
  const recent = records.slice(-STUCK_AFTER);
  if (recent.every((r) => r.chars === 0)) return `stuck: ${STUCK_AFTER} empty responses in a row`;
  if (recent.every((r) => r.digest === recent[0]!.digest)) return `stuck: ${STUCK_AFTER} identical responses in a row`;
  if (recent.every((r) => r.exitCode !== undefined && r.exitCode !== 0))
    return `stuck: the agent failed ${STUCK_AFTER} times in a row (last exit ${recent.at(-1)!.exitCode ?? 'by signal'})`;
  return null;
}

export type IterationOutcome = 'continue' | Exclude<LoopStatus, 'active'>;

/**
 * Records one finished iteration and decides what follows, in this order: the agent's pause, the
 * agent's completion (FORGE_COMPLETE or the promise), done-when passing, stuck, the iteration limit.
 */
export function concludeIteration(loop: Loop, record: IterationRecord, now: Date): { loop: Loop; outcome: IterationOutcome } {
  const iterations = [...loop.iterations, record];
  const next: Loop = { ...loop, iteration: record.n, iterations, updatedAt: now.toISOString() };
  const end = (status: LoopStatus, reason: string, outcome: IterationOutcome) => ({ loop: { ...next, status, reason }, outcome });
  if (record.control === 'pause') return end('paused', `the agent asked to pause (FORGE_PAUSE) at iteration ${record.n}`, 'paused');
  if (record.control === 'complete') return end('complete', `the agent signalled FORGE_COMPLETE at iteration ${record.n}`, 'complete');
  if (record.control === 'promise')
    return end('complete', `the agent kept the promise <promise>${loop.promise}</promise> at iteration ${record.n}`, 'complete');
  if (record.doneWhen?.passed) return end('complete', `done-when passed at iteration ${record.n}: ${loop.doneWhen}`, 'complete');
  const stuck = stuckReason(iterations);
  if (stuck) return end('paused', stuck, 'paused');
  if (record.n >= loop.max)
    return end('max_reached', `reached the limit of ${loop.max} iteration${loop.max === 1 ? '' : 's'}`, 'max_reached');
  return { loop: next, outcome: 'continue' };
}

/** A short digest of a response, to notice the same answer coming back. */
export async function digest(text: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  return createHash('sha1').update(text.replace(/\s+/g, ' ').trim()).digest('hex').slice(0, 12);
}

// The state files of this module, registered with the state layer's kinds (lib/state/read.ts), which imports no feature.
declare module '../state/read' {
  interface StateKinds {
    loop: Loop;
  }
}
