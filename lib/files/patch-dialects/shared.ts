// What more than one patch dialect reads alike: the INVALID_PATCH error, hunk headers, hunk lines, `\ No newline at end of file`.
import { InvalidInputError } from '../../errors';
import type { Hunk } from '../patch-types';

const FIX = 'forge patch --help';

export function bad(message: string): InvalidInputError {
  return new InvalidInputError('INVALID_PATCH', message, { fix: FIX });
}

/** A line of the patch as a message quotes it, cut short: a megabyte line is named, not echoed. */
export function quoted(line: string): string {
  return `'${line.length > 80 ? `${line.slice(0, 80)}…` : line}'`;
}

export interface HunkHeader {
  oldStart?: number;
  /** The counts a numbered header promises (a missing count is 1, as in git). */
  oldCount?: number;
  newCount?: number;
  section?: string;
  seek?: string;
}

const NUMBERED_HEADER = /^@@\s*-(\d+)(?:,(\d+))?\s+\+\d+(?:,(\d+))?\s*(?:@@(.*))?$/;

/**
 * A hunk header: `@@ -n,m +n,m @@ section`, a bare `@@` (or `@@ @@`), or `@@ <line>` naming a line
 * to seek first; undefined for a line that is not one. A numbered header with a typo is INVALID_PATCH.
 */
export function hunkHeader(line: string, at: number): HunkHeader | undefined {
  if (!line.startsWith('@@')) return undefined;
  const numbered = NUMBERED_HEADER.exec(line);
  if (numbered) {
    const section = numbered[4]?.trim();
    return {
      oldStart: Number(numbered[1]),
      oldCount: numbered[2] === undefined ? 1 : Number(numbered[2]),
      newCount: numbered[3] === undefined ? 1 : Number(numbered[3]),
      ...(section ? { section } : {}),
    };
  }
  let rest = line.slice(2);
  if (/^@?\s*-\d/.test(rest))
    throw bad(`a malformed hunk header (line ${at}): ${quoted(line)}; write '@@ -<line>,<count> +<line>,<count> @@', or a bare '@@'`);
  if (rest.trimStart().startsWith('@@')) {
    const section = rest.trimStart().slice(2).trim();
    return section ? { section } : {};
  }
  if (rest.startsWith(' ')) rest = rest.slice(1);
  if (rest.endsWith(' @@')) rest = rest.slice(0, -3);
  // Aider's udiff header `@@ ... @@` (and its `…`) says where nothing: a bare '@@', not an anchor line '...'.
  if (/^\s*(\.\.\.|…)\s*$/.test(rest)) return {};
  return rest.trim() ? { seek: rest } : {};
}

/** Adds a header's hints to a hunk: consecutive `@@ <line>` headers nest, in order. */
export function addHeader(hunk: Hunk, header: HunkHeader): void {
  if (header.oldStart !== undefined) hunk.oldStart = header.oldStart;
  if (header.section !== undefined) hunk.section = header.section;
  if (header.seek !== undefined) hunk.seek = [...(hunk.seek ?? []), header.seek];
}

/** `\ No newline at end of file` belongs to the line above it. */
export function markNoEol(hunk: Hunk): void {
  const prev = hunk.lines[hunk.lines.length - 1];
  if (prev?.op === '-' || prev?.op === ' ') hunk.oldNoEol = true;
  if (prev?.op === '+' || prev?.op === ' ') hunk.newNoEol = true;
}

export const isChange = (line: string): boolean => line[0] === ' ' || line[0] === '-' || line[0] === '+';

export function corrupt(lines: string[], i: number): InvalidInputError {
  return bad(
    `corrupt patch at line ${i + 1}: ${quoted(lines[i]!)} is inside a hunk, where every line starts with ' ' (context), '-' (removed) or '+' (added)`,
  );
}

/** The end of the run of empty lines that starts at `i`. */
export function blankRunEnd(lines: string[], i: number): number {
  let k = i;
  while (k < lines.length && lines[k] === '') k++;
  return k;
}
