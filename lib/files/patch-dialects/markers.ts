// The lines that start each patch dialect, in one place: the parser tells the dialect by them, and each dialect refuses another's marker inside it.
import type { Dialect } from '../patch-types';
import { bad, quoted } from './shared';

export const SEARCH_START = /^(?:<{5,9}|-{5,9}) SEARCH>?$/;
export const DIVIDER = /^={5,9}$/;
export const REPLACE_END = /^(?:>{5,9}|\+{5,9}) REPLACE>?$/;
export const SECTION = /^\*\*\* (Update|Add|Delete) File:(.*)$/;
const DIALECT_NAMES: Record<Dialect, string> = {
  unified: 'a unified diff',
  envelope: 'a *** Begin Patch envelope',
  'search-replace': 'a SEARCH/REPLACE block',
};

/** `*** Begin Patch`, `*** End Patch` or a file section's first line, with or without leading whitespace. */
export function isDirective(trimmed: string): boolean {
  return trimmed === '*** Begin Patch' || trimmed === '*** End Patch' || SECTION.test(trimmed);
}

/** `diff --git`, or a `--- ` line with a `+++ ` line under it: a file's header in a unified diff. */
export function fileHeaderAt(lines: string[], i: number): boolean {
  const l = lines[i]!;
  return l.startsWith('diff --git ') || (l.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ '));
}

/** The dialect line `i` unmistakably starts (a file header, an envelope marker, a SEARCH marker), if any. */
export function startsDialect(lines: string[], i: number): Dialect | undefined {
  const t = lines[i]!.trim();
  if (isDirective(t)) return 'envelope';
  if (SEARCH_START.test(t)) return 'search-replace';
  return fileHeaderAt(lines, i) ? 'unified' : undefined;
}

/** A line read as prose must not start another dialect: its changes would be dropped without a word. */
export function refuseMixed(lines: string[], i: number, dialect: Dialect): void {
  const other = startsDialect(lines, i);
  if (other && other !== dialect)
    throw bad(
      `the patch mixes formats: line ${i + 1}, ${quoted(lines[i]!)}, starts ${DIALECT_NAMES[other]} after ${DIALECT_NAMES[dialect]}; send one format per patch`,
    );
}
