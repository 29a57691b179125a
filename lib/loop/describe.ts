// How a loop reads in text, and the hint that follows it — shared by status, run, resume, pause and the hook.
import { isDriven, type Loop, type LoopAgent } from './loop';
import { STOP_HOOKS } from './stop-hooks';

/** The hook that drives a hook loop, by name: its agent's own, or any agent's until one binds it. */
export function hookName(agent: LoopAgent | null): string {
  return agent ? STOP_HOOKS[agent].hook : "an agent's Stop hook (Claude Code, Codex CLI; Gemini CLI's AfterAgent)";
}

/** The session a hook loop belongs to, by its agent's name: 'Codex CLI session s1'. */
export function sessionName(loop: Loop): string {
  return `${loop.agent ? STOP_HOOKS[loop.agent].agent : 'agent'} session${loop.session ? ` ${loop.session}` : ''}`;
}

/** What an active hook loop waits for. */
export function hookWait(agent: LoopAgent | null): string {
  return agent
    ? `the ${STOP_HOOKS[agent].agent} session to stop: ${hookName(agent)} runs the next iteration`
    : "the agent's session to stop: its Stop hook (Gemini CLI's AfterAgent) runs the next iteration";
}

export function loopSummary(loop: Loop): string {
  const driver =
    loop.driver === 'hook'
      ? `${hookName(loop.agent)}${loop.session ? `, session ${loop.session}` : ', no session bound yet'}`
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
