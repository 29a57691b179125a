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

/** git's heuristic: a NUL byte in the first 8000 bytes means binary (UTF-16 with a BOM excepted). */
export function isBinary(buf: Buffer): boolean {
  if (utf16Bom(buf)) return false;
  return buf.subarray(0, 8000).includes(0);
}

function utf16Bom(buf: Buffer): 'utf16le' | 'utf16be' | null {
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

function dominantEol(ends: string[]): TextFile['eol'] {
  const count = { '\n': 0, '\r\n': 0, '\r': 0 };
  for (const e of ends) if (e) count[e as keyof typeof count]++;
  if (count['\r\n'] > count['\n'] && count['\r\n'] >= count['\r']) return '\r\n';
  if (count['\r'] > count['\n'] && count['\r'] > count['\r\n']) return '\r';
  return '\n';
}

/** Decodes a text file: UTF-8 (with or without BOM), UTF-16 with a BOM, or Latin-1 when not valid UTF-8. */
export function decodeText(buf: Buffer): TextFile {
  let encoding: Encoding = 'utf8';
  let bom = false;
  let text: string;
  const u16 = utf16Bom(buf);
  if (u16) {
    encoding = u16;
    bom = true;
    const body = buf.subarray(2);
    text = (u16 === 'utf16le' ? body : swap16(body)).toString('utf16le');
  } else {
    bom = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
    const body = bom ? buf.subarray(3) : buf;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      encoding = 'latin1';
      bom = false;
      text = buf.toString('latin1');
    }
  }
  const { lines, ends } = splitLines(text);
  return { encoding, bom, lines, ends, eol: dominantEol(ends) };
}

/** Encodes lines back in the file's own encoding, BOM and line endings. */
export function encodeText(file: TextFile): Buffer {
  const text = file.lines.map((l, i) => l + (file.ends[i] ?? '')).join('');
  switch (file.encoding) {
    case 'utf16le':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'utf16be':
      return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    case 'latin1':
      return Buffer.from(text, 'latin1');
    default:
      return Buffer.concat([file.bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
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
