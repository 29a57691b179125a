// Perturbations of git's own diff: as committed, then its line numbers, counts and blank context lines as models get them wrong, and Aider's udiff.
import { fromText, startOf } from '../bases';
import { editCase, middleHunk, patchCase, type Perturbation, rankOf, twice, withCopyAbove } from '../cases';
import { derive } from '../derive';
import { editsOf } from '../edits';
import { locatable } from '../locate';
import { header, unified } from '../writers';

export const UNIFIED_PERTURBATIONS: Perturbation[] = [
  {
    id: 'exact',
    what: "git's own diff of the commit, as committed",
    refuse: false,
    patch: (b) => ({
      name: `${b.name} exact`,
      perturbation: 'exact',
      before: { [b.path]: fromText(b.before) },
      patch: b.patch,
      after: { [b.path]: fromText(b.after) },
    }),
    edit: (b) => (b.plain ? editCase('exact', derive(b), editsOf(derive(b))) : null),
  },
  {
    id: 'stale-numbers',
    what: 'every @@ line off by a few lines (the context is unique or nearest)',
    refuse: false,
    patch: (b) => {
      if (!b.plain) return null;
      const off = [3, -4, 5, -2][rankOf(b.name) % 4]!;
      const inst = derive(b);
      const stated = (k: number) => Math.max(0, startOf(inst.hunks[k]!) + off);
      if (!locatable(inst, true, stated)) return null;
      return patchCase(
        'stale-numbers',
        inst,
        unified(inst, (h, k) => header({ ...h, oldStart: stated(k) + 1, newStart: Math.max(1, h.newStart + off) })),
      );
    },
  },
  {
    id: 'stale-numbers-repeated',
    what: "stale numbers, the hunk's old text also right above it: the nearest to the stated line is the one",
    refuse: false,
    patch: (b) => {
      const k0 = b.plain ? middleHunk(b) : -1;
      if (k0 < 0) return null;
      const copy = withCopyAbove(b, k0);
      if (!twice(copy, k0)) return null;
      const inst = derive(copy);
      const off = 2 + (rankOf(b.name) % 2);
      const stated = (k: number) => startOf(inst.hunks[k]!) + off;
      if (!locatable(inst, true, stated)) return null;
      return patchCase(
        'stale-numbers-repeated',
        inst,
        unified(inst, (h, k) => header({ ...h, oldStart: stated(k) + 1, newStart: h.newStart + off })),
      );
    },
  },
  {
    id: 'stale-numbers-tie',
    what: "the hunk's old text twice, the stated line exactly between them: must refuse",
    refuse: true,
    patch: (b) => {
      const k0 = b.plain ? middleHunk(b) : -1;
      if (k0 < 0) return null;
      const length = b.hunks[k0]!.oldCount;
      const copy = withCopyAbove(b, k0, length % 2 ? [''] : []);
      if (!twice(copy, k0)) return null;
      const inst = derive(copy);
      const middle = startOf(inst.hunks[k0]!) - Math.ceil(length / 2);
      return patchCase(
        'stale-numbers-tie',
        inst,
        unified(inst, (h, k) => (k === k0 ? header({ ...h, oldStart: middle + 1, newStart: middle + 1 }) : header(h))),
        true,
      );
    },
  },
  {
    id: 'bare-hunk-header',
    what: 'no line numbers at all (@@ or @@ @@); every hunk unique',
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? derive(b) : null;
      if (!inst || !locatable(inst, false)) return null;
      const bare = rankOf(b.name) % 2 ? '@@' : '@@ @@';
      return patchCase(
        'bare-hunk-header',
        inst,
        unified(inst, () => bare),
      );
    },
  },
  {
    id: 'wrong-counts',
    what: 'the counts in every @@ line wrong (too many, too few)',
    refuse: false,
    patch: (b) => {
      if (!b.plain) return null;
      const inst = derive(b);
      return patchCase(
        'wrong-counts',
        inst,
        unified(inst, (h, k) =>
          header({
            ...h,
            oldCount: Math.max(1, h.oldCount + [5, -2, 1, -1][k % 4]!),
            newCount: Math.max(1, h.newCount + [-2, 3, -1, 2][k % 4]!),
          }),
        ),
      );
    },
  },
  {
    id: 'wrong-counts-both-sides',
    what: "the counts in every @@ line too high or too low on both sides alike (the last hunk's promise runs past the patch), each hunk ending on context",
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? derive(b) : null;
      if (!inst || inst.hunks.some((h) => h.lines.at(-1)!.op !== ' ')) return null;
      const by = (k: number) => [2, -1, 1, 3][(rankOf(b.name) + k) % 4]!;
      return patchCase(
        'wrong-counts-both-sides',
        inst,
        unified(inst, (h, k) => header({ ...h, oldCount: Math.max(1, h.oldCount + by(k)), newCount: Math.max(1, h.newCount + by(k)) })),
      );
    },
  },
  {
    id: 'wrong-counts-ends-on-change',
    what: 'the last hunk promises more lines than it holds and ends on an added or removed line: a cut there looks the same, refused',
    refuse: true,
    patch: (b) => {
      const inst = b.plain ? derive(b) : null;
      const last = inst?.hunks.at(-1);
      if (!inst || !last || last.lines.at(-1)!.op === ' ') return null;
      const more = 1 + (rankOf(b.name) % 3);
      return patchCase(
        'wrong-counts-ends-on-change',
        inst,
        unified(inst, (h, k) =>
          k === inst.hunks.length - 1 ? header({ ...h, oldCount: h.oldCount + more, newCount: h.newCount + more }) : header(h),
        ),
        true,
      );
    },
  },
  {
    id: 'blank-context-stripped',
    what: 'every blank context line without its leading space (editors strip it), wherever it stands: before a change, before the next @@, at the end',
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? derive(b) : null;
      if (!inst?.hunks.some((h) => h.lines.some((l) => l.op === ' ' && l.text === ''))) return null;
      return patchCase('blank-context-stripped', inst, unified(inst).replace(/^ $/gm, ''));
    },
  },
  {
    id: 'blank-context-stripped-bare',
    what: 'blank context lines without their space under bare @@ headers: a blank run before the next @@ is read as a separator',
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? derive(b) : null;
      if (!inst || !locatable(inst, false) || !inst.hunks.some((h) => h.lines.some((l) => l.op === ' ' && l.text === ''))) return null;
      return patchCase('blank-context-stripped-bare', inst, unified(inst, () => '@@').replace(/^ $/gm, ''));
    },
  },
  {
    id: 'aider-udiff',
    what: "Aider's udiff: '--- path' and '+++ path' without a/ and b/, every hunk headed '@@ ... @@'",
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? derive(b) : null;
      if (!inst || !locatable(inst, false)) return null;
      const body = unified(inst, () => '@@ ... @@')
        .split('\n')
        .slice(inst.base.head.length);
      return patchCase('aider-udiff', inst, [`--- ${b.path}`, `+++ ${b.path}`, ...body].join('\n'));
    },
  },
];
