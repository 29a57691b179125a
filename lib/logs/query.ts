// Queries a run's event log: committed lines streamed from git, then pending ones, filtered in constant memory.
import { isValidId } from '../errors';
import type { Repo } from '../git/repo';
import type { StateStore } from '../git/state';
import { checkJson } from '../state/read';
import { legacyFile, segmentsOf, streamSpecs } from '../state/streams';
import * as validators from '../state/validators.gen';
import { logDir, pendingEvents, type LogEvent, type Phase, type Severity } from './events';

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

/** A line as an event, or null when it is not one (it is skipped and counted). */
function parseLine(line: string): LogEvent | null {
  if (!line.trim()) return null;
  const r = checkJson({ text: line, file: validators.logEvent });
  return r.ok ? r.value : null;
}

/**
 * The runs with a committed log: a directory of segments, or a file an earlier forge wrote
 * (`<runId>.jsonl`), named by a valid run id; anything else under .forge/logs is not a log.
 */
async function committedRuns(store: StateStore, head: string): Promise<string[]> {
  const runs = (await store.listAt(head, '.forge/logs')).map((e) =>
    e.mode === '40000' ? e.name : (/^(.+)\.jsonl$/.exec(e.name)?.[1] ?? ''),
  );
  return [...new Set(runs.filter(isValidId))].sort();
}

/** The latest event of one file of a log, reading from its end. */
async function lastEvent(store: StateStore, head: string, path: string): Promise<LogEvent | null> {
  const lines = ((await store.readAt(head, path))?.toString('utf8') ?? '').trimEnd().split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const e = parseLine(lines[i]!);
    if (e) return e;
  }
  return null;
}

/** The run whose latest event is newest, or null when there are no logs. Reads the last segment of each log, not the whole log. */
export async function newestRun({ repo, store }: { repo: Repo; store: StateStore }): Promise<string | null> {
  const head = await store.head();
  let best: { run: string; at: string } | null = null;
  const consider = (run: string, at: string | undefined) => {
    if (typeof at === 'string' && at && (!best || at > best.at || (at === best.at && run > best.run))) best = { run, at };
  };
  if (head) {
    for (const run of await committedRuns(store, head)) {
      const dir = logDir(run);
      // The newest segment with an event in it, and the file an earlier forge wrote (a sync may bring one back beside the segments).
      const segments = segmentsOf(await store.listAt(head, dir));
      for (let i = segments.length - 1; i >= 0; i--) {
        const e = await lastEvent(store, head, `${dir}/${segments[i]!.name}`);
        if (e) {
          consider(run, e.timestamp);
          break;
        }
      }
      consider(run, (await lastEvent(store, head, legacyFile(dir)))?.timestamp);
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
      for await (const line of store.streamLines(await streamSpecs({ store, commit: head, dir: logDir(runId) }))) {
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
