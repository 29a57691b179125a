// Merges a forge hook into a Codex CLI config.toml without disturbing anything else in it.
import { readFile } from 'node:fs/promises';
import { parse, stringify, TomlError } from 'smol-toml';
import { RefusedError } from '../errors';
import { atomicWrite } from '../files/write';
import { agentConfigFile } from '../files/workspace';
import { onPath } from '../plans/modules';
import { shellJoin } from '../quote';
import { isObject } from '../guards';

/** The Codex CLI release from which hooks are on by default, read from config.toml, and run for apply_patch and MCP tools. */
export const CODEX_HOOKS_SINCE = '0.124.0';

/** A command that shows where a TOML file breaks (Python 3.11's tomllib names the line and column). */
const checkToml = (file: string) => shellJoin(['python3', '-c', 'import sys, tomllib; tomllib.load(open(sys.argv[1], "rb"))', file]);

function invalid(file: string, why: string): RefusedError {
  return new RefusedError('SETTINGS_INVALID', `${file} ${why}; it was left as it is`, { fix: checkToml(file) });
}

/** The [[hooks.<event>]] entries of a parsed config, refusing a shape Codex would not read as hooks. */
function entriesOf(config: Record<string, unknown>, file: string, event: string): Record<string, unknown>[] {
  const hooks = config.hooks ?? {};
  if (!isObject(hooks)) throw invalid(file, 'has a "hooks" key that is not a table');
  const entries = hooks[event] ?? [];
  if (!Array.isArray(entries) || !entries.every(isObject))
    throw invalid(file, `has "hooks.${event}" that is not an array of tables ([[hooks.${event}]])`);
  return entries;
}

const runs = (entries: Record<string, unknown>[], command: string) =>
  entries.some((e) => Array.isArray(e.hooks) && e.hooks.some((h) => isObject(h) && h.command === command));

/**
 * Adds `[[hooks.<event>]]` (matcher) with one `[[hooks.<event>.hooks]]` command handler. The new
 * tables are appended as text, so the user's comments, order and formatting stay exactly as they
 * were; the result is parsed again before it is written, and anything that would not parse (an
 * inline `hooks = {…}` table, say) is refused with the file untouched. Idempotent: a handler already
 * running `command` is left alone. A file that is not valid TOML is refused untouched.
 */
export async function installCodexHook({
  file,
  event,
  matcher,
  command,
}: {
  file: string;
  event: string;
  matcher?: string;
  command: string;
}): Promise<{ file: string; added: boolean }> {
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '';
    throw err;
  });
  const read = (source: string): Record<string, unknown> => {
    try {
      return parse(source) as Record<string, unknown>;
    } catch (err) {
      const why = err instanceof TomlError ? err.message.split('\n')[0] : (err as Error).message;
      throw invalid(file, `is not valid TOML (${why})`);
    }
  };
  if (runs(entriesOf(read(text), file, event), command)) return { file, added: false };
  const entry = { ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command }] };
  const block = stringify({ hooks: { [event]: [entry] } }).replace(/^\s+/, '');
  const merged = `${text}${text && !text.endsWith('\n') ? '\n' : ''}${text ? '\n' : ''}${block}\n`;
  let check: Record<string, unknown>;
  try {
    check = parse(merged) as Record<string, unknown>;
  } catch (err) {
    throw invalid(file, `defines hooks in a form forge cannot add [[hooks.${event}]] to (${(err as Error).message.split('\n')[0]})`);
  }
  if (!runs(entriesOf(check, file, event), command)) throw invalid(file, `defines hooks in a form forge cannot add [[hooks.${event}]] to`);
  await atomicWrite(file, merged);
  return { file, added: true };
}

/**
 * Installs a forge hook for this project's Codex sessions: into `config` (relative to cwd; e.g.
 * ~/.codex/config.toml for every project) or the repository's .codex/config.toml, with a warning when
 * `forge` is not on the PATH Codex will search.
 */
export async function installCodexProjectHook({
  cwd,
  config,
  event,
  command,
  failure = 'closed',
  searchPath,
}: {
  cwd: string;
  config: string | undefined;
  event: string;
  command: string;
  failure?: 'closed' | 'open';
  /** The PATH the agent will search for forge (the caller's), for the warning when forge is not on it. */
  searchPath: string;
}): Promise<{ data: Record<string, unknown>; text: string }> {
  const file = await agentConfigFile({ cwd, given: config, inRepo: ['.codex', 'config.toml'] });
  const r = await installCodexHook({ file, event, command });
  const reachable = await onPath({ program: 'forge', cwd, path: searchPath });
  const warning = reachable
    ? ''
    : `\nwarning: forge is not on PATH here; Codex will not find the hook command until it is (npm install -g .)${failure === 'closed' ? ', and until then every tool call is refused' : ''}`;
  const how =
    failure === 'closed'
      ? `fails closed: when forge cannot run or crashes, "|| exit 2" makes Codex (${CODEX_HOOKS_SINCE} or later) block the call`
      : `fails open: when the hook cannot run, crashes or times out, Codex (${CODEX_HOOKS_SINCE} or later) lets the turn end`;
  const text = `${r.added ? 'installed' : 'already installed'}: ${event} → ${command} in ${r.file}\n${how}; a project's .codex/config.toml is read only once the project is trusted in Codex${warning}`;
  return { data: { file: r.file, added: r.added, event, command, failure, codexSince: CODEX_HOOKS_SINCE, forgeOnPath: reachable }, text };
}
