// How two machines' copies of a state file combine: JSONL as a union of records, JSON by newest updatedAt.
import { checkJson } from './read';
import { lineKey } from './streams';
import * as validators from './validators.gen';

/**
 * Local lines in their order, then the remote's records that local lacks. A record is its `id`
 * when it has one (an event, a journal entry, a memory entry: kept once however each side wrote
 * it), else the line. A segment or a bucket merges the same way: two clones that appended to
 * one segment, or saved into one bucket, meet in the same file. Merging a merge changes nothing.
 */
export function mergeJsonl(local: string, remote: string): string {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const line of [...local.split('\n'), ...remote.split('\n')]) {
    const key = lineKey(line);
    if (!line || seen.has(key)) continue;
    seen.add(key);
    lines.push(line);
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** A document's stamp; none (local wins) when it is not a JSON object with string stamps. */
function stamp(text: string): string {
  const r = checkJson({ text, file: validators.stamped });
  return r.ok ? (r.value.updatedAt ?? r.value.lastUpdatedAt ?? '') : '';
}

/** The copy with the newer `updatedAt` (or `lastUpdatedAt`); local wins ties and unstamped files. */
export function mergeJson(local: string, remote: string): string {
  return stamp(remote) > stamp(local) ? remote : local;
}

/** What a three-way merge does with one path, given each side's object id (null: absent). */
export type Decision = 'local' | 'remote' | 'combine';

/**
 * A side that did not change from the merge base yields to the other (so a deletion on one
 * machine sticks); a file deleted on one side and changed on the other is kept; when both
 * changed it, the contents are combined by file type (see combineContents).
 */
export function decide({ base, local, remote }: { base: string | null; local: string | null; remote: string | null }): Decision {
  if (local === remote || remote === base) return 'local';
  if (local === base || local === null) return 'remote';
  if (remote === null) return 'local';
  return 'combine';
}

/** Combines two changed copies of a file; formats other than JSONL and JSON keep the local copy. */
export function combineContents({ path, local, remote }: { path: string; local: string; remote: string }): string {
  if (path.endsWith('.jsonl')) return mergeJsonl(local, remote);
  if (path.endsWith('.json')) return mergeJson(local, remote);
  return local;
}
