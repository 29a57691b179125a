// Gemini CLI's AfterAgent hook: its payload as the loop driver reads it, and the answer that goes on with the loop.
import { InvalidInputError } from '../errors';
import { hookSessionId, parseHookPayload } from '../claude/hook';
import type { StopPayload } from '../claude/stop';

/** What Gemini CLI sends as the reply when the turn produced no text. */
const NO_RESPONSE = '[no response text]';

/**
 * A Gemini CLI AfterAgent payload: {session_id, transcript_path, cwd, hook_event_name, timestamp,
 * prompt, prompt_response, stop_hook_active}. The reply is prompt_response, the turn's whole text.
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
  };
}

/** Rejects the turn's end: Gemini CLI sends `reason` to the model as the next prompt. */
export function geminiContinueAnswer({ prompt, systemMessage }: { prompt: string; systemMessage: string }): string {
  return JSON.stringify({ decision: 'deny', reason: prompt, systemMessage });
}
