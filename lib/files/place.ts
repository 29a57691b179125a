// Writes a located hunk into the file's lines: context keeps the file's bytes, added lines take the
// indentation transform the old lines prove and the endings of the lines they replace — then a
// self-check re-derives every hunk from the result, so a wrong splice is refused, never written.
import { diffArrays } from 'diff';
import type { HunkLine } from './patch-parse';
import { columns, indentOf, inferIndent } from './indent';
import { foldUnicode } from './match';
import type { Strategy } from './locate';

/** A line and its terminator ('' for a last line without a final newline). */
export interface Line {
  text: string;
  end: string;
}

export interface Placement {
  /** Where the hunk's old lines start in the file before it (0-based). */
  at: number;
  lines: HunkLine[];
  strategy: Strategy | 'position';
}

export type Placed = { kind: 'ok'; out: Line[] } | { kind: 'refused'; reason: string };

export const oldSide = (lines: HunkLine[]) => lines.filter((l) => l.op !== '+');

/**
 * Which way the model wrote its added lines, by what they show: an added line indented like the
 * file's version of the line it replaces (or of the old line just above it) and not like the
 * model's own was copied from the file; the other way round, written in the model's drifted style.
 * A replaced line is stronger evidence than a neighbour; no evidence means the model's style.
 */
function addedStyle(lines: HunkLine[], window: Line[]): 'model' | 'file' {
  let model = 0;
  let file = 0;
  const vote = (added: string, old: HunkLine, fileLine: string, weight: number) => {
    const [a, m, f] = [indentOf(added), indentOf(old.text), indentOf(fileLine)];
    if (a === m && a !== f) model += weight;
    else if (a === f && a !== m) file += weight;
  };
  let k = 0; // index into the window (old lines)
  let lastOld: { line: HunkLine; file: string } | null = null;
  let removed: Array<{ line: HunkLine; file: string }> = [];
  let addedInRun = 0;
  for (const l of lines) {
    if (l.op === '+') {
      if (l.text.trim()) {
        const pair = removed[addedInRun];
        if (pair) vote(l.text, pair.line, pair.file, 2);
        else if (lastOld) vote(l.text, lastOld.line, lastOld.file, 1);
      }
      addedInRun++;
      continue;
    }
    const entry = { line: l, file: window[k++]!.text };
    if (l.op === ' ') removed = [];
    else if (addedInRun) removed = [];
    if (l.op === '-') removed.push(entry);
    addedInRun = 0;
    if (l.text.trim()) lastOld = entry;
  }
  return file > model ? 'file' : 'model';
}

/** The terminator an added line gets: that of the removed line it takes the place of, else of the line before it. */
function endings(lines: HunkLine[], window: Line[], before: Line | undefined, after: Line | undefined, eol: string): string[] {
  const out: string[] = [];
  let k = 0;
  let removedEnds: string[] = [];
  let added = 0;
  let previous = before?.end || after?.end || eol;
  for (const l of lines) {
    if (l.op === '+') {
      out.push(removedEnds[added] ?? removedEnds.at(-1) ?? previous);
      added++;
      continue;
    }
    const w = window[k++]!;
    if (l.op === ' ' || added) removedEnds = [];
    if (l.op === '-') removedEnds.push(w.end || eol);
    else previous = w.end || eol;
    added = 0;
  }
  return out;
}

/**
 * The lines that replace `file[at, at + old lines)`. Exact places write added lines as given;
 * places found despite whitespace or look-alike characters re-indent them by the one transform
 * every old line agrees on, and refuse when there is none.
 */
export function placeHunk({ file, placement, eol, fileText }: { file: Line[]; placement: Placement; eol: string; fileText: () => string }): Placed {
  const { at, lines, strategy } = placement;
  const old = oldSide(lines);
  const window = file.slice(at, at + old.length);
  let map = (indent: string): string | null => indent;
  if (strategy !== 'exact' && strategy !== 'line-endings' && strategy !== 'position' && lines.some((l) => l.op === '+' && l.text.trim())) {
    const style = addedStyle(lines, window);
    const pairs = old.map((l, j) => ({ model: indentOf(l.text), file: indentOf(window[j]!.text), blank: !l.text.trim() })).filter((p) => !p.blank);
    const modelChars = new Set(pairs.flatMap((p) => [...p.model]));
    const fileChars = new Set(pairs.flatMap((p) => [...p.file]));
    // An indentation in characters only the file uses was copied from the file: it stays.
    const copied = (indent: string) => [...indent].some((c) => !modelChars.has(c) && fileChars.has(c));
    const toMap = style === 'file' ? [] : lines.filter((l) => l.op === '+' && l.text.trim() && !copied(indentOf(l.text))).map((l) => indentOf(l.text));
    if (toMap.length) {
      const inferred = inferIndent({ pairs, added: toMap, modelText: lines.map((l) => l.text).join('\n'), fileText: fileText() });
      if (inferred.kind === 'refused') return { kind: 'refused', reason: inferred.reason };
      map = (indent) => (copied(indent) ? indent : inferred.map(indent));
    }
    if (style === 'file') map = (indent) => indent;
  }
  const ends = endings(lines, window, file[at - 1], file[at + old.length], eol);
  const out: Line[] = [];
  let k = 0;
  let a = 0;
  for (const l of lines) {
    if (l.op === ' ') out.push(window[k++]!);
    else if (l.op === '-') k++;
    else {
      const indent = indentOf(l.text);
      const mapped = l.text.trim() ? map(indent) : indent;
      if (mapped === null) return { kind: 'refused', reason: `the added line ${JSON.stringify(l.text)} is indented less than the old lines allow` };
      out.push({ text: mapped + l.text.slice(indent.length), end: ends[a++]! });
    }
  }
  return { kind: 'ok', out };
}

const loose = (s: string) => foldUnicode(s).trim();

/**
 * The self-check: re-derives each hunk from the written lines. Everything between hunks must be the
 * file's own lines; each hunk's context the file's lines; each added line the model's text (but
 * for indentation) with the model's relative depth. A mismatch names the hunk; nothing is written.
 */
export function verifyPlacements({ before, after, placements }: { before: Line[]; after: Line[]; placements: Placement[] }): string | null {
  let src = 0;
  let dst = 0;
  const sorted = [...placements].sort((a, b) => a.at - b.at);
  for (const [i, p] of sorted.entries()) {
    for (; src < p.at; src++, dst++) if (after[dst]?.text !== before[src]!.text || after[dst]?.end !== before[src]!.end) return `line ${dst + 1} changed outside every hunk`;
    let prev: { model: string; out: string } | null = null;
    for (const l of p.lines) {
      if (l.op === '-') {
        src++;
        continue;
      }
      const got = after[dst++];
      if (!got) return `hunk ${i + 1} ends past the end of the result`;
      if (l.op === ' ') {
        if (got.text !== before[src++]!.text) return `hunk ${i + 1}: a context line changed`;
        continue;
      }
      if (loose(got.text) !== loose(l.text)) return `hunk ${i + 1}: an added line is not what the patch adds`;
      if (l.text.trim()) {
        if (prev) {
          const sign = (x: number) => Math.sign(x);
          if (sign(columns(indentOf(l.text), 4) - columns(indentOf(prev.model), 4)) !== sign(columns(indentOf(got.text), 4) - columns(indentOf(prev.out), 4))) {
            return `hunk ${i + 1}: the added lines lost their relative indentation`;
          }
        }
        prev = { model: l.text, out: got.text };
      }
    }
  }
  for (; src < before.length; src++, dst++) if (after[dst]?.text !== before[src]!.text) return `line ${dst + 1} changed outside every hunk`;
  return dst === after.length ? null : 'the result has lines no hunk accounts for';
}

/**
 * An edit's old and new lines as a hunk: the lines a line diff leaves unchanged are context (so
 * they keep the file's bytes, as a patch's context does), the rest removed and added.
 */
export function hunkFromEdit(oldLines: string[], newLines: string[]): HunkLine[] {
  return diffArrays(oldLines, newLines).flatMap((part) => part.value.map((text) => ({ op: part.added ? '+' : part.removed ? '-' : ' ', text }) as HunkLine));
}

/** Replaces each placement's old lines with its placed lines, in one pass over the file. */
export function splice(file: Line[], placed: Array<{ placement: Placement; out: Line[] }>): Line[] {
  const result: Line[] = [];
  let src = 0;
  for (const { placement, out } of [...placed].sort((a, b) => a.placement.at - b.placement.at)) {
    for (; src < placement.at; src++) result.push(file[src]!);
    result.push(...out);
    src += oldSide(placement.lines).length;
  }
  for (; src < file.length; src++) result.push(file[src]!);
  return result;
}

