// A text file as lines plus everything needed to write it back byte for byte: encoding, BOM, each line's ending.

export type Encoding = 'utf8' | 'utf16le' | 'utf16be' | 'latin1';

export interface TextFile {
  encoding: Encoding;
  bom: boolean;
  /** Lines without their terminators. */
  lines: string[];
  /** The terminator after each line ('' for a last line without a final newline). */
  ends: string[];
  /** The most common terminator: what new lines get. */
  eol: '\n' | '\r\n' | '\r';
}

/**
 * git's heuristic: a NUL byte in the first 8000 bytes means binary (UTF-16 with a BOM excepted).
 * `length`: only the first bytes of `buf` hold the file (a reused buffer), looked at without a view.
 */
export function isBinary(buf: Buffer, length = buf.length): boolean {
  if (utf16Bom(buf)) return false;
  const end = Math.min(length, 8000);
  return end > 0 && buf.lastIndexOf(0, end - 1) !== -1;
}

/** The UTF-16 byte order a file's first two bytes mark, or null. */
export function utf16Bom(buf: Buffer): 'utf16le' | 'utf16be' | null {
  if (buf[0] === 0xff && buf[1] === 0xfe) return 'utf16le';
  if (buf[0] === 0xfe && buf[1] === 0xff) return 'utf16be';
  return null;
}

function swap16(buf: Buffer): Buffer {
  const copy = Buffer.from(buf.subarray(0, buf.length - (buf.length % 2)));
  return copy.swap16();
}

/** Splits text into lines and their terminators (\r\n, \n or a lone \r). */
export function splitLines(text: string): { lines: string[]; ends: string[] } {
  // Fast path (nearly every file): native split on \n, then peel a \r off CRLF lines.
  if (!/\r(?!\n)/.test(text)) {
    const lines = text.split('\n');
    const finalNewline = lines[lines.length - 1] === '';
    if (finalNewline) lines.pop();
    const ends = new Array<string>(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      const last = i === lines.length - 1 && !finalNewline;
      if (!last && l.endsWith('\r')) {
        lines[i] = l.slice(0, -1);
        ends[i] = '\r\n';
      } else ends[i] = last ? '' : '\n';
    }
    return { lines, ends };
  }
  const lines: string[] = [];
  const ends: string[] = [];
  const re = /\r\n|\n|\r/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    lines.push(text.slice(last, m.index));
    ends.push(m[0]);
    last = m.index + m[0].length;
  }
  if (last < text.length) {
    lines.push(text.slice(last));
    ends.push('');
  }
  return { lines, ends };
}

/** Line breaks in text — \r\n, \n or a lone \r — counted without splitting it (a big file's lines would be a string each). */
export function countBreaks(text: string): number {
  const count = (s: string) => {
    let n = 0;
    for (let i = text.indexOf(s); i !== -1; i = text.indexOf(s, i + s.length)) n++;
    return n;
  };
  return count('\n') + count('\r') - count('\r\n');
}

function dominantEol(ends: string[]): TextFile['eol'] {
  const count = { '\n': 0, '\r\n': 0, '\r': 0 };
  for (const e of ends) if (e) count[e as keyof typeof count]++;
  if (count['\r\n'] > count['\n'] && count['\r\n'] >= count['\r']) return '\r\n';
  if (count['\r'] > count['\n'] && count['\r'] > count['\r\n']) return '\r';
  return '\n';
}

/** Decodes bytes to a string: UTF-8 (with or without BOM), UTF-16 with a BOM, or Latin-1 when not valid UTF-8. */
export function decodeString(buf: Buffer): { text: string; encoding: Encoding; bom: boolean } {
  const u16 = utf16Bom(buf);
  if (u16) {
    const body = buf.subarray(2);
    return { text: (u16 === 'utf16le' ? body : swap16(body)).toString('utf16le'), encoding: u16, bom: true };
  }
  const bom = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bom ? buf.subarray(3) : buf), encoding: 'utf8', bom };
  } catch {
    return { text: buf.toString('latin1'), encoding: 'latin1', bom: false };
  }
}

/** Decodes a text file into lines with their endings (see decodeString for encodings). */
export function decodeText(buf: Buffer): TextFile {
  const { text, encoding, bom } = decodeString(buf);
  const { lines, ends } = splitLines(text);
  return { encoding, bom, lines, ends, eol: dominantEol(ends) };
}

/**
 * Where each line starts, without making a string per line: a read of 150 lines of a 100k-line
 * file then allocates 150 strings, not 100k. Also the facts a read reports about the whole file.
 */
export interface LineIndex {
  text: string;
  /** Offset of each line's first character. */
  starts: Uint32Array;
  /** Offset just past each line's content (before its terminator). */
  stops: Uint32Array;
  total: number;
  eol: TextFile['eol'];
  longest: number;
}

export function indexLines(text: string): LineIndex {
  // Lone CRs (old Mac files) are rare: those take the general path through splitLines.
  if (/\r(?!\n)/.test(text)) {
    const { lines, ends } = splitLines(text);
    const starts = new Uint32Array(lines.length);
    const stops = new Uint32Array(lines.length);
    let at = 0;
    lines.forEach((l, i) => {
      starts[i] = at;
      stops[i] = at + l.length;
      at += l.length + ends[i]!.length;
    });
    return { text, starts, stops, total: lines.length, eol: dominantEol(ends), longest: Math.max(0, ...lines.map((l) => l.length)) };
  }
  // Otherwise step from \n to \n with native indexOf: 100k steps for 100k lines, not one per character.
  let total = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) total++;
  if (text.length && !text.endsWith('\n')) total++;
  const starts = new Uint32Array(total);
  const stops = new Uint32Array(total);
  let crlf = 0;
  let longest = 0;
  let start = 0;
  for (let line = 0; line < total; line++) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    const cr = nl > 0 && text.charCodeAt(nl - 1) === 13;
    if (cr) crlf++;
    starts[line] = start;
    stops[line] = cr ? end - 1 : end;
    longest = Math.max(longest, stops[line]! - start);
    start = end + 1;
  }
  const terminators = text.endsWith('\n') ? total : Math.max(0, total - 1);
  const lf = terminators - crlf;
  return { text, starts, stops, total, eol: crlf > lf ? '\r\n' : '\n', longest };
}

export function lineAt(index: LineIndex, n: number): string {
  return index.text.slice(index.starts[n - 1], index.stops[n - 1]);
}

/** Encodes lines back in the file's own encoding, BOM and line endings. */
export function encodeText(file: TextFile): Buffer {
  // Written line by line into one buffer of the final size: no joined copy of a big file, no per-line strings.
  const code = file.encoding === 'latin1' ? 'latin1' : file.encoding === 'utf8' ? 'utf8' : 'utf16le';
  const bom = file.encoding === 'utf8' ? (file.bom ? [0xef, 0xbb, 0xbf] : []) : file.encoding === 'latin1' ? [] : [0xff, 0xfe];
  let size = bom.length;
  for (let i = 0; i < file.lines.length; i++) size += Buffer.byteLength(file.lines[i]!, code) + Buffer.byteLength(file.ends[i] ?? '', code);
  const out = Buffer.allocUnsafe(size);
  out.set(bom);
  let at = bom.length;
  for (let i = 0; i < file.lines.length; i++) {
    at += out.write(file.lines[i]!, at, code);
    at += out.write(file.ends[i] ?? '', at, code);
  }
  if (file.encoding === 'utf16be') out.swap16();
  return out;
}

/** Encodes text in an encoding, with the BOM when the file had one. */
export function encodeString(text: string, { encoding, bom }: { encoding: Encoding; bom: boolean }): Buffer {
  switch (encoding) {
    case 'utf16le':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'utf16be':
      return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    case 'latin1':
      return Buffer.from(text, 'latin1');
    default:
      return bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]) : Buffer.from(text, 'utf8');
  }
}

/** What a binary file probably is, from its first bytes. */
export function describeBinary(buf: Buffer): string {
  const starts = (...bytes: number[]) => bytes.every((b, i) => buf[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'PNG image';
  if (starts(0xff, 0xd8, 0xff)) return 'JPEG image';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'GIF image';
  if (starts(0x25, 0x50, 0x44, 0x46)) return 'PDF document';
  if (starts(0x50, 0x4b, 0x03, 0x04)) return 'ZIP archive';
  if (starts(0x1f, 0x8b)) return 'gzip data';
  if (starts(0x7f, 0x45, 0x4c, 0x46)) return 'ELF executable';
  if (starts(0x00, 0x61, 0x73, 0x6d)) return 'WebAssembly module';
  if (starts(0x53, 0x51, 0x4c, 0x69, 0x74, 0x65)) return 'SQLite database';
  return 'binary data';
}
