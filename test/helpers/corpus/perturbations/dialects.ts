// Perturbations into the other dialects: the *** Begin Patch envelope, and Aider's, Cline's and Roo's SEARCH/REPLACE blocks.
import { oldOf, startOf } from '../bases';
import { patchCase, type Perturbation, plainAnd, rankOf, twice, withCopyAbove } from '../cases';
import { derive, insertLines } from '../derive';
import { locatable, occurrences, onlyAt } from '../locate';
import { aider, blocksLand, cline, envelope, hasMarkerLine, roo } from '../writers';

export const DIALECT_PERTURBATIONS: Perturbation[] = [
  {
    id: 'envelope',
    what: '*** Begin Patch envelope, bare @@ hunks, *** End of File at the end',
    refuse: false,
    patch: (b) => {
      const inst = plainAnd(b, (x) => !hasMarkerLine(x)) ? derive(b) : null;
      return inst && locatable(inst, false) ? patchCase('envelope', inst, envelope(inst)) : null;
    },
  },
  {
    id: 'envelope-section',
    what: "envelope whose '@@ <line>' names a line between a copy of the hunk's old text and the real one",
    refuse: false,
    patch: (b) => {
      if (!b.plain || hasMarkerLine(b)) return null;
      const h = b.hunks[0]!;
      const trimmed = b.before.lines.map((l) => l.trim());
      // The nearest line above the hunk that is unique in the file (trimmed), and not a lone brace.
      let seek = -1;
      for (let i = startOf(h) - 1; i >= Math.max(0, startOf(h) - 40) && seek < 0; i--)
        if (trimmed[i]!.length >= 4 && trimmed.filter((t) => t === trimmed[i]).length === 1) seek = i;
      if (seek < 0) return null;
      const inst = derive(insertLines(b, seek, oldOf(h)));
      if (
        occurrences(inst.before.lines, oldOf(h)).length !== 2 ||
        !inst.hunks.slice(1).every((x) => onlyAt(inst.before.lines, oldOf(x), startOf(x)))
      )
        return null;
      return patchCase('envelope-section', inst, envelope(inst, { 0: b.before.lines[seek]! }));
    },
  },
  {
    id: 'envelope-eof',
    what: 'envelope, the last hunk at end of file also right above it: *** End of File says which',
    refuse: false,
    patch: (b) => {
      const k = b.hunks.length - 1;
      const h = b.hunks[k]!;
      if (!b.plain || hasMarkerLine(b) || startOf(h) + h.oldCount !== b.before.lines.length) return null;
      const copy = withCopyAbove(b, k);
      if (!twice(copy, k)) return null;
      const inst = derive(copy);
      if (!inst.hunks.slice(0, k).every((x) => onlyAt(inst.before.lines, oldOf(x), startOf(x)))) return null;
      return patchCase('envelope-eof', inst, envelope(inst));
    },
  },
  {
    id: 'aider-search-replace',
    what: 'Aider SEARCH/REPLACE blocks listed bottom-up, fenced (```, ````, <source>), prose and ... between',
    refuse: false,
    patch: (b) => {
      const inst = plainAnd(b, (x) => !hasMarkerLine(x)) ? derive(b) : null;
      const order = inst ? inst.hunks.map((_, k) => k).reverse() : [];
      return inst && blocksLand(inst, order) ? patchCase('aider-search-replace', inst, aider(inst, order, rankOf(b.name))) : null;
    },
  },
  {
    id: 'cline-search-replace',
    what: 'Cline ------- SEARCH / ======= / +++++++ REPLACE blocks',
    refuse: false,
    patch: (b) => {
      const inst = plainAnd(b, (x) => !hasMarkerLine(x)) ? derive(b) : null;
      return inst &&
        blocksLand(
          inst,
          inst.hunks.map((_, k) => k),
        )
        ? patchCase('cline-search-replace', inst, cline(inst))
        : null;
    },
  },
  {
    id: 'roo-start-line',
    what: "Roo blocks with :start_line:N, the first block's text also right above it: the line picks",
    refuse: false,
    patch: (b) => {
      if (!b.plain || hasMarkerLine(b)) return null;
      const copy = withCopyAbove(b, 0);
      if (!twice(copy, 0)) return null;
      const inst = derive(copy);
      return blocksLand(
        inst,
        inst.hunks.map((_, k) => k),
        (k) => k === 0,
      )
        ? patchCase('roo-start-line', inst, roo(inst))
        : null;
    },
  },
];
