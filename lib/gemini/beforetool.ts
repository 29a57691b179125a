// Gemini CLI's BeforeTool hook: its payload as a forge tool call, and its answer when forge refuses.
import { InvalidInputError } from '../errors';
import { denyReason, hookSessionId, parseHookPayload, shellCwd, commandOf } from '../claude/hook';
import type { PreToolUsePayload } from '../claude/pretooluse';
import { forgeMcpCall } from '../plans/calls';
import { globDir, toolInfo } from '../plans/tools';
import { isObject, isText } from '../guards';

/** tool_input keys that carry a path: file_path and dir_path today, absolute_path and path in older releases and MCP tools. */
const PATH_KEYS = ['file_path', 'absolute_path', 'dir_path', 'path'];

/**
 * A Gemini CLI BeforeTool payload: {session_id, transcript_path, cwd, hook_event_name, timestamp,
 * tool_name, tool_input, mcp_context?}. An MCP tool comes as mcp_<server>_<tool>, which cannot be split
 * where a server's name has '_' in it: its mcp_context names the server, and the call is read as
 * mcp__<server>__<tool>, as Claude Code and Codex name it. run_shell_command's dir_path is where the
 * command runs, not a path it names: a shell call is read for its surface, as with the other agents.
 */
export function parseGeminiBeforeTool(text: string): PreToolUsePayload {
  const p = parseHookPayload(text, 'forge plan preflight --help', 'Gemini CLI');
  if (!isText(p.tool_name))
    throw new InvalidInputError('BAD_HOOK_PAYLOAD', 'the hook payload has no tool_name: is this hook installed on BeforeTool?', {
      fix: 'forge plan install-hook gemini',
    });
  const input = isObject(p.tool_input) ? p.tool_input : {};
  // Only an MCP tool's context names it: a built-in tool carrying one (run_shell_command as "forge's read") keeps its own name.
  const mcp =
    p.tool_name.startsWith('mcp_') && isObject(p.mcp_context) && isText(p.mcp_context.server_name) && isText(p.mcp_context.tool_name)
      ? p.mcp_context
      : null;
  const tool = mcp ? `mcp__${mcp.server_name as string}__${mcp.tool_name as string}` : p.tool_name;
  const command = commandOf(input.command);
  const base = { sessionId: hookSessionId(p), cwd: isText(p.cwd) ? p.cwd : null, tool, command };
  const forge = forgeMcpCall(tool, input);
  if (forge) return { ...base, ...forge };
  // The command runs in dir_path: its relative paths are read from there.
  if (toolInfo(tool, 'gemini').word === 'bash') return { ...base, cwd: shellCwd(base.cwd, input), paths: [] };
  let paths = PATH_KEYS.map((k) => input[k]).filter(isText);
  if (p.tool_name === 'glob' && isText(input.pattern)) paths = [globDir(input.pattern, paths[0])];
  if (p.tool_name === 'read_many_files') {
    const include = Array.isArray(input.include) ? input.include.filter(isText) : [];
    // Files the gate cannot see are refused: read otherwise, they would pass unchecked.
    if (!include.length)
      throw new InvalidInputError('BAD_HOOK_PAYLOAD', 'the read_many_files call names no include pattern', {
        fix: 'forge plan preflight --help',
      });
    paths = include.map((pattern) => globDir(pattern, paths[0]));
  }
  return { ...base, paths };
}

/** The hook's answer to a refused call: Gemini CLI (and forge's OpenCode plugin) sends `reason` to the model as the tool's error, and the turn goes on. */
export function geminiDenyAnswer(reason: string): string {
  return JSON.stringify({ decision: 'deny', reason: denyReason(reason) });
}
