// Append-only JSONL stores on the state ref, as bounded segments (<dir>/000000.jsonl, …) or hash buckets (<dir>/00.jsonl … ff.jsonl): an append reads and rewrites one file.
import { ForgeError } from '../errors';
import type { TreeEntry } from '../git/objects';
import type { StateStore, StateTx } from '../git/state';
import { checkJson } from './read';
import * as validators from './validators.gen';

/**
 * A segment is closed once it holds this many bytes. It bounds what an append reads, rewrites and
 * stores again, whatever the stream holds: at 256 KiB that is a few milliseconds, and a 100k-event
 * log is some 80 segments, a tree git lists in one read.
 */
export const SEGMENT_BYTES = 256 * 1024;

/** Six digits, so git lists segments in stream order; more digits once a stream passes 999999 (read in numeric order). */
const SEGMENT = /^(\d{6,15})\.jsonl$/;
const LAST_SEGMENT = 999_999_999_999_999;

export interface Segment {
  n: number;
  name: string;
}

export function segmentName(n: number): string {
  return `${String(n).padStart(6, '0')}.jsonl`;
}

/** The single file an earlier forge kept a stream's lines in: the directory's name plus .jsonl. */
export function legacyFile(dir: string): string {
  return `${dir}.jsonl`;
}

/** The segments of a directory listing, in stream order; any other name (a hand edit, a hostile tree) is no part of the stream. */
export function segmentsOf(entries: TreeEntry[]): Segment[] {
  return entries
    .filter((e) => e.mode !== '40000' && SEGMENT.test(e.name))
    .map((e) => ({ n: Number(SEGMENT.exec(e.name)![1]), name: e.name }))
    .sort((a, b) => a.n - b.n);
}

/** A file's lines as bytes, blank ones left out; a last line without its newline still counts. Bytes, so a line is carried exactly as stored. */
export function splitLines(content: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  for (let i = 0; i < content.length; ) {
    let nl = content.indexOf(10, i);
    if (nl < 0) nl = content.length;
    const line = content.subarray(i, nl);
    if (line.toString('utf8').trim()) lines.push(line);
    i = nl + 1;
  }
  return lines;
}

/**
 * What makes two lines the same record: its `id` when it is a JSON object with a string id (a log
 * event, a journal entry, a memory entry), else the line itself. Syncs and conversions use it so a
 * record is kept once however its copies were serialised.
 */
export function lineKey(line: string): string {
  // A line that is not JSON, or has no string id, is its own key.
  const r = line.startsWith('{') ? checkJson({ text: line, file: validators.recordId }) : null;
  return r?.ok ? `id:${r.value.id}` : `line:${line}`;
}

/** `<commit>:<path>` of every file of a stream, in reading order: the earlier forge's file first (a sync may bring one back), then the segments (or buckets). */
export async function streamSpecs({ store, commit, dir }: { store: StateStore; commit: string; dir: string }): Promise<string[]> {
  const entries = await store.listAt(commit, dir);
  const names = appendStoreAt(dir)?.files === BUCKET ? bucketsOf(entries) : segmentsOf(entries).map((s) => s.name);
  return [`${commit}:${legacyFile(dir)}`, ...names.map((name) => `${commit}:${dir}/${name}`)];
}

/**
 * The one file an append store stands for, at `commit`: its files' bytes one after another (a
 * newline between two where one lacks it), as `forge state show <dir>.jsonl` prints it; null when
 * the store has no file. Held whole: for showing, not for reading a log (streamLines).
 */
export async function wholeStore({ store, commit, dir }: { store: StateStore; commit: string; dir: string }): Promise<Buffer | null> {
  const parts: Buffer[] = [];
  for (const spec of await streamSpecs({ store, commit, dir })) {
    const obj = await store.reader.read(spec);
    if (obj?.type !== 'blob' || !obj.content.length) continue;
    const last = parts.at(-1);
    if (last && last[last.length - 1] !== 10) parts.push(Buffer.from('\n'));
    parts.push(obj.content);
  }
  return parts.length ? Buffer.concat(parts) : null;
}

/** Every line of a stream at the current state, in order, streamed (constant memory however long it is). */
export async function* streamLines({ store, dir }: { store: StateStore; dir: string }): AsyncGenerator<string> {
  const head = await store.head();
  if (!head) return;
  yield* store.streamLines(await streamSpecs({ store, commit: head, dir }));
}

/** A stream's whole text at the current state, for stores read whole (the plan journal, telemetry). */
export async function readStream({ store, dir }: { store: StateStore; dir: string }): Promise<string> {
  const lines: string[] = [];
  for await (const line of streamLines({ store, dir })) lines.push(line);
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/**
 * The last lines of a stream in `tx`, reaching back over at least `count` lines (all of them when
 * it is shorter): what an append checks its lines against when some may be in already. Reads from
 * the newest segment back, so it costs what it needs, not what the stream holds.
 */
export async function tailLines({ tx, dir, count }: { tx: StateTx; dir: string; count: number }): Promise<string[]> {
  const segments = segmentsOf(await tx.list(dir));
  const parts: Buffer[][] = [];
  let found = 0;
  for (let i = segments.length - 1; i >= 0 && found < count; i--) {
    const lines = splitLines((await tx.read(`${dir}/${segments[i]!.name}`)) ?? Buffer.alloc(0));
    parts.unshift(lines);
    found += lines.length;
  }
  if (found < count) parts.unshift(splitLines((await tx.read(legacyFile(dir))) ?? Buffer.alloc(0)));
  return parts.flat().map((l) => l.toString('utf8'));
}

/**
 * Appends lines to a stream in `tx`: onto its last segment while that stays within `segmentBytes`,
 * then into new segments. The stored bytes of a segment are extended, never re-encoded. An earlier
 * forge's single file is converted first — its lines carried, in order, into segments ahead of the
 * new ones (those a segment already holds, when a sync brought both, not repeated) and the file
 * removed — so no line is lost and the next append costs what it appends again.
 */
export async function appendLines({
  tx,
  dir,
  lines,
  segmentBytes = SEGMENT_BYTES,
}: {
  tx: StateTx;
  dir: string;
  lines: string[];
  segmentBytes?: number;
}): Promise<void> {
  // A file where this store's directory goes is the file an earlier forge kept another store in
  // (run `x`'s log, .forge/logs/x.jsonl, where run `x.jsonl` keeps its segments): that store is
  // converted first, so the name is free and neither store loses a line.
  if (dir.endsWith('.jsonl') && (await tx.read(dir)) !== null)
    await appendLines({ tx, dir: dir.slice(0, -'.jsonl'.length), lines: [], segmentBytes });
  const segments = segmentsOf(await tx.list(dir));
  let carried: Buffer[] = [];
  const legacy = await tx.read(legacyFile(dir));
  if (legacy !== null) {
    carried = splitLines(legacy);
    if (segments.length) {
      const held = new Set<string>();
      for (const s of segments)
        for (const l of splitLines((await tx.read(`${dir}/${s.name}`)) ?? Buffer.alloc(0))) held.add(lineKey(l.toString('utf8')));
      carried = carried.filter((l) => !held.has(lineKey(l.toString('utf8'))));
    }
    tx.remove(legacyFile(dir));
  }
  const adding = [...carried, ...lines.map((l) => Buffer.from(l, 'utf8'))];
  if (!adding.length) return;
  const last = segments.at(-1);
  let n = last?.n ?? 0;
  const stored = last ? ((await tx.read(`${dir}/${last.name}`)) ?? Buffer.alloc(0)) : Buffer.alloc(0);
  // A segment that does not end with a newline (a hand edit) gets one before what follows it.
  let parts: Buffer[] = stored.length && stored[stored.length - 1] !== 10 ? [stored, Buffer.from('\n')] : [stored];
  let size = parts.reduce((sum, p) => sum + p.length, 0);
  let changed = parts.length > 1;
  const close = () => {
    if (changed) tx.write(`${dir}/${segmentName(n)}`, Buffer.concat(parts));
    if (n >= LAST_SEGMENT) {
      throw new ForgeError('STATE_CORRUPT', `the stream ${dir} on the state ref has a segment numbered ${n}: no segment can follow it`, {
        fix: `git ls-tree refs/forge/state ${dir}/`,
      });
    }
    [n, parts, size, changed] = [n + 1, [], 0, false];
  };
  for (const line of adding) {
    // A line longer than a segment gets one of its own.
    if (size > 0 && size + line.length + 1 > segmentBytes) close();
    parts.push(line, Buffer.from('\n'));
    size += line.length + 1;
    changed = true;
  }
  if (changed) tx.write(`${dir}/${segmentName(n)}`, Buffer.concat(parts));
}

/**
 * A keyed store (memory) spreads its records over 256 buckets, `<dir>/00.jsonl` … `ff.jsonl`, by
 * the hash of each record's key: the record a save must not repeat can only be in its own bucket,
 * so a save reads and rewrites one 256th of the store, and two clones' saves of one record meet in
 * the same file when a sync merges them.
 */
const BUCKET = /^([0-9a-f]{2})\.jsonl$/;

export function bucketName(hash: string): string {
  return `${hash.slice(0, 2)}.jsonl`;
}

/** The buckets of a directory listing, in name order; any other name is no part of the store. */
export function bucketsOf(names: Array<{ name: string; mode?: string }>): string[] {
  return names
    .filter((e) => e.mode !== '40000' && BUCKET.test(e.name))
    .map((e) => e.name)
    .sort();
}

/**
 * Every store on the state ref that grows by appending, by the directory it keeps its files in
 * (each was one `<dir>.jsonl` before): what `forge state sync` counts as one file and what
 * `forge state show <dir>.jsonl` prints whole. Other state files are documents rewritten whole.
 */
export const APPEND_STORES = [
  { store: 'memory', dir: /^\.forge\/memory\/[\w.-]+$/, files: BUCKET },
  { store: 'logs', dir: /^\.forge\/logs\/[\w.-]+$/, files: SEGMENT },
  { store: 'telemetry', dir: /^\.forge\/telemetry$/, files: SEGMENT },
  { store: 'plan journal', dir: /^\.forge\/plans\/journal$/, files: SEGMENT },
] as const satisfies ReadonlyArray<{ store: string; dir: RegExp; files: RegExp }>;

/** The append store a directory is, if it is one. */
export function appendStoreAt(dir: string): (typeof APPEND_STORES)[number] | null {
  return APPEND_STORES.find((s) => s.dir.test(dir)) ?? null;
}

/** The one file a state path stands for: a segment or bucket counts as its store's `<dir>.jsonl`; other paths as themselves. */
export function logicalFile(path: string): string {
  const slash = path.lastIndexOf('/');
  const dir = path.slice(0, slash);
  return slash > 0 && appendStoreAt(dir)?.files.test(path.slice(slash + 1)) ? legacyFile(dir) : path;
}
