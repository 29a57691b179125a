// forge loop pause: stop continuing the current loop until resumed.
import { defineCommand } from '../../lib/cli/declare';
import { InvalidInputError } from '../../lib/errors';
import { setLoopStatus } from '../../lib/loop/loop';

export default defineCommand({
  name: 'loop pause',
  summary: 'Pause the current loop',
  description:
    "Marks the active loop paused, with the reason: the agent's hook (Stop; Gemini CLI's AfterAgent) lets its session stop, and a running forge loop run stops after the current iteration. forge loop resume continues it.",
  args: {
    reason: { type: 'string', default: 'paused by the operator', placeholder: 'TEXT', description: 'Why; shown by status.' },
  },
  examples: [{ command: "forge loop pause --reason 'reviewing the diff'", description: 'Hold the loop.' }],
  errors: {
    NO_LOOP: 'no loop was started',
    STATE_INVALID: 'the current loop on the state ref is not one forge can read (starting a loop writes the pointer anew)',
    LOOP_NOT_PAUSED: 'the loop is not active',
    LOOP_ENDED: 'the loop has ended',
    EMPTY_REASON: 'a blank reason',
    NOT_A_GIT_REPO: 'outside a git repository',
  },
  exits: { 0: 'paused', 1: 'refused: no loop, or not active', 2: 'invalid input or not a git repository' },
  mutates: true,
  mcp: { title: 'Pause the loop', toolset: 'loop', effect: 'additive', idempotent: true },
  async run(args, ctx) {
    if (!args.reason.trim())
      throw new InvalidInputError('EMPTY_REASON', 'the reason is blank', { fix: ctx.cmd('loop', 'pause', '--reason', 'why') });
    const loop = await setLoopStatus({ store: await ctx.store(), to: 'paused', reason: args.reason.trim(), now: ctx.now() });
    return {
      data: { loop_id: loop.loop_id, status: loop.status, reason: loop.reason },
      text: `paused ${loop.loop_id} at iteration ${loop.iteration}: ${loop.reason}`,
      next: ctx.cmd('loop', 'resume'),
    };
  },
});
