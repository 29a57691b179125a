// What every Claude Code hook payload shares: a JSON object on stdin, and the session it comes from.
import { isAbsolute, resolve } from 'node:path';
import { ForgeError, InvalidInputError } from '../errors';
import { shellJoin } from '../quote';

/**
 * A hook's stdin as a JSON object; anything else is BAD_HOOK_PAYLOAD. The hooks never let it out
 * as an exit code (2 means "block" to Claude Code): the gate denies, the driver lets the session stop.
 */
export function parseHookPayload(text: string, fix: string, agent = 'Claude Code'): Record<string, unknown> {
  // lib/cli/main.ts hands a payload stdin could not be read as an empty one.
  if (!text.trim())
    throw new InvalidInputError('BAD_HOOK_PAYLOAD', `the ${agent} hook payload on stdin is empty, or could not be read`, { fix });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InvalidInputError(
      'BAD_HOOK_PAYLOAD',
      `the ${agent} hook payload on stdin is not JSON (${(err as Error).message.slice(0, 200)})`,
      { fix },
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidInputError('BAD_HOOK_PAYLOAD', `the ${agent} hook payload must be a JSON object`, { fix });
  return value as Record<string, unknown>;
}

/** The payload's session id; null when missing, blank, or "null"/"undefined" — never a session to act for. */
export function hookSessionId(p: Record<string, unknown>): string | null {
  const id = typeof p.session_id === 'string' ? p.session_id.trim() : '';
  return id && id !== 'null' && id !== 'undefined' ? id : null;
}

/** The keys an agent's shell tool names the directory its command runs in by: Codex's and OpenCode's workdir, Gemini CLI's dir_path (directory in older releases). */
const SHELL_DIR_KEYS = ['workdir', 'dir_path', 'directory', 'cwd'];

/**
 * Where a shell tool's command runs: the directory its input names, resolved from the payload's cwd,
 * else the cwd. A command's relative paths are read from there (`cat secret` with dir_path /etc reads /etc/secret).
 */
export function shellCwd(cwd: string | null, input: Record<string, unknown>): string | null {
  const dir = SHELL_DIR_KEYS.map((k) => input[k]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
  if (dir === undefined) return cwd;
  if (isAbsolute(dir)) return dir;
  return cwd === null ? dir : resolve(cwd, dir);
}

/**
 * A tool call's command line: the string an agent sends, or the argv some send instead (Codex's
 * shell tool: ["bash", "-lc", "git push"]) written as the shell would read it. Undefined when
 * neither, or an argv holding anything but strings: a command forge cannot read.
 */
export function commandOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length && value.every((w) => typeof w === 'string')) return shellJoin(value);
  return undefined;
}

/** A hook's own failure as a code and a message: a ForgeError's, or INTERNAL for a bug. */
export function hookFailure(err: unknown): { code: string; message: string; fix: string | undefined } {
  // One line, of a size a person reads: it ends up on stderr and in Claude Code's answer.
  const line = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 500);
  if (err instanceof ForgeError) return { code: err.code, message: line(err.message), fix: err.fix };
  return { code: 'INTERNAL', message: line(`internal error: ${err instanceof Error ? err.message : String(err)}`), fix: undefined };
}

/** A sentence's own end that takes no period after it: '?', '!', an ellipsis. */
const ENDED = /(?:[?!…]|\.\.\.)$/;

/**
 * A refusal's reason as every agent's hook answer carries it: its sentences joined by one period and
 * a space, and no period at the end. Codex CLI shows a denied call as "Command blocked by PreToolUse
 * hook: <reason>. Command: <command>", adding a period of its own, and Claude Code, Gemini CLI and
 * OpenCode show the reason as the tool's error; a sentence's own period (the plan's advice ends with
 * one, and so may an operator's pause reason) would read '..' there.
 */
export function denyReason(...sentences: string[]): string {
  const bare = sentences.map((s) => s.trim().replace(/(?<!\.)\.$/, '')).filter(Boolean);
  return bare.map((s, i) => (i === bare.length - 1 ? s : ENDED.test(s) ? `${s} ` : `${s}. `)).join('');
}
