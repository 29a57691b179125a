// Queries a run's event log: committed lines streamed from git, then pending ones, filtered in constant memory.
import { gitEnv } from '../git/exec';
import type { Repo } from '../git/repo';
import type { StateStore } from '../git/state';
import { logPath, pendingEvents, type LogEvent, type Phase, type Severity } from './events';

export interface LogFilter {
  moduleId?: string;
  phase?: Phase;
  severity?: Severity;
}

export interface QueryStats {
  /** Lines that matched the filter (before the limit). */
  matched: number;
  /** Lines that were not valid JSON events and were skipped. */
  skipped: number;
}

function matches(e: LogEvent, f: LogFilter): boolean {
  return (!f.moduleId || e.moduleId === f.moduleId) && (!f.phase || e.phase === f.phase) && (!f.severity || e.severity === f.severity);
}

function parseLine(line: string): LogEvent | null {
  if (!line.trim()) return null;
  try {
    const e = JSON.parse(line) as LogEvent;
    return e && typeof e === 'object' && typeof e.event === 'string' ? e : null;
  } catch {
    return null;
  }
}

/** Streams the committed lines of one blob through `git cat-file`, never holding the whole log. */
async function* committedLines(repo: Repo, commit: string, path: string): AsyncGenerator<string> {
  const [{ spawn }, { createInterface }] = await Promise.all([import('node:child_process'), import('node:readline')]);
  const child = spawn('git', ['cat-file', 'blob', `${commit}:${path}`], { cwd: repo.cwd, env: gitEnv(), stdio: ['ignore', 'pipe', 'ignore'] });
  const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
  try {
    for await (const line of lines) yield line;
  } finally {
    child.kill();
  }
}

/** Runs that have a log, committed or pending. */
export async function listRuns({ repo, store }: { repo: Repo; store: StateStore }): Promise<string[]> {
  const head = await store.head();
  const committed = head ? (await store.listAt(head, '.forge/logs')).map((e) => e.name.replace(/\.jsonl$/, '')) : [];
  const pending = [...new Set((await pendingEvents({ repo })).map((e) => e.runId))];
  return [...new Set([...committed, ...pending])].sort();
}

/** The run whose latest event is newest, or null when there are no logs. */
export async function newestRun({ repo, store }: { repo: Repo; store: StateStore }): Promise<string | null> {
  const head = await store.head();
  let best: { run: string; at: string } | null = null;
  const consider = (run: string, at: string | undefined) => {
    if (at && (!best || at > best.at || (at === best.at && run > best.run))) best = { run, at };
  };
  if (head) {
    for (const entry of await store.listAt(head, '.forge/logs')) {
      const text = (await store.readAt(head, `.forge/logs/${entry.name}`))?.toString('utf8') ?? '';
      const lines = text.trimEnd().split('\n');
      for (let i = lines.length - 1; i >= 0; i--) {
        const e = parseLine(lines[i]!);
        if (e) {
          consider(entry.name.replace(/\.jsonl$/, ''), e.timestamp);
          break;
        }
      }
    }
  }
  for (const e of await pendingEvents({ repo })) consider(e.runId, e.timestamp);
  return (best as { run: string } | null)?.run ?? null;
}

/**
 * Yields the matching events of a run in order. With a limit, only the newest `limit` matches are
 * kept (a ring of that size); with limit 0 every match streams straight through.
 */
export async function* queryEvents({
  repo,
  store,
  runId,
  filter,
  limit,
  stats,
}: {
  repo: Repo;
  store: StateStore;
  runId: string;
  filter: LogFilter;
  limit: number;
  stats: QueryStats;
}): AsyncGenerator<LogEvent> {
  const head = await store.head();
  const ring: LogEvent[] = [];
  async function* all(): AsyncGenerator<LogEvent> {
    if (head) {
      for await (const line of committedLines(repo, head, logPath(runId))) {
        const e = parseLine(line);
        if (e) yield e;
        else if (line.trim()) stats.skipped++;
      }
    }
    yield* await pendingEvents({ repo, runId });
  }
  for await (const e of all()) {
    if (!matches(e, filter)) continue;
    stats.matched++;
    if (limit === 0) {
      yield e;
      continue;
    }
    ring.push(e);
    // Trim in batches so keeping the newest `limit` stays O(1) per event.
    if (ring.length >= 2 * limit) ring.splice(0, ring.length - limit);
  }
  yield* ring.slice(-limit);
}
