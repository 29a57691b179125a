// The response of a command that drove a loop (run, resume): how it ended, exit code, and the hint.
import type { Outcome, RunContext } from '../cli/declare';
import { loopData, loopSummary } from './describe';
import type { Loop } from './loop';

export function drivenOutcome(loop: Loop, ctx: RunContext): Outcome {
  const base = { data: loopData(loop), text: loopSummary(loop) };
  if (loop.status === 'complete') return { ...base, next: null };
  if (loop.status === 'paused') return { ...base, exitCode: 1, next: ctx.cmd('loop', 'resume'), or: ctx.cmd('loop', 'status') };
  return { ...base, exitCode: 1, next: ctx.cmd('logs', '--run-id', loop.runId) };
}
