// Applies parsed patches in memory: each hunk located by its context (line numbers only break ties),
// with edit's cascade and its rule that a forgiving match must be the only one. Nothing is written here.
import { readFile, stat } from 'node:fs/promises';
import { RefusedError } from '../errors';
import { shellJoin } from '../quote';
import { lineHash } from './anchor';
import { applyIndent, foldUnicode, leading, lineWindows, nearestLine, type Strategy } from './match';
import type { FilePatch, Hunk } from './patch-parse';
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

interface Line {
  text: string;
  end: string;
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

/**
 * Applies one hunk to `lines` at or after `from`. Returns where the hunk's new lines end (so the
 * next hunk starts after them) and how it was located; throws PATCH_CONFLICT on no or several places.
 */
function applyHunk({ lines, hunk, from, offset, display, eol, index }: { lines: Line[]; hunk: Hunk; from: number; offset: number; display: string; eol: string; index: number }): { end: number; strategy: Strategy | 'position'; delta: number } {
  const old = hunk.lines.filter((l) => l.op !== '+').map((l) => l.text);
  const hinted = hunk.oldStart !== undefined ? Math.max(0, hunk.oldStart - 1 + offset) : undefined;
  let at: number;
  let strategy: Strategy | 'position';
  if (!old.length) {
    // A pure insertion has nothing to match: only its position can place it.
    if (hinted === undefined && lines.length) throw conflict(display, `hunk ${index} adds lines without context or a line number: where it goes is unknown`, []);
    at = Math.min(hinted ?? 0, lines.length);
    strategy = 'position';
  } else {
    const texts = lines.map((l) => l.text);
    let hits = lineWindows(texts, old, (f, o) => f === o, from);
    strategy = 'exact';
    if (!hits.length) {
      hits = lineWindows(texts, old, (f, o) => loose(f) === loose(o), from);
      strategy = hits.length && hits.every((i) => old.every((o, j) => lines[i + j]!.text.trimEnd() === o.trimEnd())) ? 'trailing-whitespace' : 'trim';
    }
    if (hits.length > 1 && hinted !== undefined && hits.includes(hinted)) hits = [hinted];
    if (hits.length !== 1) {
      const near = hits.length ? hits[0]! + 1 : nearestLine({ fileLines: lines.map((l) => l.text), old: old.join('\n') });
      const region = lines.slice(Math.max(0, near - 4), near + old.length + 3).map((l, k) => ({ n: Math.max(0, near - 4) + k + 1, text: l.text }));
      const expected = hunk.lines.filter((l) => l.op !== '+').map((l) => `${l.op}${l.text}`).join('\n');
      throw hits.length
        ? conflict(display, `hunk ${index} matches ${hits.length} places in '${display}' (lines ${hits.map((h) => h + 1).join(', ')}); give it more context or correct line numbers`, [], { hunk: index, lines: hits.map((h) => h + 1) })
        : conflict(display, `hunk ${index} does not apply to '${display}': its context is not in the file. The hunk expects:\n${expected}\nThe nearest region of the file:`, region, { hunk: index });
    }
    at = hits[0]!;
  }
  // Context lines keep the file's own text and endings; added lines are re-indented to fit.
  const firstOld = hunk.lines.findIndex((l) => l.op !== '+' && l.text.trim());
  const indent = strategy === 'trim' && firstOld >= 0 ? { from: leading(hunk.lines[firstOld]!.text), to: leading(lines[at + hunk.lines.slice(0, firstOld).filter((l) => l.op !== '+').length]!.text) } : undefined;
  const out: Line[] = [];
  let k = at;
  for (const l of hunk.lines) {
    if (l.op === ' ') out.push(lines[k++]!);
    else if (l.op === '-') k++;
    else out.push({ text: applyIndent(l.text, indent), end: eol });
  }
  const touchesEnd = at + old.length === lines.length;
  lines.splice(at, old.length, ...out);
  if (touchesEnd && out.length) {
    const last = lines[at + out.length - 1]!;
    if (hunk.newNoEol) last.end = '';
    else if (!last.end) last.end = eol;
  }
  return { end: at + out.length, strategy, delta: out.length - old.length };
}

function toLines(file: TextFile): Line[] {
  return file.lines.map((text, i) => ({ text, end: file.ends[i] ?? '' }));
}

async function exists(abs: string): Promise<boolean> {
  return stat(abs).then(() => true, () => false);
}

/** Computes every file's new content; throws before anything is written if any part does not apply. */
export async function planPatch({ ws, patches }: { ws: Workspace; patches: FilePatch[] }): Promise<PlannedFile[]> {
  const planned: PlannedFile[] = [];
  const claimed = new Set<string>();
  for (const p of patches) {
    const target = p.newPath ? await resolveInside({ ws, path: p.newPath }) : null;
    const source = p.oldPath ? await resolveInside({ ws, path: p.oldPath }) : null;
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
    const lines = toLines(file);
    if (p.kind === 'delete') {
      const expected = p.hunks.flatMap((h) => h.lines.filter((l) => l.op !== '+').map((l) => l.text));
      if (expected.length && (expected.length !== lines.length || expected.some((t, i) => loose(t) !== loose(lines[i]!.text)))) {
        throw conflict(source!.display, `'${source!.display}' differs from what the patch deletes`, [], {});
      }
      planned.push({ abs: null, display: source!.display, removeAbs: source!.abs, removeDisplay: source!.display, data: null, kind: 'delete', hunks: p.hunks.length, strategies: [] });
      claimed.add(source!.abs);
      continue;
    }
    if (p.kind === 'rename' && target!.abs !== source!.abs && (await exists(target!.abs))) {
      throw new RefusedError('PATCH_CONFLICT', `'${target!.display}' already exists; the patch moves '${source!.display}' there`, { fix: shellJoin(['forge', 'read', target!.display]) });
    }
    const strategies: PlannedFile['strategies'] = [];
    let from = 0;
    let offset = 0;
    p.hunks.forEach((hunk, i) => {
      const r = applyHunk({ lines, hunk, from, offset, display: source!.display, eol: file.eol, index: i + 1 });
      from = r.end;
      offset += r.delta;
      strategies.push(r.strategy);
    });
    for (let i = 0; i < lines.length - 1; i++) if (!lines[i]!.end) lines[i]!.end = file.eol;
    const data = encodeText({ ...file, lines: lines.map((l) => l.text), ends: lines.map((l) => l.end) });
    const moved = p.kind === 'rename' && target!.abs !== source!.abs;
    planned.push({ abs: target!.abs, display, ...(moved ? { removeAbs: source!.abs, removeDisplay: source!.display } : {}), data, kind: moved ? 'rename' : 'modify', hunks: p.hunks.length, strategies });
    claimed.add(target!.abs);
    claimed.add(source!.abs);
  }
  return planned;
}
