// Perturbations of forge edit's line anchors: --lines A#H..B#H as forge read prints them, and an --anchor gone stale.
import { anchorOf } from '../../../../lib/files/anchor';
import { startOf } from '../bases';
import { editCase, type Perturbation } from '../cases';
import { derive, insertLines } from '../derive';
import { editsOf, editTexts, partway } from '../edits';

export const ANCHOR_PERTURBATIONS: Perturbation[] = [
  {
    id: 'anchored-lines',
    what: 'forge edit --lines A#H..B#H --new, anchors as forge read prints them',
    refuse: false,
    edit: (b) => {
      const inst = b.plain ? derive(b) : null;
      if (!inst || !editsOf(inst)) return null;
      let delta = 0;
      const edits = inst.hunks.map((h, k) => {
        const t = editTexts(h)!;
        const lines = partway(inst, k);
        const from = startOf(h) + t.lead + delta;
        const to = from + t.old.length - 1;
        delta += h.newCount - h.oldCount;
        return { lines: `${anchorOf(from + 1, lines[from]!)}..${anchorOf(to + 1, lines[to]!)}`, new: t.new.join('\n') };
      });
      return editCase('anchored-lines', inst, edits);
    },
  },
  {
    id: 'stale-anchor',
    what: 'forge edit --anchor read before three lines were added above: must refuse',
    refuse: true,
    edit: (b) => {
      const t = b.plain ? editTexts(b.hunks[0]!) : null;
      if (!t) return null;
      const at = startOf(b.hunks[0]!) + t.lead;
      const moved = insertLines(b, 0, ['// added by someone else 1', '// added by someone else 2', '// added by someone else 3']);
      if (anchorOf(at + 1, moved.before.lines[at]!) === anchorOf(at + 1, b.before.lines[at]!)) return null;
      return editCase(
        'stale-anchor',
        derive(moved),
        [{ old: t.old.join('\n'), new: t.new.join('\n'), anchor: anchorOf(at + 1, b.before.lines[at]!) }],
        true,
      );
    },
  },
];
