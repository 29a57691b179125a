// Regex search over a workspace's files (.gitignore respected): every match with its line anchor.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidInputError } from '../errors';
import { shellJoin } from '../quote';
import { lineHash } from './anchor';
import { globMatcher, listFiles, underPaths } from './list';
import { decodeText, isBinary } from './text';
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
    throw new InvalidInputError('INVALID_REGEX', `invalid regular expression /${shown}/: ${tooLarge ? `too large to compile (${pattern.length} characters)` : why}`, {
      fix: tooLarge || literal ? shellJoin(['forge', 'search', '--help']) : shellJoin(['forge', 'search', pattern, '--literal']),
    });
  }
}

function snippet(line: string, at: number): string {
  if (line.length <= SNIPPET_CHARS) return line;
  const from = Math.max(0, Math.min(at - SNIPPET_CHARS / 3, line.length - SNIPPET_CHARS));
  return `${from > 0 ? '…' : ''}${line.slice(from, from + SNIPPET_CHARS)}${from + SNIPPET_CHARS < line.length ? '…' : ''}`;
}

/** Searches every listed text file; keeps the first `limit` matches and counts the rest. */
export async function searchWorkspace({ ws, regex, paths, glob, limit }: { ws: Workspace; regex: RegExp; paths: string[]; glob?: string; limit: number }): Promise<SearchResult> {
  const match = await globMatcher(glob);
  const files = underPaths({ ws, files: await listFiles({ ws }), paths }).filter(match);
  const result: SearchResult = { matches: [], total: 0, files: 0, searched: 0, cutByFile: new Map() };
  for (const path of files) {
    const buf = await readFile(join(ws.cwd, path)).catch(() => null);
    if (!buf || isBinary(buf)) continue;
    result.searched++;
    const { lines } = decodeText(buf);
    let found = 0;
    lines.forEach((text, i) => {
      const m = regex.exec(text);
      if (!m) return;
      found++;
      result.total++;
      if (result.matches.length < limit) result.matches.push({ path, line: i + 1, hash: lineHash(text), text: snippet(text, m.index) });
      else result.cutByFile.set(path, (result.cutByFile.get(path) ?? 0) + 1);
    });
    if (found) result.files++;
  }
  return result;
}
