// What a corpus case is (a patch case, an edit case) and what a perturbation makes of a base, with the pieces several kinds of perturbation share.
import { createHash } from 'node:crypto';
import { type Base, fromText, oldOf, startOf } from './bases';
import { insertLines, type Instance } from './derive';
import { context, folded, occurrences } from './locate';

export interface PatchCase {
  name: string;
  perturbation: string;
  /** Files before the patch, by path. */
  before: Record<string, Buffer>;
  patch: string;
  /** Files after a correct apply; null when a correct tool must refuse and change nothing. */
  after: Record<string, Buffer> | null;
}

/** One `forge edit` call: --old/--new (with --anchor), or --lines A#H..B#H --new. */
export type EditOp = { old: string; new: string; anchor?: string } | { lines: string; new: string };

export interface EditCase {
  name: string;
  perturbation: string;
  path: string;
  before: Buffer;
  /** Applied one after another, each a separate call. */
  edits: EditOp[];
  /** The file after every edit; null when the (single) edit must be refused and change nothing. */
  after: Buffer | null;
}

export interface Perturbation {
  id: string;
  what: string;
  /** A correct tool must refuse every case and change nothing. */
  refuse: boolean;
  patch?: (b: Base, siblings: Base[]) => PatchCase | null;
  edit?: (b: Base) => EditCase | null;
}

export const rankOf = (s: string) => createHash('sha1').update(s).digest().readUInt32BE(0);

export function patchCase(id: string, inst: Instance, patch: string, refuse = false): PatchCase {
  return {
    name: `${inst.base.name} ${id}`,
    perturbation: id,
    before: { [inst.base.path]: fromText(inst.before) },
    patch,
    after: refuse ? null : { [inst.base.path]: fromText(inst.after) },
  };
}

export function editCase(id: string, inst: Instance, edits: EditOp[] | null, refuse = false): EditCase | null {
  if (!edits) return null;
  return {
    name: `${inst.base.name} ${id}`,
    perturbation: id,
    path: inst.base.path,
    before: fromText(inst.before),
    edits,
    after: refuse ? null : fromText(inst.after),
  };
}

/** The first hunk with as much context after its change as before it, and old lines to copy. */
export const middleHunk = (b: Base) =>
  b.hunks.findIndex((h) => {
    const { lead, trail } = context(h);
    return lead > 0 && lead === trail;
  });

/** The base with a copy of hunk k's old text inserted right above it (plus `extra` lines between). */
export function withCopyAbove(b: Base, k: number, extra: string[] = []): Base {
  return insertLines(b, startOf(b.hunks[k]!), [...oldOf(b.hunks[k]!), ...extra]);
}

/** Exactly two exact places of hunk k's old text: the copy and the real one. */
export const twice = (b: Base, k: number) => occurrences(b.before.lines, oldOf(b.hunks[k]!)).length === 2;

/**
 * A line the patch removes, changed locally in its middle (so no substring of it survives as the old
 * text a model gave): the last hunk's last removed line with three characters or more.
 */
export function conflicted(b: Base): { base: Base; hunk: number } | null {
  for (let k = b.hunks.length - 1; k >= 0; k--) {
    const h = b.hunks[k]!;
    let j = h.lines.length - 1;
    while (j >= 0 && !(h.lines[j]!.op === '-' && h.lines[j]!.text.trim().length >= 3)) j--;
    if (j < 0) continue;
    const at = startOf(h) + h.lines.slice(0, j).filter((l) => l.op !== '+').length;
    const local = (l: string) => {
      const mid = l.length - l.trimStart().length + Math.floor(l.trim().length / 2);
      return `${l.slice(0, mid)}EDITED_LOCALLY${l.slice(mid)}`;
    };
    const lines = b.before.lines.map((l, i) => (i === at ? local(l) : l));
    // Elsewhere in the file the old text would be a place a correct tool may take: not a conflict.
    if (occurrences(lines.map(folded), oldOf(h).map(folded)).length) return null;
    return { base: { ...b, before: { ...b.before, lines } }, hunk: k };
  }
  return null;
}

export const plainAnd = (b: Base, test: (b: Base) => boolean) => b.plain && test(b);
