// A window of a file with an anchor on every line, capped so a read never floods a model's context.
import { readFile } from 'node:fs/promises';
import { InvalidInputError, RefusedError } from '../errors';
import { shellJoin } from '../quote';
import { lineHash } from './anchor';
import { listFiles, similarPaths } from './list';
import { decodeString, describeBinary, indexLines, isBinary, lineAt, type Encoding, type LineIndex, type TextFile } from './text';
import { MINIFIED_LINE_CHARS, scanFile } from './scan';
import { extractSymbols, type SymbolEntry, type SymbolIndex } from './symbols';
import { resolveInside, statTarget, type Workspace } from './workspace';

export const DEFAULT_WINDOW = 150;
/** A read's text never exceeds this; the window ends early instead. */
export const MAX_READ_BYTES = 16 * 1024;
/** Longer lines are shown cut, with how much was left out. */
export const MAX_LINE_CHARS = 500;
/** The most lines a window can show: each takes at least `1#abcd: ` and a newline of the cap. */
const MAX_WINDOW_LINES = Math.floor(MAX_READ_BYTES / (linePrefix(1, 'abcd').length + 1)) + 1;

export interface WindowLine {
  n: number;
  hash: string;
  text: string;
  /** Characters left out of a long line. */
  cut?: number;
}

export interface ReadResult {
  kind: 'text' | 'binary' | 'empty';
  path: string;
  bytes: number;
  total: number;
  start: number;
  end: number;
  lines: WindowLine[];
  /** Lines remain after `end`. */
  more: boolean;
  /** The window stopped before the requested end to stay under MAX_READ_BYTES. */
  capped: boolean;
  minified: boolean;
  encoding?: Encoding;
  eol?: string;
  bom?: boolean;
  /** For binary files: what it appears to be. */
  description?: string;
}

/** `<n>#<hash>: ` — the prefix every read line carries. */
export function linePrefix(n: number, hash: string): string {
  return `${n}#${hash}: `;
}

/**
 * A decoded file, a line index of one, or a line index of the part of a file from line `first` on
 * (with the whole file's line count and minified state, which the part cannot tell): each can be windowed.
 */
type Lines = { file: TextFile } | { index: LineIndex } | { part: LineIndex; first: number; total: number; minified: boolean };

/** Picks lines start..end, cutting long lines and stopping at the byte cap. */
export function windowOf(
  src: Lines & { start: number; end?: number },
): Pick<ReadResult, 'start' | 'end' | 'lines' | 'more' | 'capped' | 'minified' | 'total'> {
  const { start, end } = src;
  const total = 'file' in src ? src.file.lines.length : 'index' in src ? src.index.total : src.total;
  const get = (n: number) =>
    'file' in src ? src.file.lines[n - 1]! : 'index' in src ? lineAt(src.index, n) : lineAt(src.part, n - src.first + 1);
  const last = Math.min(total, end ?? start + DEFAULT_WINDOW - 1);
  const lines: WindowLine[] = [];
  let bytes = 0;
  let capped = false;
  for (let n = start; n <= last; n++) {
    const full = get(n);
    const text = full.length > MAX_LINE_CHARS ? full.slice(0, MAX_LINE_CHARS) : full;
    const hash = lineHash(full);
    const size = Buffer.byteLength(linePrefix(n, hash) + text) + 1;
    if (bytes + size > MAX_READ_BYTES && lines.length > 0) {
      capped = true;
      break;
    }
    bytes += size;
    lines.push(full.length > MAX_LINE_CHARS ? { n, hash, text, cut: full.length - MAX_LINE_CHARS } : { n, hash, text });
  }
  const shownEnd = lines.length ? lines[lines.length - 1]!.n : start - 1;
  const minified =
    'file' in src
      ? src.file.lines.some((l) => l.length > MINIFIED_LINE_CHARS)
      : 'index' in src
        ? src.index.longest > MINIFIED_LINE_CHARS
        : src.minified;
  return { start, end: shownEnd, lines, more: shownEnd < total, capped, minified, total };
}

/** Resolves a path for reading: missing files suggest similar paths, directories are refused. */
async function openForRead(ws: Workspace, path: string): Promise<{ abs: string; display: string }> {
  const { abs, display } = await resolveInside({ ws, path });
  const info = await statTarget({ abs, display });
  if (!info) {
    const suggestions = similarPaths({ wanted: display, files: await listFiles({ ws }) });
    throw new RefusedError(
      'FILE_NOT_FOUND',
      `no such file '${display}'${suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : ''}`,
      {
        fix: suggestions.length ? shellJoin(['forge', 'read', suggestions[0]!]) : 'forge ls',
        data: { path: display, suggestions },
      },
    );
  }
  if (info.isDirectory()) {
    throw new InvalidInputError('IS_A_DIRECTORY', `'${display}' is a directory`, {
      fix: shellJoin(['forge', 'ls', display === '.' ? '**' : `${display}/**`]),
    });
  }
  return { abs, display };
}

/** Reads a window of a file inside the workspace; a missing file suggests similar paths. */
export async function readWindow({
  ws,
  path,
  start = 1,
  end,
}: {
  ws: Workspace;
  path: string;
  start?: number;
  end?: number;
}): Promise<ReadResult> {
  const { abs, display } = await openForRead(ws, path);
  if (end !== undefined && end < start) {
    throw new InvalidInputError('INVALID_RANGE', `--end ${end} is before --start ${start}`, {
      fix: shellJoin(['forge', 'read', display, '--start', String(start)]),
    });
  }
  // One pass in chunks, keeping only the lines the window can show; the whole file for what that cannot describe.
  const scan = scanFile({ abs, first: start, last: Math.min(end ?? start + DEFAULT_WINDOW - 1, start + MAX_WINDOW_LINES - 1) });
  if (scan.kind === 'binary') return binaryResult({ path: display, bytes: scan.bytes, head: scan.head });
  if (scan.kind === 'whole') return windowOfWhole({ buf: await readFile(abs), display, start, end });
  const { total } = scan;
  const base = { path: display, bytes: scan.bytes, encoding: scan.encoding, eol: scan.eol, bom: scan.bom };
  if (total === 0) return emptyResult(base);
  if (start > total) throw pastTheEnd(display, total, start);
  return {
    ...base,
    kind: 'text',
    ...windowOf({ part: indexLines(scan.window), first: start, total, minified: scan.minified, start, end }),
  };
}

function binaryResult({ path, bytes, head }: { path: string; bytes: number; head: Buffer }): ReadResult {
  return {
    path,
    bytes,
    kind: 'binary',
    total: 0,
    start: 0,
    end: 0,
    lines: [],
    more: false,
    capped: false,
    minified: false,
    description: describeBinary(head),
  };
}

function emptyResult(base: Pick<ReadResult, 'path' | 'bytes' | 'encoding' | 'eol' | 'bom'>): ReadResult {
  return { ...base, kind: 'empty', total: 0, start: 0, end: 0, lines: [], more: false, capped: false, minified: false };
}

function pastTheEnd(display: string, total: number, start: number): InvalidInputError {
  const lastStart = Math.max(1, total - DEFAULT_WINDOW + 1);
  return new InvalidInputError('LINE_OUT_OF_RANGE', `'${display}' has ${total} lines; --start ${start} is past the end`, {
    fix: shellJoin(['forge', 'read', display, '--start', String(lastStart)]),
  });
}

/** The window of a file decoded whole: UTF-16, lone CR line endings and the like (and what tests hold the scan to). */
export function windowOfWhole({ buf, display, start, end }: { buf: Buffer; display: string; start: number; end?: number }): ReadResult {
  if (isBinary(buf)) return binaryResult({ path: display, bytes: buf.length, head: buf });
  const { text, encoding, bom } = decodeString(buf);
  const index = indexLines(text);
  const base = { path: display, bytes: buf.length, encoding, eol: index.eol, bom };
  if (index.total === 0) return emptyResult(base);
  if (start > index.total) throw pastTheEnd(display, index.total, start);
  return { ...base, kind: 'text', ...windowOf({ index, start, end }) };
}

export interface SymbolsResult extends SymbolIndex {
  path: string;
  total: number;
  symbols: Array<SymbolEntry & { hash: string }>;
}

/** The file's symbol index, each symbol with the anchor of its first line. */
export async function readSymbols({ ws, path }: { ws: Workspace; path: string }): Promise<SymbolsResult> {
  const { abs, display } = await openForRead(ws, path);
  const buf = await readFile(abs);
  if (isBinary(buf))
    throw new RefusedError('BINARY_FILE', `'${display}' is a binary file (${describeBinary(buf)}): it has no symbols`, {
      fix: shellJoin(['forge', 'read', display]),
    });
  const { text } = decodeString(buf);
  const index = indexLines(text);
  const found = await extractSymbols({ path: display, text });
  return {
    ...found,
    path: display,
    total: index.total,
    symbols: found.symbols.map((s) => ({ ...s, hash: lineHash(lineAt(index, s.line)) })),
  };
}
