// forge loop resume: continue a paused loop — in the foreground when forge loop run drives it.
import { defineCommand } from '../../lib/cli/declare';
import { RefusedError } from '../../lib/errors';
import { currentLoop, isDriven, setLoopStatus } from '../../lib/loop/loop';
import { hookWait } from '../../lib/loop/describe';
import { driveAndAnswer } from './run';

export default defineCommand({
  name: 'loop resume',
  summary: 'Resume the current loop',
  description:
    "Marks a paused loop active again. A loop driven by an agent's hook (Stop; Gemini CLI's AfterAgent) continues at its session's next stop. A loop driven by forge loop run (paused by Ctrl-C, FORGE_PAUSE or being stuck) is driven again right here with its agent command, until it completes, pauses or reaches its limit — also when it is active but its forge loop run died. Exit 0 when the loop completed (or, for a hook loop, was resumed), 1 when it stopped otherwise.",
  args: {},
  examples: [{ command: 'forge loop resume', description: 'Continue where the loop paused.' }],
  errors: {
    NO_LOOP: 'no loop was started',
    STATE_INVALID: 'the current loop on the state ref is not one forge can read (starting a loop writes the pointer anew)',
    LOOP_NOT_PAUSED: 'the loop is not paused',
    LOOP_ENDED: 'the loop has ended',
    LOOP_RUNNING: 'a forge loop run is driving it already',
    AGENT_NOT_FOUND: 'the agent command cannot start',
    NOT_A_GIT_REPO: 'outside a git repository',
    LOOP_REPLACED: 'the loop was cancelled or replaced while it ran',
  },
  exits: {
    0: 'resumed (hook loop) or completed (run loop)',
    1: 'refused, or the run loop paused or hit its limit',
    2: 'invalid input or not a git repository',
  },
  mutates: true,
  mcp: { title: 'Resume the loop', toolset: 'loop', effect: 'additive', idempotent: true },
  async run(_args, ctx) {
    const store = await ctx.store();
    const before = await currentLoop({ store });
    if (before && before.driver === 'run' && isDriven(before))
      throw new RefusedError('LOOP_RUNNING', `forge loop run (pid ${before.runnerPid}) is driving ${before.loop_id}`, {
        fix: ctx.cmd('loop', 'status'),
      });
    const orphaned = before?.driver === 'run' && before.status === 'active';
    const loop = orphaned ? before : await setLoopStatus({ store, to: 'active', reason: null, now: ctx.now() });
    if (loop.driver === 'hook')
      return {
        data: { loop_id: loop.loop_id, status: loop.status },
        text: `resumed ${loop.loop_id} at iteration ${loop.iteration}`,
        next: null,
        wait: hookWait(loop.agent),
      };
    return driveAndAnswer({ store, ctx });
  },
});
