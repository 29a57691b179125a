// A derived change as forge edit calls: each hunk as --old/--new, applied in order, found only where it belongs.
import { type Hunk, newOf, oldOf, startOf } from './bases';
import type { EditOp } from './cases';
import type { Instance } from './derive';
import { onlyAt } from './locate';

/** A hunk's old and new text for --old/--new: blank context at either edge dropped; null when a blank edge line remains. */
export function editTexts(h: Hunk): { old: string[]; new: string[]; lead: number } | null {
  let o = oldOf(h);
  let n = newOf(h);
  let lead = 0;
  while (o.length && n.length && o[0] === '' && n[0] === '' && h.lines[lead]?.op === ' ') (o = o.slice(1)), (n = n.slice(1)), lead++;
  while (o.length && n.length && o.at(-1) === '' && n.at(-1) === '' && h.lines.at(-1)?.op === ' ')
    (o = o.slice(0, -1)), (n = n.slice(0, -1));
  if (!o.length || !n.length || o[0] === '' || n[0] === '' || o.at(-1) === '' || n.at(-1) === '') return null;
  return { old: o, new: n, lead };
}

/** The file after the first `k` hunks of `inst`: what the k+1-th edit is searched in. */
export function partway(inst: Instance, k: number): string[] {
  if (!k) return inst.before.lines;
  const h = inst.base.hunks[k - 1]!;
  const oldEnd = startOf(h) + h.oldCount;
  const newEnd = oldEnd + inst.base.hunks.slice(0, k).reduce((n, x) => n + x.newCount - x.oldCount, 0);
  return [...inst.after.lines.slice(0, newEnd), ...inst.before.lines.slice(oldEnd)];
}

/** Every hunk of `inst` as an edit, each found only where it belongs when its turn comes; null otherwise. */
export function editsOf(inst: Instance): EditOp[] | null {
  const edits: EditOp[] = [];
  let delta = 0;
  for (const [k, h] of inst.hunks.entries()) {
    const t = editTexts(h);
    if (!t || !onlyAt(partway(inst, k), t.old, startOf(h) + t.lead + delta)) return null;
    edits.push({ old: t.old.join('\n'), new: t.new.join('\n') });
    delta += h.newCount - h.oldCount;
  }
  return edits;
}
