// How a loop reads in text, and the hint that follows it — shared by status, run, resume, pause and the hook.
import { isDriven, type Loop } from './loop';

export function loopSummary(loop: Loop): string {
  const driver =
    loop.driver === 'hook'
      ? `Claude Code Stop hook${loop.session ? `, session ${loop.session}` : ', no session bound yet'}`
      : `forge loop run -- ${loop.command?.join(' ') ?? ''}${isDriven(loop) ? ` (running, pid ${loop.runnerPid})` : ''}`;
  const lines = [
    `${loop.loop_id}: ${loop.status}${loop.reason ? ` — ${loop.reason}` : ''}`,
    `iteration ${loop.iteration} of ${loop.max}; driver: ${driver}; run id ${loop.runId}`,
  ];
  const last = loop.iterations.at(-1);
  if (last) {
    const check = last.doneWhen
      ? `; done-when ${last.doneWhen.passed ? 'passed' : last.doneWhen.timedOut ? 'timed out' : `failed (exit ${last.doneWhen.exitCode})`}`
      : '';
    const block = last.hookBlock
      ? `; Stop-hook block ${last.hookBlock} in a row of Claude Code's cap (8 unless CLAUDE_CODE_STOP_HOOK_BLOCK_CAP says otherwise)`
      : '';
    lines.push(
      `last: iteration ${last.n} at ${last.endedAt}: ${last.chars} chars${last.control ? `, ${last.control}` : ''}${last.exitCode !== undefined ? `, agent exit ${last.exitCode}` : ''}${check}${block}`,
    );
  }
  return lines.join('\n');
}

/** Data fields every loop response carries. */
export function loopData(loop: Loop): Record<string, unknown> {
  const { prompt: _prompt, iterations, ...rest } = loop;
  return { ...rest, last: iterations.at(-1) ?? null };
}
