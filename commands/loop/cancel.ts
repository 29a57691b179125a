// forge loop cancel: end the current loop for good.
import { defineCommand } from '../../lib/cli/declare';
import { setLoopStatus } from '../../lib/loop/loop';

export default defineCommand({
  name: 'loop cancel',
  summary: 'Cancel the current loop',
  description:
    'Ends the active or paused loop (status cancelled); its record stays on the state ref. The Stop hook then lets sessions stop, and a new loop can be started.',
  args: {},
  examples: [{ command: 'forge loop cancel', description: 'Give up on the current loop.' }],
  errors: {
    NO_LOOP: 'no loop was started',
    LOOP_ENDED: 'the loop has already ended',
    STATE_INVALID: 'the current loop on the state ref is not one forge can read (starting a loop writes the pointer anew)',
    NOT_A_GIT_REPO: 'outside a git repository',
  },
  exits: { 0: 'cancelled', 1: 'refused: no loop, already ended, or unreadable', 2: 'invalid input or not a git repository' },
  mutates: true,
  mcp: { title: 'Cancel the loop', toolset: 'loop', effect: 'destructive', idempotent: true },
  async run(_args, ctx) {
    const loop = await setLoopStatus({ store: await ctx.store(), to: 'cancelled', reason: 'cancelled by the operator', now: ctx.now() });
    return {
      data: { loop_id: loop.loop_id, status: loop.status, iteration: loop.iteration },
      text: `cancelled ${loop.loop_id} after ${loop.iteration} iteration${loop.iteration === 1 ? '' : 's'}`,
      next: null,
    };
  },
});
