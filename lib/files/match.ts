// Finds where a model's `old` text is in a file: exact first, then a cascade of forgiving comparisons
// that is used only when it finds exactly one place.

/** How the match was found, from strictest to most forgiving. */
export type Strategy = 'exact' | 'line-endings' | 'trailing-whitespace' | 'trim' | 'indentation' | 'unicode';

/** A match as a character span [from, to) of the LF-joined file text, plus its line span. */
export interface Match {
  from: number;
  to: number;
  /** First and last line (1-based) the span touches. */
  startLine: number;
  endLine: number;
  strategy: Strategy;
  /**
   * Re-indentation of the replacement for a whole-line match found despite different indentation:
   * the old text's first line was indented `from`, the file's is indented `to`.
   */
  indent?: { from: string; to: string };
}

export type FindResult = { kind: 'found'; matches: Match[] } | { kind: 'ambiguous'; matches: Match[] } | { kind: 'none' };

/** Typographic characters models and editors substitute for ASCII, each mapped 1:1 so offsets survive. */
const UNICODE_FOLD: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u2032': "'",
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u2033': '"',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u00a0': ' ', '\u2007': ' ', '\u2009': ' ', '\u200a': ' ', '\u202f': ' ', '\u3000': ' ',
  '\u2026': '.',
};

export function foldUnicode(text: string): string {
  return text.replace(/[\u2018\u2019\u201a\u201b\u2032\u201c\u201d\u201e\u201f\u2033\u2010-\u2015\u2212\u00a0\u2007\u2009\u200a\u202f\u3000\u2026]/g, (c) => UNICODE_FOLD[c]!);
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** Every non-overlapping occurrence of `needle` in `hay`, as spans. */
function occurrences(hay: string, needle: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + needle.length)) out.push([i, i + needle.length]);
  return out;
}

export function leading(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

/** Whole-line candidates: starts (from `from` on) of windows of the file's lines equal to the old lines under `same`. */
export function lineWindows(fileLines: string[], oldLines: string[], same: (f: string, o: string) => boolean, from = 0): number[] {
  const hits: number[] = [];
  if (!oldLines.length) return hits;
  for (let i = from; i + oldLines.length <= fileLines.length; i++) {
    let ok = true;
    for (let j = 0; j < oldLines.length && ok; j++) ok = same(fileLines[i + j]!, oldLines[j]!);
    if (ok) hits.push(i);
  }
  return hits;
}

/** True when every non-blank line of the window is the old line shifted by one same indentation change. */
function uniformShift(window: string[], oldLines: string[]): boolean {
  let shift: string | null = null;
  for (let j = 0; j < oldLines.length; j++) {
    const [f, o] = [window[j]!, oldLines[j]!];
    if (!f.trim() && !o.trim()) continue;
    const [lf, lo] = [leading(f), leading(o)];
    const delta = lf.endsWith(lo) ? `+${lf.slice(0, lf.length - lo.length)}` : lo.endsWith(lf) ? `-${lo.slice(0, lo.length - lf.length)}` : null;
    if (delta === null || (shift !== null && delta !== shift)) return false;
    shift = delta;
  }
  return true;
}

/**
 * Finds `old` (LF-normalized) in the file's LF-joined text. Exact first (several exact places are
 * ambiguous). Otherwise the forgiving stages compare whole lines, and apply only when exactly one
 * window of the file equals the old lines with each line trimmed — so a looser reading can never
 * pick one of two look-alike blocks. The strategy names the strictest comparison that window
 * passes: trailing whitespace, a uniform indentation offset, or per-line trim (both re-indent the
 * replacement). Last, Unicode quotes, dashes and spaces folded to ASCII, with the same rule.
 */
export function findMatches({ text, old, rawExact }: { text: string; old: string; rawExact: boolean }): FindResult {
  const starts = lineStarts(text);
  const fileLines = text.split('\n');
  const span = (from: number, to: number, strategy: Strategy, indent?: Match['indent']): Match => ({
    from,
    to,
    startLine: lineOf(starts, from),
    endLine: lineOf(starts, Math.max(from, to - 1)),
    strategy,
    ...(indent && indent.from !== indent.to ? { indent } : {}),
  });
  const decide = (matches: Match[]): FindResult | null => (matches.length === 0 ? null : { kind: matches.length === 1 ? 'found' : 'ambiguous', matches });

  const exact = decide(occurrences(text, old).map(([f, t]) => span(f, t, rawExact ? 'exact' : 'line-endings')));
  if (exact) return exact;

  const oldLines = old.replace(/\n$/, '').split('\n');
  const wholeLines = (i: number, strategy: Strategy, indent?: Match['indent']) => {
    const last = i + oldLines.length - 1;
    const to = starts[last]! + fileLines[last]!.length + (old.endsWith('\n') && last + 1 < fileLines.length ? 1 : 0);
    return span(starts[i]!, to, strategy, indent);
  };
  const classify = (i: number): Match => {
    const window = fileLines.slice(i, i + oldLines.length);
    if (window.every((f, j) => f.trimEnd() === oldLines[j]!.trimEnd())) return wholeLines(i, 'trailing-whitespace');
    return wholeLines(i, uniformShift(window, oldLines) ? 'indentation' : 'trim', reindent(window, oldLines));
  };
  const trimmed = decide(lineWindows(fileLines, oldLines, (f, o) => f.trim() === o.trim()).map(classify));
  if (trimmed) return trimmed;

  const folded = foldUnicode(text);
  const foldedOld = foldUnicode(old);
  const uni = decide(occurrences(folded, foldedOld).map(([f, t]) => span(f, t, 'unicode')));
  if (uni) return uni;
  const foldedOldLines = foldedOld.replace(/\n$/, '').split('\n');
  const uniLines = lineWindows(folded.split('\n'), foldedOldLines, (f, o) => f.trim() === o.trim());
  return decide(uniLines.map((i) => wholeLines(i, 'unicode', reindent(fileLines.slice(i, i + oldLines.length), oldLines)))) ?? { kind: 'none' };
}

/** The indentation of the first non-blank old line, and of the file line it matched. */
function reindent(window: string[], oldLines: string[]): Match['indent'] | undefined {
  const j = oldLines.findIndex((l) => l.trim());
  return j < 0 ? undefined : { from: leading(oldLines[j]!), to: leading(window[j]!) };
}

/**
 * Re-indents a replacement the way the model indented its old text wrong: each non-blank line's
 * `from` prefix becomes `to`; a line indented less than `from` starts at `to`.
 */
export function applyIndent(replacement: string, indent: Match['indent']): string {
  if (!indent) return replacement;
  return replacement
    .split('\n')
    .map((line) => {
      if (!line.trim()) return line;
      return line.startsWith(indent.from) ? indent.to + line.slice(indent.from.length) : indent.to + line.trimStart();
    })
    .join('\n');
}

/** Dice similarity of two strings' character bigrams, in [0, 1]. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const grams = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) grams.set(a.slice(i, i + 2), (grams.get(a.slice(i, i + 2)) ?? 0) + 1);
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const n = grams.get(g) ?? 0;
    if (n > 0) {
      shared++;
      grams.set(g, n - 1);
    }
  }
  return (2 * shared) / (a.length + b.length - 2);
}

/** The line (1-based) where the file looks most like `old`, for a refusal that shows the nearest region. */
export function nearestLine({ fileLines, old }: { fileLines: string[]; old: string }): number {
  const oldLines = old.split('\n').map((l) => l.trim());
  const first = oldLines.findIndex((l) => l);
  if (first < 0) return 1;
  const scored = fileLines.map((l, i) => ({ i, s: similarity(l.trim(), oldLines[first]!) })).sort((a, b) => b.s - a.s).slice(0, 20);
  let best = { i: 0, s: -1 };
  for (const { i } of scored) {
    const top = i - first;
    let s = 0;
    for (let j = 0; j < oldLines.length; j++) s += similarity((fileLines[top + j] ?? '').trim(), oldLines[j]!);
    if (s > best.s) best = { i: Math.max(0, top), s };
  }
  return best.i + 1;
}
