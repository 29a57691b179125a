// Codex CLI's PreToolUse hook: its payload as a forge tool call (apply_patch's files read from the patch).
import { InvalidInputError } from '../errors';
import { hookSessionId, parseHookPayload, shellCwd, commandOf } from '../claude/hook';
import type { PreToolUsePayload } from '../claude/pretooluse';
import { forgeMcpCall } from '../plans/calls';
import { toolInfo } from '../plans/tools';
import { isObject } from '../guards';

/** tool_input keys that carry a path (an MCP tool's own arguments, as Codex passes them on). */
const PATH_KEYS = ['file_path', 'path'];

/**
 * The files an apply_patch patch touches: each `*** Add File:`, `*** Update File:`, `*** Delete File:`
 * and `*** Move to:` header. Codex trims a header line before reading it, so an indented one counts too.
 */
export function patchPaths(patch: string): string[] {
  const out: string[] = [];
  for (const line of patch.split(/\r?\n/)) {
    const m = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/.exec(line.trim());
    if (m && !out.includes(m[1]!.trim())) out.push(m[1]!.trim());
  }
  return out;
}

/**
 * A Codex PreToolUse payload: {session_id, turn_id, cwd, hook_event_name, model, tool_name, tool_use_id,
 * tool_input}. Shell and exec_command calls come as tool_name "Bash" with tool_input.command; apply_patch
 * with the raw patch in tool_input.command (its files are the paths, and it is no shell command);
 * MCP tools as mcp__<server>__<tool> with their arguments.
 */
export function parseCodexPreToolUse(text: string): PreToolUsePayload {
  const p = parseHookPayload(text, 'forge plan preflight --help', 'Codex');
  if (typeof p.tool_name !== 'string' || !p.tool_name)
    throw new InvalidInputError('BAD_HOOK_PAYLOAD', 'the hook payload has no tool_name: is this hook installed on PreToolUse?', {
      fix: 'forge plan install-hook codex',
    });
  const input = isObject(p.tool_input) ? p.tool_input : {};
  const command = commandOf(input.command);
  const base = { sessionId: hookSessionId(p), cwd: typeof p.cwd === 'string' && p.cwd ? p.cwd : null, tool: p.tool_name };
  if (p.tool_name === 'apply_patch') {
    if (command === undefined)
      throw new InvalidInputError('BAD_HOOK_PAYLOAD', 'the apply_patch payload has no tool_input.command (the patch)', {
        fix: 'forge plan preflight --help',
      });
    const paths = patchPaths(command);
    // A patch whose files the gate cannot see is refused: were Codex to read it otherwise, it would pass unchecked.
    if (!paths.length)
      throw new InvalidInputError(
        'BAD_HOOK_PAYLOAD',
        'the apply_patch patch names no file (no *** Add File / Update File / Delete File header)',
        { fix: 'forge plan preflight --help' },
      );
    return { ...base, paths, command: undefined };
  }
  // apply_patch run through the shell (apply_patch <<'EOF' … EOF, as Codex's models often call it):
  // still a shell command for its surface, and the patch's files are written.
  // A shell command runs in its workdir: its relative paths (and a patch's) are read from there.
  const shell = toolInfo(p.tool_name, 'codex').word === 'bash' ? { ...base, cwd: shellCwd(base.cwd, input) } : base;
  if (command !== undefined && /^\s*\*\*\* Begin Patch\s*$/m.test(command)) {
    return { ...shell, paths: patchPaths(command), command, writes: true };
  }
  return {
    ...shell,
    paths: PATH_KEYS.map((k) => input[k]).filter((v): v is string => typeof v === 'string' && v !== ''),
    command,
    ...forgeMcpCall(p.tool_name, input),
  };
}
