// Writes a located hunk into the file's lines: context keeps the file's bytes, added lines take the
// indentation transform the old lines prove and the endings of the lines they replace — then a
// self-check re-derives every hunk from the result, so a wrong splice is refused, never written.
import { diffArrays } from 'diff';
import type { HunkLine } from './patch-parse';
import { columns, indentOf, inferIndent } from './indent';
import { looseKey } from './match';
import type { Strategy } from './locate';
import type { LineIndex } from './text';

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

/** `placement`: the placement as written (its lines re-read when their indentation was read line for line), for the self-check. */
export type Placed = { kind: 'ok'; out: Line[]; placement: Placement } | { kind: 'refused'; reason: string };

export const oldSide = (lines: HunkLine[]) => lines.filter((l) => l.op !== '+');

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
 * The lines that replace lines [at, at + old lines) of the file. Exact places write added lines as given;
 * places found despite whitespace or look-alike characters re-indent them by the one transform
 * every old line agrees on, and refuse when there is none. `modelText`: all the model wrote for the
 * file (its unit shows better in a whole patch than in one hunk); the hunk's own lines by default.
 */
export function placeHunk({
  index,
  placement,
  fileText,
  modelText,
}: {
  index: LineIndex;
  placement: Placement;
  fileText: () => string;
  modelText?: () => string;
}): Placed {
  const { at, strategy } = placement;
  let lines = placement.lines;
  const old = oldSide(lines);
  const window = old.map((_, j) => lineWithEnd(index, at + j));
  const eol = index.eol;
  let map = (indent: string): string | null => indent;
  if (strategy !== 'exact' && strategy !== 'line-endings' && strategy !== 'position' && lines.some((l) => l.op === '+' && l.text.trim())) {
    const pairs = old
      .map((l, j) => ({ model: indentOf(l.text), file: indentOf(window[j]!.text), blank: !l.text.trim() }))
      .filter((p) => !p.blank);
    const modelChars = new Set(pairs.flatMap((p) => [...p.model]));
    const fileChars = new Set(pairs.flatMap((p) => [...p.file]));
    // An indentation led by a character only the file uses (tabs where the model indented with
    // spaces, or the reverse) was copied from the file: it stays. Only the lead counts: a tab then an
    // aligning space (` * ` of a doc comment) is the model's own. Old lines with no indentation show no style.
    const copied = (indent: string) => modelChars.size > 0 && indent.length > 0 && !modelChars.has(indent[0]!) && fileChars.has(indent[0]!);
    const toMap = lines.filter((l) => l.op === '+' && l.text.trim() && !copied(indentOf(l.text))).map((l) => indentOf(l.text));
    const flat = toMap.length ? flatReading(lines, window, pairs) : null;
    if (flat) lines = lines.map((l, i) => (flat.has(i) ? { ...l, text: flat.get(i)! + l.text } : l));
    else if (toMap.length) {
      const inferred = inferIndent({
        pairs,
        added: toMap,
        modelText: modelText?.() ?? lines.map((l) => l.text).join('\n'),
        fileText: fileText(),
      });
      if (inferred.kind === 'refused') return { kind: 'refused', reason: inferred.reason };
      map = (indent) => (copied(indent) ? indent : inferred.map(indent));
    }
  }
  const ends = endings(
    lines,
    window,
    at > 0 ? lineWithEnd(index, at - 1) : undefined,
    at + old.length < index.total ? lineWithEnd(index, at + old.length) : undefined,
    eol,
  );
  const out: Line[] = [];
  let k = 0;
  let a = 0;
  for (const l of lines) {
    if (l.op === ' ') out.push(window[k++]!);
    else if (l.op === '-') k++;
    else {
      const indent = indentOf(l.text);
      const mapped = l.text.trim() ? map(indent) : indent;
      if (mapped === null)
        return { kind: 'refused', reason: `the added line ${JSON.stringify(l.text)} is indented less than the old lines allow` };
      out.push({ text: mapped + l.text.slice(indent.length), end: ends[a++]! });
    }
  }
  return { kind: 'ok', out, placement: lines === placement.lines ? placement : { ...placement, lines } };
}

/**
 * Old and new text written with no indentation at all against lines the file indents unevenly: no
 * one transform maps them, but where every change replaces one line by one other line, each new line
 * takes the indentation of the line it replaces. A run of several lines (their structure may change
 * within it), lines added or taken away, or a line replaced by its own text (only its depth can have
 * changed) leave the depth of a new line unknown: null, and the usual rule refuses.
 */
function flatReading(lines: HunkLine[], window: Line[], pairs: Array<{ model: string; file: string }>): Map<number, string> | null {
  if (!pairs.length || pairs.some((p) => p.model !== '') || new Set(pairs.map((p) => p.file)).size < 2) return null;
  if (lines.some((l) => l.op === '+' && indentOf(l.text) !== '')) return null;
  const out = new Map<number, string>();
  let k = 0;
  let removed: number[] = [];
  let added: number[] = [];
  const close = () => {
    if (removed.length !== added.length || removed.length > 1) return false;
    // A line "changed" into its own text changed only its depth, which flat text cannot say.
    if (added.some((i, j) => lines[i]!.text.trim() === window[removed[j]!]!.text.trim())) return false;
    added.forEach((i, j) => out.set(i, indentOf(window[removed[j]!]!.text)));
    removed = [];
    added = [];
    return true;
  };
  for (const [i, l] of lines.entries()) {
    if (l.op === '+') added.push(i);
    else if (l.op === '-') removed.push(k++);
    else {
      if (!close()) return null;
      k++;
    }
  }
  return close() ? out : null;
}

/** Line `i` (0-based) of an indexed text with its terminator. */
export function lineWithEnd(index: LineIndex, i: number): Line {
  const { text, starts, stops, total } = index;
  return { text: text.slice(starts[i], stops[i]), end: text.slice(stops[i], i + 1 < total ? starts[i + 1] : text.length) };
}

const offsetOf = (index: LineIndex, line: number) => (line < index.total ? index.starts[line]! : index.text.length);

/**
 * The new text: the image's own text between hunks (sliced, never rebuilt line by line), each
 * hunk's placed lines in its place. Every line but the last ends with a terminator; the last one
 * has one as `finalNewline` says, when a hunk reached the end (else it is the file's own).
 */
export function assemble({
  index,
  placed,
  finalNewline,
}: {
  index: LineIndex;
  placed: Array<{ placement: Placement; out: Line[] }>;
  finalNewline: boolean;
}): { text: string; starts: number[] } {
  const { text } = index;
  const pieces: string[] = [];
  const starts: number[] = [];
  let length = 0;
  let pos = 0;
  let reachedEnd = false;
  const push = (s: string) => {
    pieces.push(s);
    length += s.length;
  };
  for (const { placement, out } of [...placed].sort((a, b) => a.placement.at - b.placement.at)) {
    const from = offsetOf(index, placement.at);
    push(text.slice(pos, from));
    // Lines added after a last line that had no terminator: it needs one now.
    if (placement.at === index.total && index.total > 0 && out.length && !/[\r\n]$/.test(text)) push(index.eol);
    starts.push(length);
    const to = placement.at + oldSide(placement.lines).length;
    const last = to === index.total;
    out.forEach((l, i) => push(l.text + (l.end || (last && i === out.length - 1 ? '' : index.eol))));
    reachedEnd ||= last;
    pos = offsetOf(index, to);
  }
  push(text.slice(pos));
  let result = pieces.join('');
  if (reachedEnd && result) {
    const ending = /(\r\n|\n|\r)$/.exec(result)?.[0];
    if (finalNewline && !ending) result += index.eol;
    if (!finalNewline && ending) result = result.slice(0, -ending.length);
  }
  return { text: result, starts };
}

/**
 * The self-check: re-derives each hunk from the new text itself — its context the file's own
 * lines, each added line the model's text (but for indentation) with the model's relative depth.
 * A mismatch names the hunk; the caller writes nothing.
 */
export function verifyPlaced({
  index,
  result,
  placements,
}: {
  index: LineIndex;
  result: { text: string; starts: number[] };
  placements: Placement[];
}): string | null {
  const sorted = [...placements].sort((a, b) => a.at - b.at);
  for (const [i, p] of sorted.entries()) {
    const derived = linesFrom(result.text, result.starts[i]!, p.lines.length);
    let old = p.at;
    let j = 0;
    let prev: { model: string; out: string } | null = null;
    for (const l of p.lines) {
      if (l.op === '-') {
        old++;
        continue;
      }
      const got = derived[j++];
      if (got === undefined) return `hunk ${i + 1} ends past the end of the result`;
      if (l.op === ' ') {
        if (got !== lineWithEnd(index, old++).text) return `hunk ${i + 1}: a context line changed`;
        continue;
      }
      if (looseKey(got) !== looseKey(l.text)) return `hunk ${i + 1}: an added line is not what was asked`;
      if (!l.text.trim()) continue;
      const depth = (s: string) => columns(indentOf(s), 4);
      if (prev && Math.sign(depth(l.text) - depth(prev.model)) !== Math.sign(depth(got) - depth(prev.out)))
        return `hunk ${i + 1}: the added lines lost their relative indentation`;
      prev = { model: l.text, out: got };
    }
  }
  return null;
}

/** Up to `count` lines of `text` from offset `from`, without their terminators. */
function linesFrom(text: string, from: number, count: number): string[] {
  const out: string[] = [];
  let pos = from;
  while (out.length < count && pos < text.length) {
    let stop = pos;
    while (stop < text.length && text.charCodeAt(stop) !== 10 && text.charCodeAt(stop) !== 13) stop++;
    out.push(text.slice(pos, stop));
    pos = stop + (text.startsWith('\r\n', stop) ? 2 : 1);
  }
  return out;
}

/**
 * An edit's old and new lines as a hunk: the lines a line diff leaves unchanged are context (so
 * they keep the file's bytes, as a patch's context does), the rest removed and added.
 */
export function hunkFromEdit(oldLines: string[], newLines: string[]): HunkLine[] {
  return diffArrays(oldLines, newLines).flatMap((part) =>
    part.value.map((text) => ({ op: part.added ? '+' : part.removed ? '-' : ' ', text }) as HunkLine),
  );
}
