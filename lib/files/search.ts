// Regex search over a workspace's files (.gitignore respected): every match with its line anchor.
import { join } from 'node:path';
import { InvalidInputError } from '../errors';
import { withArguments, shellJoin } from '../quote';
import { lineHash } from './anchor';
import { grepFilesWith } from '../git/grep';
import { globMatcher, listWorkspace, readListedFile, underPaths } from './list';
import { requiredLiterals } from './literals';
import { decodeString, splitLines } from './text';
import type { Workspace } from './workspace';

/** Shown around a match in a line longer than this. */
const SNIPPET_CHARS = 300;

export interface SearchMatch {
  path: string;
  line: number;
  hash: string;
  text: string;
}

export interface SearchResult {
  matches: SearchMatch[];
  /** Matches found in all, shown or not. */
  total: number;
  /** Files with at least one match. */
  files: number;
  searched: number;
  /** Where the matches that were not shown are, by file. */
  cutByFile: Map<string, number>;
}

/** A regex source that matches `text` literally. */
export const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function compilePattern({ pattern, literal, ignoreCase }: { pattern: string; literal: boolean; ignoreCase: boolean }): RegExp {
  const source = literal ? escapeRegex(pattern) : pattern;
  try {
    const regex = new RegExp(source, ignoreCase ? 'iu' : 'u');
    // V8 compiles a pattern on its first use: one too large for it fails there, so use it here.
    regex.test('');
    return regex;
  } catch (err) {
    const why = (err as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    const tooLarge = err instanceof RangeError || /too large|stack/i.test(why);
    const shown = pattern.length > 200 ? `${pattern.slice(0, 200)}…` : pattern;
    throw new InvalidInputError(
      'INVALID_REGEX',
      `invalid regular expression /${shown}/: ${tooLarge ? `too large to compile (${pattern.length} characters)` : why}`,
      {
        fix:
          tooLarge || literal
            ? shellJoin(['forge', 'search', '--help'])
            : shellJoin(withArguments(['forge', 'search'], [pattern], ['--literal'])),
      },
    );
  }
}

function snippet(line: string, at: number): string {
  if (line.length <= SNIPPET_CHARS) return line;
  const from = Math.max(0, Math.min(at - SNIPPET_CHARS / 3, line.length - SNIPPET_CHARS));
  return `${from > 0 ? '…' : ''}${line.slice(from, from + SNIPPET_CHARS)}${from + SNIPPET_CHARS < line.length ? '…' : ''}`;
}

/** How a search picks the files it reads: `git` lets git grep find those holding the pattern's literal text (when it has one). */
export type SearchEngine = 'git' | 'js';

/** FORGE_SEARCH_ENGINE=js makes search and replace read every file themselves (the answer is the same; for comparing, or a git that misbehaves). */
export const searchEngineOf = (env: NodeJS.ProcessEnv): SearchEngine => (env.FORGE_SEARCH_ENGINE === 'js' ? 'js' : 'git');

/**
 * Searches every listed text file under `paths` matching `glob`, in path order: `onMatch` gets the
 * first `limit` matches (0: all) as they are found; the rest are counted. Only the files
 * filesToSearch picks are read, and their lines are matched here, so both engines give the same
 * matches, anchors and counts.
 */
export async function searchWorkspace({
  ws,
  regex,
  paths,
  glob,
  limit,
  engine = 'git',
  onMatch,
  onProgress,
}: {
  ws: Workspace;
  regex: RegExp;
  paths: string[];
  glob?: string;
  limit: number;
  engine?: SearchEngine;
  onMatch: (m: SearchMatch) => Promise<void>;
  onProgress?: (done: number, of: number) => Promise<void>;
}): Promise<SearchResult> {
  const { files, toRead, links, mayHold } = await filesToSearch({ ws, regex, paths, glob, engine });
  const cap = limit === 0 ? Infinity : limit;
  const result: SearchResult = { matches: [], total: 0, files: 0, searched: files.length, cutByFile: new Map() };
  for (let i = 0; i < toRead.length; i++) {
    if (onProgress && i % 256 === 0) await onProgress(i, toRead.length);
    const path = toRead[i]!;
    const buf = readListedFile(join(ws.cwd, path), { link: links.has(path) });
    if (!buf) continue;
    const { text } = decodeString(buf);
    if (mayHold && !mayHold.test(text)) continue;
    const { lines } = splitLines(text);
    let found = 0;
    for (let n = 0; n < lines.length; n++) {
      const line = lines[n]!;
      const m = regex.exec(line);
      if (!m) continue;
      found++;
      result.total++;
      if (result.matches.length < cap) {
        const hit = { path, line: n + 1, hash: lineHash(line), text: snippet(line, m.index) };
        result.matches.push(hit);
        await onMatch(hit);
      } else result.cutByFile.set(path, (result.cutByFile.get(path) ?? 0) + 1);
    }
    if (found) result.files++;
  }
  return result;
}

/**
 * The files a search (or a replacement) under `paths` matching `glob` covers, and those of them it
 * must read: in a repository, when the pattern holds literal text, one threaded `git grep -l -F`
 * picks the tracked files that contain it, and only those are read — with the listed symlinks (git
 * grep does not follow them), untracked files (searching those too would make git walk the work
 * tree a second time: the listing has walked it) and files git greps in the index, not the work
 * tree (assume-unchanged, skip-worktree). `mayHold` rules a file out before its lines are
 * split: its text must hold a literal or (with no lookaround, which could see past a line's ends)
 * match the pattern across lines; null when no such test is sound.
 */
export async function filesToSearch({
  ws,
  regex,
  paths,
  glob,
  engine,
}: {
  ws: Workspace;
  regex: RegExp;
  paths: string[];
  glob?: string;
  engine: SearchEngine;
}): Promise<{ files: string[]; toRead: string[]; links: Set<string>; mayHold: RegExp | null }> {
  const ignoreCase = regex.flags.includes('i');
  const literals = requiredLiterals({ pattern: regex.source, ignoreCase });
  const [match, listing, holders] = await Promise.all([
    globMatcher(glob),
    listWorkspace({ ws }),
    ws.inRepo && literals && engine === 'git' ? grepFilesWith({ cwd: ws.cwd, literals, ignoreCase, paths }) : null,
  ]);
  const files = underPaths({ ws, files: listing.files, paths }).filter(match);
  const toRead = holders ? files.filter((f) => holders.has(f) || listing.links.has(f) || listing.unseenByGrep.has(f)) : files;
  const flags = regex.flags.replace(/[gmy]/g, '');
  const mayHold = literals
    ? new RegExp(literals.map(escapeRegex).join('|'), ignoreCase ? 'iu' : 'u')
    : hasLookaround(regex.source)
      ? null
      : new RegExp(regex.source, `${flags}m`);
  return { files, toRead, links: listing.links, mayHold };
}

/** Whether a regex source holds a lookahead or lookbehind. */
function hasLookaround(source: string): boolean {
  // An escaped paren followed by ?= also counts: a search then only goes without the shortcut.
  return /\(\?<?[=!]/.test(source);
}
