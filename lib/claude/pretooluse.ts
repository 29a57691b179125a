// Claude Code's PreToolUse hook: its payload as a forge tool call, and its answer when forge refuses.
import { InvalidInputError } from '../errors';
import { forgeMcpCall } from '../plans/calls';
import type { ForgeEffects } from '../plans/forge-effects';
import { globDir, toolInfo } from '../plans/tools';
import { isObject, isText } from '../guards';
import { denyReason, hookSessionId, parseHookPayload, shellCwd, commandOf } from './hook';

export interface PreToolUsePayload {
  sessionId: string | null;
  cwd: string | null;
  tool: string;
  /** File paths the call names (absolute, as Claude Code sends them). */
  paths: string[];
  /** A Bash call's command line. */
  command: string | undefined;
  /** The call changes `paths` whatever its tool (a shell command that applies a patch). */
  writes?: boolean;
  /** What one of forge's own MCP tools does with its arguments (lib/plans/forge-effects.ts). */
  effects?: ForgeEffects;
}

/** tool_input keys that carry a path, by the tools that use them. */
const PATH_KEYS = ['file_path', 'notebook_path', 'path'];

export function parsePreToolUse(text: string): PreToolUsePayload {
  const p = parseHookPayload(text, 'forge plan preflight --help');
  if (typeof p.tool_name !== 'string' || !p.tool_name)
    throw new InvalidInputError('BAD_HOOK_PAYLOAD', 'the hook payload has no tool_name: is this hook installed on PreToolUse?', {
      fix: 'forge plan install-hook claude',
    });
  const input = isObject(p.tool_input) ? p.tool_input : {};
  let paths = PATH_KEYS.map((k) => input[k]).filter((v): v is string => typeof v === 'string' && v !== '');
  // Glob lists only under its pattern's literal directory: `src/**/*.ts` from the project root reads src.
  if (p.tool_name === 'Glob' && isText(input.pattern)) paths = [globDir(input.pattern, paths[0])];
  const base = { sessionId: hookSessionId(p), cwd: typeof p.cwd === 'string' && p.cwd ? p.cwd : null, tool: p.tool_name };
  const shell = toolInfo(p.tool_name, 'claude').word === 'bash';
  return {
    ...base,
    ...(shell ? { cwd: shellCwd(base.cwd, input) } : {}),
    paths,
    command: commandOf(input.command),
    ...forgeMcpCall(p.tool_name, input),
  };
}

/** The hook's answer to a refused call: deny, with the reason Claude (or Codex, which reads this answer) is shown. */
export function denyAnswer(reason: string): string {
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: denyReason(reason) },
  });
}
