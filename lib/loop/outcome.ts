// Driving a run loop in the foreground for a command (run, resume): iterations as items, then how it ended.
import type { Outcome, RunContext } from '../cli/declare';
import { workTreeRoot } from '../git/repo';
import type { StateStore } from '../git/state';
import { loopData, loopSummary } from './describe';
import { driveLoop } from './drive';
import type { Loop } from './loop';

/** Drives the current run loop at the top of the repository, streaming one item per iteration. */
export async function driveAndAnswer({ store, ctx }: { store: StateStore; ctx: RunContext }): Promise<Outcome> {
  const root = (await workTreeRoot({ cwd: ctx.cwd }))?.root ?? ctx.cwd;
  const { loop } = await driveLoop({
    store,
    root,
    env: process.env,
    now: ctx.now,
    onOutput: (b) => process.stderr.write(b),
    onIteration: async (end) =>
      ctx.emit(
        { type: 'iteration', ...end.record, outcome: end.outcome },
        `iteration ${end.record.n}: ${end.outcome}${end.record.doneWhen ? ` (done-when ${end.record.doneWhen.passed ? 'passed' : 'failed'})` : ''}`,
      ),
  });
  return drivenOutcome(loop, ctx);
}

export function drivenOutcome(loop: Loop, ctx: RunContext): Outcome {
  const base = { data: loopData(loop), text: loopSummary(loop) };
  if (loop.status === 'complete') return { ...base, next: null };
  if (loop.status === 'paused') return { ...base, exitCode: 1, next: ctx.cmd('loop', 'resume'), or: ctx.cmd('loop', 'status') };
  return { ...base, exitCode: 1, next: ctx.cmd('logs', '--run-id', loop.runId) };
}
