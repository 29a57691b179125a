// Reads the patch formats models write — git/unified diffs (sloppy counts and all), the
// `*** Begin Patch` envelope, SEARCH/REPLACE blocks (Aider, Cline, Roo) — into one list of file changes.
import type { Dialect, FilePatch, HunkLine } from './patch-types';
import { parseEnvelope } from './patch-dialects/envelope';
import { startsDialect } from './patch-dialects/markers';
import { parseSearchReplace } from './patch-dialects/search-replace';
import { bad } from './patch-dialects/shared';
import { parseUnified } from './patch-dialects/unified';

export type { Dialect, FilePatch, Hunk, HunkLine } from './patch-types';

/** Each dialect's grammar, one file each under patch-dialects/. */
const PARSERS: Record<Dialect, (lines: string[]) => FilePatch[]> = {
  unified: parseUnified,
  envelope: parseEnvelope,
  'search-replace': parseSearchReplace,
};

/** Detects the format by its first marker line and parses it. */
export function parsePatch(text: string): FilePatch[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const dialect = startsDialect(lines, i) ?? (/^(?:---|\+\+\+) |^@@(?:\s|$)/.test(line) ? 'unified' : undefined);
    if (dialect) return checkPaths(PARSERS[dialect](lines));
  }
  throw bad('not a patch: expected a unified or git diff, a *** Begin Patch envelope, or <<<<<<< SEARCH blocks');
}

/** Every change names the paths its kind needs: a new file its new path, a deleted one its old, others both. */
function checkPaths(patches: FilePatch[]): FilePatch[] {
  for (const p of patches) {
    const needed = p.kind === 'create' ? [p.newPath] : p.kind === 'delete' ? [p.oldPath] : [p.oldPath, p.newPath];
    const named = p.newPath ?? p.oldPath;
    if (needed.some((path) => !path?.trim())) {
      throw bad(
        named
          ? `the change to '${named}' does not name both its old and its new path`
          : 'a file change that names no file: give each file a header (--- a/<path> and +++ b/<path>)',
      );
    }
  }
  return patches;
}

/** The same changes the other way round (`forge patch --reverse`). */
export function reversePatch(patches: FilePatch[]): FilePatch[] {
  const flip: Record<HunkLine['op'], HunkLine['op']> = { ' ': ' ', '-': '+', '+': '-' };
  return patches.map((p) => {
    // A hunk's new side starts where its old side did, moved by what the hunks above it added and
    // removed; an empty side's number is the line before it, as git writes `-5,0` / `+5,0`.
    let drift = 0;
    const hunks = p.hunks.map((h) => {
      const oldLen = h.lines.filter((l) => l.op !== '+').length;
      const newLen = h.lines.length - h.lines.filter((l) => l.op === '-').length;
      const newStart = h.oldStart === undefined ? undefined : h.oldStart + drift + (oldLen ? 0 : 1) - (newLen ? 0 : 1);
      drift += newLen - oldLen;
      return {
        ...(newStart !== undefined ? { oldStart: Math.max(newStart, 0) } : {}),
        lines: h.lines.map((l) => ({ op: flip[l.op], text: l.text })),
        ...(h.newNoEol ? { oldNoEol: true } : {}),
        ...(h.oldNoEol ? { newNoEol: true } : {}),
        ...(h.seek ? { seek: h.seek } : {}),
        ...(h.section !== undefined ? { section: h.section } : {}),
        ...(h.atEnd ? { atEnd: true } : {}),
      };
    });
    return {
      dialect: p.dialect,
      kind: p.kind === 'create' ? 'delete' : p.kind === 'delete' ? 'create' : p.kind,
      oldPath: p.newPath,
      newPath: p.oldPath,
      hunks,
      ...(p.rooted ? { rooted: true } : {}),
    };
  });
}
