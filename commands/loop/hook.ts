// forge loop hook claude: Claude Code's Stop hook — record the iteration, then continue the session or let it stop.
import { defineCommand } from '../../lib/cli/declare';
import { continueAnswer, parseStop, stopAnswer } from '../../lib/claude/stop';
import { lastAssistantText } from '../../lib/claude/transcript';
import { InvalidInputError } from '../../lib/errors';
import { workTreeRoot } from '../../lib/git/repo';
import { finishIteration } from '../../lib/loop/iterate';
import { currentLoop } from '../../lib/loop/loop';
import { iterationPrompt } from '../../lib/loop/prompt';

export default defineCommand({
  name: 'loop hook',
  summary: "Claude Code's Stop hook: continue the session with the loop's prompt, or let it stop",
  description: [
    'Reads a Claude Code Stop hook payload on stdin (session_id, transcript_path, cwd, stop_hook_active, last_assistant_message). With no active loop driven by the hook, or a payload from another session than the one the loop is bound to, it lets the session stop and changes nothing. An unbound loop binds to the first session that stops with a real id — never to an empty or "null" one.',
    'The response is last_assistant_message, or else the text of the last assistant turn in the transcript — every text block since the last prompt, so a turn that ended in tool calls still counts; unparsable lines (a line still being written, control characters, broken JSON) are skipped. The iteration is recorded and ends the loop as forge loop start describes. To continue, the answer is {"decision": "block", "reason": <the next prompt>, "systemMessage": "forge loop: iteration N of M"}; to stop, {"systemMessage": <why>}. Exit 0 either way; a payload that is not JSON exits 2.',
  ].join('\n\n'),
  args: {
    agent: { type: 'string', positional: true, required: true, choices: ['claude'], description: 'The agent whose hook this is.' },
    payload: { type: 'string', placeholder: 'JSON', description: 'The hook payload, instead of stdin.' },
  },
  stdinText: 'payload',
  examples: [{ command: `echo '{"session_id":"s1","transcript_path":"/dev/null","last_assistant_message":"FORGE_COMPLETE"}' | forge loop hook claude`, description: 'What Claude Code runs when the session stops.' }],
  errors: { BAD_HOOK_PAYLOAD: 'the payload is not a JSON object', NOT_A_GIT_REPO: 'outside a git repository' },
  exits: { 0: 'answered (continue or stop)', 2: 'invalid input' },
  mutates: true,
  async run(args, ctx) {
    if (args.payload === undefined) throw new InvalidInputError('BAD_HOOK_PAYLOAD', 'no hook payload: Claude Code sends it on stdin', { fix: ctx.cmd('loop', 'install', 'claude') });
    const p = parseStop(args.payload);
    const root = (await workTreeRoot({ cwd: ctx.cwd }))?.root;
    const allow = (text: string, systemMessage?: string) => ({ data: { decision: 'stop', reason: text }, text, next: null, raw: systemMessage ? stopAnswer({ systemMessage }) : '' });
    if (!root) return allow('not in a git repository: no loop');
    const store = await ctx.store();
    const loop = await currentLoop({ store });
    if (!loop || loop.driver !== 'hook' || loop.status !== 'active') return allow('no active loop for the Stop hook');
    if (!p.sessionId) return allow('the payload has no usable session id: the loop stays unbound');
    if (loop.session !== null && loop.session !== p.sessionId) return allow(`${loop.loop_id} belongs to session ${loop.session}, not ${p.sessionId}`);
    const text = p.lastAssistantMessage ?? (p.transcriptPath ? await lastAssistantText({ file: p.transcriptPath }) : '');
    const end = await finishIteration({ store, loop, text, session: p.sessionId, root, env: process.env, now: () => ctx.now() });
    if (!end) return allow('the loop was taken by another session meanwhile');
    const { loop: after, outcome } = end;
    if (outcome !== 'continue') return allow(`${after.loop_id} ${after.status}: ${after.reason}`, `forge loop ${after.loop_id} ${after.status}: ${after.reason}`);
    const prompt = await iterationPrompt({ store, loop: after });
    const systemMessage = `forge loop: iteration ${after.iteration + 1} of ${after.max}`;
    return { data: { decision: 'block', loop_id: after.loop_id, iteration: after.iteration + 1 }, text: `continue: ${systemMessage}`, next: ctx.cmd('loop', 'status'), raw: continueAnswer({ prompt, systemMessage }) };
  },
});
