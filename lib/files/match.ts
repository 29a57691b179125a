// What the locating rules share: exact occurrences of a model's old text, Unicode look-alikes
// folded to ASCII, and the nearest region of a file for a refusal.

/** An exact occurrence of the old text as a character span [from, to) of the LF-joined file text, plus its line span. */
export interface Match {
  from: number;
  to: number;
  /** First and last line (1-based) the span touches. */
  startLine: number;
  endLine: number;
}

/** Typographic characters models and editors substitute for ASCII, each mapped 1:1 so offsets survive. */
const UNICODE_FOLD: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2033': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u00a0': ' ',
  '\u2007': ' ',
  '\u2009': ' ',
  '\u200a': ' ',
  '\u202f': ' ',
  '\u3000': ' ',
  '\u2026': '.',
};

/** A line as the forgiving comparisons see it: look-alikes folded, whitespace at both ends dropped. */
export function looseKey(line: string): string {
  return foldUnicode(line).trim();
}

function foldUnicode(text: string): string {
  return text.replace(
    /[\u2018\u2019\u201a\u201b\u2032\u201c\u201d\u201e\u201f\u2033\u2010-\u2015\u2212\u00a0\u2007\u2009\u200a\u202f\u3000\u2026]/g,
    (c) => UNICODE_FOLD[c]!,
  );
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

/** Every non-overlapping exact occurrence of `old` in the LF-joined `text`. */
export function exactMatches({ text, old }: { text: string; old: string }): Match[] {
  const starts = lineStarts(text);
  const out: Match[] = [];
  for (let i = text.indexOf(old); i >= 0; i = text.indexOf(old, i + old.length)) {
    out.push({ from: i, to: i + old.length, startLine: lineOf(starts, i), endLine: lineOf(starts, Math.max(i, i + old.length - 1)) });
  }
  return out;
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
  const scored = fileLines
    .map((l, i) => ({ i, s: similarity(l.trim(), oldLines[first]!) }))
    .sort((a, b) => b.s - a.s)
    .slice(0, 20);
  let best = { i: 0, s: -1 };
  for (const { i } of scored) {
    const top = i - first;
    let s = 0;
    for (let j = 0; j < oldLines.length; j++) s += similarity((fileLines[top + j] ?? '').trim(), oldLines[j]!);
    if (s > best.s) best = { i: Math.max(0, top), s };
  }
  return best.i + 1;
}
