// forge loop run: drive any CLI agent through the loop, once per iteration, prompt on stdin.
import { InvalidInputError, RefusedError } from '../../lib/errors';
import { currentLoop, isDriven, isLive, startLoop, updateLoop } from '../../lib/loop/loop';
import { defineCommand, type Outcome, type RunContext } from '../../lib/cli/declare';
import { workTreeRoot } from '../../lib/git/repo';
import type { StateStore } from '../../lib/git/state';
import { loopData, loopSummary, sessionName } from '../../lib/loop/describe';
import { driveLoop } from '../../lib/loop/drive';
import type { Loop } from '../../lib/loop/loop';
import { START_ARGS, startOptions } from './start';

export default defineCommand({
  name: 'loop run',
  summary: 'Run an agent once per iteration until the loop completes, pauses or hits its limit',
  description: [
    "Runs the agent command given after -- (no shell) once per iteration in its own process group, at the top of the repository, with the iteration's prompt on stdin and FORGE_RUN_ID, FORGE_LOOP_ID and FORGE_LOOP_ITERATION in its environment; its output streams to stderr. The prompt is the loop's prompt followed by the iteration number, the last done-when failure, the last forge validate result of the loop's run, up to 3 matching forge memory lessons, and how to signal completion.",
    "After each run the agent's stdout is read for the control lines (FORGE_COMPLETE, FORGE_PAUSE, <promise>TEXT</promise>, each alone on a line), then --done-when runs; the loop ends as forge loop start describes. With --prompt-file or --prompt a new loop is started; without, the current loop is driven (a loop started for the Stop hook but not yet bound to a session is taken over). Ctrl-C (or, over MCP, the client's cancel or its going away) stops the agent's whole process group and pauses the loop without counting the cut iteration; forge loop resume continues it. Exit 0 when the loop completed, 1 when it paused or reached its limit.",
  ].join('\n\n'),
  args: {
    ...START_ARGS,
    agent: {
      type: 'array',
      tool: 'Agent command and its arguments',
      afterDashes: true,
      required: true,
      placeholder: 'AGENT',
      description: 'The agent command and its arguments, after --.',
    },
  },
  examples: [
    {
      command: "forge loop run --prompt 'Fix the failing test.' --max-iterations 5 --done-when 'make test' -- claude -p",
      description: 'Claude Code headless, until make test passes.',
    },
    {
      command: 'forge loop run --prompt-file PROMPT.md --max-iterations 2 -- cat',
      description:
        'Any program that reads the prompt on stdin is an agent: cat never says it is done, so this one stops after two iterations.',
    },
  ],
  errors: {
    MISSING_AGENT: 'no agent command after --',
    LOOP_ACTIVE: 'another loop is live (with --prompt…) or bound to a session',
    LOOP_RUNNING: 'a forge loop run is driving the loop already',
    NO_LOOP: 'no prompt and no current loop',
    STATE_INVALID: 'no prompt, and the current loop on the state ref is not one forge can read',
    AGENT_NOT_FOUND: 'the agent command cannot start',
    PROMPT_NOT_FOUND: 'the prompt file cannot be read',
    EMPTY_PROMPT: 'the prompt is blank',
    NOT_A_GIT_REPO: 'outside a git repository',
    LOOP_REPLACED: 'the loop was cancelled or replaced while it ran',
    CONFLICTING_ARGUMENTS: 'both --prompt-file and --prompt',
  },
  exits: { 0: 'the loop completed', 1: 'the loop paused or reached its limit, or refused', 2: 'invalid input or not a git repository' },
  mutates: true,
  mcp: { title: 'Run the loop', toolset: 'loop', effect: 'destructive', openWorld: true },
  async run(args, ctx) {
    if (!args.agent.length)
      throw new InvalidInputError('MISSING_AGENT', 'which agent? give its command after --', {
        fix: ctx.cmd('loop', 'run', '--', 'claude', '-p'),
      });
    const store = await ctx.store();
    const options = await startOptions(args, ctx.cwd);
    if (options) {
      await startLoop({ store, options: { ...options, driver: 'run', agent: null, session: null, command: args.agent }, now: ctx.now() });
    } else {
      const current = await currentLoop({ store });
      if (!isLive(current))
        throw new RefusedError('NO_LOOP', 'no live loop to run, and no --prompt-file or --prompt to start one', {
          fix: 'forge loop run --help',
        });
      if (current.driver === 'run' && isDriven(current))
        throw new RefusedError('LOOP_RUNNING', `forge loop run (pid ${current.runnerPid}) is driving ${current.loop_id}`, {
          fix: ctx.cmd('loop', 'status'),
        });
      if (current.driver === 'hook' && current.session)
        throw new RefusedError('LOOP_ACTIVE', `${current.loop_id} is bound to ${sessionName(current)}`, {
          fix: ctx.cmd('loop', 'cancel'),
        });
      if (current.status === 'paused')
        throw new RefusedError('LOOP_ACTIVE', `${current.loop_id} is paused: ${current.reason}`, { fix: ctx.cmd('loop', 'resume') });
      await updateLoop({
        store,
        message: `loop: ${current.loop_id} driven by forge loop run`,
        change: (l) => ({ loop: { ...l, driver: 'run', command: args.agent }, value: null }),
      });
    }
    return driveAndAnswer({ store, ctx });
  },
});

/**
 * Drives the current run loop at the top of the repository in the foreground, streaming one item per
 * iteration (the agent's own output relayed to stderr), and answers how it ended (forge loop run and
 * forge loop resume).
 */
export async function driveAndAnswer({ store, ctx }: { store: StateStore; ctx: RunContext }): Promise<Outcome> {
  const root = (await workTreeRoot({ cwd: ctx.cwd }))?.root ?? ctx.cwd;
  const { loop } = await driveLoop({
    store,
    root,
    env: ctx.env,
    now: ctx.now,
    signal: ctx.signal,
    onOutput: (chunk) => void ctx.relay(chunk),
    onIteration: async (end) =>
      ctx.emit(
        { type: 'iteration', ...end.record, outcome: end.outcome },
        `iteration ${end.record.n}: ${end.outcome}${end.record.doneWhen ? ` (done-when ${end.record.doneWhen.passed ? 'passed' : 'failed'})` : ''}`,
      ),
  });
  return drivenOutcome(loop, ctx);
}

function drivenOutcome(loop: Loop, ctx: RunContext): Outcome {
  const base = { data: loopData(loop), text: loopSummary(loop) };
  if (loop.status === 'complete') return { ...base, next: null };
  if (loop.status === 'paused') return { ...base, exitCode: 1, next: ctx.cmd('loop', 'resume'), or: ctx.cmd('loop', 'status') };
  return { ...base, exitCode: 1, next: ctx.cmd('logs', '--run-id', loop.runId) };
}
