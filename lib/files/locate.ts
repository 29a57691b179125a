// Where a hunk's old lines are in a file: exactly, else with whitespace (at the ends, then runs
// between words outside quotes), else Unicode look-alikes folded; among several places the hunk's
// own signs choose (seek lines, section, end of file, its stated line, nearest first as git apply
// does), and two places no sign tells apart are refused.
import { looseKey } from './match';
import type { HunkLine } from './patch-parse';
import type { LineIndex } from './text';

/** How a place was found, from strictest to most forgiving. */
export type Strategy = 'exact' | 'line-endings' | 'trailing-whitespace' | 'indentation' | 'trim' | 'spacing' | 'unicode';

type Stage = 'exact' | 'loose' | 'spacing' | 'unicode';
const STAGES: Stage[] = ['exact', 'loose', 'spacing', 'unicode'];
const keyOf: Record<Stage, (line: string) => string> = {
  exact: (l) => l,
  loose: (l) => l.trim(),
  spacing: (l) => spacingKey(l.trim()),
  unicode: (l) => spacingKey(looseKey(l)),
};

/**
 * A line with each run of whitespace between its words made one space (`const   x =  5;` is
 * `const x = 5;`) — outside quotes only: `"a  b"` and `"a b"` are different strings, and a change
 * must not rewrite one into the other. A line whose quotes do not close is kept as it is.
 */
export function spacingKey(line: string): string {
  if (!/\s\s|\t/.test(line)) return line;
  let out = '';
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      out += c;
      if (c === '\\') out += line[++i] ?? '';
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'" || c === '`') {
      quote = c;
      out += c;
    } else if (/\s/.test(c)) {
      if (!/\s/.test(line[i + 1] ?? '')) out += ' ';
    } else out += c;
  }
  return quote ? line : out;
}

/**
 * A file's lines by their text, per comparison: each index is built on first use in one pass, so
 * locating h hunks in an n-line file costs about n + h × (hunk size × candidates), not h × n.
 */
export class LineLookup {
  private readonly keys = new Map<Stage, string[]>();
  /** Per stage: key → its one line, or its lines when it repeats (most lines are unique: no array for them). */
  private readonly where = new Map<Stage, Map<string, number | number[]>>();
  /** `line(i)` gives line i (0-based) of `count`: the file is split into strings only if an index is needed. */
  constructor(
    readonly count: number,
    readonly line: (i: number) => string,
  ) {}

  /** The lines of an indexed text, each sliced when first asked for. */
  static of(index: LineIndex): LineLookup {
    return new LineLookup(index.total, (i) => index.text.slice(index.starts[i], index.stops[i]));
  }

  keysOf(stage: Stage): string[] {
    let keys = this.keys.get(stage);
    if (!keys) {
      const exact = this.keys.get('exact') ?? Array.from({ length: this.count }, (_, i) => this.line(i));
      this.keys.set('exact', exact);
      keys = stage === 'exact' ? exact : exact.map(keyOf[stage]);
      this.keys.set(stage, keys);
    }
    return keys;
  }

  /** Lines (0-based, ascending) whose key under `stage` is `key`. */
  positions(stage: Stage, key: string): number[] {
    let map = this.where.get(stage);
    if (!map) {
      map = new Map();
      const keys = this.keysOf(stage);
      for (let i = 0; i < keys.length; i++) {
        const seen = map.get(keys[i]!);
        if (seen === undefined) map.set(keys[i]!, i);
        else if (typeof seen === 'number') map.set(keys[i]!, [seen, i]);
        else seen.push(i);
      }
      this.where.set(stage, map);
    }
    const found = map.get(key);
    return found === undefined ? [] : typeof found === 'number' ? [found] : found;
  }

  /** The old lines are exactly the file's at `at`. */
  exactAt(old: readonly string[], at: number): boolean {
    if (at < 0 || at + old.length > this.count) return false;
    for (let j = 0; j < old.length; j++) if (this.line(at + j) !== old[j]) return false;
    return true;
  }
}

/** Starts (ascending, from `from` on) of windows whose lines equal `old` under `stage`. */
function windows(lookup: LineLookup, old: string[], stage: Stage, from: number): number[] {
  const keys = lookup.keysOf(stage);
  const wanted = old.map(keyOf[stage]);
  const last = keys.length - old.length;
  // Try the old line that occurs least often: its places, shifted back, are every candidate.
  let pivot = 0;
  let fewest = Infinity;
  wanted.forEach((k, j) => {
    const n = lookup.positions(stage, k).length;
    if (n < fewest) [pivot, fewest] = [j, n];
  });
  const hits: number[] = [];
  for (const p of lookup.positions(stage, wanted[pivot]!)) {
    const start = p - pivot;
    if (start < from || start > last) continue;
    let ok = true;
    for (let j = 0; j < wanted.length && ok; j++) ok = keys[start + j] === wanted[j];
    if (ok) hits.push(start);
  }
  return hits;
}

/** The strictest name for how the model's old lines differ from the file's at `at`. */
function strategyAt(lookup: LineLookup, old: string[], at: number, stage: Stage): Strategy {
  if (stage === 'exact') return 'exact';
  if (stage === 'unicode') return 'unicode';
  if (stage === 'spacing') return 'spacing';
  const window = old.map((_, j) => lookup.line(at + j));
  const ends = window.every((f, j) => f.trimStart() === old[j]!.trimStart());
  const starts = window.every((f, j) => f.trimEnd() === old[j]!.trimEnd());
  return starts ? 'trailing-whitespace' : ends ? 'indentation' : 'trim';
}

export interface Want {
  /** The model's old lines (context and removed, in order). */
  old: string[];
  /** First line (0-based) a place may start at. */
  from: number;
  /** Where the hunk says it starts (0-based): chooses the nearest of several places. */
  hint?: number;
  /** Lines the hunk comes after (`*** Begin Patch` `@@ <line>`): each must be in the file. */
  seek?: string[];
  /** A line above the hunk (a unified header's section text): rules out places with none above them. */
  section?: string;
  /** The place must end at the end of the file. */
  atEnd?: boolean;
  /** Places ending at the end of the file win (a hunk with less context after than before). */
  preferEnd?: boolean;
  /** The place must cover this line (0-based): an anchor the model gave. */
  cover?: number;
}

export type Found =
  | { kind: 'found'; at: number; strategy: Strategy }
  /** `near`: the stated line (0-based) the places are equally near. */
  | { kind: 'ambiguous'; at: number[]; strategy: Strategy; near?: number }
  | { kind: 'none'; reason?: string };

/** Lines at or after `from` equal to `line`, exactly or else trimmed (and prefix-matched: git cuts long section headings). */
function linesLike(lookup: LineLookup, line: string, from: number, prefix = false): number[] {
  for (const stage of ['exact', 'loose'] as const) {
    const key = keyOf[stage](line);
    const hits = lookup.positions(stage, key).filter((p) => p >= from);
    if (hits.length) return hits;
  }
  if (!prefix || line.trim().length < 8) return [];
  const key = line.trim();
  const out: number[] = [];
  lookup.keysOf('loose').forEach((k, i) => i >= from && k.startsWith(key) && out.push(i));
  return out;
}

/**
 * The candidates that come first after some occurrence of a line the hunk names (each occurrence
 * picks the nearest candidate below it, before the line occurs again).
 */
function firstAfterEach(candidates: number[], marks: number[]): number[] {
  const picked = new Set<number>();
  marks.forEach((m, i) => {
    const next = marks[i + 1] ?? Infinity;
    const c = candidates.find((x) => x > m && x < next);
    if (c !== undefined) picked.add(c);
  });
  return [...picked];
}

/** Finds the one place for `want.old` in the file, or says why there is none or which places tie. */
export function locate(lookup: LineLookup, want: Want): Found {
  const n = lookup.count;
  const k = want.old.length;
  let from = want.from;
  // Seek lines are found in order from `from`; the hunk must come after the last one.
  let seekMarks: number[] | null = null;
  for (const [i, line] of (want.seek ?? []).entries()) {
    const hits = linesLike(lookup, line, from);
    if (!hits.length)
      return {
        kind: 'none',
        reason: `its @@ line ${JSON.stringify(line.trim())} is not in the file${i ? ' after the one before it' : ''}`,
      };
    if (i < want.seek!.length - 1) from = hits[0]! + 1;
    else seekMarks = hits;
  }
  // Exactly at its stated line: the nearest place there can be (git apply's first probe), found without an index.
  // (Not for a hunk that prefers the end: git anchors it there even when its stated line fits.)
  if (
    want.hint !== undefined &&
    !want.seek?.length &&
    !want.atEnd &&
    !want.preferEnd &&
    want.cover === undefined &&
    want.hint >= from &&
    lookup.exactAt(want.old, want.hint)
  ) {
    return { kind: 'found', at: want.hint, strategy: 'exact' };
  }
  const sectionMarks = want.section ? linesLike(lookup, want.section, 0, true) : [];
  for (const stage of STAGES) {
    let hits = windows(lookup, want.old, stage, seekMarks ? seekMarks[0]! + 1 : from);
    if (want.cover !== undefined) hits = hits.filter((h) => h <= want.cover! && want.cover! < h + k);
    if (want.atEnd) hits = hits.filter((h) => h + k === n);
    if (seekMarks) hits = firstAfterEach(hits, seekMarks);
    if (!hits.length) continue;
    // A section text is the nearest function-like line above the hunk, as git guessed it: it rules
    // out places with no such line above them, never picks among places below the same one.
    if (sectionMarks.length && hits.length > 1) {
      const narrowed = hits.filter((h) => sectionMarks[0]! < h);
      if (narrowed.length) hits = narrowed;
    }
    if (want.preferEnd && hits.length > 1 && hits.at(-1)! + k === n) hits = [hits.at(-1)!];
    const strategy = strategyAt(lookup, want.old, hits[0]!, stage);
    if (hits.length === 1) return { kind: 'found', at: hits[0]!, strategy };
    if (want.hint === undefined) return { kind: 'ambiguous', at: hits, strategy };
    // Nearest to where the hunk says it is, as git apply searches outward; two equally near tie.
    const distance = (h: number) => Math.abs(h - want.hint!);
    const sorted = [...hits].sort((a, b) => distance(a) - distance(b));
    if (distance(sorted[0]!) === distance(sorted[1]!))
      return {
        kind: 'ambiguous',
        at: sorted.filter((h) => distance(h) === distance(sorted[0]!)).sort((a, b) => a - b),
        strategy,
        near: want.hint,
      };
    return { kind: 'found', at: sorted[0]!, strategy: strategyAt(lookup, want.old, sorted[0]!, stage) };
  }
  return { kind: 'none' };
}

/** Line-number prefixes a model copies from a read: forge's `12#a3f0: `, `12 | `, `12→`, cat -n's `    12\t`. */
const COPIED_PREFIXES = [/^ *\d+#[0-9a-f]{4}: ?/, /^ *\d+ \| ?/, /^ *\d+→/, /^ *\d+\t/];

/**
 * The hunk as the model probably meant it, when it is not in the file as written: without the
 * line-number prefixes of a read it copied (when every non-blank old line has the same kind; added
 * lines lose them only if they all have them too), and without a blank first or last old line the
 * file lacks (with the added side's matching blank line). Tried in order after the hunk as written.
 */
export function relaxations(lines: HunkLine[]): HunkLine[][] {
  const out: HunkLine[][] = [];
  const filled = (ls: HunkLine[]) => ls.filter((l) => l.text.trim());
  const old = filled(lines.filter((l) => l.op !== '+'));
  const added = filled(lines.filter((l) => l.op === '+'));
  const prefix = COPIED_PREFIXES.find((re) => old.length && old.every((l) => re.test(l.text)));
  let base = lines;
  if (prefix) {
    const stripAdded = added.length > 0 && added.every((l) => prefix.test(l.text));
    base = lines.map((l) => (l.op !== '+' || stripAdded ? { op: l.op, text: l.text.replace(prefix, '') } : l));
    out.push(base);
  }
  const trimmed = trimBlankEdges(base);
  if (trimmed) out.push(trimmed);
  return out;
}

/** Without a blank first and/or last old line (and the added side's blank at the same edge). */
function trimBlankEdges(lines: HunkLine[]): HunkLine[] | null {
  const ls = [...lines];
  let changed = false;
  for (const edge of ['first', 'last'] as const) {
    const pick = (op: (l: HunkLine) => boolean) => (edge === 'first' ? ls.findIndex(op) : ls.findLastIndex(op));
    const o = pick((l) => l.op !== '+');
    if (o < 0 || ls[o]!.text.trim() || ls.filter((l) => l.op !== '+').length < 2) continue;
    const a = pick((l) => l.op === '+');
    const alsoAdded = a >= 0 && !ls[a]!.text.trim() && ls[o]!.op === '-';
    for (const i of (alsoAdded ? [o, a] : [o]).sort((x, y) => y - x)) ls.splice(i, 1);
    changed = true;
  }
  return changed ? ls : null;
}
