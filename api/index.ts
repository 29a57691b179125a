// forge as a library: a small typed facade over the call path the CLI and forge mcp use, each function one command's call, its errors thrown as ForgeError with the command's code.
import editCommand from '../commands/edit';
import memoryRecall from '../commands/memory/recall';
import memorySave from '../commands/memory/save';
import patchCommand from '../commands/patch';
import planPreflight from '../commands/plan/preflight';
import sessionLoad from '../commands/session/load';
import sessionSave from '../commands/session/save';
import stateShow from '../commands/state/show';
import { createContext } from '../lib/cli/call';
import type { CommandSpec } from '../lib/cli/declare';
import { callCommand } from '../lib/cli/invoke';
import { ForgeError } from '../lib/errors';

export { ForgeError } from '../lib/errors';
export type { ErrorCode } from '../lib/errors';

/** Where a call runs: the repository (or directory) it acts on, its environment, and a signal that cancels it. */
export interface CallOptions {
  /** The directory the call runs in (default: the process's). */
  cwd?: string;
  /** The environment it reads (default: the process's): FORGE_RUN_ID, XDG_DATA_HOME… */
  env?: Record<string, string | undefined>;
  /** Aborting it stops the call; a change not yet made is not made (error code CANCELLED). */
  signal?: AbortSignal;
}

/** What each call gives besides its data: the command forge suggests next, as a shell line (null when done). */
export interface Hinted {
  next: string | null;
}

/** Runs one command through the shared call path; its error is thrown, its outcome's data returned with the streamed items. */
async function run<T>(
  spec: CommandSpec<any>,
  args: Record<string, unknown>,
  options: CallOptions,
): Promise<{ data: T; next: string | null; items: Array<Record<string, unknown>> }> {
  const ctx = createContext({
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? process.env,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  try {
    const called = await callCommand({ spec, args: withoutUndefined(args), ctx });
    if (called.error) throw called.error;
    const outcome = called.outcome!;
    const items = called.records.slice(0, -1);
    return { data: outcome.data as T, next: outcome.next, items };
  } finally {
    ctx.close();
  }
}

/** Arguments as a caller of a typed function leaves them: an undefined option is one not given. */
function withoutUndefined(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
}

/** One file a patch changed (or would change, with `check`). */
export interface PatchedFile {
  path: string;
  kind: 'modify' | 'create' | 'delete' | 'rename';
  hunks: number;
  /** How each hunk was located: exact, or the tolerance that found it (whitespace, offset…). */
  strategies: string[];
  /** A rename's old path. */
  from?: string;
}

export interface PatchResult extends Hinted {
  applied: boolean;
  check: boolean;
  files: PatchedFile[];
}

/**
 * Applies a patch — unified diff, git diff, Codex's apply_patch envelope or search/replace blocks —
 * all of it or none: a hunk that cannot be placed is ForgeError PATCH_FAILED (or another code of
 * forge patch) and no file changes. `check` only says whether it would apply; `reverse` undoes it.
 */
export async function applyPatch(options: CallOptions & { diff: string; check?: boolean; reverse?: boolean }): Promise<PatchResult> {
  const { diff, check, reverse, ...where } = options;
  const r = await run<Omit<PatchResult, 'next'>>(patchCommand, { diff, check, reverse }, where);
  return { ...r.data, next: r.next };
}

/** One line of the region an edit changed, as forge read shows it. */
export interface EditedLine {
  n: number;
  hash: string;
  text: string;
}

export interface EditResult extends Hinted {
  path: string;
  /** exact, anchored, or the tolerance that matched `old` (whitespace, indentation…). */
  strategy: string;
  replacements: number;
  startLine: number;
  endLine: number;
  /** The changed lines with some context, with fresh anchors; regionStart is the first one's number. */
  region: EditedLine[];
  regionStart: number;
}

/**
 * Replaces `old` with `new` in one file, as forge edit does: the text must occur once (or `all`),
 * else ForgeError NO_MATCH or AMBIGUOUS_MATCH and the file is untouched. `anchor` is a
 * `LINE#HASH` from forge read that the edit must land on.
 */
export async function editFile(
  options: CallOptions & { path: string; old: string; new: string; anchor?: string; all?: boolean },
): Promise<EditResult> {
  const { path, old, new: replacement, anchor, all, ...where } = options;
  const r = await run<Omit<EditResult, 'next'>>(editCommand, { path, old, new: replacement, anchor, all }, where);
  return { ...r.data, next: r.next };
}

/** The plan gate's answer for one tool call. */
export type GateVerdict =
  | { allowed: true; tool: string; [fact: string]: unknown }
  | { allowed: false; tool: string; code: string; reason: string; fix: string | undefined; [fact: string]: unknown };

/**
 * Checks one tool call against the active plan contract, as `forge plan preflight` does before an
 * agent's call: a refusal is a verdict (allowed: false, with its breach code and reason), not a
 * throw. An allowed call records the budgets it uses; with no active plan every call is allowed.
 */
export async function checkToolCall(
  options: CallOptions & { tool: string; paths?: string[]; command?: string; writes?: boolean; tokens?: number },
): Promise<GateVerdict> {
  const { tool, paths, command, writes, tokens, ...where } = options;
  try {
    const r = await run<{ allowed: true; tool: string }>(planPreflight, { tool, path: paths, command, writes, tokens }, where);
    return r.data;
  } catch (err) {
    const data = err instanceof ForgeError ? (err.data as { allowed?: unknown }) : undefined;
    if (!(err instanceof ForgeError) || data?.allowed !== false) throw err;
    return { ...(err.data as object), allowed: false, tool, code: err.code, reason: err.message, fix: err.fix };
  }
}

/** A file of the state ref (refs/forge/state) with its text, or a directory of it with the files under it. */
export type StateEntry =
  | { kind: 'file'; path: string; size: number; content: string }
  | { kind: 'directory'; path: string; files: Array<{ path: string; size: number }> };

/**
 * Reads a file of the state ref (`.forge/…` paths, as forge state show takes them), or lists a
 * directory of it; a path it does not hold is ForgeError STATE_PATH_NOT_FOUND.
 */
export async function readState(options: CallOptions & { path?: string }): Promise<StateEntry> {
  const { path, ...where } = options;
  const r = await run<{ path: string; size?: number; content?: string }>(stateShow, { path }, where);
  if (r.data.content !== undefined) return { kind: 'file', path: r.data.path, size: r.data.size!, content: r.data.content };
  const files = r.items.filter((i) => i.type === 'file').map((i) => ({ path: String(i.path), size: Number(i.size) }));
  return { kind: 'directory', path: r.data.path, files };
}

/** A run's resumable snapshot. */
export interface SessionSnapshot {
  runId: string;
  currentPhase?: string | null;
  moduleStatuses?: Record<string, string>;
  completedCount: number;
  totalCount: number;
  lastUpdatedAt: string;
  [field: string]: unknown;
}

/** Saves a run's snapshot on the state ref: its phase, its modules' statuses, and any JSON state of the caller's. */
export async function saveSession(
  options: CallOptions & { runId: string; phase?: string; modules?: Record<string, string>; state?: Record<string, unknown> },
): Promise<{ saved: true; runId: string; lastUpdatedAt: string }> {
  const { runId, phase, modules, state, ...where } = options;
  const args = {
    'run-id': runId,
    phase,
    'module-status': Object.entries(modules ?? {}).map(([id, status]) => `${id}=${status}`),
    ...(state ? { state: JSON.stringify(state) } : {}),
  };
  return (await run<{ saved: true; runId: string; lastUpdatedAt: string }>(sessionSave, args, where)).data;
}

/** A run's saved snapshot; null when it has none. */
export async function loadSession(options: CallOptions & { runId: string }): Promise<SessionSnapshot | null> {
  const { runId, ...where } = options;
  const { data } = await run<({ found: true } & SessionSnapshot) | { found: false }>(sessionLoad, { 'run-id': runId }, where);
  if (!data.found) return null;
  const { found: _found, ...snapshot } = data;
  return snapshot as SessionSnapshot;
}

/** A remembered pattern. */
export interface Memory {
  id: string;
  pattern: string;
  category: string;
  confidence: number;
  tags: string[];
  timestamp: string;
  /** Where recall found it. */
  scope?: 'project' | 'global';
}

/** Finds remembered patterns matching the query's words, the project's before the global ones. */
export async function recallMemory(
  options: CallOptions & { query?: string; category?: string; scope?: 'project' | 'global' | 'all'; limit?: number },
): Promise<Memory[]> {
  const { query, category, scope, limit, ...where } = options;
  const r = await run(memoryRecall, { query, category, scope, limit }, where);
  return r.items.filter((i) => i.type === 'memory') as unknown as Memory[];
}

/** Saves a learned pattern; saving one already remembered is not an error (`duplicate: true`). */
export async function saveMemory(
  options: CallOptions & { pattern: string; category?: string; scope?: 'project' | 'global' },
): Promise<{ saved: boolean; duplicate: boolean; scope: string; entry: Memory }> {
  const { pattern, category, scope, ...where } = options;
  return (await run<{ saved: boolean; duplicate: boolean; scope: string; entry: Memory }>(memorySave, { pattern, category, scope }, where))
    .data;
}
