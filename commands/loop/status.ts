// forge loop status: the current loop — iteration, driver, binding, why it stopped.
import { defineCommand } from '../../lib/cli/declare';
import { hookWait, loopData, loopSummary } from '../../lib/loop/describe';
import { currentLoop, isDriven } from '../../lib/loop/loop';

export default defineCommand({
  name: 'loop status',
  summary: 'Show the current loop: status, iteration, driver, last iteration',
  description:
    "Reads the current loop from the state ref: active, paused (with the reason), complete, max_reached or cancelled; the iteration and the limit; the driver (the agent's hook — Claude Code's or Codex CLI's Stop hook, Gemini CLI's AfterAgent hook — and the session it is bound to, or forge loop run, its agent command and whether one is running); and the last iteration (response size, control line, agent exit, done-when). Read-only; no loop is an answer, not an error.",
  args: {},
  examples: [{ command: 'forge loop status --json', description: 'The current loop as one record.' }],
  errors: {
    NOT_A_GIT_REPO: 'outside a git repository',
    STATE_INVALID: 'the current loop on the state ref is not one forge can read (starting a loop writes the pointer anew)',
  },
  exits: { 0: 'shown (or no loop)', 1: 'the current loop cannot be read', 2: 'not a git repository' },
  mutates: false,
  mcp: { title: 'Show the loop', toolset: 'loop', effect: 'read' },
  async run(_args, ctx) {
    const loop = await currentLoop({ store: await ctx.store() });
    if (!loop) return { data: { loop_id: null }, text: 'no loop', next: 'forge loop start --help' };
    const base = { data: loopData(loop), text: loopSummary(loop) };
    if (loop.status === 'paused') return { ...base, next: ctx.cmd('loop', 'resume'), or: ctx.cmd('loop', 'cancel') };
    if (loop.status !== 'active') return { ...base, next: ctx.cmd('logs', '--run-id', loop.runId) };
    if (loop.driver === 'run' && !isDriven(loop)) return { ...base, next: ctx.cmd('loop', 'resume') };
    return {
      ...base,
      next: null,
      wait: loop.driver === 'hook' ? hookWait(loop.agent) : `forge loop run (pid ${loop.runnerPid}) to finish its iterations`,
    };
  },
});
