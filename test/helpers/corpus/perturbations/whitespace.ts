// Perturbations of whitespace: indentation restyled, dedented or flattened, trailing whitespace, runs of spaces between words and inside strings.
import { type Base, type Hunk, type HunkLine, newOf, oldOf, startOf } from '../bases';
import { editCase, type EditOp, patchCase, type Perturbation, rankOf } from '../cases';
import { derive, type Instance } from '../derive';
import { editsOf, editTexts, partway } from '../edits';
import { type Indent, restyled, type Style, unitOf } from '../indent-styles';
import { locatable } from '../locate';
import { unified } from '../writers';

const TAB_SPACE: Array<{ id: string; file: Style; model: Style }> = [
  { id: 'spaces-for-tabs-w2', file: 'tab', model: 2 },
  { id: 'spaces-for-tabs-w4', file: 'tab', model: 4 },
  { id: 'spaces-for-tabs-w8', file: 'tab', model: 8 },
  { id: 'tabs-for-spaces-w2', file: 2, model: 'tab' },
  { id: 'tabs-for-spaces-w4', file: 4, model: 'tab' },
  { id: 'tabs-for-spaces-w8', file: 8, model: 'tab' },
];

/** A whitespace perturbation: the same instance as a patch (numbers right) and as edits. */
function drift(id: string, what: string, make: (b: Base) => Instance | null): Perturbation {
  return {
    id,
    what,
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? make(b) : null;
      return inst && locatable(inst, true) ? patchCase(id, inst, unified(inst)) : null;
    },
    edit: (b) => {
      const inst = b.plain ? make(b) : null;
      return inst && editCase(id, inst, editsOf(inst));
    },
  };
}

/** Which before-lines a line diff of each hunk's old → new keeps for sure: all but each hunk's middle. */
function surelyKept(b: Base): Set<number> {
  const middle = new Set<number>();
  for (const h of b.hunks) {
    const t = editTexts(h);
    const o = oldOf(h);
    const n = newOf(h);
    let p = 0;
    while (p < o.length && p < n.length && o[p] === n[p]) p++;
    let s = 0;
    while (s < o.length - p && s < n.length - p && o[o.length - 1 - s] === n[n.length - 1 - s]) s++;
    for (let i = p; i < o.length - s; i++) middle.add(startOf(h) + i);
    if (!t) for (let i = 0; i < o.length; i++) middle.add(startOf(h) + i);
    // A line the old or the new text has twice may be kept as either (a diff may slide the change past it).
    for (let i = 0; i < o.length; i++)
      if (n.filter((x) => x === o[i]).length > 1 || o.filter((x) => x === o[i]).length > 1) middle.add(startOf(h) + i);
  }
  return new Set(b.before.lines.map((_, i) => i).filter((i) => !middle.has(i)));
}

/** A line aligned as some code is: each space between two words doubled — unless it holds a quote (a string's spaces are its own). */
const respaced = (l: string) => (/['"`]/.test(l) ? l : l.replace(/(\S) (?=\S)/g, '$1  '));
/** The line with the first space inside a string literal doubled (quotes read left to right, escapes skipped); null when it has none. */
function spaceInString(l: string): string | null {
  let quote = '';
  for (let i = 0; i < l.length; i++) {
    const c = l[i]!;
    if (!quote) {
      if (c === '"' || c === "'" || c === '`') quote = c;
    } else if (c === '\\') i++;
    else if (c === quote) quote = '';
    else if (c === ' ') return `${l.slice(0, i)} ${l.slice(i)}`;
  }
  return null;
}
/** The width of a line's leading whitespace. */
const indentWidth = (l: string) => l.length - l.trimStart().length;
/**
 * Some edit's old text is still a substring of the file as the edits before it left it (it ends
 * before a padded line's whitespace, say): an exact match, replaced as a substring as str_replace
 * does — not the rule a drift perturbation tests.
 */
const oldStillExact = (inst: Instance, edits: EditOp[]) => edits.some((e, k) => 'old' in e && partway(inst, k).join('\n').includes(e.old));
/** A hunk whose old lines the file indents at more than one depth. */
const unevenHunk = (h: Hunk) => new Set(h.lines.filter((l) => l.op !== '+' && l.text.trim()).map((l) => indentWidth(l.text))).size > 1;
/** The base as a model writes it with no indentation at all, old and new. */
const flattened = (b: Base) => derive(b, { modelOld: (l) => l.trimStart(), modelNew: (l) => l.trimStart() });
/** The runs of removed and added lines of a hunk, as counts. */
function changeRuns(lines: HunkLine[]): Array<{ removed: number; added: number }> {
  const runs: Array<{ removed: number; added: number }> = [];
  let run = { removed: 0, added: 0 };
  for (const l of [...lines, { op: ' ' as const, text: '' }]) {
    if (l.op === '-') run.removed++;
    else if (l.op === '+') run.added++;
    else if (run.removed + run.added) runs.push(run), (run = { removed: 0, added: 0 });
  }
  return runs;
}
/** Some line the hunks touch was respaced: the case tests the spacing rule. */
const changedLines = (inst: Instance) =>
  inst.hunks.some((h) => {
    let at = startOf(h);
    return h.lines.some((l) => l.op !== '+' && inst.before.lines[at++] !== l.text);
  });

const PADS = ['  ', ' ', '', '\t'];
/** Trailing whitespace on three lines in four (those `pad` allows), which the model's patch does not have. */
function padded(b: Base, pad: (i: number) => boolean): Instance {
  return derive(b, { fileLine: (l, i) => (l.trim() && pad(i) ? l + PADS[i % 4] : l) });
}

export const WHITESPACE_PERTURBATIONS: Perturbation[] = [
  ...TAB_SPACE.map(({ id, file, model }) =>
    drift(
      `ws-both-${id}`,
      `the model wrote old and new text with ${model === 'tab' ? 'tabs' : `${model} spaces`} per level; the file is indented with ${file === 'tab' ? 'tabs' : `${file} spaces`}`,
      (b) => restyled(b, file, model),
    ),
  ),
  drift('ws-both-dedent', "the model dropped each hunk's common indentation from old and new text", (b) => {
    const unit = unitOf([...b.before.lines, ...b.after.lines]);
    const lowest = (levels: Indent[]) => Math.min(...levels.filter((i) => i.body).map((i) => i.level), 99);
    return unit ? restyled(b, unit, unit, { shift: (levels) => (lowest(levels) === 99 ? 0 : -lowest(levels)) }) : null;
  }),
  drift('ws-both-over-indent', 'the model indented old and new text one or two levels deeper', (b) => {
    const unit = unitOf([...b.before.lines, ...b.after.lines]);
    return unit ? restyled(b, unit, unit, { shift: () => 1 + (rankOf(b.name) % 2) }) : null;
  }),
  ...TAB_SPACE.map(({ id, file, model }) =>
    drift(
      `ws-old-only-${id}`,
      `context and removed lines with ${model === 'tab' ? 'tabs' : `${model} spaces`} per level, added lines in the file's own ${file === 'tab' ? 'tabs' : `${file} spaces`}`,
      (b) => restyled(b, file, model, { oldOnly: true }),
    ),
  ),
  drift(
    'ws-both-flat',
    'the model wrote old and new text with no indentation at all, against lines the file indents at several depths; each change replaces one line by one',
    (b) => {
      const oneForOne = b.hunks.flatMap((h) => changeRuns(h.lines)).every((r) => r.removed === 1 && r.added === 1);
      return oneForOne && b.hunks.some(unevenHunk) ? flattened(b) : null;
    },
  ),
  {
    id: 'ws-both-flat-restructured',
    what: 'old and new text with no indentation at all, a hunk the file indents at several depths changing several lines at once: the new depths are unknown, refused',
    refuse: true,
    patch: (b) => {
      const restructured = (h: Hunk) =>
        unevenHunk(h) &&
        h.lines.some((l) => l.op === '+' && l.text.trim()) &&
        changeRuns(h.lines).some((r) => r.removed !== 1 || r.added !== 1);
      if (!b.plain || !b.hunks.some(restructured)) return null;
      const inst = flattened(b);
      return locatable(inst, false) ? patchCase('ws-both-flat-restructured', inst, unified(inst), true) : null;
    },
  },
  {
    id: 'trailing-whitespace',
    what: "the file has trailing whitespace the patch's lines lack: context keeps it, added lines are as written",
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? padded(b, () => true) : null;
      return inst && locatable(inst, true) ? patchCase('trailing-whitespace', inst, unified(inst)) : null;
    },
    edit: (b) => {
      if (!b.plain) return null;
      const kept = surelyKept(b);
      const inst = padded(b, (i) => kept.has(i));
      const edits = editsOf(inst);
      if (edits && oldStillExact(inst, edits)) return null;
      return editCase('trailing-whitespace', inst, edits);
    },
  },
  {
    id: 'internal-spacing',
    what: "the file aligns code with runs of spaces between words (no strings on those lines); the model's lines have one space",
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? derive(b, { fileLine: (l) => respaced(l) }) : null;
      return inst && locatable(inst, true) && changedLines(inst) ? patchCase('internal-spacing', inst, unified(inst)) : null;
    },
    edit: (b) => {
      if (!b.plain) return null;
      const kept = surelyKept(b);
      const inst = derive(b, { fileLine: (l, i) => (kept.has(i) ? respaced(l) : l) });
      if (!changedLines(inst)) return null;
      const edits = editsOf(inst);
      if (edits && oldStillExact(inst, edits)) return null;
      return editCase('internal-spacing', inst, edits);
    },
  },
  {
    id: 'spacing-in-string',
    what: "a line the patch removes holds a string whose space the file doubles: a string's spaces are its own, refused",
    refuse: true,
    patch: (b) => {
      if (!b.plain) return null;
      const removed = new Set<number>();
      for (const h of b.hunks) {
        let at = startOf(h);
        for (const l of h.lines) if (l.op !== '+') l.op === '-' && spaceInString(l.text) !== null && removed.add(at), at++;
      }
      if (!removed.size) return null;
      const inst = derive(b, { fileLine: (l, i) => (removed.has(i) ? (spaceInString(l) ?? l) : l) });
      return locatable(inst, true) ? patchCase('spacing-in-string', inst, unified(inst), true) : null;
    },
  },
  {
    id: 'final-newline-drift',
    what: "the file lacks its final newline and has trailing whitespace; the last edit's old text lacks the whitespace and its new text ends with a newline: the newline lands, as in an exact match",
    refuse: false,
    edit: (b) => {
      const last = b.hunks.at(-1);
      if (!b.plain || !last || startOf(last) + last.oldCount !== b.before.lines.length || last.lines.at(-1)!.text === '') return null;
      const kept = surelyKept(b);
      const lastLine = b.before.lines.length - 1;
      const inst = derive(b, {
        fileLine: (l, i) => (l.trim() && kept.has(i) ? l + PADS[i % 4] : l),
        fileEol: (i) => (i === lastLine ? '' : '\n'),
      });
      const edits = editsOf(inst);
      if (!edits || oldStillExact(inst, edits)) return null;
      const final = edits.at(-1)!;
      if (!('old' in final)) return null;
      edits[edits.length - 1] = { ...final, new: `${final.new}\n` };
      inst.after.eols[inst.after.eols.length - 1] = '\n';
      return editCase('final-newline-drift', inst, edits);
    },
  },
];
