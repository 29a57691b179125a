// Codex CLI's trust in a hook: the [hooks.state."<key>"] trusted_hash it checks before it runs one, and the project trust a .codex/ layer needs.
import { createHash } from 'node:crypto';
import { readFile, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { RefusedError } from '../errors';
import { atomicWrite } from '../files/write';
import { isObject } from '../guards';
import { shellJoin } from '../quote';

/**
 * Codex's label for an event in a [hooks.state] key and in a hook's hash
 * (codex-rs/hooks/src/lib.rs hook_event_key_label); the events its config.toml has always read.
 */
const EVENT_LABELS: Record<string, string> = {
  PreToolUse: 'pre_tool_use',
  PostToolUse: 'post_tool_use',
  SessionStart: 'session_start',
  UserPromptSubmit: 'user_prompt_submit',
  Stop: 'stop',
};

/** Events whose matcher Codex ignores, and so leaves out of the hash (matcher_pattern_for_event). */
const NO_MATCHER = new Set(['UserPromptSubmit', 'Stop']);

/** Events whose additionalContextLimit Codex keeps, when it is not the default 2500 (discovery.rs). */
const CONTEXT_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'SessionStart', 'UserPromptSubmit']);

const sortedKeys = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sortedKeys)
    : isObject(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sortedKeys(v[k])]),
        )
      : v;

/**
 * The hash Codex compares with a hook's trusted_hash (discovery.rs hook_hash and config's
 * version_for_toml): sha256 of the compact, key-sorted JSON of the event's label, the matcher and the
 * one handler as Codex normalises it — timeout defaulted to 600, async a boolean, unset fields
 * left out. One character of the command changed and the hash no longer matches.
 */
export function codexHookHash({ event, matcher, handler }: { event: string; matcher?: unknown; handler: Record<string, unknown> }): string {
  const limit = handler.additionalContextLimit;
  const normalized = {
    type: 'command',
    command: handler.command,
    timeout: Math.max(
      typeof handler.timeout === 'number' ? handler.timeout : typeof handler.timeoutSec === 'number' ? handler.timeoutSec : 600,
      1,
    ),
    async: handler.async === true,
    ...(typeof handler.statusMessage === 'string' ? { statusMessage: handler.statusMessage } : {}),
    ...(typeof limit === 'number' && limit !== 2500 && CONTEXT_EVENTS.has(event) ? { additionalContextLimit: limit } : {}),
  };
  const identity = {
    event_name: EVENT_LABELS[event],
    ...(typeof matcher === 'string' && !NO_MATCHER.has(event) ? { matcher } : {}),
    hooks: [normalized],
  };
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(sortedKeys(identity)))
    .digest('hex')}`;
}

/** The user's config.toml: where Codex reads hook and project trust, and the path its keys name it by. */
export interface CodexUserConfig {
  file: string;
}

/**
 * $CODEX_HOME/config.toml (Codex resolves a set CODEX_HOME through symlinks), else ~/.codex/config.toml
 * as it is spelt; null without a home to look in.
 */
export async function codexUserConfig({ env }: { env: Record<string, string | undefined> }): Promise<CodexUserConfig | null> {
  if (env.CODEX_HOME) return { file: join(await realpath(env.CODEX_HOME).catch(() => env.CODEX_HOME!), 'config.toml') };
  return env.HOME ? { file: join(env.HOME, '.codex', 'config.toml') } : null;
}

/**
 * Which of Codex's layers a config.toml is: the user's (hooks run once trusted), a project's
 * `<dir>/.codex/config.toml` inside the repository (read only in a trusted project, and only when
 * Codex starts at or below `dir`), or neither (Codex never reads it). `keyPath` is the path Codex
 * names the file by in [hooks.state] keys: the directory as its working directory spells it, real.
 */
export type CodexLayer = { kind: 'user'; keyPath: string } | { kind: 'project'; dir: string; keyPath: string } | { kind: 'none' };

export async function codexLayerOf({
  file,
  root,
  user,
}: {
  file: string;
  root: string;
  user: CodexUserConfig | null;
}): Promise<CodexLayer> {
  const real = (p: string) => realpath(p).catch(() => p);
  if (user && (await real(dirname(file))) === (await real(dirname(user.file))) && basename(file) === 'config.toml')
    return { kind: 'user', keyPath: user.file };
  if (basename(file) !== 'config.toml' || basename(dirname(file)) !== '.codex') return { kind: 'none' };
  const dir = await real(dirname(dirname(file)));
  const rel = relative(await real(root), dir);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return { kind: 'none' };
  return { kind: 'project', dir, keyPath: join(dir, '.codex', 'config.toml') };
}

/** What Codex will do with one hook: run it, or skip it and why. */
export type CodexHookTrust = 'trusted' | 'untrusted' | 'modified' | 'disabled';

/** The user's config.toml read as Codex reads it for trust; empty when there is none. */
export async function readCodexUserConfig(file: string): Promise<{ text: string; config: Record<string, unknown> }> {
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '';
    throw err;
  });
  try {
    return { text, config: parse(text) as Record<string, unknown> };
  } catch (err) {
    const why = err instanceof TomlError ? err.message.split('\n')[0] : (err as Error).message;
    throw new RefusedError('SETTINGS_INVALID', `${file} is not valid TOML (${why}); it was left as it is`, {
      fix: shellJoin(['python3', '-c', 'import sys, tomllib; tomllib.load(open(sys.argv[1], "rb"))', file]),
    });
  }
}

const stateOf = (config: Record<string, unknown>, key: string): Record<string, unknown> | null => {
  const hooks = config.hooks;
  const state = isObject(hooks) ? hooks.state : undefined;
  const entry = isObject(state) ? state[key] : undefined;
  return isObject(entry) ? entry : null;
};

/** Codex's verdict on the hook at `key` whose current hash is `hash` (discovery.rs hook_trust_status, hook_enabled). */
export function hookTrust({ config, key, hash }: { config: Record<string, unknown>; key: string; hash: string }): CodexHookTrust {
  const state = stateOf(config, key);
  if (state?.enabled === false) return 'disabled';
  if (typeof state?.trusted_hash !== 'string') return 'untrusted';
  return state.trusted_hash === hash ? 'trusted' : 'modified';
}

/**
 * Whether Codex reads a project's .codex/ layer: the first [projects."<path>"] entry it finds for the
 * directory, the project root or the main repository's root decides (loader/mod.rs decision_for_dir).
 */
export function projectTrusted({ config, dirs }: { config: Record<string, unknown>; dirs: string[] }): boolean {
  const projects = isObject(config.projects) ? config.projects : {};
  for (const dir of dirs) {
    const entry = projects[dir];
    if (isObject(entry) && typeof entry.trust_level === 'string') return entry.trust_level === 'trusted';
  }
  return false;
}

/** Hooks off altogether: [features] hooks = false (codex_hooks in the releases that named it so). */
export function hooksOff(config: Record<string, unknown>): boolean {
  const features = config.features;
  return isObject(features) && (features.hooks === false || features.codex_hooks === false);
}

/** The [hooks.state] key of a handler: the file, the event's label and its position (hooks/src/lib.rs hook_key). */
export function hookKey({
  keyPath,
  event,
  group,
  handler,
}: {
  keyPath: string;
  event: string;
  group: number;
  handler: number;
}): string | null {
  const label = EVENT_LABELS[event];
  return label ? `${keyPath}:${label}:${group}:${handler}` : null;
}

/**
 * The text with `line` (trusted_hash = …) set in the one table headed `header`: the old line
 * replaced, or the line added under the header; null when the header is not there exactly once.
 */
function withStateLine({ text, header, line }: { text: string; header: string; line: string }): string | null {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.trim() === header);
  if (at < 0 || lines.some((l, i) => i > at && l.trim() === header)) return null;
  const next = lines.findIndex((l, i) => i > at && /^\s*\[/.test(l));
  const old = lines.findIndex((l, i) => i > at && (next < 0 || i < next) && /^\s*trusted_hash\s*=/.test(l));
  if (old >= 0) lines[old] = line;
  else lines.splice(at + 1, 0, line);
  return lines.join('\n');
}

/**
 * Records in the user's config.toml that Codex trusts the hook at `key` as it is now (`hash`): what
 * approving it in Codex's /hooks review writes. The file is edited at that one entry only — a new
 * table appended, or the old hash of a modified hook replaced — and read back before it is written;
 * anything it cannot edit so is refused untouched. A hook the user disabled stays disabled.
 */
export async function recordHookTrust({
  file,
  key,
  hash,
}: {
  file: string;
  key: string;
  hash: string;
}): Promise<'recorded' | 'already' | 'disabled'> {
  const { text, config } = await readCodexUserConfig(file);
  const state = stateOf(config, key);
  if (state?.enabled === false) return 'disabled';
  if (state?.trusted_hash === hash) return 'already';
  const header = `[hooks.state.${JSON.stringify(key)}]`;
  const line = `trusted_hash = ${JSON.stringify(hash)}`;
  const out = state
    ? withStateLine({ text, header, line })
    : `${text}${text && !text.endsWith('\n') ? '\n' : ''}${text ? '\n' : ''}${header}\n${line}\n`;
  let check: Record<string, unknown> | null = null;
  try {
    check = out === null ? null : (parse(out) as Record<string, unknown>);
  } catch {}
  if (!check || stateOf(check, key)?.trusted_hash !== hash)
    throw new RefusedError(
      'SETTINGS_INVALID',
      `${file} keeps hook trust in a form forge cannot edit; it was left as it is (trust the hook in Codex's /hooks instead)`,
      {
        fix: 'codex',
      },
    );
  await atomicWrite(file, out!);
  return 'recorded';
}
