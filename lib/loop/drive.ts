// The run driver: start the agent once per iteration with the prompt on stdin until the loop ends.
import { RefusedError } from '../errors';
import type { StateStore } from '../git/state';
import { startProgram, type RunningProgram } from '../process/program';
import { finishIteration, type IterationEnd } from './iterate';
import { updateLoop, type Loop } from './loop';
import { iterationPrompt } from './prompt';

/**
 * Drives the current run loop in the foreground. `signal` (Ctrl-C or SIGTERM on forge, or an MCP
 * client that cancelled the call or went away) stops the agent's whole process group and pauses
 * the loop, the cut iteration uncounted; `forge loop resume` continues it. An agent that cannot
 * start pauses the loop and is refused as AGENT_NOT_FOUND.
 */
export async function driveLoop({
  store,
  root,
  env,
  now,
  onOutput,
  onIteration,
  signal,
}: {
  store: StateStore;
  root: string;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  onOutput: (chunk: Buffer) => void;
  onIteration: (end: IterationEnd) => Promise<void>;
  signal?: AbortSignal;
}): Promise<{ loop: Loop; interrupted: boolean }> {
  let interrupted = false;
  let running: RunningProgram | null = null;
  const interrupt = () => {
    interrupted = true;
    running?.stop();
  };
  if (signal?.aborted) interrupt();
  signal?.addEventListener('abort', interrupt, { once: true });
  const setRunner = (pid: number | null, extra: Partial<Loop> = {}) =>
    updateLoop({
      store,
      message: pid ? 'loop: run driver started' : `loop: run driver stopped${extra.reason ? ` (${extra.reason})` : ''}`,
      change: (l) => {
        const next = { ...l, runnerPid: pid, ...extra, updatedAt: now().toISOString() };
        return { loop: next, value: next };
      },
    });
  let loop = await setRunner(process.pid);
  try {
    while (loop.status === 'active' && !interrupted) {
      const prompt = await iterationPrompt({ store, loop });
      running = startProgram({
        argv: loop.command!,
        cwd: root,
        env: { ...env, FORGE_RUN_ID: loop.runId, FORGE_LOOP_ID: loop.loop_id, FORGE_LOOP_ITERATION: String(loop.iteration + 1) },
        input: prompt,
        onOutput,
      });
      const result = await running.done;
      running = null;
      if (result.spawnError) {
        const reason = `the agent command '${loop.command![0]}' could not start (${result.spawnError})`;
        loop = await setRunner(null, { status: 'paused', reason });
        throw new RefusedError('AGENT_NOT_FOUND', reason, { fix: `command -v ${loop.command![0]}` });
      }
      if (interrupted) break;
      const end = await finishIteration({ store, loop, text: result.stdout, exitCode: result.exitCode, root, env, now });
      if (!end) throw new RefusedError('LOOP_REPLACED', `loop ${loop.loop_id} is no longer the current loop`, { fix: 'forge loop status' });
      loop = end.loop;
      await onIteration(end);
    }
    const reason = interrupted ? `interrupted during iteration ${loop.iteration + 1}; the iteration was not counted` : loop.reason;
    loop = await setRunner(null, interrupted && loop.status === 'active' ? { status: 'paused', reason } : {});
    return { loop, interrupted };
  } finally {
    signal?.removeEventListener('abort', interrupt);
  }
}
