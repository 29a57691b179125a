// Claude Code's Stop hook: its payload, and the two answers — continue with a prompt, or let the session stop.
import { hookSessionId, parseHookPayload } from './hook';

export interface StopPayload {
  /** Null when missing, blank, or "null"/"undefined": never a session to bind to. */
  sessionId: string | null;
  transcriptPath: string | null;
  cwd: string | null;
  stopHookActive: boolean;
  lastAssistantMessage: string | null;
  /**
   * lastAssistantMessage holds every reply since the person's prompt, each after a newline (Gemini
   * CLI's prompt_response): this turn's reply is what follows the text the previous hook call got.
   */
  accumulated?: true;
}

export function parseStop(text: string): StopPayload {
  const p = parseHookPayload(text, 'forge loop hook --help');
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);
  return {
    sessionId: hookSessionId(p),
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

/** Claude Code ends a turn after this many consecutive Stop-hook blocks (2.1.143 or later), whatever the hook answers. */
export function stopBlockCap(env: NodeJS.ProcessEnv): number {
  const n = Number(env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP);
  return Number.isInteger(n) && n > 0 ? n : 8;
}
