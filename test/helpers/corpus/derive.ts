// Deriving a perturbed file from a base and the exact bytes a correct tool writes for it, by the shared rules of context, endings and the final newline.
import { align, type Base, type Eol, type Hunk, startOf, type Text } from './bases';

/** A base with lines inserted into the before-file at `pos` (between hunks), and so into the after-file. */
export function insertLines(base: Base, pos: number, lines: string[]): Base {
  if (base.hunks.some((h) => startOf(h) < pos && pos < startOf(h) + h.oldCount)) throw new Error('inserting inside a hunk');
  const ahead = base.hunks.filter((h) => startOf(h) + h.oldCount <= pos);
  const afterPos = pos + ahead.reduce((n, h) => n + h.newCount - h.oldCount, 0);
  const splice = (t: Text, at: number): Text => ({
    lines: [...t.lines.slice(0, at), ...lines, ...t.lines.slice(at)],
    eols: [...t.eols.slice(0, at), ...lines.map(() => '\n' as const), ...t.eols.slice(at)],
  });
  return {
    ...base,
    before: splice(base.before, pos),
    after: splice(base.after, afterPos),
    hunks: base.hunks.map((h) =>
      ahead.includes(h) ? h : { ...h, oldStart: h.oldStart + lines.length, newStart: h.newStart + lines.length },
    ),
  };
}

/** A perturbed change: the file as the tool finds it, the model's hunks, and the exact expected result. */
export interface Instance {
  base: Base;
  before: Text;
  after: Text;
  /** The model's hunks: positions in `before`, text as the model wrote it. */
  hunks: Hunk[];
}

interface Derivation {
  /** The file's text of before-line i (default: as committed). */
  fileLine?: (text: string, i: number) => string;
  fileEol?: (i: number) => Eol;
  /** How the model wrote hunk k's context and removed lines, and its added lines. */
  modelOld?: (text: string, k: number) => string;
  modelNew?: (text: string, k: number) => string;
  /** What a correct tool writes for an added line (default: the committed text). */
  written?: (text: string, k: number) => string;
}

/**
 * The perturbed file and its expected result by the shared rules: context keeps the file's bytes and
 * ending; added lines take the ending of the first line they replace, else of the line before them;
 * the final-newline state is kept.
 */
export function derive(base: Base, d: Derivation = {}): Instance {
  const before: Text = {
    lines: base.before.lines.map((l, i) => d.fileLine?.(l, i) ?? l),
    eols: base.before.eols.map((e, i) => d.fileEol?.(i) ?? e),
  };
  const dominant: Eol = before.eols.find((e) => e) ?? '\n';
  const addedEol = new Map<string, Eol>();
  base.hunks.forEach((h, k) => {
    let b = startOf(h);
    let block: Eol | null = null;
    h.lines.forEach((l, j) => {
      if (l.op === ' ') (block = null), b++;
      else if (l.op === '-') (block ??= before.eols[b]!), b++;
      else addedEol.set(`${k}:${j}`, (block ?? before.eols[b - 1] ?? before.eols[0]) || dominant);
    });
  });
  const after: Text = { lines: [], eols: [] };
  for (const o of align(base.before.lines.length, base.hunks)) {
    if ('kept' in o) after.lines.push(before.lines[o.kept]!), after.eols.push(before.eols[o.kept]! || dominant);
    else
      after.lines.push(d.written?.(base.hunks[o.hunk]!.lines[o.line]!.text, o.hunk) ?? base.hunks[o.hunk]!.lines[o.line]!.text),
        after.eols.push(addedEol.get(`${o.hunk}:${o.line}`)!);
  }
  if (after.eols.length) after.eols[after.eols.length - 1] = before.eols.at(-1) ? after.eols.at(-1)! : '';
  const hunks = base.hunks.map((h, k) => ({
    ...h,
    lines: h.lines.map((l) => ({ ...l, text: l.op === '+' ? (d.modelNew?.(l.text, k) ?? l.text) : (d.modelOld?.(l.text, k) ?? l.text) })),
  }));
  return { base, before, after, hunks };
}
