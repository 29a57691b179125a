// forge loop start: begin a loop of one prompt, driven by the agent's Stop (or AfterAgent) hook (or forge loop run).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defineCommand, type ArgsOf } from '../../lib/cli/declare';
import { InvalidInputError } from '../../lib/errors';
import { hookName, sessionName } from '../../lib/loop/describe';
import { DEFAULT_MAX_ITERATIONS, type Loop, startLoop, type StartOptions } from '../../lib/loop/loop';
import { STOP_AGENTS, STOP_HOOKS, type StopAgent } from '../../lib/loop/stop-hooks';

/** What a loop is started with; forge loop run takes the same. */
export const START_ARGS = {
  'prompt-file': { type: 'string', tool: '', placeholder: 'FILE', description: 'The prompt every iteration repeats.' },
  prompt: { type: 'string', tool: '', placeholder: 'TEXT', description: 'The prompt, instead of a file.' },
  'max-iterations': {
    type: 'integer',
    tool: '',
    min: 1,
    max: 10000,
    default: DEFAULT_MAX_ITERATIONS,
    placeholder: 'N',
    description: 'Stop after N iterations.',
  },
  'completion-promise': {
    type: 'string',
    tool: 'Complete on <promise>TEXT</promise>',
    placeholder: 'TEXT',
    description: 'Also complete on a line <promise>TEXT</promise>.',
  },
  'done-when': {
    type: 'string',
    tool: 'Command; exit 0 completes',
    placeholder: 'CMD',
    description: 'A check run after each iteration; exit 0 completes.',
  },
  'done-when-timeout': {
    type: 'integer',
    tool: 'Seconds',
    min: 1,
    default: 120,
    placeholder: 'SECONDS',
    description: 'Time allowed for the check.',
  },
} as const;

/** The start options from the arguments, reading the prompt file; null when no prompt was given. */
export async function startOptions(
  args: ArgsOf<typeof START_ARGS>,
  cwd: string,
): Promise<Omit<StartOptions, 'driver' | 'agent' | 'session' | 'command'> | null> {
  if (args['prompt-file'] === undefined && args.prompt === undefined) return null;
  if (args['prompt-file'] !== undefined && args.prompt !== undefined)
    throw new InvalidInputError('CONFLICTING_ARGUMENTS', 'give --prompt-file or --prompt, not both', { fix: 'forge loop start --help' });
  let prompt = args.prompt ?? '';
  if (args['prompt-file'] !== undefined) {
    prompt = await readFile(resolve(cwd, args['prompt-file']), 'utf8').catch((err: NodeJS.ErrnoException) => {
      throw new InvalidInputError('PROMPT_NOT_FOUND', `cannot read the prompt file '${args['prompt-file']}' (${err.code})`, {
        fix: `ls ${args['prompt-file']}`,
      });
    });
  }
  if (!prompt.trim()) throw new InvalidInputError('EMPTY_PROMPT', 'the prompt is empty', { fix: 'forge loop start --help' });
  const promise = args['completion-promise']?.trim() || null;
  return {
    prompt,
    promptFile: args['prompt-file'] ?? null,
    max: args['max-iterations'],
    promise,
    doneWhen: args['done-when'] ?? null,
    doneWhenTimeout: args['done-when-timeout'],
  };
}

/** Who drives a loop just started and what binds it, for forge loop start's answer. */
function driven(loop: Loop): string {
  if (loop.session) return `bound to ${sessionName(loop)}`;
  if (loop.agent) return `${hookName(loop.agent)} drives it: the first ${STOP_HOOKS[loop.agent].agent} session to stop binds it`;
  const installs = STOP_AGENTS.map((a) => `forge loop install ${a}`);
  return `the first agent session to stop binds it, whichever agent's hook is installed: ${installs.slice(0, -1).join(', ')} or ${installs.at(-1)}`;
}

export default defineCommand({
  name: 'loop start',
  summary: 'Start a loop that repeats one prompt until the agent is done',
  description: [
    'Records a loop on the state ref (.forge/loops/<id>.json, with .forge/loops/current.json naming it): the prompt, the iteration limit, the completion promise, the done-when check. One loop at a time per repository: a loop that is active or paused must be cancelled first.',
    "A loop started here is driven by an agent's own hook: Claude Code's or Codex CLI's Stop hook, Gemini CLI's AfterAgent hook (forge loop install claude|codex|gemini). The first session with a real session id to stop binds the loop (or give --session), and from then on, each time that session stops, forge loop hook <agent> records the iteration and either feeds the prompt back or lets it stop. --agent names the agent the loop is for: only that agent's hook binds it, and the hints (forge loop install <agent>, forge loop status) name it; without it the first hook to stop binds the loop and its agent. forge loop run -- <agent…> drives any CLI agent instead (OpenCode's too, which has no hook that can keep a session going).",
    "An iteration ends the loop when the agent's last response has a line FORGE_COMPLETE (or RALPH_COMPLETE), or <promise>TEXT</promise> matching --completion-promise; a line FORGE_PAUSE (or RALPH_PAUSE) pauses it. Control words count only as whole lines: a reply that just says the promise text ends nothing. After each iteration without a control line, --done-when runs through sh at the top of the repository with FORGE_RUN_ID set to the loop's run; exit 0 completes the loop. 3 empty or identical responses in a row (or 3 failed agent runs) pause it as stuck; --max-iterations stops it.",
  ].join('\n\n'),
  args: {
    ...START_ARGS,
    agent: {
      type: 'string',
      choices: STOP_AGENTS,
      tool: 'Whose hook drives it',
      placeholder: 'AGENT',
      description: 'The agent whose hook drives the loop; default: the first whose hook stops.',
    },
    session: { type: 'string', placeholder: 'ID', description: "Bind to this agent session now (with --agent, that agent's)." },
  },
  examples: [
    {
      command: "forge loop start --prompt 'Make make test pass; fix one failure at a time.' --max-iterations 10 --done-when 'make test'",
      description: 'A loop that ends when the tests pass.',
    },
    {
      command: 'forge loop start --prompt-file PROMPT.md --completion-promise "ALL TESTS PASS" --agent gemini --json',
      description: "Ends on <promise>ALL TESTS PASS</promise>; Gemini CLI's AfterAgent hook drives it.",
    },
  ],
  errors: {
    MISSING_PROMPT: 'neither --prompt-file nor --prompt',
    PROMPT_NOT_FOUND: 'the prompt file cannot be read',
    EMPTY_PROMPT: 'the prompt is blank',
    CONFLICTING_ARGUMENTS: 'both --prompt-file and --prompt',
    LOOP_ACTIVE: 'another loop is active or paused',
    NOT_A_GIT_REPO: 'outside a git repository',
  },
  exits: { 0: 'started', 1: 'refused: a loop is already live', 2: 'invalid input' },
  mutates: true,
  mcp: { title: 'Start a loop', toolset: 'loop', effect: 'destructive', openWorld: true },
  async run(args, ctx) {
    const options = await startOptions(args, ctx.cwd);
    if (!options)
      throw new InvalidInputError('MISSING_PROMPT', 'which prompt? give --prompt-file FILE or --prompt TEXT', {
        fix: 'forge loop start --help',
      });
    const session = args.session?.trim() || null;
    const agent = (args.agent ?? null) as StopAgent | null;
    const loop = await startLoop({
      store: await ctx.store(),
      options: { ...options, driver: 'hook', agent, session: session === 'null' ? null : session, command: null },
      now: ctx.now(),
    });
    const ends = [
      loop.promise ? `<promise>${loop.promise}</promise>` : null,
      'FORGE_COMPLETE',
      loop.doneWhen ? `done-when \`${loop.doneWhen}\`` : null,
    ]
      .filter(Boolean)
      .join(', ');
    return {
      data: {
        loop_id: loop.loop_id,
        status: loop.status,
        max: loop.max,
        promise: loop.promise,
        doneWhen: loop.doneWhen,
        agent: loop.agent,
        session: loop.session,
        runId: loop.runId,
      },
      text: `started ${loop.loop_id}: up to ${loop.max} iterations; ends on ${ends}; ${driven(loop)}`,
      // The driver to install is the loop's agent's; not knowing it, the hint is the page that lists each.
      next: agent ? ctx.cmd('loop', 'install', agent) : ctx.cmd('loop', 'install', '--help'),
      ...(agent === null || agent === 'claude' ? { or: ctx.cmd('loop', 'run', '--', 'claude', '-p') } : {}),
    };
  },
});
