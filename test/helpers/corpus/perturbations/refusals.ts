// Perturbations a correct tool must refuse: a local conflict, old text found twice, a patch cut short.
import { startOf } from '../bases';
import { conflicted, editCase, patchCase, type Perturbation, rankOf, twice, withCopyAbove } from '../cases';
import { derive } from '../derive';
import { editTexts } from '../edits';
import { aider, envelope, hasMarkerLine, unified } from '../writers';

export const REFUSAL_PERTURBATIONS: Perturbation[] = [
  {
    id: 'conflict',
    what: 'a line the patch removes was changed locally: must refuse',
    refuse: true,
    patch: (b) => {
      const c = b.plain ? conflicted(b) : null;
      return c && patchCase('conflict', derive(c.base), b.patch, true);
    },
    edit: (b) => {
      const c = b.plain ? conflicted(b) : null;
      const t = c && editTexts(c.base.hunks[c.hunk]!);
      return c && t ? editCase('conflict', derive(c.base), [{ old: t.old.join('\n'), new: t.new.join('\n') }], true) : null;
    },
  },
  {
    id: 'ambiguous',
    what: 'the old text twice, no line numbers (a bare @@ hunk; forge edit --old): must refuse',
    refuse: true,
    patch: (b) => {
      if (!b.plain || !twice(withCopyAbove(b, 0), 0)) return null;
      const inst = derive(withCopyAbove(b, 0));
      return patchCase(
        'ambiguous',
        inst,
        unified(inst, () => '@@ @@'),
        true,
      );
    },
    edit: (b) => {
      const t = b.plain ? editTexts(b.hunks[0]!) : null;
      if (!t || !twice(withCopyAbove(b, 0), 0)) return null;
      return editCase('ambiguous', derive(withCopyAbove(b, 0)), [{ old: t.old.join('\n'), new: t.new.join('\n') }], true);
    },
  },
  {
    id: 'ambiguous-envelope',
    what: 'envelope hunk whose old text is in the file twice: must refuse',
    refuse: true,
    patch: (b) => {
      // A first hunk at the end of the file gets *** End of File, which tells the two places apart.
      const h = b.hunks[0]!;
      if (!b.plain || hasMarkerLine(b) || startOf(h) + h.oldCount === b.before.lines.length || !twice(withCopyAbove(b, 0), 0)) return null;
      return patchCase('ambiguous-envelope', derive(withCopyAbove(b, 0)), envelope(derive(withCopyAbove(b, 0))), true);
    },
  },
  {
    id: 'ambiguous-search-replace',
    what: 'a SEARCH block whose text is in the file twice: must refuse',
    refuse: true,
    patch: (b) => {
      if (!b.plain || hasMarkerLine(b) || !twice(withCopyAbove(b, 0), 0)) return null;
      const inst = derive(withCopyAbove(b, 0));
      return patchCase(
        'ambiguous-search-replace',
        inst,
        aider(
          inst,
          inst.hunks.map((_, k) => k),
          rankOf(b.name),
        ),
        true,
      );
    },
  },
  {
    id: 'truncated-envelope',
    what: 'an envelope cut off (mid-line or at a line end) before *** End Patch: must refuse',
    refuse: true,
    patch: (b) => {
      if (!b.plain || hasMarkerLine(b)) return null;
      const inst = derive(b);
      const lines = envelope(inst)
        .split('\n')
        .slice(0, -2)
        .filter((l) => l !== '*** End of File');
      const last = lines.at(-1)!;
      const cut =
        rankOf(b.name) % 2 && last.length > 2
          ? [...lines.slice(0, -1), last.slice(0, Math.ceil(last.length / 2))].join('\n')
          : lines.join('\n') + '\n';
      return patchCase('truncated-envelope', inst, cut, true);
    },
  },
  {
    id: 'truncated-search-replace',
    what: 'SEARCH/REPLACE text cut off inside the last REPLACE: must refuse',
    refuse: true,
    patch: (b) => {
      if (!b.plain || hasMarkerLine(b)) return null;
      const inst = derive(b);
      const text = aider(
        inst,
        inst.hunks.map((_, k) => k),
        rankOf(b.name),
      );
      const end = text.lastIndexOf('\n>>>>>>> REPLACE');
      const start = text.lastIndexOf('\n=======\n', end) + 9;
      return patchCase('truncated-search-replace', inst, text.slice(0, start + Math.ceil((end - start) / 2)), true);
    },
  },
];
