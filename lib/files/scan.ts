// One pass over a file's bytes in fixed chunks: what a read reports about the whole file — lines, line endings, encoding, longest line — and the bytes of the lines a window shows, without decoding or holding the file.
import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { isBinary, type Encoding, utf16Bom } from './text';

/** Big enough to hold the 8000 bytes binary detection looks at. */
const CHUNK = 64 * 1024;
/** A line longer than this (in UTF-16 code units, as the decoded text counts) makes a file look minified. */
export const MINIFIED_LINE_CHARS = 2000;

export type FileScan =
  | { kind: 'binary'; bytes: number; head: Buffer }
  /**
   * A file this scan cannot describe exactly without decoding all of it — UTF-16, a lone CR line
   * ending, a line whose length in characters the bytes do not settle, a doubled BOM: the caller
   * reads it whole.
   */
  | { kind: 'whole' }
  | {
      kind: 'text';
      bytes: number;
      encoding: Extract<Encoding, 'utf8' | 'latin1'>;
      bom: boolean;
      /** Lines of the decoded text (a last line without a final newline counts). */
      total: number;
      eol: '\n' | '\r\n';
      minified: boolean;
      /** Lines `first`..`last` (those that exist), with their endings, decoded. */
      window: string;
    };

/** What the pass has counted so far, in file offsets. */
interface Counts {
  newlines: number;
  crlf: number;
  crs: number;
  /** Where the current line starts. */
  lineStart: number;
  /** The longest line's content in bytes (a BOM included). */
  longest: number;
  /** The window's first and last byte offsets, once known (-1 before). */
  from: number;
  to: number;
}

/** A verdict from the file's first bytes alone: binary, or an encoding only a whole read decodes exactly; null for text to scan. */
function headVerdict({ head, size }: { head: Buffer; size: () => number }): FileScan | null {
  if (isBinary(head)) return { kind: 'binary', bytes: size(), head };
  if (utf16Bom(head)) return { kind: 'whole' };
  // TextDecoder drops a second BOM after the first: the decoded text would not be these bytes.
  if (head.subarray(0, 6).equals(Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]))) return { kind: 'whole' };
  return null;
}

/**
 * Counts one chunk's line breaks (`bytes`, one character a byte, starting at file offset `pos`),
 * noting where lines `first` and `last` end. The state is in locals while the loop runs.
 */
function countLines({ c, bytes, pos, first, last }: { c: Counts; bytes: string; pos: number; first: number; last: number }): void {
  let { newlines, lineStart, longest, from, to } = c;
  for (let i = bytes.indexOf('\n'); i !== -1; i = bytes.indexOf('\n', i + 1)) {
    newlines++;
    const len = pos + i - lineStart;
    if (len > longest) longest = len;
    lineStart = pos + i + 1;
    if (newlines === first - 1) from = lineStart;
    if (newlines === last) to = lineStart;
  }
  let { crs, crlf } = c;
  for (let i = bytes.indexOf('\r'); i !== -1; i = bytes.indexOf('\r', i + 1)) crs++;
  if (crs) for (let i = bytes.indexOf('\r\n'); i !== -1; i = bytes.indexOf('\r\n', i + 2)) crlf++;
  Object.assign(c, { newlines, crlf, crs, lineStart, longest, from, to });
}

/**
 * The facts of a text file once every byte is counted — or 'whole' when they do not settle it: a
 * lone CR ends a line, or the longest line's length in characters could be either side of minified.
 */
function describeText({
  c,
  bytes,
  utf8,
  head,
  parts,
}: {
  c: Counts;
  bytes: number;
  utf8: boolean;
  head: Buffer;
  parts: Buffer[];
}): FileScan {
  const { newlines, crlf, lineStart, from } = c;
  // A CR not followed by LF ends a line too (indexLines' general path): read whole.
  if (c.crs !== crlf) return { kind: 'whole' };
  // The last line, when the file does not end with a newline.
  const longest = Math.max(c.longest, bytes - lineStart);
  const encoding = utf8 ? 'utf8' : 'latin1';
  const bom = utf8 && head.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]));
  const bomBytes = bom ? 3 : 0;
  const total = newlines + (bytes > lineStart && bytes > bomBytes ? 1 : 0);
  // Line lengths above counted a CRLF's CR: take it off the bounds below only when it cannot matter.
  // Latin-1 is a byte a character; UTF-8 takes 1 to 3 bytes per UTF-16 code unit.
  const chars = {
    low: encoding === 'latin1' ? longest - (crlf ? 1 : 0) : Math.ceil((longest - bomBytes - (crlf ? 1 : 0)) / 3),
    high: longest,
  };
  if (chars.low <= MINIFIED_LINE_CHARS && chars.high > MINIFIED_LINE_CHARS) return { kind: 'whole' };
  const raw = Buffer.concat(parts);
  const window = encoding === 'latin1' ? raw.toString('latin1') : raw.subarray(from === 0 ? bomBytes : 0).toString('utf8');
  return {
    kind: 'text',
    bytes,
    encoding,
    bom,
    total,
    eol: crlf > newlines - crlf ? '\r\n' : '\n',
    minified: chars.low > MINIFIED_LINE_CHARS,
    window,
  };
}

/**
 * Scans `abs`, keeping the bytes of lines `first`..`last`. Exactly the facts decodeString and
 * indexLines give for the whole file: UTF-8 is validated in chunks (a character cut by a chunk's
 * end is carried over), and a line's length in bytes bounds its length in characters.
 */
export function scanFile({ abs, first, last }: { abs: string; first: number; last: number }): FileScan {
  // Synchronous reads: the scan is one sequential pass, and an awaited read per chunk costs a
  // thread-pool round trip each (a 52 MB file took twice as long).
  const fd = openSync(abs, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    // Bytes [0, carry) of buf: the start of a UTF-8 character the previous chunk cut.
    let carry = 0;
    let pos = 0; // file offset of buf[0]
    let head: Buffer | null = null;
    let utf8 = true;
    let prev = ''; // the character before the chunk's first
    const c: Counts = { newlines: 0, crlf: 0, crs: 0, lineStart: 0, longest: 0, from: first === 1 ? 0 : -1, to: -1 };
    const parts: Buffer[] = [];
    for (;;) {
      let got = carry;
      for (let n = -1; n !== 0 && got < CHUNK; got += n) n = readSync(fd, buf, got, CHUNK - got, pos + got);
      if (!head) {
        head = Buffer.from(buf.subarray(0, Math.min(got, 8000)));
        const verdict = headVerdict({ head, size: () => fstatSync(fd).size });
        if (verdict) return verdict;
      }
      if (got === carry) {
        if (carry) utf8 = false; // the file ends inside a character
        break;
      }
      const end = got < CHUNK || !utf8 ? got : completeUpTo(buf, got);
      if (utf8 && !isUtf8(buf.subarray(0, end))) utf8 = false;
      // Line breaks are ASCII in UTF-8 and Latin-1 alike; a string's indexOf finds them faster than a Buffer's.
      const bytes = buf.toString('latin1', 0, end);
      countLines({ c, bytes, pos, first, last });
      if (prev === '\r' && bytes[0] === '\n') c.crlf++;
      // The window's bytes in this chunk.
      if (c.from !== -1 && c.from < pos + end && (c.to === -1 || c.to > pos)) {
        parts.push(Buffer.from(buf.subarray(Math.max(0, c.from - pos), c.to === -1 ? end : c.to - pos)));
      }
      prev = bytes[end - 1]!;
      pos += end;
      buf.copy(buf, 0, end, got);
      carry = got - end;
    }
    return describeText({ c, bytes: pos, utf8, head: head!, parts });
  } finally {
    closeSync(fd);
  }
}

/** How many of the first `n` bytes end on a UTF-8 character boundary (a character cut at the end is left out). */
function completeUpTo(buf: Buffer, n: number): number {
  for (let i = n - 1; i >= Math.max(0, n - 3); i--) {
    const b = buf[i]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back for the lead
    if (b < 0x80) return n;
    const size = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
    return i + size > n ? i : n;
  }
  return n;
}
