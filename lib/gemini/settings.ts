// Merges a forge hook into a Gemini CLI settings.json (the shape of Claude Code's, comments allowed) without disturbing the rest.
import { installJsonHook } from '../claude/settings';
import { agentConfigFile } from '../files/workspace';
import { onPath } from '../plans/modules';

/**
 * Installs a forge hook for this project's Gemini CLI sessions: into `settings` (relative to cwd; e.g.
 * ~/.gemini/settings.json for every project) or the repository's .gemini/settings.json. `name` is what
 * Gemini CLI's /hooks panel shows and `/hooks disable <name>` takes.
 */
export async function installGeminiProjectHook({
  cwd,
  settings,
  event,
  command,
  name,
  timeoutMs,
  failure,
  searchPath,
}: {
  cwd: string;
  settings: string | undefined;
  event: string;
  command: string;
  name: string;
  timeoutMs?: number;
  failure: 'closed' | 'open';
  /** The PATH the agent will search for forge (the caller's), for the warning when forge is not on it. */
  searchPath: string;
}): Promise<{ data: Record<string, unknown>; text: string }> {
  const file = await agentConfigFile({ cwd, given: settings, inRepo: ['.gemini', 'settings.json'] });
  const r = await installJsonHook({ file, event, command, extra: { name, ...(timeoutMs ? { timeout: timeoutMs } : {}) }, comments: true });
  const reachable = await onPath({ program: 'forge', cwd, path: searchPath });
  const warning = reachable
    ? ''
    : `\nwarning: forge is not on PATH here; Gemini CLI will not find the hook command until it is (npm install -g .)${failure === 'closed' ? ', and until then every tool call is refused' : ''}`;
  const how =
    failure === 'closed'
      ? '\nfails closed: Gemini CLI blocks a call when the hook exits 2, so "|| exit 2" blocks it when forge cannot run or crashes; a hook that times out (60 seconds by default) lets the call through'
      : '\nfails open: when the hook cannot run, crashes or times out, Gemini CLI lets the turn end';
  const trust = "\nGemini CLI runs a project's hooks only in a trusted folder, and asks before running a project hook it has not seen";
  return {
    data: { file: r.file, added: r.added, upgraded: r.upgraded, event, command, name, failure, forgeOnPath: reachable },
    text: `${r.added ? 'installed' : 'already installed'}: ${event} → ${command} in ${r.file}${how}${trust}${warning}`,
  };
}
