// Merges a forge hook into a Codex CLI config.toml without disturbing anything else in it.
import { readFile, realpath } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { parse, stringify, TomlError } from 'smol-toml';
import { RefusedError } from '../errors';
import { atomicWrite } from '../files/write';
import { agentConfigFile, locateWorkspace } from '../files/workspace';
import { onPath } from '../plans/modules';
import { shellJoin, shellQuote } from '../quote';
import { isObject } from '../guards';
import { locateGitDirs } from '../git/repo';
import {
  type CodexHookTrust,
  type CodexLayer,
  codexHookHash,
  codexLayerOf,
  codexUserConfig,
  hookKey,
  hookTrust,
  hooksOff,
  projectTrusted,
  readCodexUserConfig,
  recordHookTrust,
} from './trust';

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

/** Where a handler running `command` sits among the file's [[hooks.<event>]]: its group and index, for its [hooks.state] key. */
export function handlerAt({
  config,
  event,
  command,
}: {
  config: Record<string, unknown>;
  event: string;
  command: (c: string) => boolean;
}): Array<{ group: number; handler: number; matcher: unknown; hook: Record<string, unknown> }> {
  const hooks = isObject(config.hooks) ? config.hooks[event] : undefined;
  if (!Array.isArray(hooks)) return [];
  return hooks.flatMap((g, group) =>
    isObject(g) && Array.isArray(g.hooks)
      ? g.hooks.flatMap((h, handler) =>
          isObject(h) && typeof h.command === 'string' && command(h.command) ? [{ group, handler, matcher: g.matcher, hook: h }] : [],
        )
      : [],
  );
}

/** The directories whose [projects."<path>"] entry decides whether Codex reads `dir`/.codex: it, the work tree's top, the main repository's. */
export async function codexProjectDirs({ dir, cwd }: { dir: string; cwd: string }): Promise<string[]> {
  const git = await locateGitDirs({ cwd });
  const main = git && basename(git.commonDir) === '.git' ? dirname(git.commonDir) : null;
  const dirs = [dir, git?.root, main].filter((d): d is string => typeof d === 'string');
  return [...new Set((await Promise.all(dirs.map((d) => realpath(d).catch(() => d)))).flatMap((r, i) => [r, dirs[i]!]))];
}

/** What Codex will make of a hook forge installed: whether it runs it, and why not. */
export interface CodexTrustReport {
  /** The user's config.toml, where the trust is kept (null: no home to find it in). */
  userConfig: string | null;
  layer: CodexLayer['kind'];
  key: string | null;
  hash: string | null;
  /** Set when this install wrote the hook's trust. */
  recorded: boolean;
  hook: CodexHookTrust | null;
  /** For a project's .codex/config.toml: whether Codex trusts the project (null for the user's file). */
  project: boolean | null;
  /** Null when Codex runs the hook; else why it does not (turned off, or not trusted), and the step that makes it run. */
  blocked: { state: 'disabled' | 'untrusted' | 'not-loaded'; reason: string; fix: string } | null;
}

/**
 * Codex's verdict on the handler running `command` in `file`, after recording the hook's trust when
 * `record` (what approving it in /hooks writes): Codex skips, in silence, a hook whose
 * [hooks.state] trusted_hash does not match it, and every hook of a project it does not trust.
 */
export async function codexTrust({
  file,
  event,
  command,
  cwd,
  env,
  record,
}: {
  file: string;
  event: string;
  command: (c: string) => boolean;
  cwd: string;
  env: Record<string, string | undefined>;
  record: boolean;
}): Promise<CodexTrustReport> {
  const user = await codexUserConfig({ env });
  const ws = await locateWorkspace({ cwd });
  const layer = await codexLayerOf({ file, root: ws.root, user });
  const report: CodexTrustReport = {
    userConfig: user?.file ?? null,
    layer: layer.kind,
    key: null,
    hash: null,
    recorded: false,
    hook: null,
    project: null,
    blocked: null,
  };
  if (layer.kind === 'none' || !user) {
    report.blocked = {
      state: 'not-loaded',
      reason: user
        ? `Codex does not read ${file}: it reads ${user.file} and the .codex/config.toml of the project's directories`
        : 'Codex keeps hook trust in ~/.codex/config.toml, and neither CODEX_HOME nor HOME is set',
      fix: everyProject({ event, userConfig: user?.file }),
    };
    return report;
  }
  const at = handlerAt({ config: (await readCodexUserConfig(file)).config, event, command })[0];
  if (!at)
    return {
      ...report,
      blocked: { state: 'not-loaded', reason: `${file} has no ${event} hook of forge's`, fix: 'forge plan install-hook codex' },
    };
  report.key = hookKey({ keyPath: layer.keyPath, event, group: at.group, handler: at.handler });
  report.hash = codexHookHash({ event, matcher: at.matcher, handler: at.hook });
  if (record && report.key)
    report.recorded = (await recordHookTrust({ file: user.file, key: report.key, hash: report.hash })) === 'recorded';
  const { config } = await readCodexUserConfig(user.file);
  report.hook = report.key ? hookTrust({ config, key: report.key, hash: report.hash }) : 'untrusted';
  if (layer.kind === 'project') report.project = projectTrusted({ config, dirs: await codexProjectDirs({ dir: layer.dir, cwd }) });
  report.blocked = codexBlocked({ report, file, event, dir: layer.kind === 'project' ? layer.dir : null, off: hooksOff(config) });
  return report;
}

/** The install that needs no project trust: into the user's config.toml (the loop's Stop hook has no --user). */
const everyProject = ({ event, userConfig }: { event: string; userConfig: string | undefined }) =>
  event === 'Stop'
    ? shellJoin(['forge', 'loop', 'install', 'codex', '--settings', userConfig ?? '~/.codex/config.toml'])
    : 'forge plan install-hook codex --user';

/** Why Codex will not run the hook and what makes it, from the report's facts; null when it runs it. */
function codexBlocked({
  report,
  file,
  event,
  dir,
  off,
}: {
  report: CodexTrustReport;
  file: string;
  event: string;
  dir: string | null;
  off: boolean;
}): CodexTrustReport['blocked'] {
  const where = report.userConfig!;
  const edit = `"\${EDITOR:-vi}" ${shellQuote(where)}`;
  if (off) return { state: 'disabled', reason: `hooks are off in ${where} ([features] hooks = false)`, fix: edit };
  if (report.hook === 'disabled')
    return {
      state: 'disabled',
      reason: `the hook is disabled in ${where} (enabled = false under [hooks.state."${report.key}"]; /hooks in Codex turns it on)`,
      fix: edit,
    };
  if (report.hook !== 'trusted')
    return {
      state: 'untrusted',
      reason: `the hook is ${report.hook === 'modified' ? 'changed since it was trusted' : 'not trusted'}: Codex skips it without a word (codex exec too) until its trust is recorded in ${where}`,
      fix: event === 'Stop' ? 'forge loop install codex' : 'forge plan install-hook codex',
    };
  if (report.project === false)
    return {
      state: 'untrusted',
      reason: `Codex reads ${file} only in a trusted project, and ${dir} is not one: add [projects.${JSON.stringify(dir)}] trust_level = "trusted" to ${where} (what trusting the folder when Codex asks writes), or install the gate for every project`,
      fix: everyProject({ event, userConfig: where }),
    };
  return null;
}

/**
 * Installs a forge hook for this project's Codex sessions: into `config` (relative to cwd; e.g.
 * ~/.codex/config.toml for every project) or the repository's .codex/config.toml, with a warning when
 * `forge` is not on the PATH Codex will search. Given the caller's `env`, it records Codex's trust in
 * the hook in the user's config.toml (`trust`, as approving it in Codex's /hooks does) and says
 * plainly when Codex will still not run it; it never says "fails closed" of a hook Codex skips.
 */
export async function installCodexProjectHook({
  cwd,
  config,
  event,
  command,
  failure = 'closed',
  searchPath,
  env,
  trust = true,
}: {
  cwd: string;
  config: string | undefined;
  event: string;
  command: string;
  failure?: 'closed' | 'open';
  /** The PATH the agent will search for forge (the caller's), for the warning when forge is not on it. */
  searchPath: string;
  /** The caller's environment: CODEX_HOME or HOME say where Codex keeps hook trust. */
  env?: Record<string, string | undefined>;
  trust?: boolean;
}): Promise<{ data: Record<string, unknown>; text: string }> {
  const file = await agentConfigFile({ cwd, given: config, inRepo: ['.codex', 'config.toml'] });
  const r = await installCodexHook({ file, event, command });
  const reachable = await onPath({ program: 'forge', cwd, path: searchPath });
  const report = env ? await codexTrust({ file, event, command: (c) => c === command, cwd, env, record: trust }) : null;
  const warning = reachable
    ? ''
    : `\nwarning: forge is not on PATH here; Codex will not find the hook command until it is (npm install -g .)${failure === 'closed' ? ', and until then every tool call is refused' : ''}`;
  const how =
    failure === 'closed'
      ? `fails closed: when forge cannot run or crashes, "|| exit 2" makes Codex (${CODEX_HOOKS_SINCE} or later) block the call`
      : `fails open: when the hook cannot run, crashes or times out, Codex (${CODEX_HOOKS_SINCE} or later) lets the turn end`;
  const trusted = !report?.key
    ? ''
    : report.recorded
      ? `\ntrust recorded in ${report.userConfig} ([hooks.state."${report.key}"]), as approving the hook in Codex's /hooks does`
      : report.hook === 'trusted'
        ? `\nCodex trusts the hook (${report.userConfig})`
        : '';
  const verdict = !report
    ? `\n${how}, once Codex trusts the hook (/hooks) and, for a project's .codex/config.toml, the project`
    : report.blocked
      ? `\nnot live: Codex will not run this hook: ${report.blocked.reason}\n  fix: ${report.blocked.fix}`
      : `\n${how}`;
  const text = `${r.added ? 'installed' : 'already installed'}: ${event} → ${command} in ${r.file}${trusted}${verdict}${warning}`;
  return {
    data: {
      file: r.file,
      added: r.added,
      event,
      command,
      failure,
      codexSince: CODEX_HOOKS_SINCE,
      forgeOnPath: reachable,
      ...(report ? { trust: report, live: !report.blocked } : {}),
    },
    text,
  };
}
