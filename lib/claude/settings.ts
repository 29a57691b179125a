// Merges a forge hook into a Claude Code settings file without disturbing anything else in it.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { RefusedError } from '../errors';
import { atomicWrite } from '../files/write';
import { workTreeRoot } from '../git/repo';
import { onPath } from '../plans/modules';

export interface HookInstall {
  /** The settings file written (or that already had the hook). */
  file: string;
  /** False when an entry running the same command was already there: nothing was written. */
  added: boolean;
}

interface CommandHook {
  type: string;
  command?: string;
  [key: string]: unknown;
}

interface MatcherEntry {
  matcher?: string;
  hooks?: CommandHook[];
  [key: string]: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Adds `{matcher, hooks: [{type: "command", command}]}` under hooks.<event> (no matcher for Stop), keeping every other
 * key, event and entry as it was. Idempotent: an entry already running `command` is left alone.
 * A settings file that is not a JSON object (or whose hooks are malformed) is refused untouched.
 */
export async function installClaudeHook({ file, event, matcher, command, timeout }: { file: string; event: string; matcher?: string; command: string; timeout?: number }): Promise<HookInstall> {
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  let settings: Record<string, unknown> = {};
  if (text !== null && text.trim()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new RefusedError('SETTINGS_INVALID', `${file} is not valid JSON (${(err as Error).message}); it was left as it is`, { fix: `jq . ${file}` });
    }
    if (!isObject(parsed)) throw new RefusedError('SETTINGS_INVALID', `${file} is not a JSON object; it was left as it is`, { fix: `jq . ${file}` });
    settings = parsed;
  }
  const hooks = settings.hooks ?? {};
  if (!isObject(hooks)) throw new RefusedError('SETTINGS_INVALID', `${file}: "hooks" is not an object; it was left as it is`, { fix: `jq .hooks ${file}` });
  const entries = hooks[event] ?? [];
  if (!Array.isArray(entries) || !entries.every(isObject)) throw new RefusedError('SETTINGS_INVALID', `${file}: "hooks.${event}" is not a list of matcher entries; it was left as it is`, { fix: `jq .hooks.${event} ${file}` });
  const present = (entries as MatcherEntry[]).some((e) => Array.isArray(e.hooks) && e.hooks.some((h) => isObject(h) && h.command === command));
  if (present) return { file, added: false };
  const entry: MatcherEntry = { ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command, ...(timeout ? { timeout } : {}) }] };
  settings.hooks = { ...hooks, [event]: [...entries, entry] };
  await atomicWrite(file, `${JSON.stringify(settings, null, 2)}\n`);
  return { file, added: true };
}

/**
 * Installs a forge hook for this project: into `settings` (relative to cwd) or the repository's
 * .claude/settings.json, with a warning when `forge` is not on the PATH Claude Code will search.
 */
export async function installProjectHook({ cwd, settings, event, matcher, command, timeout }: { cwd: string; settings: string | undefined; event: string; matcher?: string; command: string; timeout?: number }): Promise<{ data: Record<string, unknown>; text: string }> {
  const root = (await workTreeRoot({ cwd }))?.root ?? cwd;
  const file = settings === undefined ? join(root, '.claude', 'settings.json') : resolve(cwd, settings);
  const r = await installClaudeHook({ file, event, matcher, command, timeout });
  const reachable = await onPath({ program: 'forge', cwd, path: process.env.PATH ?? '' });
  const warning = reachable ? '' : '\nwarning: forge is not on PATH here; Claude Code will not find the hook command until it is (npm install -g .)';
  return {
    data: { file: r.file, added: r.added, event, command, forgeOnPath: reachable },
    text: `${r.added ? 'installed' : 'already installed'}: ${event} → ${command} in ${r.file}${warning}`,
  };
}
