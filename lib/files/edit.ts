// forge edit's engine: replace text found by the match cascade, or apply anchored line edits — all
// checked before anything is written, written atomically, the file's encoding and line endings kept.
import { readFile } from 'node:fs/promises';
import { InvalidInputError, RefusedError } from '../errors';
import { withArguments, shellJoin } from '../quote';
import { lineHash, parseAnchor, type Anchor } from './anchor';
import { LineLookup, locate, relaxations, type Found, type Strategy } from './locate';
import { exactMatches, nearestLine } from './match';
import { assemble, hunkFromEdit, oldSide, placeHunk, verifyPlaced, type Line, type Placement } from './place';
import type { HunkLine } from './patch-parse';
import { windowOf, type WindowLine } from './read';
import { decodeText, encodeString, encodeText, indexLines, isBinary, lineAt, type LineIndex, type TextFile } from './text';
import { resolveInside, statTarget, type Workspace } from './workspace';
import type { StepHook } from './journal';
import { spliceExact } from './splice';
import type { EditResult } from './edit-result';
import { replaceFile } from './write';

/** Lines shown around a refusal, so the model can retry without reading the file again. */
const REGION_RADIUS = 15;
/** Lines of context shown around a successful edit, with their fresh anchors. */
const CONTEXT = 3;

export type { EditResult };

interface Loaded {
  abs: string;
  display: string;
  file: TextFile;
}

async function load(ws: Workspace, path: string): Promise<Loaded> {
  const { abs, display, buf } = await loadBytes(ws, path);
  return { abs, display, file: decodeText(buf) };
}

/** The file's bytes, refused when missing, a directory or binary. */
async function loadBytes(ws: Workspace, path: string): Promise<{ abs: string; display: string; buf: Buffer }> {
  const { abs, display } = await resolveInside({ ws, path });
  await statTarget({ abs, display });
  const buf = await readFile(abs).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT')
      throw new RefusedError('FILE_NOT_FOUND', `no such file '${display}'`, {
        fix: shellJoin(['forge', 'write', display, '--content', '']),
        data: { path: display },
      });
    if (err.code === 'EISDIR')
      throw new InvalidInputError('IS_A_DIRECTORY', `'${display}' is a directory`, { fix: shellJoin(['forge', 'ls', `${display}/**`]) });
    throw err;
  });
  if (isBinary(buf))
    throw new RefusedError('BINARY_FILE', `'${display}' is a binary file; forge edit changes text files`, {
      fix: shellJoin(['forge', 'read', display]),
    });
  return { abs, display, buf };
}

/** Lines `center ± radius` of the file with anchors, for refusals. */
function regionAround(file: TextFile, center: number, radius = REGION_RADIUS): { start: number; lines: WindowLine[] } {
  const start = Math.max(1, center - radius);
  const end = Math.min(file.lines.length, center + radius);
  return { start, lines: file.lines.length ? windowOf({ file, start, end }).lines : [] };
}

function renderRegion(lines: WindowLine[]): string {
  return lines.map((l) => `${l.n}#${l.hash}: ${l.text}`).join('\n');
}

function readFix(display: string, lines: WindowLine[]): string {
  if (!lines.length) return shellJoin(['forge', 'read', display]);
  return shellJoin(['forge', 'read', display, '--start', String(lines[0]!.n), '--end', String(lines[lines.length - 1]!.n)]);
}

/** The file as one LF-joined string (what matching works on). */
function lfView(file: TextFile): string {
  return file.lines.join('\n') + (file.ends.at(-1) ? '\n' : '');
}

/**
 * Turns an edited LF view back into text with endings: lines outside the edited span keep theirs;
 * inside it, a line diff pairs new lines with old ones, so an unchanged or changed line keeps its
 * own ending and an added line takes that of the line it replaces or follows (see place.ts).
 */
function fromView(view: string, index: LineIndex, startLine: number, endLine: number): string {
  // The view holds only LF line breaks: every \r was normalized on the way in.
  const restored = view === '' ? [] : view.replace(/\n$/, '').split('\n');
  const before = startLine - 1;
  const after = index.total - endLine;
  const old = Array.from({ length: endLine - before }, (_, j) => lineAt(index, before + j + 1));
  const placement: Placement = { at: before, lines: hunkFromEdit(old, restored.slice(before, restored.length - after)), strategy: 'exact' };
  const placed = placeHunk({ index, placement, fileText: () => '' });
  if (placed.kind === 'refused') throw new Error(`an exact edit was refused by placement: ${placed.reason}`);
  return assemble({ index, placed: [placed], finalNewline: view.endsWith('\n') }).text;
}

function resultRegion(text: string, startLine: number, endLine: number): { regionStart: number; region: WindowLine[] } {
  const index = indexLines(text);
  if (!index.total) return { regionStart: 0, region: [] };
  const regionStart = Math.max(1, startLine - CONTEXT);
  const end = Math.min(index.total, Math.max(startLine, endLine) + CONTEXT);
  return { regionStart, region: windowOf({ index, start: regionStart, end }).lines };
}

function checkAnchor(file: TextFile, display: string, anchor: Anchor, label: string): void {
  const line = file.lines[anchor.line - 1];
  if (line !== undefined && lineHash(line) === anchor.hash) return;
  const region = regionAround(file, Math.min(Math.max(anchor.line, 1), Math.max(file.lines.length, 1)));
  const now =
    line === undefined ? `the file has ${file.lines.length} lines` : `line ${anchor.line} is now ${anchor.line}#${lineHash(line)}`;
  // A hash no line of the file has was not read from it as it is: say so, not that it changed.
  const why = file.lines.some((l) => lineHash(l) === anchor.hash)
    ? 'the file changed since it was read'
    : `no line of the file has the hash ${anchor.hash}: the anchor is not one forge read gave for it (copy N#HASH from forge read), or the line is gone`;
  throw new RefusedError(
    'ANCHOR_MISMATCH',
    `${label} ${anchor.line}#${anchor.hash} does not match: ${now} — ${why}. Fresh lines ${region.lines[0]?.n ?? 0}–${region.lines.at(-1)?.n ?? 0}:\n${renderRegion(region.lines)}`,
    { fix: readFix(display, region.lines), data: { path: display, anchor: `${anchor.line}#${anchor.hash}`, region: region.lines } },
  );
}

function anchorArg(text: string, field: string): Anchor {
  const a = parseAnchor(text);
  if (!a)
    throw new InvalidInputError(
      'INVALID_ANCHOR',
      `'${field}' must be an anchor <line>#<hash> as forge read prints it (like 42#a3f0), got '${text}'`,
      { fix: 'forge edit --help' },
    );
  return a;
}

/** Replaces `old` with `new`, found by the cascade; refuses stale anchors, ambiguity and no match. */
export async function replaceText({
  ws,
  path,
  old,
  replacement,
  anchor,
  all,
  onStep,
}: {
  ws: Workspace;
  path: string;
  old: string;
  replacement: string;
  anchor?: string;
  all: boolean;
  onStep?: StepHook;
}): Promise<EditResult> {
  if (old === '')
    throw new InvalidInputError(
      'INVALID_ARGUMENT',
      "'old' is empty: to insert lines use --after/--before with an anchor, to create a file forge write",
      { fix: 'forge edit --help' },
    );
  const oldLf = old.replace(/\r\n?/g, '\n');
  const newLf = replacement.replace(/\r\n?/g, '\n');
  if (oldLf === newLf)
    throw new InvalidInputError('INVALID_ARGUMENT', "'old' and 'new' are the same: nothing to change", { fix: 'forge edit --help' });
  const { abs, display, buf } = await loadBytes(ws, path);
  const at = anchor !== undefined ? anchorArg(anchor, 'anchor') : undefined;
  // Found exactly (the common case): spliced in the bytes, without the copies the cascade makes of a big file.
  const spliced = spliceExact({ buf, old, oldLf, newLf, anchor: at, all, context: CONTEXT });
  if (spliced) {
    await replaceFile({ ws, abs, data: spliced.chunks, onStep });
    return { path: display, ...spliced.edit };
  }
  const file = decodeText(buf);
  if (at) checkAnchor(file, display, at, 'anchor');

  const view = lfView(file);
  // The file's text with its own endings, indexed once: what placement slices.
  const index = indexLines(file.lines.map((l, i) => l + file.ends[i]).join(''));
  let matches = exactMatches({ text: view, old: oldLf });
  if (at) matches = matches.filter((m) => m.startLine <= at.line && at.line <= m.endLine);
  if (!matches.length) return replaceLines({ abs, display, file, index, ws, oldLf, newLf, at, all, onStep });
  if (matches.length > 1 && !all)
    throw ambiguous(
      display,
      oldLf,
      matches.map((m) => m.startLine),
    );

  // Replace from the end so earlier offsets stay valid.
  let next = view;
  for (const m of [...matches].sort((a, b) => b.from - a.from)) next = next.slice(0, m.from) + newLf + next.slice(m.to);
  const first = matches[0]!;
  const last = matches.at(-1)!;
  const edited = fromView(next, index, first.startLine, last.endLine);
  await replaceFile({ ws, abs, data: encodeString(edited, file), onStep });

  const addedLines = newLf.split('\n').length - oldLf.split('\n').length;
  const startLine = first.startLine;
  const endLine = matches.length === 1 ? Math.max(startLine, first.endLine + addedLines) : startLine;
  return {
    path: display,
    strategy: index.text.includes(old) ? 'exact' : 'line-endings',
    replacements: matches.length,
    startLine,
    endLine,
    ...resultRegion(edited, startLine, endLine),
  };
}

function ambiguous(display: string, oldLf: string, lines: number[]): RefusedError {
  const firstLine = oldLf.split('\n').find((l) => l.trim()) ?? oldLf;
  return new RefusedError(
    'AMBIGUOUS_MATCH',
    `the old text matches ${lines.length} places in '${display}' (lines ${lines.join(', ')}); pass --anchor with the anchor of the one you mean, add context to make it unique, or --all`,
    {
      fix: shellJoin(withArguments(['forge', 'search'], [firstLine.trim(), display], ['--literal'])),
      data: { path: display, lines },
    },
  );
}

/**
 * The old text located loosely: as written, then each relaxation of it, until one is found (or is
 * ambiguous) — near the anchor when there is one. Not found anywhere is NO_MATCH with the nearest region.
 */
function locateLoosely({
  file,
  index,
  display,
  oldLf,
  newLf,
  at,
}: {
  file: TextFile;
  index: LineIndex;
  display: string;
  oldLf: string;
  newLf: string;
  at: Anchor | undefined;
}): { found: Exclude<Found, { kind: 'none' }>; hunk: HunkLine[] } {
  const asWritten = hunkFromEdit(oldLf.replace(/\n$/, '').split('\n'), newLf === '' ? [] : newLf.replace(/\n$/, '').split('\n'));
  const lookup = LineLookup.of(index);
  for (const candidate of [asWritten, ...relaxations(asWritten)]) {
    const old = oldSide(candidate).map((l) => l.text);
    if (!old.length) continue;
    const found = locate(lookup, { old, from: 0, ...(at ? { cover: at.line - 1 } : {}) });
    if (found.kind !== 'none') return { found, hunk: candidate };
  }
  const near = at ? at.line : nearestLine({ fileLines: file.lines, old: oldLf });
  const region = regionAround(file, near);
  const where = at ? ` at line ${at.line}` : '';
  throw new RefusedError(
    'NO_MATCH',
    `the old text was not found in '${display}'${where}; the nearest region, lines ${region.lines[0]?.n ?? 0}–${region.lines.at(-1)?.n ?? 0}:\n${renderRegion(region.lines)}`,
    {
      fix: readFix(display, region.lines),
      data: { path: display, region: region.lines },
    },
  );
}

/** The hunk placed at each start, re-indented as its old lines prove; a place whose indentation is unclear is refused. */
function placeEach({
  file,
  index,
  display,
  hunk,
  starts,
  strategy,
}: {
  file: TextFile;
  index: LineIndex;
  display: string;
  hunk: HunkLine[];
  starts: number[];
  strategy: Strategy;
}): { placements: Placement[]; placed: Array<{ placement: Placement; out: Line[] }> } {
  const size = oldSide(hunk).length;
  const placements: Placement[] = starts.map((start) => ({ at: start, lines: hunk, strategy }));
  const placed = placements.map((placement) => {
    const r = placeHunk({ index, placement, fileText: () => index.text.slice(0, 256 * 1024) });
    if (r.kind === 'ok') return { placement: r.placement, out: r.out };
    const region = regionAround(file, placement.at + 1, size + 2);
    throw new RefusedError(
      'INDENTATION_UNCLEAR',
      `the old text matches lines ${placement.at + 1}–${placement.at + size} of '${display}' but for whitespace, and ${r.reason}; write the old and new text indented as the file is:\n${renderRegion(region.lines)}`,
      {
        fix: readFix(display, region.lines),
        data: { path: display, region: region.lines },
      },
    );
  });
  return { placements: placed.map((p) => p.placement), placed };
}

/**
 * Whether the file ends with a newline after a loose edit: as an exact replacement would leave it.
 * An old text that reaches the file's last line hands its ending to the new text's: old ending in a
 * newline, the new one's decides; old without it, the file's or the new one's. Deleted lines leave
 * the ending as it was.
 */
function finalNewlineAfter({
  file,
  index,
  oldLf,
  newLf,
  placements,
  size,
}: {
  file: TextFile;
  index: LineIndex;
  oldLf: string;
  newLf: string;
  placements: Placement[];
  size: number;
}): boolean {
  const had = file.ends.at(-1) !== '';
  if (newLf === '' || !placements.some((p) => p.at + size === index.total)) return had;
  return oldLf.endsWith('\n') ? newLf.endsWith('\n') : had || newLf.endsWith('\n');
}

/**
 * The old text is not in the file as written: whole lines are compared with whitespace, then
 * Unicode look-alikes folded (and the model's copied line numbers or a stray blank edge line
 * dropped), by the same locating and placing rules as forge patch — one place only, the new lines
 * re-indented by the transform every old line proves, context lines left as the file has them.
 */
async function replaceLines({
  ws,
  abs,
  display,
  file,
  index,
  oldLf,
  newLf,
  at,
  all,
  onStep,
}: {
  ws: Workspace;
  abs: string;
  display: string;
  file: TextFile;
  index: LineIndex;
  oldLf: string;
  newLf: string;
  at: Anchor | undefined;
  all: boolean;
  onStep?: StepHook;
}): Promise<EditResult> {
  const { found, hunk } = locateLoosely({ file, index, display, oldLf, newLf, at });
  if (found.kind === 'ambiguous' && !all)
    throw ambiguous(
      display,
      oldLf,
      found.at.map((h) => h + 1),
    );
  const size = oldSide(hunk).length;
  const starts = found.kind === 'found' ? [found.at] : found.at.filter((h, i, list) => i === 0 || h >= list[i - 1]! + size);
  const { placements, placed } = placeEach({ file, index, display, hunk, starts, strategy: found.strategy });
  const result = assemble({ index, placed, finalNewline: finalNewlineAfter({ file, index, oldLf, newLf, placements, size }) });
  const wrong = verifyPlaced({ index, result, placements });
  if (wrong)
    throw new RefusedError(
      'SELF_CHECK_FAILED',
      `forge's self-check refused the edit of '${display}' (${wrong}): it would have written something other than what was asked. Nothing was changed; please report this with the edit`,
      { fix: shellJoin(['forge', 'read', display]), data: { path: display } },
    );
  const edited = result.text;
  await replaceFile({ ws, abs, data: encodeString(edited, file), onStep });
  const startLine = starts[0]! + 1;
  const added = hunk.filter((l) => l.op !== '-').length;
  const endLine = starts.length === 1 ? Math.max(startLine, startLine + added - 1) : startLine;
  return {
    path: display,
    strategy: found.strategy,
    replacements: starts.length,
    startLine,
    endLine,
    ...resultRegion(edited, startLine, endLine),
  };
}

/** One anchored line edit: replace or delete lines A..B, or insert after/before line A. */
export interface LineOp {
  kind: 'replace' | 'delete' | 'after' | 'before';
  from: Anchor;
  to: Anchor;
  text: string;
}

/** Reads one op from its fields: {lines: "A#h[..B#h]", new} | {lines, delete: true} | {after|before: "A#h", new}. */
export function parseLineOp(raw: Record<string, unknown>): LineOp {
  const str = (k: string) => (typeof raw[k] === 'string' ? (raw[k] as string) : undefined);
  const text = str('new');
  const del = raw.delete === true;
  const modes = ['lines', 'after', 'before'].filter((k) => str(k) !== undefined);
  if (modes.length !== 1)
    throw new InvalidInputError('INVALID_ARGUMENT', 'each line edit needs exactly one of lines, after, before', {
      fix: 'forge edit --help',
    });
  const mode = modes[0]!;
  if (mode === 'lines') {
    const [a, b] = str('lines')!.split('..');
    const from = anchorArg(a!, 'lines');
    const to = b === undefined ? from : anchorArg(b, 'lines');
    if (to.line < from.line)
      throw new InvalidInputError('INVALID_ARGUMENT', `the range ${str('lines')} ends before it starts`, { fix: 'forge edit --help' });
    if (del && text !== undefined)
      throw new InvalidInputError('INVALID_ARGUMENT', 'give new text or delete, not both', { fix: 'forge edit --help' });
    if (!del && text === undefined)
      throw new InvalidInputError('MISSING_ARGUMENT', `replacing lines ${str('lines')} needs new text (or delete)`, {
        fix: 'forge edit --help',
      });
    return { kind: del ? 'delete' : 'replace', from, to, text: text ?? '' };
  }
  if (text === undefined)
    throw new InvalidInputError('MISSING_ARGUMENT', `inserting ${mode} ${str(mode)} needs new text`, { fix: 'forge edit --help' });
  if (del) throw new InvalidInputError('INVALID_ARGUMENT', `delete goes with lines, not ${mode}`, { fix: 'forge edit --help' });
  const at = anchorArg(str(mode)!, mode);
  return { kind: mode as 'after' | 'before', from: at, to: at, text };
}

/** Text to insert as lines: a single trailing newline only ends the last line. */
function textLines(text: string): string[] {
  return text === '' ? [] : text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
}

/**
 * Applies anchored line edits. Every anchor is checked before anything changes; overlapping edits
 * are refused; then the edits apply bottom-up so line numbers stay those of the read.
 */
export async function applyLineOps({
  ws,
  path,
  ops,
  onStep,
}: {
  ws: Workspace;
  path: string;
  ops: LineOp[];
  onStep?: StepHook;
}): Promise<EditResult> {
  if (!ops.length) throw new InvalidInputError('MISSING_ARGUMENT', 'no edits given', { fix: 'forge edit --help' });
  const { abs, display, file } = await load(ws, path);
  for (const op of ops) {
    checkAnchor(file, display, op.from, 'anchor');
    if (op.to !== op.from) checkAnchor(file, display, op.to, 'anchor');
  }
  // Each op claims a span of "slots": line ranges for replace/delete, the gap between lines for inserts.
  const span = (op: LineOp): [number, number] =>
    op.kind === 'after'
      ? [op.from.line + 0.5, op.from.line + 0.5]
      : op.kind === 'before'
        ? [op.from.line - 0.5, op.from.line - 0.5]
        : [op.from.line, op.to.line];
  const sorted = [...ops].sort((a, b) => span(a)[0] - span(b)[0]);
  for (let i = 1; i < sorted.length; i++) {
    if (span(sorted[i]!)[0] <= span(sorted[i - 1]!)[1]) {
      throw new InvalidInputError('OVERLAPPING_EDITS', `edits at lines ${sorted[i - 1]!.from.line} and ${sorted[i]!.from.line} overlap`, {
        fix: 'forge edit --help',
      });
    }
  }
  const lines = [...file.lines];
  const ends = [...file.ends];
  const hadFinalNewline = ends.at(-1) !== '';
  for (const op of [...sorted].reverse()) {
    const insert = textLines(op.text);
    const at = op.kind === 'after' ? op.from.line : op.kind === 'before' ? op.from.line - 1 : op.from.line - 1;
    const remove = op.kind === 'replace' || op.kind === 'delete' ? op.to.line - op.from.line + 1 : 0;
    const keptEnds = ends.slice(at, at + remove);
    lines.splice(at, remove, ...insert);
    ends.splice(at, remove, ...insert.map((_, i) => (insert.length === remove ? keptEnds[i]! : file.eol)));
  }
  // Every line but the last ends with a terminator; the last keeps the file's final-newline state.
  for (let i = 0; i < ends.length - 1; i++) if (!ends[i]) ends[i] = file.eol;
  if (ends.length) ends[ends.length - 1] = hadFinalNewline ? ends[ends.length - 1] || file.eol : '';
  const edited: TextFile = { ...file, lines, ends };
  await replaceFile({ ws, abs, data: encodeText(edited), onStep });

  const firstOp = sorted[0]!;
  const startLine = firstOp.kind === 'after' ? firstOp.from.line + 1 : firstOp.from.line;
  const delta = sorted.reduce(
    (n, op) => n + textLines(op.text).length - (op.kind === 'replace' || op.kind === 'delete' ? op.to.line - op.from.line + 1 : 0),
    0,
  );
  const lastOp = sorted.at(-1)!;
  const endLine = Math.max(startLine, (lastOp.kind === 'after' ? lastOp.from.line : lastOp.to.line) + delta);
  return {
    path: display,
    strategy: 'anchored',
    replacements: ops.length,
    startLine,
    endLine: Math.min(endLine, Math.max(1, lines.length)),
    ...resultRegion(edited.lines.map((l, i) => l + edited.ends[i]).join(''), startLine, endLine),
  };
}
