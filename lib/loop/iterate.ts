// One iteration's end, shared by both drivers: read the control lines, run done-when, record, decide.
import type { StateStore } from '../git/state';
import { runShell } from '../process/program';
import { cleanText, findControl } from './control';
import { concludeIteration, digest, updateLoop, type DoneWhenResult, type IterationOutcome, type IterationRecord, type Loop } from './loop';

export interface IterationEnd {
  loop: Loop;
  record: IterationRecord;
  outcome: IterationOutcome;
}

/** Runs the loop's done-when check at the top of the repository, logging under the loop's run. */
export async function runDoneWhen({ loop, root, env }: { loop: Loop; root: string; env: NodeJS.ProcessEnv }): Promise<DoneWhenResult> {
  const r = await runShell({
    command: loop.doneWhen!,
    cwd: root,
    timeoutMs: loop.doneWhenTimeout * 1000,
    env: { ...env, FORGE_RUN_ID: loop.runId },
  });
  return { passed: r.exitCode === 0 && !r.timedOut, exitCode: r.exitCode, timedOut: r.timedOut, tail: r.tail.slice(-2000) };
}

/**
 * Ends the current iteration of `loop` with the agent's last response. `session`, for the hook
 * driver, binds an unbound loop; a loop that another session bound meanwhile is left alone, and
 * a loop paused or cancelled while the agent worked keeps that status (the iteration is recorded).
 */
export async function finishIteration({
  store,
  loop,
  text,
  exitCode,
  session,
  stopHookActive,
  root,
  env,
  now,
}: {
  store: StateStore;
  loop: Loop;
  text: string;
  exitCode?: number | null;
  session?: string;
  /** The Stop payload says a Stop hook already blocked this turn. */
  stopHookActive?: boolean;
  root: string;
  env: NodeJS.ProcessEnv;
  now: () => Date;
}): Promise<IterationEnd | null> {
  const control = findControl(text, loop.promise);
  const doneWhen = !control && loop.doneWhen ? await runDoneWhen({ loop, root, env }) : undefined;
  const clean = cleanText(text).trim();
  const record: IterationRecord = {
    n: loop.iteration + 1,
    endedAt: now().toISOString(),
    chars: clean.length,
    digest: await digest(clean),
    control,
    ...(exitCode !== undefined ? { exitCode } : {}),
    ...(doneWhen ? { doneWhen } : {}),
  };
  return updateLoop<IterationEnd | null>({
    store,
    message: `loop: ${loop.loop_id} iteration ${record.n}${control ? ` (${control})` : ''}`,
    change: (current) => {
      if (current.loop_id !== loop.loop_id || (session !== undefined && current.session !== null && current.session !== session))
        return { loop: current, value: null };
      const bound = session !== undefined && current.session === null ? { ...current, session } : current;
      const rec = { ...record, n: bound.iteration + 1 };
      if (bound.status !== 'active') {
        const kept = { ...bound, iteration: rec.n, iterations: [...bound.iterations, rec], updatedAt: now().toISOString() };
        return { loop: kept, value: { loop: kept, record: rec, outcome: bound.status } };
      }
      const { loop: next, outcome } = concludeIteration(bound, rec, now());
      // Going on blocks the agent's Stop: the first block of a turn, or one more after the last.
      if (outcome === 'continue' && stopHookActive !== undefined) {
        const last = { ...next.iterations.at(-1)!, hookBlock: stopHookActive ? (bound.iterations.at(-1)?.hookBlock ?? 0) + 1 : 1 };
        const counted = { ...next, iterations: [...next.iterations.slice(0, -1), last] };
        return { loop: counted, value: { loop: counted, record: last, outcome } };
      }
      return { loop: next, value: { loop: next, record: rec, outcome } };
    },
  });
}
