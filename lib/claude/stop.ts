// Claude Code's Stop hook: its payload, and the two answers — continue with a prompt, or let the session stop.
import { InvalidInputError } from '../errors';

export interface StopPayload {
  /** Null when missing, empty, or the string "null"/"undefined": never a session to bind to. */
  sessionId: string | null;
  transcriptPath: string | null;
  cwd: string | null;
  stopHookActive: boolean;
  lastAssistantMessage: string | null;
}

export function parseStop(text: string): StopPayload {
  const fix = 'forge loop hook --help';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InvalidInputError('BAD_HOOK_PAYLOAD', `the Claude Code hook payload on stdin is not JSON (${(err as Error).message})`, { fix });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidInputError('BAD_HOOK_PAYLOAD', 'the Claude Code hook payload must be a JSON object', { fix });
  const p = value as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);
  const session = str(p.session_id)?.trim() ?? null;
  return {
    sessionId: session && session !== 'null' && session !== 'undefined' ? session : null,
    transcriptPath: str(p.transcript_path),
    cwd: str(p.cwd),
    stopHookActive: p.stop_hook_active === true,
    lastAssistantMessage: typeof p.last_assistant_message === 'string' ? p.last_assistant_message : null,
  };
}

/** Blocks the stop: Claude Code feeds `reason` back to the model as the next prompt. */
export function continueAnswer({ prompt, systemMessage }: { prompt: string; systemMessage: string }): string {
  return JSON.stringify({ decision: 'block', reason: prompt, systemMessage });
}

/** Lets the session stop, telling the person why. */
export function stopAnswer({ systemMessage }: { systemMessage: string }): string {
  return JSON.stringify({ systemMessage });
}
