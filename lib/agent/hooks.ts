// A profile's hooks: detected once from the project's build files and written into config.json, then run after edits and at task, step and session boundaries.
import { mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isFile } from '../fs/stat';
import { onPath } from '../plans/modules';
import { runShell } from '../process/program';
import type { StartTimeout } from '../timeout';
import { parseConfigFile, readConfigText } from './config-file';
import { HOOK_EVENTS, type ConfigFile, type HookConfig, type HookEvent } from './config-types';

/** Hooks run for a few seconds at most, or they would stall every edit of the loop. */
export const HOOK_TIMEOUT_MS = 30_000;
/** Lines of a hook's output the model gets: enough for the first errors, few enough for a small model. */
export const HOOK_MAX_LINES = 50;
/** Where a first run without a config file puts the detected hooks. */
export const NEW_PROFILE = 'default';

/** Keeps lines of minified or generated output from filling the budget of lines on their own. */
const MAX_LINE_CHARS = 240;
/** The last lines are kept too: the compilers' summaries (`Found 12 errors`, `could not compile`). */
const TAIL_LINES = 5;

export function emptyHooks(): HookConfig {
  return Object.fromEntries(HOOK_EVENTS.map((e) => [e, []])) as unknown as HookConfig;
}

interface Rule {
  markers: string[];
  /** A program that must be on PATH for the rule to apply. */
  needs?: string;
  hooks: Partial<HookConfig>;
}

/**
 * What each build file brings. tsc runs through `npx --no-install`: a project's typescript lives in
 * node_modules/.bin, which is not on sh's PATH, and npx finds it there (or in a workspace's
 * hoisted node_modules above) while `--no-install` makes it fail at once instead of downloading a
 * package when typescript is missing. `cargo test -q` is not piped through `tail`: a pipeline
 * exits with tail's status, which would report failing tests as passing; runHooks caps the output.
 */
const RULES: Rule[] = [
  { markers: ['Cargo.toml'], hooks: { on_edit: ['cargo check -q'], on_task_done: ['cargo test -q'] } },
  { markers: ['tsconfig.json'], hooks: { on_edit: ['npx --no-install tsc --noEmit -p .'] } },
  { markers: ['go.mod'], hooks: { on_edit: ['go build ./...'] } },
  { markers: ['pyproject.toml', 'setup.py'], needs: 'ruff', hooks: { on_edit: ['ruff check .'] } },
];

export interface Detection {
  hooks: HookConfig;
  /** The build files the hooks came from, e.g. ['tsconfig.json']. */
  markers: string[];
}

/** The hooks a project's build files at `root` call for; none found gives every event empty. */
export async function detectHooks({ root, env }: { root: string; env: NodeJS.ProcessEnv }): Promise<Detection> {
  const hooks = emptyHooks();
  const markers: string[] = [];
  for (const rule of RULES) {
    const found: string[] = [];
    for (const m of rule.markers) if (await isFile(join(root, m))) found.push(m);
    if (!found.length) continue;
    if (rule.needs && !(await onPath({ program: rule.needs, cwd: root, path: env.PATH ?? '' }))) continue;
    markers.push(...found);
    for (const [event, commands] of Object.entries(rule.hooks) as Array<[HookEvent, string[]]>) hooks[event].push(...commands);
  }
  return { hooks, markers };
}

export interface EnsuredHooks {
  /** What to run; every event empty when disabled. */
  hooks: HookConfig;
  disabled: boolean;
  /**
   * config: the profile had hooks; written: detected now and written into the profile;
   * detected: detected for this run only (no profile to write into, or the file is not writable);
   * disabled: hooks_disabled is true.
   */
  origin: 'config' | 'written' | 'detected' | 'disabled';
  /** The profile read or written; null when no profile could be chosen. */
  profile: string | null;
  configPath: string;
  /** The build files detection went by (written and detected only). */
  markers: string[];
  /** Why detected hooks could not be written, for the CLI to show once. */
  warning?: string;
}

/**
 * The hooks of `profile`, detecting them the first time: a profile without a `hooks` key gets one
 * holding all five events (detected commands filled in, the rest empty lists, so the file shows
 * every event there is), written atomically into the file with its other keys and its indentation
 * kept. Detection happens once: the next call finds the key. No config file at all: it is created
 * with a profile named "default" holding only the hooks, which resolveModelConfig still treats as a
 * first run (it sets no endpoint or model). `profile` null picks as resolveModelConfig does (the
 * file's default, else its only profile); with several profiles and no default nothing is written
 * and the detected hooks serve this run only, as they do when `mayWrite` says no (the user's file
 * is written only when they asked). hooks_disabled: nothing is detected, written or run.
 */
export async function ensureHooks({
  configPath,
  profile,
  root,
  env,
  mayWrite,
}: {
  configPath: string;
  profile: string | null;
  root: string;
  env: NodeJS.ProcessEnv;
  /** Asked before the user's config file is written; false: the hooks serve this run only. No default: every caller says. */
  mayWrite: (found: { profile: string; markers: string[] }) => Promise<boolean>;
}): Promise<EnsuredHooks> {
  const text = await readConfigText(configPath);
  const file = text === null ? null : await parseConfigFile({ text, path: configPath });
  const name = profile ?? profileToWrite(file);
  const settings = name ? file?.profiles[name] : undefined;
  const base = { profile: name, configPath, markers: [] as string[] };
  if (settings?.hooks_disabled) return { ...base, hooks: emptyHooks(), disabled: true, origin: 'disabled' };
  const detected = settings?.hooks && !settings.hooks_detected_from ? null : await detectHooks({ root, env });
  if (settings?.hooks && (!detected || sameMarkers(detected.markers, settings.hooks_detected_from ?? [])))
    return { ...base, hooks: { ...emptyHooks(), ...settings.hooks }, disabled: false, origin: 'config' };
  const { hooks, markers } = detected!;
  /** The detected hooks serving this run only, with why when the reason is worth a warning. */
  const forThisRun = (warning?: string): EnsuredHooks => ({
    ...base,
    hooks,
    markers,
    disabled: false,
    origin: 'detected',
    ...(warning ? { warning } : {}),
  });
  // Hooks detected from another project's build files (the profile serves every repository): this
  // one's own serve the run, and the profile keeps what it had.
  if (settings?.hooks)
    return forThisRun(
      `profiles.${name}.hooks were detected from ${settings.hooks_detected_from!.join(', ') || 'no build file'}, which this repository does not match; hooks detected here (${markers.join(', ') || 'none'}) serve this run`,
    );
  if (!name || !(await mayWrite({ profile: name, markers }))) return forThisRun();
  try {
    await writeHooks({ configPath, text, profile: name, hooks, markers });
  } catch (err) {
    return forThisRun(`cannot write the detected hooks to '${configPath}' (${(err as Error).message}); they serve this run only`);
  }
  return { ...base, hooks, markers, disabled: false, origin: 'written' };
}

/** The profile the hooks go into when the caller has none: the file's default, its only one, or a new one. */
function profileToWrite(file: ConfigFile | null): string | null {
  if (!file) return NEW_PROFILE;
  const names = Object.keys(file.profiles);
  if (file.default !== undefined) return file.default;
  if (names.length === 1) return names[0]!;
  return names.length ? null : NEW_PROFILE;
}

/** The same build files, in any order: hooks detected from them fit this repository. */
export function sameMarkers(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((m) => b.includes(m));
}

async function writeHooks({
  configPath,
  text,
  profile,
  hooks,
  markers,
}: {
  configPath: string;
  text: string | null;
  profile: string;
  hooks: HookConfig;
  markers: string[];
}): Promise<void> {
  // The raw object, not the checked one: keys forge does not know are the user's and stay.
  const raw = (text === null ? {} : JSON.parse(text)) as { profiles?: Record<string, Record<string, unknown>> };
  raw.profiles ??= {};
  raw.profiles[profile] ??= {};
  raw.profiles[profile]!.hooks = hooks;
  raw.profiles[profile]!.hooks_detected_from = markers;
  const indent = text === null ? 2 : (/^([ \t]+)\S/m.exec(text)?.[1] ?? 2);
  const trailing = text === null || text.endsWith('\n') ? '\n' : '';
  await writeAtomically(configPath, `${JSON.stringify(raw, null, indent)}${trailing}`);
}

/** Write a temp file beside it and rename it over: a reader sees the old file or the new one, never half of it. */
async function writeAtomically(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const mode = await stat(path).then(
    (s) => s.mode & 0o777,
    () => 0o644,
  );
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    await writeFile(temp, content, { mode });
    await rename(temp, path);
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  }
}

export interface HookResult {
  command: string;
  /** null when a signal ended it (the timeout) or it could not start. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** The limit it ran under: what a timeout reports, rather than the moment the kill happened to land. */
  timeoutMs: number;
  /** stdout and stderr interleaved, colours stripped, capped to `maxLines` (see capLines). */
  output: string;
  durationMs: number;
}

/**
 * Runs each command in turn with `sh -c` in `cwd`. A command that outlives `timeoutMs` has its
 * whole process group killed (a compiler's workers too) and the next one runs; `signal` stops the
 * running one. Every command runs even after one fails: each says something different.
 */
export async function runHooks({
  commands,
  cwd,
  env,
  timeoutMs = HOOK_TIMEOUT_MS,
  maxLines = HOOK_MAX_LINES,
  signal,
  startTimeout,
}: {
  commands: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  maxLines?: number;
  signal?: AbortSignal;
  /** The clock `timeoutMs` runs on (default the wall clock; tests pass one they expire). */
  startTimeout?: StartTimeout;
}): Promise<HookResult[]> {
  const results: HookResult[] = [];
  for (const command of commands) {
    if (signal?.aborted) break;
    // A large tail, since the head is what matters: runShell keeps the end of what it saw.
    const r = await runShell({ command, cwd, env, timeoutMs, tailBytes: 1 << 20, signal, startTimeout });
    results.push({
      command,
      exitCode: r.exitCode,
      signal: r.signal,
      timedOut: r.timedOut,
      timeoutMs,
      output: capLines(stripAnsi(r.tail).trimEnd(), maxLines),
      durationMs: r.durationMs,
    });
  }
  return results;
}

/**
 * The first lines and the last few, with a line saying how many were cut between. Compilers and
 * linters (tsc, cargo, go build, ruff) print errors in order and the first ones are the causes,
 * later ones often their echoes; the last lines hold the summary (`Found 12 errors`).
 */
export function capLines(text: string, maxLines = HOOK_MAX_LINES): string {
  if (!text) return text;
  const lines = text.split('\n').map((l) => (l.length > MAX_LINE_CHARS ? `${l.slice(0, MAX_LINE_CHARS)}…` : l));
  if (lines.length <= maxLines) return lines.join('\n');
  const tail = Math.min(TAIL_LINES, Math.floor(maxLines / 5));
  const head = Math.max(maxLines - tail - 1, 1);
  return [...lines.slice(0, head), `… ${lines.length - head - tail} lines cut …`, ...lines.slice(lines.length - tail)].join('\n');
}

/**
 * What goes after a tool result, one block per hook: a failing hook's header and output
 * (`⚙ on_edit \`tsc --noEmit\` (exit 2):` then the errors); a passing one only its header and ✓,
 * its output dropped (warnings on every edit would cost tokens and say nothing new, and the ✓ spares
 * the model a bash call to check). No hooks: the empty string.
 */
export function formatHookResults(results: readonly HookResult[], event: HookEvent): string {
  return results
    .map((r) => {
      const head = `⚙ ${event} \`${r.command}\``;
      if (r.exitCode === 0 && !r.timedOut) return `${head} ✓`;
      const status = r.timedOut
        ? `timed out after ${r.timeoutMs / 1000} s; its processes were killed`
        : r.exitCode !== null
          ? `exit ${r.exitCode}`
          : r.signal
            ? `killed by ${r.signal}`
            : 'could not run';
      return `${head} (${status}):\n${r.output || '(no output)'}`;
    })
    .join('\n');
}

function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
}
