// One iteration's end, shared by both drivers: read the control lines, run done-when, record, decide.
import type { StateStore } from '../git/state';
import { runShell } from '../process/program';
import { cleanText, findControl } from './control';
import {
  type Accumulated,
  concludeIteration,
  digest,
  updateLoop,
  type DoneWhenResult,
  type IterationOutcome,
  type IterationRecord,
  type Loop,
  type LoopAgent,
} from './loop';

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

async function sha1(text: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  return createHash('sha1').update(text).digest('hex');
}

/**
 * This turn's reply out of a text that holds every reply since the prompt, each after a newline
 * (Gemini CLI's prompt_response): what follows `before`, the whole text the previous call of the
 * same loop got. Without a `before` that starts it — the first turn, or a new prompt, which starts
 * the text afresh — the whole text is this turn's. Read whole, three turns that each said the same
 * would never look the same, and the loop would never pause as stuck.
 */
export async function replySince({ text, before }: { text: string; before: Accumulated | undefined }): Promise<{
  reply: string;
  accumulated: Accumulated;
}> {
  const accumulated = { chars: text.length, sha1: await sha1(text) };
  if (!before || before.chars === 0 || text.length < before.chars) return { reply: text, accumulated };
  const head = text.slice(0, before.chars);
  if ((await sha1(head)) !== before.sha1) return { reply: text, accumulated };
  // Nothing new is an empty reply; anything new comes after the newline that joins it on.
  if (text.length === before.chars) return { reply: '', accumulated };
  return { reply: text[before.chars] === '\n' ? text.slice(before.chars + 1) : text, accumulated };
}

/**
 * Ends the current iteration of `loop` with the agent's last response. `session` and `agent`, for
 * the hook driver, bind an unbound loop; a loop that another session or agent bound meanwhile is
 * left alone, and a loop paused or cancelled while the agent worked keeps that status (the
 * iteration is recorded).
 */
export async function finishIteration({
  store,
  loop,
  text,
  exitCode,
  session,
  agent,
  stopHookActive,
  accumulated,
  root,
  env,
  now,
}: {
  store: StateStore;
  loop: Loop;
  text: string;
  exitCode?: number | null;
  session?: string;
  /** The agent whose hook ends the iteration: binds an unbound loop with its session. */
  agent?: LoopAgent;
  /** The Stop payload says a Stop hook already blocked this turn. */
  stopHookActive?: boolean;
  /** The whole text an accumulating hook sent (replySince), kept for the next call. */
  accumulated?: Accumulated;
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
    ...(accumulated ? { accumulated } : {}),
  };
  return updateLoop<IterationEnd | null>({
    store,
    message: `loop: ${loop.loop_id} iteration ${record.n}${control ? ` (${control})` : ''}`,
    change: (current) => {
      const taken =
        (session !== undefined && current.session !== null && current.session !== session) ||
        (agent !== undefined && current.agent !== null && current.agent !== agent);
      if (current.loop_id !== loop.loop_id || taken) return { loop: current, value: null };
      const bound = {
        ...current,
        session: current.session ?? session ?? null,
        // A loop bound to a session by --session learns its agent from the first hook that drives it.
        agent: current.agent ?? agent ?? null,
      };
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
