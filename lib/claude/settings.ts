// Merges a forge hook into a Claude Code settings file (or Gemini CLI's, the same shape) without disturbing anything else in it.
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { RefusedError } from '../errors';
import { atomicWrite } from '../files/write';
import { agentConfigFile } from '../files/workspace';
import { onPath } from '../plans/modules';
import { isObject } from '../guards';

/**
 * The Claude Code release whose command hooks take `"onFailure": "block"`: a hook that cannot start,
 * times out or exits with a code other than 0 or 2 then blocks the action instead of letting it
 * through. Earlier releases drop the key unread, and a failing hook lets the tool call run.
 */
export const ON_FAILURE_SINCE = '2.1.295';

export interface HookInstall {
  /** The settings file written (or that already had the hook). */
  file: string;
  /** False when an entry running the same command was already there. */
  added: boolean;
  /** What an existing entry was brought up to date with ("onFailure: block"); empty when nothing changed. */
  upgraded: string[];
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

/**
 * How a hook fails when forge cannot answer (not on PATH, crashed, timed out): `closed` for a gate
 * (`"onFailure": "block"`), `open` for a driver (no onFailure: Claude Code goes on, the session may stop).
 */
export type FailureMode = 'closed' | 'open';

/** Brings one hook object in line with `failure`; returns what changed. */
function enforce(hook: CommandHook, failure: FailureMode): string[] {
  if (failure === 'closed' && hook.onFailure !== 'block') {
    hook.onFailure = 'block';
    return ['onFailure: "block"'];
  }
  if (failure === 'open' && 'onFailure' in hook) {
    delete hook.onFailure;
    return ['onFailure removed'];
  }
  return [];
}

/** jsonc-parser's edits, indented as JSON.stringify(…, null, 2) writes a new file. */
const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/**
 * Adds `{matcher, hooks: [{type: "command", command, …}]}` under hooks.<event> (no matcher for Stop)
 * of a settings file in Claude Code's shape, which Gemini CLI shares. The file is changed by edits at
 * the new entry's place only, so every other key, event, entry — and with `comments`, the comments
 * Gemini CLI allows — stays byte for byte as it was. Idempotent: an entry already running `command`
 * is kept, only brought in line with `failure` (an install from before onFailure existed is upgraded
 * in place; its timeout and other keys stay as the user left them). A settings file that is not a
 * JSON object (or whose hooks are malformed) is refused untouched.
 */
export async function installJsonHook({
  file,
  event,
  matcher,
  command,
  extra = {},
  failure,
  comments = false,
}: {
  file: string;
  event: string;
  matcher?: string;
  command: string;
  extra?: Record<string, unknown>;
  failure?: FailureMode;
  comments?: boolean;
}): Promise<HookInstall> {
  const text =
    (await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    })) ?? '';
  let settings: Record<string, unknown> = {};
  if (text.trim()) {
    const errors: ParseError[] = [];
    const parsed: unknown = parse(text, errors, { disallowComments: !comments, allowTrailingComma: comments, allowEmptyContent: false });
    const first = errors[0];
    if (first)
      throw new RefusedError(
        'SETTINGS_INVALID',
        `${file} is not valid JSON${comments ? ' (comments allowed)' : ''} (${printParseErrorCode(first.error)} at offset ${first.offset}); it was left as it is`,
        { fix: `jq . ${file}` },
      );
    if (!isObject(parsed))
      throw new RefusedError('SETTINGS_INVALID', `${file} is not a JSON object; it was left as it is`, { fix: `jq . ${file}` });
    settings = parsed;
  }
  const hooks = settings.hooks ?? {};
  if (!isObject(hooks))
    throw new RefusedError('SETTINGS_INVALID', `${file}: "hooks" is not an object; it was left as it is`, { fix: `jq .hooks ${file}` });
  const entries = hooks[event] ?? [];
  if (!Array.isArray(entries) || !entries.every(isObject))
    throw new RefusedError('SETTINGS_INVALID', `${file}: "hooks.${event}" is not a list of matcher entries; it was left as it is`, {
      fix: `jq .hooks.${event} ${file}`,
    });
  const ours = (entries as MatcherEntry[]).flatMap((e, i) =>
    Array.isArray(e.hooks)
      ? e.hooks.flatMap((h, j) => (isObject(h) && h.command === command ? [{ hook: h, path: ['hooks', event, i, 'hooks', j] }] : []))
      : [],
  );
  if (ours.length) {
    let out = text;
    const upgraded = new Set<string>();
    for (const { hook, path } of ours) {
      for (const change of failure ? enforce(hook, failure) : []) {
        upgraded.add(change);
        out = applyEdits(out, modify(out, [...path, 'onFailure'], hook.onFailure, FORMAT));
      }
    }
    if (upgraded.size) await atomicWrite(file, out);
    return { file, added: false, upgraded: [...upgraded] };
  }
  const hook: CommandHook = { type: 'command', command, ...extra };
  if (failure) enforce(hook, failure);
  const entry: MatcherEntry = { ...(matcher === undefined ? {} : { matcher }), hooks: [hook] };
  // A missing or null "hooks" (or event list) is written whole; an existing list gets the entry appended.
  const at = !isObject(settings.hooks)
    ? { path: ['hooks'], value: { [event]: [entry] } }
    : !Array.isArray(hooks[event])
      ? { path: ['hooks', event], value: [entry] }
      : { path: ['hooks', event, entries.length], value: entry };
  const out = applyEdits(text, modify(text, at.path, at.value, { ...FORMAT, isArrayInsertion: at.path.length === 3 }));
  await atomicWrite(file, out.endsWith('\n') ? out : `${out}\n`);
  return { file, added: true, upgraded: [] };
}

/**
 * A settings file in Claude Code's shape (Gemini CLI's, with `comments`) read for what it says, never
 * refused: null when it is missing, `error` when it is not a JSON object.
 */
export async function readJsonSettings({
  file,
  comments = false,
}: {
  file: string;
  comments?: boolean;
}): Promise<{ settings: Record<string, unknown> | null; error: string | null }> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return { settings: null, error: null };
  const errors: ParseError[] = [];
  const parsed: unknown = parse(text, errors, { disallowComments: !comments, allowTrailingComma: comments, allowEmptyContent: true });
  if (errors[0])
    return { settings: null, error: `${file} is not valid JSON (${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset})` };
  if (parsed === undefined) return { settings: {}, error: null };
  return isObject(parsed) ? { settings: parsed, error: null } : { settings: null, error: `${file} is not a JSON object` };
}

/** The command hooks under hooks.<event> of a settings object whose command `matches`, with their entry's matcher. */
export function jsonHooks({
  settings,
  event,
  matches,
}: {
  settings: Record<string, unknown> | null;
  event: string;
  matches: (command: string) => boolean;
}): Array<{ matcher: unknown; hook: Record<string, unknown> }> {
  const hooks = settings && isObject(settings.hooks) ? settings.hooks[event] : undefined;
  if (!Array.isArray(hooks)) return [];
  return hooks.flatMap((e) =>
    isObject(e) && Array.isArray(e.hooks)
      ? e.hooks.flatMap((h) =>
          isObject(h) && typeof h.command === 'string' && matches(h.command) ? [{ matcher: e.matcher, hook: h }] : [],
        )
      : [],
  );
}

/** Claude Code's user settings: $CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json; null without a home. */
export function claudeUserSettings({ env }: { env: Record<string, string | undefined> }): string | null {
  if (env.CLAUDE_CONFIG_DIR) return join(env.CLAUDE_CONFIG_DIR, 'settings.json');
  return env.HOME ? join(env.HOME, '.claude', 'settings.json') : null;
}

/**
 * Where Claude Code loads a settings file from: the user's wherever it starts; a project's
 * `<dir>/.claude/settings.json` or `settings.local.json` only when it starts in `dir` itself (it
 * does not look further up for them); any other file never.
 */
export function claudeLoads({ file, env }: { file: string; env: Record<string, string | undefined> }): {
  scope: 'user' | 'project' | 'none';
  startAt: string | null;
} {
  const user = claudeUserSettings({ env });
  if (user && resolve(file) === resolve(user)) return { scope: 'user', startAt: null };
  if (basename(dirname(file)) === '.claude' && ['settings.json', 'settings.local.json'].includes(basename(file)))
    return { scope: 'project', startAt: dirname(dirname(file)) };
  return { scope: 'none', startAt: null };
}

/** The line that says where the agent reads an installed file, for a project's file the directory it must start in. */
export function loadsLine({
  agent,
  file,
  scope,
  startAt,
}: {
  agent: string;
  file: string;
  scope: 'user' | 'project' | 'none';
  startAt: string | null;
}): string {
  if (scope === 'user') return `\n${agent} reads ${file} wherever it starts`;
  if (scope === 'project')
    return `\n${agent} reads ${file} only when it starts in ${startAt}: started in a subdirectory, its sessions run without this hook`;
  return `\nwarning: ${agent} does not read ${file} by itself`;
}

/**
 * Installs a forge hook for this project: into `settings` (relative to cwd) or the repository's
 * .claude/settings.json, with a warning when `forge` is not on the PATH Claude Code will search, and
 * where Claude Code reads it: a project's file only when the session starts in its directory.
 */
export async function installProjectHook({
  cwd,
  settings,
  event,
  matcher,
  command,
  timeout,
  failure,
  searchPath,
  env,
}: {
  cwd: string;
  settings: string | undefined;
  event: string;
  matcher?: string;
  command: string;
  timeout?: number;
  failure: FailureMode;
  /** The PATH the agent will search for forge (the caller's), for the warning when forge is not on it. */
  searchPath: string;
  /** The caller's environment: HOME or CLAUDE_CONFIG_DIR say which file is the user's (without it, where it loads goes unsaid). */
  env?: Record<string, string | undefined>;
}): Promise<{ data: Record<string, unknown>; text: string }> {
  const file = await agentConfigFile({ cwd, given: settings, inRepo: ['.claude', 'settings.json'] });
  const r = await installJsonHook({ file, event, matcher, command, extra: timeout ? { timeout } : {}, failure });
  const reachable = await onPath({ program: 'forge', cwd, path: searchPath });
  const loads = env ? claudeLoads({ file: r.file, env }) : null;
  const warning = reachable
    ? ''
    : '\nwarning: forge is not on PATH here; Claude Code will not find the hook command until it is (npm install -g .)';
  const how =
    failure === 'closed'
      ? `\nfails closed: with "onFailure": "block" (Claude Code ${ON_FAILURE_SINCE} or later) a tool call is refused when the hook cannot run, crashes or times out; earlier Claude Code releases ignore the key and let the call through`
      : '\nfails open: when the hook cannot run, crashes or times out, Claude Code lets the session stop';
  const what = r.added ? 'installed' : r.upgraded.length ? `upgraded (${r.upgraded.join(', ')})` : 'already installed';
  return {
    data: {
      file: r.file,
      added: r.added,
      upgraded: r.upgraded,
      event,
      command,
      failure,
      ...(failure === 'closed' ? { onFailureSince: ON_FAILURE_SINCE } : {}),
      forgeOnPath: reachable,
      ...(loads ? { scope: loads.scope, startAt: loads.startAt } : {}),
    },
    text: `${what}: ${event} → ${command} in ${r.file}${how}${loads ? loadsLine({ agent: 'Claude Code', file: r.file, ...loads }) : ''}${warning}`,
  };
}
