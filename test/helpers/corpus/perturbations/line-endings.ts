// Perturbations of line endings: a CRLF file, CRLF and LF mixed, no final newline.
import { type Base, type Eol, startOf } from '../bases';
import { editCase, patchCase, type Perturbation } from '../cases';
import { derive, type Instance } from '../derive';
import { editsOf } from '../edits';
import { unified } from '../writers';

/** Mixed endings, uniform around each place an ending is decided (so every reading of the rule agrees). */
function mixed(b: Base, groups: Array<[number, number]>): Instance | null {
  const eols: Eol[] = b.before.lines.map((_, i) => ((i * 7 + 3) % 5 < 2 ? '\r\n' : '\n'));
  for (const [from, to] of groups) {
    const lo = Math.max(0, from);
    const hi = Math.min(eols.length - 1, to);
    for (let i = lo + 1; i <= hi; i++) eols[i] = eols[lo]!;
  }
  if (!eols.includes('\r\n') || !eols.includes('\n')) return null;
  return derive(b, { fileEol: (i) => eols[i]! });
}

/** For a patch: each run of removed and added lines with the line before and after it. */
function changeGroups(b: Base): Array<[number, number]> {
  const groups: Array<[number, number]> = [];
  for (const h of b.hunks) {
    let at = startOf(h);
    let from = -1;
    for (const l of [...h.lines, { op: ' ' as const, text: '' }]) {
      if (l.op === ' ') {
        if (from >= 0) groups.push([from - 1, at]);
        from = -1;
        at++;
      } else {
        if (from < 0) from = at;
        if (l.op === '-') at++;
      }
    }
  }
  return groups;
}

/** For an edit: each hunk's whole old text with the line before and after it. */
const hunkGroups = (b: Base): Array<[number, number]> => b.hunks.map((h) => [startOf(h) - 1, startOf(h) + h.oldCount]);

/** The file without its final newline; null when its last line is blank (without an ending it would be no line at all). */
const noFinalNewline = (b: Base): Instance | null =>
  b.before.lines.at(-1) && b.after.lines.at(-1) ? derive(b, { fileEol: (i) => (i === b.before.lines.length - 1 ? '' : '\n') }) : null;

export const LINE_ENDING_PERTURBATIONS: Perturbation[] = [
  {
    id: 'crlf-file',
    what: 'the file has CRLF endings, the patch LF',
    refuse: false,
    patch: (b) => (b.plain ? patchCase('crlf-file', derive(b, { fileEol: () => '\r\n' }), unified(derive(b))) : null),
    edit: (b) => {
      const inst = b.plain ? derive(b, { fileEol: () => '\r\n' }) : null;
      return inst && editCase('crlf-file', inst, editsOf(inst));
    },
  },
  {
    id: 'mixed-endings',
    what: 'CRLF and LF mixed in the file: a changed line keeps its own ending, added lines that of the line they replace',
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? mixed(b, changeGroups(b)) : null;
      return inst && patchCase('mixed-endings', inst, unified(inst));
    },
    edit: (b) => {
      const inst = b.plain ? mixed(b, hunkGroups(b)) : null;
      return inst && editCase('mixed-endings', inst, editsOf(inst));
    },
  },
  {
    id: 'no-final-newline',
    what: 'the file has no final newline and the patch does not say so: the result has none',
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? noFinalNewline(b) : null;
      return inst && patchCase('no-final-newline', inst, unified(inst));
    },
    edit: (b) => {
      const inst = b.plain ? noFinalNewline(b) : null;
      return inst && editCase('no-final-newline', inst, editsOf(inst));
    },
  },
];
