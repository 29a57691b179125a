// Gemini CLI's AfterAgent hook: its payload as the loop driver reads it, and the answer that goes on with the loop.
import { InvalidInputError } from '../errors';
import { hookSessionId, parseHookPayload } from '../claude/hook';
import type { StopPayload } from '../claude/stop';

/** What Gemini CLI sends as the reply when the turn produced no text. */
const NO_RESPONSE = '[no response text]';

/**
 * A Gemini CLI AfterAgent payload: {session_id, transcript_path, cwd, hook_event_name, timestamp,
 * prompt, prompt_response, stop_hook_active}. prompt_response is not this turn's reply alone: Gemini
 * CLI keeps one response per prompt and appends each model turn's text to it with a newline, also
 * across the turns a hook's deny continues (packages/core/src/core/client.ts, cumulativeResponse),
 * so the loop reads the part after what the previous AfterAgent sent (lib/loop/iterate.ts).
 */
export function parseAfterAgent(text: string): StopPayload {
  const p = parseHookPayload(text, 'forge loop hook --help', 'Gemini CLI');
  if (typeof p.prompt_response !== 'string')
    throw new InvalidInputError('BAD_HOOK_PAYLOAD', 'the payload has no prompt_response: is this hook installed on AfterAgent?', {
      fix: 'forge loop install gemini',
    });
  return {
    sessionId: hookSessionId(p),
    transcriptPath: null,
    cwd: typeof p.cwd === 'string' && p.cwd.trim() ? p.cwd : null,
    stopHookActive: p.stop_hook_active === true,
    lastAssistantMessage: p.prompt_response === NO_RESPONSE ? '' : p.prompt_response,
    accumulated: true,
  };
}

/** Rejects the turn's end: Gemini CLI sends `reason` to the model as the next prompt. */
export function geminiContinueAnswer({ prompt, systemMessage }: { prompt: string; systemMessage: string }): string {
  return JSON.stringify({ decision: 'deny', reason: prompt, systemMessage });
}
