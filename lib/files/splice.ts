// forge edit's fast path for an old text found exactly: found and replaced in the file's bytes, never split into lines, and written as the untouched byte ranges plus the new text — one copy of the file in memory.
import { isUtf8 } from 'node:buffer';
import { lineHash, type Anchor } from './anchor';
import type { EditResult } from './edit-result';
import { windowOf, type WindowLine } from './read';
import { indexLines, utf16Bom } from './text';

const LF = 0x0a;
const CR = 0x0d;

export interface Splice {
  /** The new file: these pieces one after another (mostly views of the buffer read). */
  chunks: Buffer[];
  /** What replaceText reports for the edit. */
  edit: Omit<EditResult, 'path'>;
}

/**
 * replaceText's exact stage, on bytes: `oldLf` (the old text with LF breaks) found in a file whose
 * lines all end alike — LF, or CRLF with the text's breaks written as CRLF, which is the same as
 * matching the file's LF view — in UTF-8 (where a byte match is a character match) or Latin-1.
 * Null whenever the result is not certain to be the one the whole cascade gives, or is a refusal
 * (no match, several without `all`, a stale anchor): replaceText then decides as before. The
 * region shows `context` lines around the change.
 */
export function spliceExact({
  buf,
  old,
  oldLf,
  newLf,
  anchor,
  all,
  context,
}: {
  buf: Buffer;
  old: string;
  oldLf: string;
  newLf: string;
  anchor?: Anchor;
  all: boolean;
  context: number;
}): Splice | null {
  if (utf16Bom(buf)) return null;
  const encoding = isUtf8(buf) ? 'utf8' : 'latin1';
  const bom = encoding === 'utf8' && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
  // The decoder drops a second BOM too: the decoded text would not be these bytes.
  if (bom && buf[3] === 0xef && buf[4] === 0xbb && buf[5] === 0xbf) return null;
  // Latin-1 cannot hold other characters (and today's write would mangle them): the cascade decides.
  if (encoding === 'latin1' && /[^\x00-\xff]/.test(old + newLf)) return null;
  // A lone surrogate would be encoded as U+FFFD and match one in the file, which the text never would.
  if (/\p{Cs}/u.test(old)) return null;
  const body = buf.subarray(bom ? 3 : 0);
  const crlf = lineEndings(body);
  if (crlf === null) return null;
  const encode = (s: string) => Buffer.from(crlf ? s.replace(/\n/g, '\r\n') : s, encoding);
  const needle = encode(oldLf);
  const replacement = encode(newLf);

  const lines = lineCounter(body);
  let matches: Array<{ from: number; to: number; startLine: number; endLine: number }> = [];
  for (let i = body.indexOf(needle); i !== -1; i = body.indexOf(needle, i + needle.length)) {
    matches.push({ from: i, to: i + needle.length, startLine: lines(i), endLine: lines(i + needle.length - 1) });
  }
  if (anchor) {
    const line = lineText(body, anchor.line, encoding);
    if (line === null || lineHash(line) !== anchor.hash) return null;
    matches = matches.filter((m) => m.startLine <= anchor.line && anchor.line <= m.endLine);
  }
  if (!matches.length || (matches.length > 1 && !all)) return null;

  const chunks: Buffer[] = [buf.subarray(0, bom ? 3 : 0)];
  let at = 0;
  for (const m of matches) {
    chunks.push(body.subarray(at, m.from), replacement);
    at = m.to;
  }
  chunks.push(body.subarray(at));

  const first = matches[0]!;
  const startLine = first.startLine;
  const added = newLf.split('\n').length - oldLf.split('\n').length;
  const endLine = matches.length === 1 ? Math.max(startLine, first.endLine + added) : startLine;
  // The old text as given (CRs and all) in the file's bytes: what replaceText calls an exact match.
  const exact = Buffer.from(old, encoding);
  const strategy = exact.equals(needle) || body.includes(exact) ? 'exact' : 'line-endings';
  return {
    chunks: chunks.filter((c) => c.length),
    edit: {
      strategy,
      replacements: matches.length,
      startLine,
      endLine,
      ...region({ body, chunks, matches, startLine, endLine, encoding, context }),
    },
  };
}

/** False: every line ends with LF; true: every one with CRLF; null: mixed, or a lone CR. */
function lineEndings(body: Buffer): boolean | null {
  if (body.indexOf(CR) === -1) return false;
  const count = (what: number | string) => {
    let n = 0;
    for (let i = body.indexOf(what); i !== -1; i = body.indexOf(what, i + 1)) n++;
    return n;
  };
  const pairs = count('\r\n');
  return count(CR) === pairs && count(LF) === pairs ? true : null;
}

/** The line (1-based) of a byte offset, for offsets asked in increasing order. */
function lineCounter(body: Buffer): (offset: number) => number {
  let line = 1;
  let next = body.indexOf(LF);
  return (offset) => {
    while (next !== -1 && next < offset) {
      line++;
      next = body.indexOf(LF, next + 1);
    }
    return line;
  };
}

/** Line `n` without its ending, decoded; null past the end. */
function lineText(body: Buffer, n: number, encoding: 'utf8' | 'latin1'): string | null {
  if (n < 1) return null;
  let start = 0;
  for (let k = 1; k < n; k++) {
    const nl = body.indexOf(LF, start);
    if (nl === -1) return null;
    start = nl + 1;
  }
  if (start >= body.length) return null;
  const nl = body.indexOf(LF, start);
  const end = nl === -1 ? body.length : body[nl - 1] === CR ? nl - 1 : nl;
  return body.toString(encoding, start, end);
}

/**
 * The edited lines and their context with fresh anchors, as replaceText shows them: taken from the
 * new file's pieces, from the start of the first line shown to the end of the last.
 */
function region({
  body,
  chunks,
  matches,
  startLine,
  endLine,
  encoding,
  context,
}: {
  body: Buffer;
  chunks: Buffer[];
  matches: Array<{ from: number }>;
  startLine: number;
  endLine: number;
  encoding: 'utf8' | 'latin1';
  context: number;
}): { regionStart: number; region: WindowLine[] } {
  // chunks[0] is the BOM, chunks[1] the bytes before the first match.
  if (chunks.slice(1).every((c) => !c.length)) return { regionStart: 0, region: [] };
  const regionStart = Math.max(1, startLine - context);
  const regionEnd = Math.max(startLine, endLine) + context;
  // Before the first match the bytes are the old file's: line regionStart starts where it did.
  const lineStart = (offset: number) => (offset <= 0 ? 0 : body.lastIndexOf(LF, offset - 1) + 1);
  let from = lineStart(matches[0]!.from);
  for (let k = startLine; k > regionStart; k--) from = lineStart(from - 1);
  const pieces = [chunks[1]!.subarray(from), ...chunks.slice(2)];
  const wanted = regionEnd - regionStart + 1;
  const taken: Buffer[] = [];
  let breaks = 0;
  for (const piece of pieces) {
    let at = 0;
    while (breaks < wanted) {
      const nl = piece.indexOf(LF, at);
      if (nl === -1) break;
      breaks++;
      at = nl + 1;
    }
    taken.push(breaks < wanted ? piece : piece.subarray(0, at));
    if (breaks >= wanted) break;
  }
  const part = indexLines(Buffer.concat(taken).toString(encoding));
  return {
    regionStart,
    region: windowOf({ part, first: regionStart, total: regionStart + part.total - 1, minified: false, start: regionStart, end: regionEnd })
      .lines,
  };
}
