// Learned-pattern memory: compact lessons in JSONL, project scope on the state ref, global scope in the user's data dir.
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidInputError } from '../errors';
import { withLock } from '../fs/lock';
import type { StateStore } from '../git/state';

export const CATEGORIES = ['convention', 'failure_pattern', 'success_pattern', 'test_command', 'architecture', 'dependency', 'tool_usage'] as const;
export type Category = (typeof CATEGORIES)[number];
export type Scope = 'project' | 'global';

export const PROJECT_MEMORY = '.forge/memory/project.jsonl';
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

export function globalMemoryPath(dataHome: string): string {
  return join(dataHome, 'memory', 'global.jsonl');
}

/** The dedupe key: category plus pattern, case-insensitive, surrounding space ignored. */
function dedupeKey(category: string, pattern: string): string {
  return `${category}\0${pattern.trim().toLowerCase()}`;
}

export async function buildEntry({ pattern, category, confidence, tags, now }: { pattern: string; category: Category; confidence: number; tags: string[]; now: Date }): Promise<MemoryEntry> {
  const text = pattern.trim();
  if (!text) throw new InvalidInputError('EMPTY_PATTERN', 'the pattern is empty', { fix: 'forge memory save --help' });
  const { createHash } = await import('node:crypto');
  const id = `mem-${createHash('sha1').update(dedupeKey(category, text)).digest('hex').slice(0, 12)}`;
  const entry: MemoryEntry = { id, category, pattern: text, confidence, tags: [...new Set(tags.map((t) => t.trim()).filter(Boolean))], timestamp: now.toISOString() };
  const size = Buffer.byteLength(JSON.stringify(entry));
  if (size > MAX_ENTRY_BYTES) {
    throw new InvalidInputError('ENTRY_TOO_LARGE', `memory entry is ${size} bytes; the limit is ${MAX_ENTRY_BYTES} (memory holds compact lessons, not dumps)`, {
      fix: 'forge memory save --help',
      data: { bytes: size, limit: MAX_ENTRY_BYTES },
    });
  }
  return entry;
}

/** Parses a memory file, skipping lines that are not entries (a hand edit gone wrong). */
export function parseEntries(text: string): MemoryEntry[] {
  const entries: MemoryEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as MemoryEntry;
      if (e && typeof e.pattern === 'string' && typeof e.category === 'string') entries.push({ ...e, tags: Array.isArray(e.tags) ? e.tags : [] });
    } catch {
      // skip
    }
  }
  return entries;
}

function findDuplicate(text: string, entry: MemoryEntry): MemoryEntry | undefined {
  const key = dedupeKey(entry.category, entry.pattern);
  return parseEntries(text).find((e) => dedupeKey(e.category, e.pattern) === key);
}

function appendLine(text: string, entry: MemoryEntry): string {
  const sep = text && !text.endsWith('\n') ? '\n' : '';
  return `${text}${sep}${JSON.stringify(entry)}\n`;
}

/** Saves to project memory in one state commit; a duplicate is skipped and leaves the ref alone. */
export async function saveProjectMemory({ store, entry }: { store: StateStore; entry: MemoryEntry }): Promise<SaveResult> {
  const r = await store.update({
    message: `memory: save [${entry.category}] ${entry.pattern.slice(0, 60)}`,
    apply: async (tx) => {
      const text = await tx.readText(PROJECT_MEMORY);
      const dup = findDuplicate(text, entry);
      if (dup) return dup;
      tx.write(PROJECT_MEMORY, appendLine(text, entry));
      return null;
    },
  });
  return { saved: r.value === null, entry: r.value ?? entry, scope: 'project' };
}

export async function saveGlobalMemory({ file, entry }: { file: string; entry: MemoryEntry }): Promise<SaveResult> {
  return withLock({ lockPath: `${file}.lock`, fn: async () => {
    const text = await readFile(file, 'utf8').catch(() => '');
    const dup = findDuplicate(text, entry);
    if (dup) return { saved: false, entry: dup, scope: 'global' as const };
    await appendFile(file, appendLine(text, entry).slice(text.length));
    return { saved: true, entry, scope: 'global' as const };
  } });
}

export async function readGlobalMemory({ file }: { file: string }): Promise<MemoryEntry[]> {
  return parseEntries(await readFile(file, 'utf8').catch(() => ''));
}

export async function readProjectMemory({ store }: { store: StateStore }): Promise<MemoryEntry[]> {
  return parseEntries((await store.read(PROJECT_MEMORY))?.toString('utf8') ?? '');
}

/** Lower-cased words of a query; an empty query matches every entry. */
export function keywords(query: string): string[] {
  return [...new Set(query.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean))];
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
  scored.sort((a, b) => b.e.confidence - a.e.confidence || b.hits - a.hits || b.e.timestamp.localeCompare(a.e.timestamp));
  return scored.map((s) => s.e);
}
