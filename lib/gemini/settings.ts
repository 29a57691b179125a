// Merges a forge hook into a Gemini CLI settings.json (the shape of Claude Code's, comments allowed) without disturbing the rest, and says whether Gemini CLI will run it.
import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { installJsonHook, loadsLine, readJsonSettings } from '../claude/settings';
import { agentConfigFile, locateWorkspace } from '../files/workspace';
import { isObject } from '../guards';
import { onPath } from '../plans/modules';

/** Gemini CLI's home: $GEMINI_CLI_HOME stands in for the user's home directory; null without either. */
const geminiHome = (env: Record<string, string | undefined>) => env.GEMINI_CLI_HOME || env.HOME || null;

/** Gemini CLI's user settings (~/.gemini/settings.json), which it reads wherever it starts. */
export function geminiUserSettings({ env }: { env: Record<string, string | undefined> }): string | null {
  const home = geminiHome(env);
  return home ? join(home, '.gemini', 'settings.json') : null;
}

/**
 * Where Gemini CLI loads a settings file from: the user's wherever it starts; `<dir>/.gemini/settings.json`
 * only when it starts in `dir` itself (it reads the workspace's settings from its working directory,
 * not the repository's top); any other file never.
 */
export function geminiLoads({ file, env }: { file: string; env: Record<string, string | undefined> }): {
  scope: 'user' | 'project' | 'none';
  startAt: string | null;
} {
  const user = geminiUserSettings({ env });
  if (user && resolve(file) === resolve(user)) return { scope: 'user', startAt: null };
  if (basename(file) === 'settings.json' && basename(dirname(file)) === '.gemini')
    return { scope: 'project', startAt: dirname(dirname(file)) };
  return { scope: 'none', startAt: null };
}

const TRUST_LEVELS = new Set(['TRUST_FOLDER', 'TRUST_PARENT', 'DO_NOT_TRUST']);

const inside = (parent: string, child: string) => {
  const rel = relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/**
 * Whether Gemini CLI trusts `dir`, as it decides before it runs any hook — its user's own included:
 * GEMINI_CLI_TRUST_WORKSPACE, then folder trust switched off (security.folderTrust.enabled, on by
 * default), then the longest rule of trustedFolders.json that covers `dir` (utils/trust.ts).
 */
export async function geminiFolderTrust({
  dir,
  env,
  userSettings,
}: {
  dir: string;
  env: Record<string, string | undefined>;
  userSettings: Record<string, unknown> | null;
}): Promise<{ trusted: boolean; why: string }> {
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'true') return { trusted: true, why: 'GEMINI_CLI_TRUST_WORKSPACE=true' };
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'false') return { trusted: false, why: 'GEMINI_CLI_TRUST_WORKSPACE=false' };
  const security = userSettings?.security;
  const folderTrust = isObject(security) ? security.folderTrust : undefined;
  if (isObject(folderTrust) && folderTrust.enabled === false)
    return { trusted: true, why: 'folder trust is off (security.folderTrust.enabled)' };
  const home = geminiHome(env);
  const file = env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || (home ? join(home, '.gemini', 'trustedFolders.json') : null);
  const rules = file ? (await readJsonSettings({ file, comments: true })).settings : null;
  const real = await realpath(dir).catch(() => dir);
  let best: { length: number; level: string } | null = null;
  for (const [rule, level] of Object.entries(rules ?? {})) {
    if (typeof level !== 'string' || !TRUST_LEVELS.has(level)) continue;
    const covered = level === 'TRUST_PARENT' ? dirname(rule) : rule;
    if (inside(await realpath(covered).catch(() => covered), real) && (!best || rule.length > best.length))
      best = { length: rule.length, level };
  }
  if (best && best.level !== 'DO_NOT_TRUST') return { trusted: true, why: `trusted in ${file}` };
  return { trusted: false, why: best ? `marked DO_NOT_TRUST in ${file}` : `not in ${file ?? '~/.gemini/trustedFolders.json'}` };
}

/** Whether hooksConfig in a settings object turns Gemini CLI's hooks off, or this one (by its name or command). */
export function geminiHookOff({
  settings,
  name,
  command,
}: {
  settings: Record<string, unknown> | null;
  name: string;
  command: string;
}): string | null {
  const config = settings?.hooksConfig;
  if (!isObject(config)) return null;
  if (config.enabled === false) return 'hooksConfig.enabled is false';
  if (Array.isArray(config.disabled) && (config.disabled.includes(name) || config.disabled.includes(command)))
    return `hooksConfig.disabled lists ${config.disabled.includes(name) ? name : 'its command'}`;
  return null;
}

/**
 * Installs a forge hook for this project's Gemini CLI sessions: into `settings` (relative to cwd; e.g.
 * ~/.gemini/settings.json for every project) or the repository's .gemini/settings.json. `name` is what
 * Gemini CLI's /hooks panel shows and `/hooks disable <name>` takes. Given the caller's `env`, it says
 * where Gemini CLI reads the file and whether it trusts the folder, without which it runs no hooks.
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
  env,
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
  /** The caller's environment: where Gemini CLI keeps the user's settings and trusted folders. */
  env?: Record<string, string | undefined>;
}): Promise<{ data: Record<string, unknown>; text: string }> {
  const file = await agentConfigFile({ cwd, given: settings, inRepo: ['.gemini', 'settings.json'] });
  const r = await installJsonHook({ file, event, command, extra: { name, ...(timeoutMs ? { timeout: timeoutMs } : {}) }, comments: true });
  const reachable = await onPath({ program: 'forge', cwd, path: searchPath });
  const loads = env ? geminiLoads({ file: r.file, env }) : null;
  const user = env ? geminiUserSettings({ env }) : null;
  const trust = env
    ? await geminiFolderTrust({
        dir: loads?.startAt ?? (await locateWorkspace({ cwd })).root,
        env,
        userSettings: user ? (await readJsonSettings({ file: user, comments: true })).settings : null,
      })
    : null;
  const warning = reachable
    ? ''
    : `\nwarning: forge is not on PATH here; Gemini CLI will not find the hook command until it is (npm install -g .)${failure === 'closed' ? ', and until then every tool call is refused' : ''}`;
  const how =
    failure === 'closed'
      ? '\nfails closed: Gemini CLI blocks a call when the hook exits 2, so "|| exit 2" blocks it when forge cannot run or crashes; a hook that times out (60 seconds by default) lets the call through'
      : '\nfails open: when the hook cannot run, crashes or times out, Gemini CLI lets the turn end';
  const trustLine = !trust
    ? "\nGemini CLI runs a project's hooks only in a trusted folder, and asks before running a project hook it has not seen"
    : trust.trusted
      ? `\nGemini CLI trusts the folder (${trust.why}), so it runs the hook`
      : `\nnot live: Gemini CLI runs no hooks, not even the user's, in a folder it does not trust, and this one is ${trust.why}: trust it when Gemini CLI asks on start (or with /permissions)`;
  return {
    data: {
      file: r.file,
      added: r.added,
      upgraded: r.upgraded,
      event,
      command,
      name,
      failure,
      forgeOnPath: reachable,
      ...(loads ? { scope: loads.scope, startAt: loads.startAt } : {}),
      ...(trust ? { folderTrusted: trust.trusted } : {}),
    },
    text: `${r.added ? 'installed' : 'already installed'}: ${event} → ${command} in ${r.file}${trust && !trust.trusted ? '' : how}${loads ? loadsLine({ agent: 'Gemini CLI', file: r.file, ...loads }) : ''}${trustLine}${warning}`,
  };
}
