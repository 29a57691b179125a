// What every Claude Code hook payload shares: a JSON object on stdin, and the session it comes from.
import { InvalidInputError } from '../errors';

/** A hook's stdin as a JSON object; anything else is BAD_HOOK_PAYLOAD (exit 2, which Claude Code treats as a block). */
export function parseHookPayload(text: string, fix: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InvalidInputError('BAD_HOOK_PAYLOAD', `the Claude Code hook payload on stdin is not JSON (${(err as Error).message})`, { fix });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidInputError('BAD_HOOK_PAYLOAD', 'the Claude Code hook payload must be a JSON object', { fix });
  return value as Record<string, unknown>;
}

/** The payload's session id; null when missing, blank, or "null"/"undefined" — never a session to act for. */
export function hookSessionId(p: Record<string, unknown>): string | null {
  const id = typeof p.session_id === 'string' ? p.session_id.trim() : '';
  return id && id !== 'null' && id !== 'undefined' ? id : null;
}
