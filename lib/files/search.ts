// Regex search over a workspace's files (.gitignore respected): every match with its line anchor.
import { InvalidInputError } from '../errors';
import { withArguments, shellJoin } from '../quote';
import { lineHash } from './anchor';
import { escapeRegex } from './literals';
import { splitLines } from './text';
import { type SearchEngine, sweepFiles } from './sweep';
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

/**
 * Searches every file a sweep covers (sweepFiles: under `paths`, matching `glob`, text), in path
 * order: `onMatch` gets the first `limit` matches (0: all) as they are found; the rest are
 * counted. Lines are matched here, whichever engine picked the files, so both give the same
 * matches, anchors and counts.
 */
export async function searchWorkspace({
  ws,
  regex,
  paths,
  glob,
  limit,
  engine = 'js',
  onMatch,
  onProgress,
  signal,
}: {
  ws: Workspace;
  regex: RegExp;
  paths: string[];
  glob?: string;
  limit: number;
  engine?: SearchEngine;
  onMatch: (m: SearchMatch) => Promise<void>;
  onProgress?: (done: number, of: number) => Promise<void>;
  /** Aborted when the caller gives up: the sweep stops (CANCELLED). */
  signal?: AbortSignal;
}): Promise<SearchResult> {
  const cap = limit === 0 ? Infinity : limit;
  const result: SearchResult = { matches: [], total: 0, files: 0, searched: 0, cutByFile: new Map() };
  const eachLine = lineMatcher(regex);
  result.searched = await sweepFiles({
    ws,
    paths,
    glob,
    pattern: regex,
    engine,
    onProgress,
    signal,
    onText: ({ path, text }) => {
      const shown: SearchMatch[] = [];
      let found = 0;
      eachLine(text, (line, n, at) => {
        found++;
        result.total++;
        if (result.matches.length < cap) {
          const hit = { path, line: n, hash: lineHash(line), text: snippet(line, at) };
          result.matches.push(hit);
          shown.push(hit);
        } else result.cutByFile.set(path, (result.cutByFile.get(path) ?? 0) + 1);
      });
      if (found) result.files++;
      return shown.length ? printAll(shown, onMatch) : undefined;
    },
  });
  return result;
}

async function printAll(matches: SearchMatch[], onMatch: (m: SearchMatch) => Promise<void>): Promise<void> {
  for (const m of matches) await onMatch(m);
}

/**
 * Calls `each(line, number, index of the match)` for every line of a text (lines as splitLines
 * cuts them) the regex matches. Without lookaround the pattern is first run over the whole text
 * (multiline): a line matching on its own also matches there, at the same place (^, $ and \b see the
 * same line ends), so only the line holding each whole-text hit is tried on its own, and the next
 * whole-text run starts at the line after it — a hit that spans lines skips none. Lines are never
 * split out of the text in between. With lookaround (which could see past a line's ends), every line.
 */
export function lineMatcher(regex: RegExp): (text: string, each: (line: string, n: number, at: number) => void) => void {
  if (/\(\?<?[=!]/.test(regex.source)) {
    // An escaped paren followed by ?= also counts: such a search only goes without the shortcut.
    return (text, each) => {
      const { lines } = splitLines(text);
      for (let n = 0; n < lines.length; n++) {
        const m = regex.exec(lines[n]!);
        if (m) each(lines[n]!, n + 1, m.index);
      }
    };
  }
  const whole = new RegExp(regex.source, `${regex.flags.replace(/[gmy]/g, '')}gm`);
  return (text, each) => {
    const lineEnd = lineEnds(text);
    let start = 0; // of the line being looked at
    let n = 1;
    for (whole.lastIndex = 0; start < text.length; whole.lastIndex = start) {
      const hit = whole.exec(text);
      if (!hit) return;
      // Move to the line holding the hit: a line whose terminator ends at or before it is behind.
      let end = lineEnd(start);
      let next = afterTerminator(text, end);
      while (end < text.length && next <= hit.index) {
        start = next;
        n++;
        end = lineEnd(start);
        next = afterTerminator(text, end);
      }
      if (start >= text.length) return; // after the last line's terminator: no line there
      const line = text.slice(start, end);
      const m = regex.exec(line);
      if (m) each(line, n, m.index);
      start = next;
      n++;
    }
  };
}

/**
 * For a text, where the line starting at a given offset ends (its terminator — \r\n, \n or a lone
 * \r — or the text's end), for offsets that only grow: the next \n and \r are each found once.
 */
function lineEnds(text: string): (from: number) => number {
  let lf = -1;
  let cr = text.includes('\r') ? -1 : text.length;
  return (from) => {
    if (lf < from) lf = text.indexOf('\n', from) >>> 0; // -1 becomes 2^32-1: past any text
    if (cr < from) cr = text.indexOf('\r', from) >>> 0;
    return Math.min(lf, cr, text.length);
  };
}

/** Where the line after a terminator at `end` starts (the text's length when `end` is the end). */
function afterTerminator(text: string, end: number): number {
  if (end >= text.length) return text.length;
  return text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
}
