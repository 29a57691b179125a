// Learned-pattern memory: compact lessons in JSONL buckets, project scope on the state ref, global scope in the user's data dir.
import { statSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidInputError } from '../errors';
import { withLock } from '../fs/lock';
import type { StateStore, StateTx } from '../git/state';
import { sha1Hex } from '../sha1';
import { checkJson } from '../state/read';
import * as validators from '../state/validators.gen';
import { bucketName, bucketsOf, legacyFile, splitLines } from '../state/streams';
import { byCodeUnit } from '../order';

export const CATEGORIES = [
  'convention',
  'failure_pattern',
  'success_pattern',
  'test_command',
  'architecture',
  'dependency',
  'tool_usage',
] as const;
export type Category = (typeof CATEGORIES)[number];
export type Scope = 'project' | 'global';

/** Project memory's buckets (lib/state/streams.ts); an earlier forge kept it in `.forge/memory/project.jsonl`. */
export const PROJECT_MEMORY = '.forge/memory/project';
/** Memory holds compact lessons, not dumps: a serialized entry may not exceed this. */
export const MAX_ENTRY_BYTES = 1024;

export interface MemoryEntry {
  id: string;
  category: Category;
  pattern: string;
  confidence: number;
  tags: string[];
  timestamp: string;
}

export interface SaveResult {
  saved: boolean;
  /** The entry already in memory when the save was a duplicate. */
  entry: MemoryEntry;
  scope: Scope;
}

/** Where global memory lives under the user's data dir: its buckets, and the one file an earlier forge kept it in. */
export function globalMemory(dataHome: string): { dir: string; legacy: string } {
  const dir = join(dataHome, 'memory', 'global');
  return { dir, legacy: `${dir}.jsonl` };
}

/** The dedupe key: category plus pattern, case-insensitive, surrounding space ignored. */
function dedupeKey(category: string, pattern: string): string {
  return `${category}\0${pattern.trim().toLowerCase()}`;
}

export async function buildEntry({
  pattern,
  category,
  confidence,
  tags,
  now,
}: {
  pattern: string;
  category: Category;
  confidence: number;
  tags: string[];
  now: Date;
}): Promise<MemoryEntry> {
  const text = pattern.trim();
  if (!text) throw new InvalidInputError('EMPTY_PATTERN', 'the pattern is empty', { fix: 'forge memory save --help' });
  const id = `mem-${sha1Hex(dedupeKey(category, text)).slice(0, 12)}`;
  const entry: MemoryEntry = {
    id,
    category,
    pattern: text,
    confidence,
    tags: [...new Set(tags.map((t) => t.trim()).filter(Boolean))],
    timestamp: now.toISOString(),
  };
  const size = Buffer.byteLength(JSON.stringify(entry));
  if (size > MAX_ENTRY_BYTES) {
    throw new InvalidInputError(
      'ENTRY_TOO_LARGE',
      `memory entry is ${size} bytes; the limit is ${MAX_ENTRY_BYTES} (memory holds compact lessons, not dumps)`,
      {
        fix: 'forge memory save --help',
        data: { bytes: size, limit: MAX_ENTRY_BYTES },
      },
    );
  }
  return entry;
}

/** One line as an entry, or null when it is not one (a hand edit gone wrong, hostile state). */
function parseEntry(line: string): MemoryEntry | null {
  const r = checkJson({ text: line, file: validators.memoryEntry });
  return r.ok ? r.value : null;
}

/**
 * Parses memory files (read in order), skipping lines that are not entries and keeping the first
 * of entries with one dedupe key (a sync or an interrupted conversion can leave two); oldest first.
 */
export function parseEntries(...texts: string[]): MemoryEntry[] {
  const seen = new Set<string>();
  const entries: MemoryEntry[] = [];
  for (const text of texts) {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const e = parseEntry(line);
      if (!e || seen.has(dedupeKey(e.category, e.pattern))) continue;
      seen.add(dedupeKey(e.category, e.pattern));
      entries.push(e);
    }
  }
  return entries.sort((a, b) => byCodeUnit(a.timestamp, b.timestamp));
}

/** What a line is kept once by, and the bucket it belongs in: an entry's dedupe key and its hash (its id's first two hex digits); any other line itself. */
function placeOf(line: string): { key: string; bucket: string } {
  const e = parseEntry(line);
  const key = e ? dedupeKey(e.category, e.pattern) : line;
  return { key: e ? key : `\0line\0${key}`, bucket: bucketName(sha1Hex(key)) };
}

/**
 * The entry of these files (a bucket, an earlier forge's file) that `entry` would repeat: the first
 * entry with its dedupe key, as parseEntries keeps it. Only a line with that key is checked as an
 * entry: a save into a big bucket parses each line, but validates one.
 */
function findDuplicate(texts: string[], entry: MemoryEntry): MemoryEntry | undefined {
  const key = dedupeKey(entry.category, entry.pattern);
  for (const text of texts) {
    for (const line of text.split('\n')) {
      let raw: { category?: unknown; pattern?: unknown } | null;
      try {
        raw = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof raw?.category !== 'string' || typeof raw.pattern !== 'string' || dedupeKey(raw.category, raw.pattern) !== key) continue;
      const e = parseEntry(line);
      if (e) return e;
    }
  }
  return undefined;
}

/** `stored` with `lines` appended, each on its own line; bytes, so what is stored is extended exactly. */
function appended(stored: Buffer | null, lines: Buffer[]): Buffer {
  const head = stored ?? Buffer.alloc(0);
  const sep = head.length && head[head.length - 1] !== 10 ? [Buffer.from('\n')] : [];
  return Buffer.concat([head, ...sep, ...lines.flatMap((l) => [l, Buffer.from('\n')])]);
}

/**
 * Carries every line of an earlier forge's single memory file into buckets, in order, leaving out
 * those a bucket holds already (an interrupted conversion, or a sync that brought both). Entries
 * and lines that are not entries alike: no line is lost. `read` and `append` are one bucket's.
 */
async function convertToBuckets({
  legacy,
  read,
  append,
}: {
  legacy: Buffer;
  read: (bucket: string) => Promise<Buffer | null>;
  append: (bucket: string, stored: Buffer | null, lines: Buffer[]) => Promise<void>;
}): Promise<void> {
  const byBucket = new Map<string, Array<{ line: Buffer; key: string }>>();
  for (const line of splitLines(legacy)) {
    const { key, bucket } = placeOf(line.toString('utf8'));
    const lines = byBucket.get(bucket) ?? [];
    lines.push({ line, key });
    byBucket.set(bucket, lines);
  }
  for (const [bucket, lines] of byBucket) {
    const stored = await read(bucket);
    const held = new Set(splitLines(stored ?? Buffer.alloc(0)).map((l) => placeOf(l.toString('utf8')).key));
    const fresh = lines.filter(({ key }) => !held.has(key) && held.add(key));
    if (fresh.length)
      await append(
        bucket,
        stored,
        fresh.map((f) => f.line),
      );
  }
}

/**
 * Saves to project memory in one state commit; a duplicate is skipped and leaves the ref alone.
 * The save reads and extends the entry's bucket only. A store an earlier forge kept in one file is
 * checked for the duplicate too, and converted into buckets by the save (once).
 */
export async function saveProjectMemory({ store, entry }: { store: StateStore; entry: MemoryEntry }): Promise<SaveResult> {
  const bucket = bucketName(entry.id.replace(/^mem-/, ''));
  const path = `${PROJECT_MEMORY}/${bucket}`;
  const r = await store.update({
    message: `memory: save [${entry.category}] ${entry.pattern.slice(0, 60)}`,
    apply: async (tx: StateTx) => {
      const legacy = await tx.read(legacyFile(PROJECT_MEMORY));
      const dup = findDuplicate([await tx.readText(path), legacy?.toString('utf8') ?? ''], entry);
      if (dup) return dup;
      if (legacy !== null) {
        await convertToBuckets({
          legacy,
          read: (b) => tx.read(`${PROJECT_MEMORY}/${b}`),
          append: async (b, stored, lines) => tx.write(`${PROJECT_MEMORY}/${b}`, appended(stored, lines)),
        });
        tx.remove(legacyFile(PROJECT_MEMORY));
      }
      tx.write(path, appended(await tx.read(path), [Buffer.from(JSON.stringify(entry), 'utf8')]));
      return null;
    },
  });
  return { saved: r.value === null, entry: r.value ?? entry, scope: 'project' };
}

/** Saves to global memory (files under the user's data dir, one writer at a time), bucketed like project memory. */
export async function saveGlobalMemory({ dataHome, entry }: { dataHome: string; entry: MemoryEntry }): Promise<SaveResult> {
  const { dir, legacy } = globalMemory(dataHome);
  const file = join(dir, bucketName(entry.id.replace(/^mem-/, '')));
  const readOrNull = (path: string) =>
    readFile(path).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : Promise.reject(err)));
  // The lock an earlier forge took for global.jsonl: old and new writers still queue on one lock.
  return withLock({
    lockPath: `${legacy}.lock`,
    fn: async () => {
      const old = await readOrNull(legacy);
      const dup = findDuplicate([(await readOrNull(file))?.toString('utf8') ?? '', old?.toString('utf8') ?? ''], entry);
      if (dup) return { saved: false, entry: dup, scope: 'global' as const };
      await mkdir(dir, { recursive: true });
      if (old !== null) {
        // Lines are appended to the buckets before the old file goes: a crash in between leaves
        // lines in both, which readers and the next conversion keep once.
        await convertToBuckets({
          legacy: old,
          read: (b) => readOrNull(join(dir, b)),
          append: (b, stored, lines) => appendFile(join(dir, b), appended(stored, lines).subarray(stored?.length ?? 0)),
        });
        await unlink(legacy);
      }
      const stored = await readOrNull(file);
      await appendFile(file, appended(stored, [Buffer.from(JSON.stringify(entry), 'utf8')]).subarray(stored?.length ?? 0));
      return { saved: true, entry, scope: 'global' as const };
    },
  });
}

export async function readGlobalMemory({ dataHome }: { dataHome: string }): Promise<MemoryEntry[]> {
  const { dir, legacy } = globalMemory(dataHome);
  // Most users keep no global memory: a stat that does not throw is all that costs (a failed read makes an error and starts libuv's threads).
  if (!statSync(dir, { throwIfNoEntry: false }) && !statSync(legacy, { throwIfNoEntry: false })) return [];
  const names = bucketsOf(
    (await readdir(dir, { withFileTypes: true }).catch(() => [])).map((e) => ({ name: e.name, mode: e.isFile() ? '100644' : '40000' })),
  );
  const texts = await Promise.all([legacy, ...names.map((n) => join(dir, n))].map((f) => readFile(f, 'utf8').catch(() => '')));
  return parseEntries(...texts);
}

/** Every project entry: the earlier forge's single file first (a sync may bring one back), then the buckets. */
export async function readProjectMemory({ store }: { store: StateStore }): Promise<MemoryEntry[]> {
  const head = await store.head();
  if (!head) return [];
  const names = bucketsOf(await store.listAt(head, PROJECT_MEMORY));
  const texts = await Promise.all(
    [legacyFile(PROJECT_MEMORY), ...names.map((n) => `${PROJECT_MEMORY}/${n}`)].map(
      async (p) => (await store.readAt(head, p))?.toString('utf8') ?? '',
    ),
  );
  return parseEntries(...texts);
}

/** Lower-cased words of a query; an empty query matches every entry. */
export function keywords(query: string): string[] {
  const lower = query.toLowerCase();
  // In ASCII, letters and numbers are [a-z0-9]: that class skips compiling the Unicode one (0.3 ms of a call).
  const split = /^[\x00-\x7f]*$/.test(lower) ? lower.split(/[^a-z0-9_]+/) : lower.split(/[^\p{L}\p{N}_]+/u);
  return [...new Set(split.filter(Boolean))];
}

/**
 * Entries matching any keyword in their pattern, category or tags, ranked by confidence, then by
 * how many keywords they match, then newest first.
 */
export function rankEntries({ entries, words, category }: { entries: MemoryEntry[]; words: string[]; category?: string }): MemoryEntry[] {
  const scored = entries
    .filter((e) => !category || e.category === category)
    .map((e) => {
      const hay = `${e.pattern} ${e.category} ${e.category.replace(/_/g, ' ')} ${e.tags.join(' ')}`.toLowerCase();
      return { e, hits: words.filter((w) => hay.includes(w)).length };
    })
    .filter((s) => words.length === 0 || s.hits > 0);
  scored.sort((a, b) => b.e.confidence - a.e.confidence || b.hits - a.hits || byCodeUnit(b.e.timestamp, a.e.timestamp));
  return scored.map((s) => s.e);
}

// The state files of this module, registered with the state layer's kinds (lib/state/read.ts), which imports no feature.
declare module '../state/read' {
  interface StateKinds {
    memoryEntry: MemoryEntry;
  }
}
