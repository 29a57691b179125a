// Where a correct tool finds a hunk: the conditions under which a case's expected bytes are the only answer.
import { type Hunk, oldOf, startOf } from './bases';
import type { Instance } from './derive';

const QUOTES: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u00a0': ' ',
};
/** Coarser than any whitespace folding a tool may do: every whitespace character gone, quotes and dashes ASCII. */
export const folded = (s: string) => s.replace(/[\u2018\u2019\u201c\u201d\u2013\u2014\u00a0]/g, (c) => QUOTES[c]!).replace(/\s+/g, '');

export function occurrences(lines: string[], block: string[]): number[] {
  const hits: number[] = [];
  if (!block.length) return hits;
  for (let i = 0; i + block.length <= lines.length; i++) {
    let j = 0;
    while (j < block.length && lines[i + j] === block[j]) j++;
    if (j === block.length) hits.push(i);
  }
  return hits;
}

interface Locate {
  /** The hunk's stated 0-based start, and the start the previous hunk's drift predicts. */
  stated?: number[];
  /** Fewer trailing than leading context lines: a place ending at end of file wins. */
  endAnchored?: boolean;
}

/**
 * True when the shared rules put `block` at `at` in `lines` and nowhere else: the only exact place;
 * or among several exact places the strictly nearest to every stated line (or the one ending at end
 * of file, for an end-anchored hunk); or, with no exact place, the only place with whitespace folded.
 */
export function onlyAt(lines: string[], block: string[], at: number, how: Locate = {}): boolean {
  const exact = occurrences(lines, block);
  if (exact.length) {
    if (!exact.includes(at)) return false;
    if (exact.length === 1) return true;
    if (how.endAnchored) return at + block.length === lines.length;
    if (!how.stated) return false;
    return how.stated.every((s) => exact.every((x) => x === at || Math.abs(x - s) > Math.abs(at - s)));
  }
  const hits = occurrences(lines.map(folded), block.map(folded));
  return hits.length === 1 && hits[0] === at;
}

export const context = (h: Hunk) => {
  const lead = h.lines.findIndex((l) => l.op !== ' ');
  let trail = 0;
  while (trail < h.lines.length && h.lines[h.lines.length - 1 - trail]!.op === ' ') trail++;
  return { lead, trail };
};

/** Every hunk of `inst` lands where it belongs, by its line numbers (or without them). */
export function locatable(inst: Instance, numbered: boolean, stated?: (k: number) => number): boolean {
  let drift = 0;
  return inst.hunks.every((h, k) => {
    const at = startOf(h);
    const s = stated ? stated(k) : at;
    const { lead, trail } = context(h);
    const ok = onlyAt(inst.before.lines, oldOf(h), at, numbered ? { stated: [s, s + drift], endAnchored: trail < lead } : {});
    drift = at - s;
    return ok;
  });
}
