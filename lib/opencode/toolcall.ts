// OpenCode's tool.execute.before, as forge's plugin passes it on: the call as a forge tool call, and the refusal the plugin throws.
import { InvalidInputError } from '../errors';
import { hookSessionId, parseHookPayload, shellCwd, commandOf } from '../claude/hook';
import type { PreToolUsePayload } from '../claude/pretooluse';
import { patchPaths } from '../codex/pretooluse';
import { forgeMcpCall } from '../plans/calls';
import { globDir, toolInfo } from '../plans/tools';
import { isObject, isText } from '../guards';

/**
 * What forge's OpenCode plugin sends for each tool call: the hook's input and output as OpenCode
 * passes them — {tool, sessionID, callID, args, directory}. args are the tool's own: filePath (read,
 * edit, write, lsp), path (grep, glob, list), pattern (glob), command (bash), patchText (apply_patch, its
 * paths relative to the project root, as for Codex).
 */
export function parseOpenCodeToolCall(text: string): PreToolUsePayload {
  const p = parseHookPayload(text, 'forge plan preflight --help', 'OpenCode plugin');
  if (!isText(p.tool))
    throw new InvalidInputError('BAD_HOOK_PAYLOAD', "the payload has no tool: is it from forge's OpenCode plugin (tool.execute.before)?", {
      fix: 'forge plan install-hook opencode',
    });
  const args = isObject(p.args) ? p.args : {};
  const command = commandOf(args.command);
  const base = {
    sessionId: hookSessionId({ session_id: p.sessionID }),
    cwd: isText(p.directory) ? p.directory : null,
    tool: p.tool,
    command,
  };
  // forge's own MCP tools (forge_read, forge_patch…) name their paths as forge's tools do.
  const forge = forgeMcpCall(p.tool, args, 'opencode');
  if (forge) return { ...base, ...forge };
  // The command runs in its workdir: its relative paths are read from there.
  if (toolInfo(p.tool, 'opencode').word === 'bash') return { ...base, cwd: shellCwd(base.cwd, args), paths: [] };
  if (toolInfo(p.tool, 'opencode').word === 'patch') {
    const paths = isText(args.patchText) ? patchPaths(args.patchText) : [];
    // A patch whose files the gate cannot see is refused: applied otherwise, it would pass unchecked.
    if (!paths.length)
      throw new InvalidInputError(
        'BAD_HOOK_PAYLOAD',
        `the ${p.tool} patchText names no file (no *** Add File / Update File / Delete File header)`,
        { fix: 'forge plan preflight --help' },
      );
    return { ...base, paths, command: undefined };
  }
  let paths = ['filePath', 'path'].map((k) => args[k]).filter(isText);
  if (p.tool === 'glob' && isText(args.pattern)) paths = [globDir(args.pattern, paths[0])];
  return { ...base, paths };
}
