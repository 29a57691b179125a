// Applies parsed patches in memory: each hunk located by its context (line numbers only choose
// among places), written in the file's own style, and re-checked before anything is written.
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { RefusedError } from '../errors';
import { shellJoin } from '../quote';
import { lineHash } from './anchor';
import { LineLookup, locate, relaxations, type Found, type Strategy, type Want } from './locate';
import { foldUnicode, nearestLine } from './match';
import type { FilePatch, Hunk, HunkLine } from './patch-parse';
import { oldSide, placeHunk, splice, verifyPlacements, type Line, type Placement } from './place';
import { decodeText, encodeText, isBinary, type TextFile } from './text';
import { resolveInside, statTarget, type Workspace } from './workspace';

export interface PlannedFile {
  /** Where the result goes (null: the file is deleted). */
  abs: string | null;
  display: string;
  /** The old file when it moves or is deleted. */
  removeAbs?: string;
  removeDisplay?: string;
  data: Buffer | null;
  kind: FilePatch['kind'];
  hunks: number;
  /** How each hunk was located. */
  strategies: Array<Strategy | 'position'>;
}

function conflict(display: string, message: string, region: Array<{ n: number; text: string }>, data: Record<string, unknown> = {}): RefusedError {
  const shown = region.map((l) => `${l.n}#${lineHash(l.text)}: ${l.text}`).join('\n');
  const first = region[0]?.n;
  return new RefusedError('PATCH_CONFLICT', `${message}${shown ? `\n${shown}` : ''}`, {
    fix: first ? shellJoin(['forge', 'read', display, '--start', String(first), '--end', String(region.at(-1)!.n)]) : shellJoin(['forge', 'read', display]),
    data: { path: display, ...data, region: region.map((l) => ({ n: l.n, hash: lineHash(l.text), text: l.text })) },
  });
}

const loose = (s: string) => foldUnicode(s).trim();
const oldTexts = (lines: HunkLine[]) => oldSide(lines).map((l) => l.text);

/** Context lines before the first change and after the last. */
function contextRuns(lines: HunkLine[]): { leading: number; trailing: number } {
  const first = lines.findIndex((l) => l.op !== ' ');
  const last = lines.findLastIndex((l) => l.op !== ' ');
  return first < 0 ? { leading: lines.length, trailing: 0 } : { leading: first, trailing: lines.length - 1 - last };
}

/** Why a hunk does not apply, with the region of the file nearest to what it expects. */
function notFound(display: string, file: Line[], hunk: HunkLine[], index: number, found: Found): RefusedError {
  if (found.kind === 'ambiguous') {
    const lines = found.at.map((h) => h + 1);
    const why = found.near !== undefined ? `equally near its stated line ${found.near + 1}` : 'and nothing in it tells them apart';
    return conflict(display, `hunk ${index} matches ${lines.length} places in '${display}' (lines ${lines.join(', ')}) ${why}; give it more context, an @@ line above it, or its right line number`, [], { hunk: index, lines });
  }
  const old = oldTexts(hunk);
  const near = nearestLine({ fileLines: file.map((l) => l.text), old: old.join('\n') });
  const region = file.slice(Math.max(0, near - 4), near + old.length + 3).map((l, k) => ({ n: Math.max(0, near - 4) + k + 1, text: l.text }));
  const expected = hunk.filter((l) => l.op !== '+').map((l) => `${l.op}${l.text}`).join('\n');
  const why = found.kind === 'none' && found.reason ? found.reason : 'its context is not in the file';
  return conflict(display, `hunk ${index} does not apply to '${display}': ${why}. The hunk expects:\n${expected}\nThe nearest region of the file:`, region, { hunk: index });
}

/** Where a hunk with no old lines goes: after its seek line, at the end, or at its stated line. */
function insertionPoint(lookup: LineLookup, hunk: Hunk, from: number, drift: number): Found {
  const n = lookup.lines.length;
  if (hunk.atEnd) return { kind: 'found', at: n, strategy: 'exact' };
  if (hunk.seek?.length) {
    const found = locate(lookup, { old: [hunk.seek.at(-1)!], from, seek: hunk.seek.slice(0, -1) });
    return found.kind === 'found' ? { ...found, at: found.at + 1 } : found.kind === 'none' ? { kind: 'none', reason: `its @@ line ${JSON.stringify(hunk.seek.at(-1)!.trim())} is not in the file` } : found;
  }
  // `@@ -N,0 +M,k @@` adds after old line N.
  if (hunk.oldStart !== undefined) return { kind: 'found', at: Math.min(Math.max(0, hunk.oldStart + drift), n), strategy: 'exact' };
  if (!n) return { kind: 'found', at: 0, strategy: 'exact' };
  return { kind: 'none', reason: 'it adds lines without context, an @@ line or a line number: where they go is unknown' };
}

/** Locates a hunk: as written, else as the model probably meant it (see relaxations). */
function find(lookup: LineLookup, hunk: Hunk, want: Omit<Want, 'old'>): { found: Found; lines: HunkLine[] } {
  const { leading, trailing } = contextRuns(hunk.lines);
  const base: Omit<Want, 'old'> = { ...want, atEnd: want.atEnd || hunk.atEnd || hunk.oldNoEol, preferEnd: leading > 0 && trailing < leading, ...(hunk.seek ? { seek: hunk.seek } : {}), ...(hunk.section ? { section: hunk.section } : {}) };
  const first = locate(lookup, { ...base, old: oldTexts(hunk.lines) });
  if (first.kind !== 'none') return { found: first, lines: hunk.lines };
  for (const lines of relaxations(hunk.lines)) {
    const old = oldTexts(lines);
    if (!old.length) continue;
    const found = locate(lookup, { ...base, old });
    if (found.kind !== 'none') return { found, lines };
  }
  return { found: first, lines: hunk.lines };
}

/**
 * Every hunk of one file placed, in the dialect's order: unified and envelope hunks against the
 * original file, in order and apart; SEARCH/REPLACE blocks one after another on the result so far,
 * each in the whole file. The result keeps every line ending and the final-newline state unless a
 * hunk says otherwise (`\ No newline at end of file`).
 */
export function applyHunks({ file, patch, display }: { file: TextFile; patch: FilePatch; display: string }): { lines: Line[]; strategies: PlannedFile['strategies'] } {
  let lines: Line[] = file.lines.map((text, i) => ({ text, end: file.ends[i] ?? '' }));
  const fileText = () => file.lines.slice(0, 5000).join('\n');
  const strategies: PlannedFile['strategies'] = [];
  let endHunk: Hunk | null = null;
  const place = (current: Line[], placement: Placement, index: number): Line[] => {
    const placed = placeHunk({ file: current, placement, eol: file.eol, fileText });
    if (placed.kind === 'refused') {
      const at = placement.at;
      throw conflict(display, `hunk ${index} was found at line ${at + 1} of '${display}' by ${placement.strategy}, but ${placed.reason}; write its lines as the file has them`, current.slice(at, at + oldTexts(placement.lines).length + 1).map((l, k) => ({ n: at + k + 1, text: l.text })), { hunk: index });
    }
    return placed.out;
  };
  const check = (before: Line[], after: Line[], placements: Placement[]) => {
    const wrong = verifyPlacements({ before, after, placements });
    if (wrong) throw new RefusedError('SELF_CHECK_FAILED', `the patch to '${display}' was refused by forge's self-check (${wrong}): forge would have written something other than what the patch says. Nothing was changed; please report this with the patch`, { fix: shellJoin(['forge', 'read', display]), data: { path: display } });
  };
  const touchesEnd = (at: number, hunkLines: HunkLine[], length: number) => at + oldTexts(hunkLines).length === length;

  if (patch.dialect === 'search-replace') {
    patch.hunks.forEach((hunk, i) => {
      const lookup = new LineLookup(lines.map((l) => l.text));
      const { found, lines: hunkLines } = oldTexts(hunk.lines).length
        ? find(lookup, hunk, { from: 0, ...(hunk.oldStart !== undefined ? { hint: hunk.oldStart - 1 } : {}) })
        : { found: { kind: 'found', at: lines.length, strategy: 'exact' } as Found, lines: hunk.lines };
      if (found.kind !== 'found') throw notFound(display, lines, hunk.lines, i + 1, found);
      const placement: Placement = { at: found.at, lines: hunkLines, strategy: found.strategy };
      const out = place(lines, placement, i + 1);
      if (touchesEnd(found.at, hunkLines, lines.length)) endHunk = hunk;
      const next = splice(lines, [{ placement, out }]);
      check(lines, next, [placement]);
      lines = next;
      strategies.push(found.strategy);
    });
  } else {
    const lookup = new LineLookup(file.lines);
    const placed: Array<{ placement: Placement; out: Line[] }> = [];
    let from = 0;
    let drift = 0;
    patch.hunks.forEach((hunk, i) => {
      const hint = hunk.oldStart !== undefined ? Math.max(0, hunk.oldStart - 1 + drift) : undefined;
      const { found, lines: hunkLines } = oldTexts(hunk.lines).length
        ? find(lookup, hunk, { from, ...(hint !== undefined ? { hint } : {}) })
        : { found: insertionPoint(lookup, hunk, from, drift), lines: hunk.lines };
      if (found.kind !== 'found') throw notFound(display, lines, hunk.lines, i + 1, found);
      const placement: Placement = { at: found.at, lines: hunkLines, strategy: oldTexts(hunkLines).length ? found.strategy : 'position' };
      placed.push({ placement, out: place(lines, placement, i + 1) });
      if (touchesEnd(found.at, hunkLines, lines.length)) endHunk = hunk;
      from = found.at + oldTexts(hunkLines).length;
      if (hunk.oldStart !== undefined) drift = found.at - (hunk.oldStart - (oldTexts(hunkLines).length ? 1 : 0));
      strategies.push(placement.strategy);
    });
    const next = splice(lines, placed);
    check(lines, next, placed.map((p) => p.placement));
    lines = next;
  }
  finalNewline(lines, file, endHunk);
  return { lines, strategies };
}

/**
 * Every line but the last ends with a terminator; the last keeps the file's final-newline state,
 * unless the hunk that reached the end said otherwise with `\ No newline at end of file`.
 */
function finalNewline(lines: Line[], file: TextFile, endHunk: Hunk | null): void {
  for (let i = 0; i < lines.length - 1; i++) if (!lines[i]!.end) lines[i] = { ...lines[i]!, end: file.eol };
  const last = lines.at(-1);
  if (!last) return;
  const hadFinal = file.lines.length === 0 || file.ends.at(-1) !== '';
  const wantFinal = endHunk?.newNoEol ? false : endHunk?.oldNoEol ? true : hadFinal;
  lines[lines.length - 1] = { ...last, end: wantFinal ? last.end || file.eol : '' };
}

/**
 * A path as the patch names it, for resolving from cwd: a git diff's paths are from the top of the
 * repository, as git apply reads them, unless only the path from cwd names an existing file (a
 * model that wrote a/ b/ prefixes on paths it saw from a subdirectory).
 */
async function patchPath(ws: Workspace, p: FilePatch, path: string): Promise<string> {
  if (!p.rooted || !ws.inRepo || isAbsolute(path) || ws.cwd === ws.root) return path;
  const fromTop = relative(ws.cwd, join(ws.root, path)) || '.';
  if (p.kind === 'create' || (await exists(join(ws.root, path))) || !(await exists(join(ws.cwd, path)))) return fromTop;
  return path;
}

async function exists(abs: string): Promise<boolean> {
  return stat(abs).then(() => true, () => false);
}

/** Computes every file's new content; throws before anything is written if any part does not apply. */
export async function planPatch({ ws, patches }: { ws: Workspace; patches: FilePatch[] }): Promise<PlannedFile[]> {
  const planned: PlannedFile[] = [];
  const claimed = new Set<string>();
  for (const p of patches) {
    const target = p.newPath ? await resolveInside({ ws, path: await patchPath(ws, p, p.newPath) }) : null;
    const source = p.oldPath ? await resolveInside({ ws, path: await patchPath(ws, p, p.oldPath) }) : null;
    const display = (target ?? source)!.display;
    for (const r of [target, source]) {
      if (r && claimed.has(r.abs)) throw new RefusedError('PATCH_CONFLICT', `'${r.display}' appears twice in the patch`, { fix: 'forge patch --help' });
    }
    if (p.kind === 'create') {
      if (await exists(target!.abs)) throw new RefusedError('PATCH_CONFLICT', `'${display}' already exists; the patch creates it`, { fix: shellJoin(['forge', 'read', display]), data: { path: display } });
      const body = p.hunks.flatMap((h) => h.lines.filter((l) => l.op !== '-').map((l) => l.text));
      const noEol = p.hunks.at(-1)?.newNoEol;
      planned.push({ abs: target!.abs, display, data: Buffer.from(body.join('\n') + (body.length && !noEol ? '\n' : ''), 'utf8'), kind: 'create', hunks: p.hunks.length, strategies: [] });
      claimed.add(target!.abs);
      continue;
    }
    await statTarget(source!);
    const buf = await readFile(source!.abs).catch(() => null);
    if (!buf) throw new RefusedError('PATCH_CONFLICT', `'${source!.display}' does not exist; the patch changes it`, { fix: shellJoin(['forge', 'ls']), data: { path: source!.display } });
    if (isBinary(buf)) throw new RefusedError('PATCH_CONFLICT', `'${source!.display}' is a binary file`, { fix: shellJoin(['forge', 'read', source!.display]) });
    const file = decodeText(buf);
    if (p.kind === 'delete') {
      const expected = p.hunks.flatMap((h) => h.lines.filter((l) => l.op !== '+').map((l) => l.text));
      if (expected.length && (expected.length !== file.lines.length || expected.some((t, i) => loose(t) !== loose(file.lines[i]!)))) {
        throw conflict(source!.display, `'${source!.display}' differs from what the patch deletes`, [], {});
      }
      planned.push({ abs: null, display: source!.display, removeAbs: source!.abs, removeDisplay: source!.display, data: null, kind: 'delete', hunks: p.hunks.length, strategies: [] });
      claimed.add(source!.abs);
      continue;
    }
    if (p.kind === 'rename' && target!.abs !== source!.abs && (await exists(target!.abs))) {
      throw new RefusedError('PATCH_CONFLICT', `'${target!.display}' already exists; the patch moves '${source!.display}' there`, { fix: shellJoin(['forge', 'read', target!.display]) });
    }
    const { lines, strategies } = applyHunks({ file, patch: p, display: source!.display });
    const data = encodeText({ ...file, lines: lines.map((l) => l.text), ends: lines.map((l) => l.end) });
    const moved = p.kind === 'rename' && target!.abs !== source!.abs;
    planned.push({ abs: target!.abs, display, ...(moved ? { removeAbs: source!.abs, removeDisplay: source!.display } : {}), data, kind: moved ? 'rename' : 'modify', hunks: p.hunks.length, strategies });
    claimed.add(target!.abs);
    claimed.add(source!.abs);
  }
  return planned;
}
