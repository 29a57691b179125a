// The shape of a run's log events (segments under .forge/logs/<runId>/) and their pending spool in the git dir.
import { mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assertId, isValidId } from '../errors';
import type { Repo } from '../git/repo';
import { randomHex } from '../random';
import type { StateStore } from '../git/state';
import { checkJson } from '../state/read';
import { appendLines, tailLines } from '../state/streams';
import * as validators from '../state/validators.gen';

export const PHASES = [
  'planning',
  'execution',
  'validation',
  'review',
  'retry',
  'memory',
  'session',
  'tool_call',
  'plan_validation',
] as const;
export const SEVERITIES = ['info', 'warn', 'error'] as const;
export type Phase = (typeof PHASES)[number];
export type Severity = (typeof SEVERITIES)[number];

export interface LogEvent {
  /** Unique per event: makes re-flushing after a crash and syncing two machines idempotent. */
  id: string;
  timestamp: string;
  runId: string;
  phase: Phase;
  moduleId: string | null;
  event: string;
  severity: Severity;
  data: Record<string, unknown>;
}

/** Pending events are committed once this many wait, or when `forge state …` runs. */
export const FLUSH_THRESHOLD = 64;

/** A run's log: a stream of segments (lib/state/streams.ts); an earlier forge kept it in `<dir>.jsonl`. */
export function logDir(runId: string): string {
  return `.forge/logs/${assertId({ kind: 'run id', value: runId })}`;
}

export function newEvent(fields: Omit<LogEvent, 'id'>): LogEvent {
  // id first, so a reader can dedupe by prefix without parsing the line.
  return { id: `ev-${randomHex()}`, ...fields };
}

/** A command's call as its run's log keeps it: what ran, how it ended (exit code, error code) and how long it took. */
export function toolCallEvent({
  runId,
  name,
  exitCode,
  error,
  durationMs,
  now,
}: {
  runId: string;
  name: string;
  exitCode: number;
  error: string | undefined;
  durationMs: number;
  now: Date;
}): LogEvent {
  return newEvent({
    timestamp: now.toISOString(),
    runId,
    phase: 'tool_call',
    moduleId: null,
    event: name,
    severity: exitCode === 0 ? 'info' : exitCode === 1 ? 'warn' : 'error',
    data: { exitCode, durationMs, ...(error ? { error } : {}) },
  });
}

function spoolRoot(repo: Repo): string {
  return join(repo.commonDir, 'forge', 'pending');
}

/** One directory per run; the id is checked here too, so no caller can spool outside the spool. */
function spoolDir(repo: Repo, runId: string): string {
  return join(spoolRoot(repo), assertId({ kind: 'run id', value: runId }));
}

/** `<15-digit ms>-<16 hex>.jsonl`: what spoolEvents names a spool file, and `.<same>.tmp` while it is written. */
const SPOOL_FILE = /^\d{15}-[0-9a-f]{16}\.jsonl$/;
const SPOOL_TMP = /^\.(\d{15})-[0-9a-f]{16}\.tmp$/;
/** A temp file this old belongs to a writer that was killed: no live writer takes this long to write one small file. */
const STALE_TMP_MS = 10 * 60_000;

/**
 * Records events without a state commit: each call writes one small file, complete before it is
 * renamed into the spool, so concurrent writers and a flusher never see half an event. This is
 * what keeps logging off a read-only command's critical path (see `make bench`).
 */
export async function spoolEvents({ repo, runId, events }: { repo: Repo; runId: string; events: LogEvent[] }): Promise<number> {
  const dir = spoolDir(repo, runId);
  await mkdir(dir, { recursive: true });
  const stamp = `${Date.now().toString().padStart(15, '0')}-${randomHex()}`;
  const tmp = join(dir, `.${stamp}.tmp`);
  await writeFile(tmp, events.map((e) => `${JSON.stringify(e)}\n`).join(''));
  await rename(tmp, join(dir, `${stamp}.jsonl`));
  return (await readdir(dir)).filter((n) => SPOOL_FILE.test(n)).length;
}

/** Spools events and, once FLUSH_THRESHOLD spool files wait, commits them (the store is opened only then). */
export async function recordEvents({
  repo,
  store,
  runId,
  events,
}: {
  repo: Repo;
  store: () => Promise<StateStore>;
  runId: string;
  events: LogEvent[];
}): Promise<void> {
  const pending = await spoolEvents({ repo, runId, events });
  if (pending >= FLUSH_THRESHOLD) await flushEvents({ repo, store: await store() });
}

interface SpoolFile {
  runId: string;
  path: string;
}

/**
 * The spool files of one run or of all, oldest first. Only a directory named by a valid run id
 * holding files named as spoolEvents names them counts; with `prune`, anything else — a directory
 * an older forge made for an invalid id, a stray file or link, a killed writer's temp file — is
 * removed (links themselves, never what they point to), so it is neither committed nor left behind.
 */
async function spoolFiles(repo: Repo, { runId, prune = false }: { runId?: string; prune?: boolean } = {}): Promise<SpoolFile[]> {
  const root = spoolRoot(repo);
  const discard = (path: string) => (prune ? rm(path, { recursive: true, force: true }).catch(() => {}) : undefined);
  const runs = runId ? [{ name: runId, isDirectory: () => true }] : await readdir(root, { withFileTypes: true }).catch(() => []);
  const files: SpoolFile[] = [];
  for (const run of [...runs].sort((a, b) => a.name.localeCompare(b.name))) {
    const dir = join(root, run.name);
    if (!run.isDirectory() || !isValidId(run.name)) {
      await discard(dir);
      continue;
    }
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.isFile() && SPOOL_FILE.test(e.name)) files.push({ runId: run.name, path: join(dir, e.name) });
      else if (!(e.isFile() && isFreshTmp(e.name))) await discard(join(dir, e.name));
    }
  }
  return files;
}

/** A temp file a writer may still be about to rename. */
function isFreshTmp(name: string): boolean {
  const m = SPOOL_TMP.exec(name);
  return m !== null && Date.now() - Number(m[1]) < STALE_TMP_MS;
}

/** Events waiting in the spool (not yet on the state ref), oldest first. */
export async function pendingEvents({ repo, runId }: { repo: Repo; runId?: string }): Promise<LogEvent[]> {
  const events: LogEvent[] = [];
  for (const f of await spoolFiles(repo, { runId })) {
    const text = await readFile(f.path, 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (!line) continue;
      // A torn spool file cannot happen (tmp+rename), but a line that is no event is skipped rather than fail a query.
      const r = checkJson({ text: line, file: validators.logEvent });
      if (r.ok) events.push(r.value);
    }
  }
  return events;
}

/** The id a spooled or committed event line starts with (newEvent puts it first), read without parsing the line. */
const EVENT_ID = /^\{"id":"([^"]+)"/;

/**
 * Commits every pending event to its run's log in one state commit, then removes the spool
 * files, and returns how many it committed. The spool is read inside the transaction, under the
 * state lock, and its files removed before the lock is let go: a file another flusher committed
 * is gone by then, not committed twice. Events a flush committed but could not remove (it was
 * killed in between) are at the end of the log, within as many lines as are pending now: they
 * are skipped by id, checking only that tail, so flushing is idempotent and costs what it adds.
 */
export async function flushEvents({ repo, store }: { repo: Repo; store: StateStore }): Promise<number> {
  // Pruning removes files, a side effect a transaction that may re-run must not have.
  if (!(await spoolFiles(repo, { prune: true })).length) return 0;
  let taken: SpoolFile[] = [];
  const result = await store.update({
    message: ({ added, runs }: { added: number; runs: string[] }) =>
      `logs: record ${added} event${added === 1 ? '' : 's'} of ${runs.join(', ')}`,
    apply: async (tx) => {
      taken = await spoolFiles(repo);
      const byRun = new Map<string, string[]>();
      for (const f of taken) {
        const lines = byRun.get(f.runId) ?? [];
        for (const line of (await readFile(f.path, 'utf8').catch(() => '')).split('\n')) if (line) lines.push(line);
        byRun.set(f.runId, lines);
      }
      let added = 0;
      const runs: string[] = [];
      for (const [runId, lines] of byRun) {
        const dir = logDir(runId);
        const seen = new Set<string>();
        for (const line of await tailLines({ tx, dir, count: lines.length })) {
          const id = EVENT_ID.exec(line)?.[1];
          if (id) seen.add(id);
        }
        const fresh = lines.filter((l) => {
          const id = EVENT_ID.exec(l)?.[1];
          if (id && seen.has(id)) return false;
          if (id) seen.add(id);
          return true;
        });
        if (!fresh.length) continue;
        await appendLines({ tx, dir, lines: fresh });
        added += fresh.length;
        runs.push(runId);
      }
      return { added, runs };
    },
    settle: async () => {
      await Promise.all(taken.map((f) => unlink(f.path).catch(() => {})));
    },
  });
  return result.value.added;
}

// The state files of this module, registered with the state layer's kinds (lib/state/read.ts), which imports no feature.
declare module '../state/read' {
  interface StateKinds {
    logEvent: LogEvent;
  }
}
