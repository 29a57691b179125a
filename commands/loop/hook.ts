// forge loop hook claude|codex|gemini: the agent's Stop (AfterAgent) hook — record the iteration, then continue the session or let it stop.
import { defineCommand, type Outcome, type RunContext } from '../../lib/cli/declare';
import { hookFailure } from '../../lib/claude/hook';
import { stopAnswer, stopBlockCap, type StopPayload } from '../../lib/claude/stop';
import { lastAssistantText } from '../../lib/claude/transcript';
import { CwdNotFoundError, InvalidInputError } from '../../lib/errors';
import { workTreeRoot } from '../../lib/git/repo';
import type { StateStore } from '../../lib/git/state';
import { finishIteration, replySince } from '../../lib/loop/iterate';
import { hookName } from '../../lib/loop/describe';
import { currentLoop, type Loop } from '../../lib/loop/loop';
import { iterationPrompt } from '../../lib/loop/prompt';
import { STOP_AGENTS, STOP_HOOKS, type StopAgent } from '../../lib/loop/stop-hooks';

/** The session may stop: nothing on stdout, or a message for the person. */
function letStop(text: string, systemMessage?: string, data: Record<string, unknown> = {}): Outcome {
  return { data: { decision: 'stop', reason: text, ...data }, text, next: null, raw: systemMessage ? stopAnswer({ systemMessage }) : '' };
}

/**
 * A driver fails open: its own failure lets the session stop, never exit 2 (which would keep the
 * session going). Why goes to stderr with the error code, and to the person as a systemMessage.
 */
async function failOpen(err: unknown, loop: Loop | null, ctx: RunContext): Promise<Outcome> {
  const f = hookFailure(err);
  await ctx.warn(`forge loop hook: ${f.message} [${f.code}]; letting the session stop`);
  const systemMessage = `forge loop${loop ? ` ${loop.loop_id}` : ''}: the Stop hook could not go on (${f.message}), so the session stops; forge loop status shows where the loop stands`;
  return letStop(`${f.message}; the session may stop`, systemMessage, { error: f.code });
}

interface Driven {
  loop: Loop;
  store: StateStore;
  root: string;
}

/** The current loop if the Stop hook drives it now; null when there is none (no repository, no loop, another driver, not active). */
async function drivenLoop(ctx: RunContext): Promise<Driven | null> {
  const root = (await workTreeRoot({ cwd: ctx.cwd }))?.root;
  if (!root) return null;
  const store = await ctx.store();
  const loop = await currentLoop({ store });
  return loop && loop.driver === 'hook' && loop.status === 'active' ? { loop, store, root } : null;
}

/** Records the iteration of an active hook loop and answers continue (the next prompt) or stop. */
async function drive({
  agent,
  p,
  loop,
  store,
  root,
  ctx,
}: Driven & { agent: StopAgent; p: StopPayload; ctx: RunContext }): Promise<Outcome> {
  if (!p.sessionId) return letStop('the payload has no usable session id: the loop stays unbound');
  if (loop.session !== null && loop.session !== p.sessionId)
    return letStop(`${loop.loop_id} belongs to session ${loop.session}, not ${p.sessionId}`);
  // A loop started for one agent is driven by that agent's hook alone, bound or not.
  if (loop.agent !== null && loop.agent !== agent)
    return letStop(`${loop.loop_id} is driven by ${hookName(loop.agent)}, not ${hookName(agent)}`);
  // Without the agent's last words the hook cannot tell a finished task from an unfinished one.
  if (p.lastAssistantMessage === null && p.transcriptPath === null)
    throw new InvalidInputError('BAD_HOOK_PAYLOAD', 'the payload has neither last_assistant_message nor transcript_path');
  const whole = p.lastAssistantMessage ?? (await lastAssistantText({ file: p.transcriptPath! }));
  const since = p.accumulated ? await replySince({ text: whole, before: loop.iterations.at(-1)?.accumulated }) : null;
  const { cap: capped, answer } = STOP_HOOKS[agent];
  const end = await finishIteration({
    store,
    loop,
    text: since ? since.reply : whole,
    session: p.sessionId,
    agent,
    ...(capped ? { stopHookActive: p.stopHookActive } : {}),
    ...(since ? { accumulated: since.accumulated } : {}),
    root,
    env: ctx.env,
    now: () => ctx.now(),
  });
  if (!end) return letStop('the loop was taken by another session meanwhile');
  const { loop: after, outcome } = end;
  if (outcome !== 'continue')
    return letStop(`${after.loop_id} ${after.status}: ${after.reason}`, `forge loop ${after.loop_id} ${after.status}: ${after.reason}`);
  const prompt = await iterationPrompt({ store, loop: after });
  if (!capped) {
    const systemMessage = `forge loop: iteration ${after.iteration + 1} of ${after.max}`;
    return {
      data: { decision: 'block', loop_id: after.loop_id, iteration: after.iteration + 1 },
      text: `continue: ${systemMessage}`,
      next: ctx.cmd('loop', 'status'),
      raw: answer({ prompt, systemMessage }),
    };
  }
  const block = end.record.hookBlock ?? 1;
  const cap = stopBlockCap(ctx.env);
  const capNote =
    block >= cap
      ? `; Stop-hook block ${block} of ${cap} in this turn: Claude Code ends the turn now — send any message to go on with the loop`
      : block >= cap - 2
        ? `; Stop-hook block ${block} of ${cap} in this turn (Claude Code ends the turn at ${cap}; CLAUDE_CODE_STOP_HOOK_BLOCK_CAP raises it)`
        : '';
  const systemMessage = `forge loop: iteration ${after.iteration + 1} of ${after.max}${capNote}`;
  return {
    data: { decision: 'block', loop_id: after.loop_id, iteration: after.iteration + 1, hookBlock: block, hookBlockCap: cap },
    text: `continue: ${systemMessage}`,
    next: ctx.cmd('loop', 'status'),
    raw: answer({ prompt, systemMessage }),
  };
}

export default defineCommand({
  name: 'loop hook',
  summary: "An agent's Stop hook (Claude Code, Codex CLI; Gemini CLI's AfterAgent): continue with the loop's prompt, or let it stop",
  tool: "An agent's Stop hook: go on with the loop or stop",
  description: [
    'Reads a Claude Code Stop hook payload on stdin (session_id, transcript_path, cwd, stop_hook_active, last_assistant_message). With no active loop driven by the hook, or a payload from another session than the one the loop is bound to, it lets the session stop and changes nothing — whatever the payload, garbage included. An unbound loop binds to the first session that stops with a real id — never to an empty or "null" one.',
    'The response is last_assistant_message, or else the text of the last assistant turn in the transcript — every text block since the last prompt, so a turn that ended in tool calls still counts; unparsable lines (a line still being written, control characters, broken JSON) are skipped. Only a regular file is read as the transcript, at most its last 4 MiB and for at most 3 seconds: a FIFO, a device, a directory or a symlink to one is refused without being opened for a blocking read. Control lines (FORGE_COMPLETE, FORGE_PAUSE, <promise>…</promise>) are whole lines ending at \\n or \\r\\n; a bare \\r does not end a line. The iteration is recorded and ends the loop as forge loop start describes. To continue, the answer is {"decision": "block", "reason": <the next prompt>, "systemMessage": "forge loop: iteration N of M"}; to stop, {"systemMessage": <why>} or nothing.',
    'A driver fails open: when the hook cannot decide — a payload that is not a JSON object, a transcript it cannot read, a state or internal error — it lets the session stop (exit 0 with {"systemMessage": …}; the loop stays active, unchanged when the failure came before the iteration was recorded) and says why on stderr with the error code. It never exits 2 for a failure of its own, since exit 2 tells Claude Code not to stop. Claude Code (2.1.143 or later) ends a turn after 8 consecutive Stop-hook blocks whatever the hook answers (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP raises it): the hook counts them from stop_hook_active (true when a Stop hook already blocked this turn), records the count with the iteration, and from two blocks before the cap its systemMessage says when the cap will end the turn; at the cap it says the turn ends now and that any message goes on with the loop. forge loop status shows the count.',
    'codex reads a Codex CLI Stop payload (session_id, cwd, stop_hook_active, last_assistant_message — null when the turn ended without a message, read as an empty reply; Codex\'s transcript is not read) and answers as for Claude Code, whose Stop answers Codex reads: {"decision": "block", "reason": <the next prompt>, "systemMessage": …} to continue. Install it with forge loop install codex.',
    'gemini reads a Gemini CLI AfterAgent payload (session_id, cwd, stop_hook_active, prompt_response; "[no response text]" is read as an empty reply) and answers {"decision": "deny", "reason": <the next prompt>, "systemMessage": …} to continue, which Gemini CLI sends the model as a new prompt; to stop, {"systemMessage": …} or nothing. prompt_response holds every reply since the person\'s prompt, each turn\'s text appended after a newline, also across the turns the hook continues: the iteration\'s reply is the part after the text the previous AfterAgent call of the loop sent (recorded with that iteration as its length and digest), or all of it when it does not start with that text (the first turn, a new prompt). So three turns that say the same pause the loop as stuck. Install it with forge loop install gemini. Codex CLI and Gemini CLI set no cap on consecutive blocks that forge knows of; the loop\'s own --max-iterations ends it.',
  ].join('\n\n'),
  args: {
    agent: { type: 'string', positional: true, required: true, choices: STOP_AGENTS, description: 'The agent whose hook this is.' },
    payload: { type: 'string', placeholder: 'JSON', anyText: true, description: 'The hook payload, instead of stdin.' },
  },
  stdinText: 'payload',
  examples: [
    {
      command: `echo '{"session_id":"s1","transcript_path":"/dev/null","last_assistant_message":"FORGE_COMPLETE"}' | forge loop hook claude`,
      description: 'What Claude Code runs when the session stops.',
    },
    {
      command: `echo '{"session_id":"s1","prompt":"go","prompt_response":"FORGE_COMPLETE","stop_hook_active":false}' | forge loop hook gemini`,
      description: 'What Gemini CLI runs after each turn.',
    },
  ],
  errors: {
    BAD_HOOK_PAYLOAD: 'the payload is not a JSON object (the session may stop; reported on stderr)',
    TRANSCRIPT_UNREADABLE: 'the transcript is missing, not a regular file, or too slow to read (the session may stop; reported on stderr)',
    STATE_INVALID: 'the current loop on the state ref is not one forge can read (the session may stop; reported on stderr)',
  },
  exits: {
    0: 'answered: continue, or let the session stop — also when the hook itself fails, bad flags and an invalid FORGE_RUN_ID included (the error is on stderr)',
  },
  mutates: true,
  mcp: { title: 'Loop Stop hook', toolset: 'loop', effect: 'destructive', openWorld: true },
  // A FORGE_CWD that names no directory is the hook's own failure too: the session may stop.
  allowMissingCwd: true,
  failsOpen: true,
  async run(args, ctx) {
    let driven: Driven | null;
    try {
      if (ctx.cwdMissing) throw new CwdNotFoundError(ctx.cwd);
      driven = await drivenLoop(ctx);
    } catch (err) {
      return failOpen(err, null, ctx);
    }
    let p: StopPayload;
    try {
      p = STOP_HOOKS[args.agent as StopAgent].parse(args.payload ?? '');
    } catch (err) {
      // With no loop to drive, a payload forge cannot read is no failure: nothing is active.
      return driven ? failOpen(err, driven.loop, ctx) : letStop('no active loop for the Stop hook');
    }
    if (!driven) return letStop('no active loop for the Stop hook');
    try {
      return await drive({ agent: args.agent as StopAgent, p, ...driven, ctx });
    } catch (err) {
      return failOpen(err, driven.loop, ctx);
    }
  },
});
