// Codex CLI's Stop hook: its payload as the loop driver reads it (its answers are Claude Code's).
import { InvalidInputError } from '../errors';
import { hookSessionId, parseHookPayload } from '../claude/hook';
import type { StopPayload } from '../claude/stop';

/**
 * A Codex Stop payload: {session_id, turn_id, cwd, transcript_path, model, permission_mode,
 * stop_hook_active, last_assistant_message}. The reply is last_assistant_message, null when the turn
 * ended without one (read as an empty reply); Codex's transcript is not Claude Code's, so it is not read.
 */
export function parseCodexStop(text: string): StopPayload {
  const p = parseHookPayload(text, 'forge loop hook --help', 'Codex');
  if (!('last_assistant_message' in p))
    throw new InvalidInputError('BAD_HOOK_PAYLOAD', 'the payload has no last_assistant_message: is this hook installed on Stop?', {
      fix: 'forge loop install codex',
    });
  return {
    sessionId: hookSessionId(p),
    transcriptPath: null,
    cwd: typeof p.cwd === 'string' && p.cwd.trim() ? p.cwd : null,
    stopHookActive: p.stop_hook_active === true,
    lastAssistantMessage: typeof p.last_assistant_message === 'string' ? p.last_assistant_message : '',
  };
}
