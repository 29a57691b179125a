// Applies parsed patches in memory: each hunk located by its context (line numbers only choose
// among places), written in the file's own style, and re-checked before anything is written.
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { RefusedError } from '../errors';
import { exists } from '../fs/stat';
import { shellJoin } from '../quote';
import { lineHash } from './anchor';
import { LineLookup, locate, relaxations, type Found, type Strategy, type Want } from './locate';
import { looseKey, nearestLine } from './match';
import type { FilePatch, Hunk, HunkLine } from './patch-parse';
import { assemble, lineWithEnd, oldSide, placeHunk, verifyPlaced, type Line, type Placement } from './place';
import { decodeString, encodeString, indexLines, isBinary, splitLines, type LineIndex } from './text';
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

function conflict(
  display: string,
  message: string,
  region: Array<{ n: number; text: string }>,
  data: Record<string, unknown> = {},
): RefusedError {
  const shown = region.map((l) => `${l.n}#${lineHash(l.text)}: ${l.text}`).join('\n');
  const first = region[0]?.n;
  return new RefusedError('PATCH_CONFLICT', `${message}${shown ? `\n${shown}` : ''}`, {
    fix: first
      ? shellJoin(['forge', 'read', display, '--start', String(first), '--end', String(region.at(-1)!.n)])
      : shellJoin(['forge', 'read', display]),
    data: { path: display, ...data, region: region.map((l) => ({ n: l.n, hash: lineHash(l.text), text: l.text })) },
  });
}

const oldTexts = (lines: HunkLine[]) => oldSide(lines).map((l) => l.text);

/** Where the file holds a hunk's new side, context and added lines in order (-1: nowhere); only for a hunk that changes something. */
function alreadyApplied(fileLines: string[], hunk: HunkLine[]): number {
  if (!hunk.some((l) => l.op !== ' ')) return -1;
  const after = hunk.filter((l) => l.op !== '-').map((l) => l.text);
  if (!after.length) return -1;
  for (let i = 0; i + after.length <= fileLines.length; i++) if (after.every((t, k) => fileLines[i + k] === t)) return i;
  return -1;
}

/** Context lines before the first change and after the last. */
function contextRuns(lines: HunkLine[]): { leading: number; trailing: number } {
  const first = lines.findIndex((l) => l.op !== ' ');
  const last = lines.findLastIndex((l) => l.op !== ' ');
  return first < 0 ? { leading: lines.length, trailing: 0 } : { leading: first, trailing: lines.length - 1 - last };
}

/** Why a hunk does not apply, with the region of the file nearest to what it expects. */
function notFound(display: string, index: LineIndex, hunk: HunkLine[], hunkNumber: number, found: Found): RefusedError {
  if (found.kind === 'ambiguous') {
    const lines = found.at.map((h) => h + 1);
    const why = found.near !== undefined ? `equally near its stated line ${found.near + 1}` : 'and nothing in it tells them apart';
    return conflict(
      display,
      `hunk ${hunkNumber} matches ${lines.length} places in '${display}' (lines ${lines.join(', ')}) ${why}; give it more context, an @@ line above it, or its right line number`,
      [],
      { hunk: hunkNumber, lines },
    );
  }
  const old = oldTexts(hunk);
  const all = splitLines(index.text).lines;
  const applied = found.kind === 'none' && !found.reason ? alreadyApplied(all, hunk) : -1;
  if (applied >= 0) {
    // As GNU patch tells a patch applied before: the lines it adds are there, the lines it removes are not.
    const added = hunk.filter((l) => l.op !== '-').length;
    const region = all.slice(applied, applied + added).map((text, k) => ({ n: applied + k + 1, text }));
    return conflict(
      display,
      `hunk ${hunkNumber} is already applied to '${display}': the lines it leads to are in the file, and the lines it removes are not (applied twice? nothing was changed)`,
      region,
      { hunk: hunkNumber },
    );
  }
  const near = nearestLine({ fileLines: all, old: old.join('\n') });
  const region = all.slice(Math.max(0, near - 4), near + old.length + 3).map((text, k) => ({ n: Math.max(0, near - 4) + k + 1, text }));
  const expected = hunk
    .filter((l) => l.op !== '+')
    .map((l) => `${l.op}${l.text}`)
    .join('\n');
  const why = found.kind === 'none' && found.reason ? found.reason : 'its context is not in the file';
  return conflict(
    display,
    `hunk ${hunkNumber} does not apply to '${display}': ${why}. The hunk expects:\n${expected}\nThe nearest region of the file:`,
    region,
    { hunk: hunkNumber },
  );
}

/** Where a hunk with no old lines goes: after its seek line, at the end, or at its stated line. */
function insertionPoint(lookup: LineLookup, hunk: Hunk, from: number, drift: number): Found {
  const n = lookup.count;
  if (hunk.atEnd) return { kind: 'found', at: n, strategy: 'exact' };
  if (hunk.seek?.length) {
    const found = locate(lookup, { old: [hunk.seek.at(-1)!], from, seek: hunk.seek.slice(0, -1) });
    return found.kind === 'found'
      ? { ...found, at: found.at + 1 }
      : found.kind === 'none'
        ? { kind: 'none', reason: `its @@ line ${JSON.stringify(hunk.seek.at(-1)!.trim())} is not in the file` }
        : found;
  }
  // `@@ -N,0 +M,k @@` adds after old line N — a line the file must have.
  if (hunk.oldStart !== undefined) {
    const at = Math.max(0, hunk.oldStart + drift);
    return at <= n
      ? { kind: 'found', at, strategy: 'exact' }
      : { kind: 'none', reason: `it adds after line ${at}, past the end of the file (${n} lines)` };
  }
  if (!n) return { kind: 'found', at: 0, strategy: 'exact' };
  return { kind: 'none', reason: 'it adds lines without context, an @@ line or a line number: where they go is unknown' };
}

/** Locates a hunk: as written, else as the model probably meant it (see relaxations). */
function find(lookup: LineLookup, hunk: Hunk, dialect: FilePatch['dialect'], want: Omit<Want, 'old'>): { found: Found; lines: HunkLine[] } {
  const { leading, trailing } = contextRuns(hunk.lines);
  // Less context after than before says "end of file" only in diffs a tool made with fixed context
  // (a unified hunk with its numbers); a model writing bare @@ hunks often gives no context after a
  // change anywhere, and an envelope says *** End of File instead.
  const preferEnd = dialect === 'unified' && hunk.oldStart !== undefined && !hunk.short && leading > 0 && trailing < leading;
  const base: Omit<Want, 'old'> = {
    ...want,
    atEnd: want.atEnd || hunk.atEnd || hunk.oldNoEol,
    preferEnd,
    ...(hunk.seek ? { seek: hunk.seek } : {}),
    ...(hunk.section ? { section: hunk.section } : {}),
  };
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
export function applyHunks({ text, patch, display }: { text: string; patch: FilePatch; display: string }): {
  text: string;
  strategies: PlannedFile['strategies'];
} {
  const strategies: PlannedFile['strategies'] = [];
  const sample = (index: LineIndex) => () => index.text.slice(0, 256 * 1024);
  let modelText: string | undefined;
  const allHunks = () => (modelText ??= patch.hunks.flatMap((h) => h.lines.map((l) => l.text)).join('\n'));
  const place = (index: LineIndex, placement: Placement, hunkNumber: number): { placement: Placement; out: Line[] } => {
    const placed = placeHunk({ index, placement, fileText: sample(index), modelText: allHunks });
    if (placed.kind === 'ok') return placed;
    const at = placement.at;
    const region = Array.from({ length: Math.min(oldTexts(placement.lines).length + 1, index.total - at) }, (_, k) => ({
      n: at + k + 1,
      text: lineWithEnd(index, at + k).text,
    }));
    throw conflict(
      display,
      `hunk ${hunkNumber} was found at line ${at + 1} of '${display}' by ${placement.strategy}, but ${placed.reason}; write its lines as the file has them`,
      region,
      { hunk: hunkNumber },
    );
  };
  // The final-newline state: the file's own, unless the hunk that reaches the end says otherwise.
  const finalNewline = (index: LineIndex, endHunk: Hunk | null) =>
    endHunk?.newNoEol ? false : endHunk?.oldNoEol ? true : index.total === 0 || /[\r\n]$/.test(index.text);
  const write = (index: LineIndex, placed: Array<{ placement: Placement; out: Line[] }>, endHunk: Hunk | null): string => {
    const result = assemble({ index, placed, finalNewline: finalNewline(index, endHunk) });
    const wrong = verifyPlaced({ index, result, placements: placed.map((p) => p.placement) });
    if (wrong)
      throw new RefusedError(
        'SELF_CHECK_FAILED',
        `the patch to '${display}' was refused by forge's self-check (${wrong}): forge would have written something other than what the patch says. Nothing was changed; please report this with the patch`,
        { fix: shellJoin(['forge', 'read', display]), data: { path: display } },
      );
    return result.text;
  };
  const reachesEnd = (index: LineIndex, at: number, hunkLines: HunkLine[]) => at + oldTexts(hunkLines).length === index.total;

  if (patch.dialect === 'search-replace') {
    let current = text;
    patch.hunks.forEach((hunk, i) => {
      const index = indexLines(current);
      const { found, lines } = oldTexts(hunk.lines).length
        ? find(LineLookup.of(index), hunk, patch.dialect, { from: 0, ...(hunk.oldStart !== undefined ? { hint: hunk.oldStart - 1 } : {}) })
        : { found: { kind: 'found', at: index.total, strategy: 'exact' } as Found, lines: hunk.lines };
      if (found.kind !== 'found') throw notFound(display, index, hunk.lines, i + 1, found);
      const placement: Placement = { at: found.at, lines, strategy: found.strategy };
      current = write(index, [place(index, placement, i + 1)], reachesEnd(index, found.at, lines) ? hunk : null);
      strategies.push(found.strategy);
    });
    return { text: current, strategies };
  }
  const index = indexLines(text);
  const lookup = LineLookup.of(index);
  const placed: Array<{ placement: Placement; out: Line[] }> = [];
  let endHunk: Hunk | null = null;
  let from = 0;
  let drift = 0;
  patch.hunks.forEach((hunk, i) => {
    const hint = hunk.oldStart !== undefined ? Math.max(0, hunk.oldStart - 1 + drift) : undefined;
    const { found, lines } = oldTexts(hunk.lines).length
      ? find(lookup, hunk, patch.dialect, { from, ...(hint !== undefined ? { hint } : {}) })
      : { found: insertionPoint(lookup, hunk, from, drift), lines: hunk.lines };
    if (found.kind !== 'found') throw notFound(display, index, hunk.lines, i + 1, found);
    const size = oldTexts(lines).length;
    const placement: Placement = { at: found.at, lines, strategy: size ? found.strategy : 'position' };
    placed.push(place(index, placement, i + 1));
    if (reachesEnd(index, found.at, lines)) endHunk = hunk;
    from = found.at + size;
    if (hunk.oldStart !== undefined) drift = found.at - (hunk.oldStart - (size ? 1 : 0));
    strategies.push(placement.strategy);
  });
  return { text: write(index, placed, endHunk), strategies };
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

type Resolved = { abs: string; display: string };

/** A file the patch creates: refused when it exists; its content is the hunks' new lines. */
async function planCreate({ p, target }: { p: FilePatch; target: Resolved }): Promise<PlannedFile> {
  const { display } = target;
  if (await exists(target.abs))
    throw new RefusedError('PATCH_CONFLICT', `'${display}' already exists; the patch creates it`, {
      fix: shellJoin(['forge', 'read', display]),
      data: { path: display },
    });
  const body = p.hunks.flatMap((h) => h.lines.filter((l) => l.op !== '-').map((l) => l.text));
  const noEol = p.hunks.at(-1)?.newNoEol;
  return {
    abs: target.abs,
    display,
    data: Buffer.from(body.join('\n') + (body.length && !noEol ? '\n' : ''), 'utf8'),
    kind: 'create',
    hunks: p.hunks.length,
    strategies: [],
  };
}

/** The text of a file the patch changes, moves or deletes, refused when it is missing or binary. */
async function readSource(source: Resolved): Promise<ReturnType<typeof decodeString>> {
  await statTarget(source);
  const buf = await readFile(source.abs).catch(() => null);
  if (!buf)
    throw new RefusedError('PATCH_CONFLICT', `'${source.display}' does not exist; the patch changes it`, {
      fix: shellJoin(['forge', 'ls']),
      data: { path: source.display },
    });
  if (isBinary(buf))
    throw new RefusedError('PATCH_CONFLICT', `'${source.display}' is a binary file`, {
      fix: shellJoin(['forge', 'read', source.display]),
      data: { path: source.display },
    });
  return decodeString(buf);
}

/** A file the patch deletes: refused when its lines differ from what the patch says it deletes (none given: any). */
function planDelete({ p, source, text }: { p: FilePatch; source: Resolved; text: string }): PlannedFile {
  const expected = p.hunks.flatMap((h) => h.lines.filter((l) => l.op !== '+').map((l) => l.text));
  const { lines } = splitLines(text);
  if (expected.length && (expected.length !== lines.length || expected.some((t, i) => looseKey(t) !== looseKey(lines[i]!)))) {
    throw conflict(source.display, `'${source.display}' differs from what the patch deletes`, [], {});
  }
  return {
    abs: null,
    display: source.display,
    removeAbs: source.abs,
    removeDisplay: source.display,
    data: null,
    kind: 'delete',
    hunks: p.hunks.length,
    strategies: [],
  };
}

/** A file the patch changes, perhaps moving it: its hunks applied, its encoding kept; a move onto another existing file is refused. */
async function planChange({
  p,
  source,
  target,
  decoded,
}: {
  p: FilePatch;
  source: Resolved;
  target: Resolved;
  decoded: ReturnType<typeof decodeString>;
}): Promise<PlannedFile> {
  const moved = p.kind === 'rename' && target.abs !== source.abs;
  if (moved && (await exists(target.abs))) {
    throw new RefusedError('PATCH_CONFLICT', `'${target.display}' already exists; the patch moves '${source.display}' there`, {
      fix: shellJoin(['forge', 'read', target.display]),
      data: { path: target.display },
    });
  }
  const { text, strategies } = applyHunks({ text: decoded.text, patch: p, display: source.display });
  return {
    abs: target.abs,
    display: target.display,
    ...(moved ? { removeAbs: source.abs, removeDisplay: source.display } : {}),
    data: encodeString(text, decoded),
    kind: moved ? 'rename' : 'modify',
    hunks: p.hunks.length,
    strategies,
  };
}

/** Computes every file's new content; throws before anything is written if any part does not apply. */
export async function planPatch({ ws, patches }: { ws: Workspace; patches: FilePatch[] }): Promise<PlannedFile[]> {
  const planned: PlannedFile[] = [];
  const claimed = new Set<string>();
  for (const p of patches) {
    const target = p.newPath ? await resolveInside({ ws, path: await patchPath(ws, p, p.newPath) }) : null;
    const source = p.oldPath ? await resolveInside({ ws, path: await patchPath(ws, p, p.oldPath) }) : null;
    for (const r of [target, source]) {
      if (r && claimed.has(r.abs))
        throw new RefusedError('PATCH_CONFLICT', `'${r.display}' appears twice in the patch`, {
          fix: 'forge patch --help',
          data: { path: r.display },
        });
    }
    if (p.kind === 'create') {
      planned.push(await planCreate({ p, target: target! }));
      claimed.add(target!.abs);
      continue;
    }
    const decoded = await readSource(source!);
    if (p.kind === 'delete') {
      planned.push(planDelete({ p, source: source!, text: decoded.text }));
      claimed.add(source!.abs);
      continue;
    }
    planned.push(await planChange({ p, source: source!, target: target!, decoded }));
    claimed.add(target!.abs);
    claimed.add(source!.abs);
  }
  return planned;
}
