// zlib streams (RFC 1950, deflate RFC 1951) read and written in JavaScript for small loose objects: node:zlib costs a state call 2.5 ms to load (it brings node:stream along), and fflate 4.5 ms (its tables are built when it loads), before either inflates a byte; this costs 1 ms. test/lib/git/zlib.test.ts holds it to node:zlib.

/** Thrown for anything that is not one well-formed zlib stream; callers let git read the object instead. */
export class ZlibFormatError extends Error {}

const fail = (what: string): never => {
  throw new ZlibFormatError(what);
};

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385,
  24577,
];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
/** The order code length code lengths are sent in. */
const CLEN_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
/**
 * How to decode one Huffman code: `table`, indexed by the next `bits` input bits (LSB first, as
 * deflate sends codes reversed), holds symbol << 4 | code length for codes up to `bits` long, 0
 * elsewhere; a longer code (or none) is decoded bit by bit from `count` and `symbol`, as puff.c
 * does. The table is kept short because a block's own table is built for each object, and a
 * 15-bit one costs more than the few long codes a small object uses.
 */
interface Code {
  table: Uint16Array;
  bits: number;
  /** How many codes there are of each length, and the symbols in code order. */
  count: Uint16Array;
  symbol: Uint16Array;
  /** Whether any code is longer than `bits`. */
  long: boolean;
}

const TABLE_BITS = 9;

/**
 * The code for these code lengths. Like zlib, refuses an over-subscribed set, and an incomplete
 * one unless `incomplete` allows it: 'lone' a single one-bit code (zlib's rule for a block's own
 * codes), 'any' for the fixed distance code (30 of 32 five-bit codes).
 */
function buildCode(lengths: Uint8Array, n: number, incomplete: 'none' | 'lone' | 'any'): Code {
  const count = new Uint16Array(16);
  for (let i = 0; i < n; i++) count[lengths[i]!]!++;
  count[0] = 0;
  let left = 1;
  let max = 0;
  for (let len = 1; len <= 15; len++) {
    left = (left << 1) - count[len]!;
    if (left < 0) fail('over-subscribed code');
    if (count[len]) max = len;
  }
  if (left > 0 && max > 0 && incomplete !== 'any' && !(incomplete === 'lone' && max === 1)) fail('incomplete code');
  const offs = new Uint16Array(16);
  for (let len = 1; len < 15; len++) offs[len + 1] = offs[len]! + count[len]!;
  const symbol = new Uint16Array(n);
  for (let i = 0; i < n; i++) if (lengths[i]) symbol[offs[lengths[i]!]!++] = i;
  const bits = Math.min(max, TABLE_BITS);
  const table = new Uint16Array(1 << bits);
  // Canonical codes in order: each length's first code follows the last of the length before.
  for (let len = 1, code = 0, index = 0; len <= bits; len++) {
    for (let c = 0; c < count[len]!; c++, code++, index++) {
      let reversed = 0;
      for (let i = 0; i < len; i++) reversed |= ((code >> i) & 1) << (len - 1 - i);
      const entry = (symbol[index]! << 4) | len;
      for (let k = reversed; k < table.length; k += 1 << len) table[k] = entry;
    }
    code <<= 1;
  }
  return { table, bits, count, symbol, long: max > bits };
}

/** Decodes one symbol at bit `pos`: symbol << 4 | code length; throws when no code matches. */
function decode(code: Code, input: Uint8Array, pos: number): number {
  const e = code.table[peek(input, pos) & ((1 << code.bits) - 1)]!;
  if (e !== 0 || !code.long) return e === 0 ? fail('invalid code') : e;
  let value = 0;
  let first = 0;
  let index = 0;
  for (let len = 1; len <= 15; len++) {
    value |= (input[(pos + len - 1) >> 3]! >> ((pos + len - 1) & 7)) & 1;
    const count = code.count[len]!;
    if (value - count < first) return (code.symbol[index + (value - first)]! << 4) | len;
    index += count;
    first = (first + count) << 1;
    value <<= 1;
  }
  return fail('invalid code');
}

let fixed: { lit: Code; dist: Code } | null = null;

function fixedCodes(): { lit: Code; dist: Code } {
  if (fixed) return fixed;
  const lengths = new Uint8Array(288);
  lengths.fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(8, 280, 288);
  fixed = { lit: buildCode(lengths, 288, 'none'), dist: buildCode(new Uint8Array(30).fill(5), 30, 'any') };
  return fixed;
}

/** The Adler-32 of data, as zlib computes it. */
export function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length; ) {
    // 5552 bytes is the most that can be summed before b could pass 2^32 (zlib's NMAX).
    const end = Math.min(i + 5552, data.length);
    for (; i < end; i++) {
      a += data[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** Up to 17 bits of input from bit `pos` on, LSB first; bytes past the end read as zeros (callers check `pos`). */
function peek(input: Uint8Array, pos: number): number {
  const o = pos >> 3;
  return (input[o]! | (input[o + 1]! << 8) | (input[o + 2]! << 16)) >>> (pos & 7);
}

/** Where the inflation of one stream is: its input, the bit read next, the output so far. */
interface Inflation {
  input: Uint8Array;
  /** Bits of the deflate data: the Adler-32 is not part of it. */
  end: number;
  pos: number;
  out: Buffer;
  /** Bytes of `out` written. */
  n: number;
}

/** A stored block: its length checked against its complement, its bytes copied as they are. */
function storedBlock(s: Inflation): void {
  const { input, end } = s;
  const o = (s.pos + 7) >> 3;
  if (o + 4 > end >> 3) fail('truncated');
  const len = input[o]! | (input[o + 1]! << 8);
  if (len !== (~(input[o + 2]! | (input[o + 3]! << 8)) & 0xffff)) fail('stored block length');
  if (o + 4 + len > end >> 3) fail('truncated');
  if (s.n + len > s.out.length) s.out = grow(s.out, s.n, s.n + len);
  s.out.set(input.subarray(o + 4, o + 4 + len), s.n);
  s.n += len;
  s.pos = (o + 4 + len) * 8;
}

/**
 * A dynamic block's own codes, read from its header: the code length code, then the literal and
 * distance code lengths it encodes (with runs). `lengths` is scratch space, 320 entries.
 */
function dynamicCodes(s: Inflation, lengths: Uint8Array): { lit: Code; dist: Code } {
  const { input, end } = s;
  let pos = s.pos;
  if (pos + 14 > end) fail('truncated');
  const h = peek(input, pos);
  const nlit = (h & 31) + 257;
  const ndist = ((h >> 5) & 31) + 1;
  const nclen = ((h >> 10) & 15) + 4;
  pos += 14;
  if (nlit > 286 || ndist > 30) fail('bad counts');
  lengths.fill(0);
  for (let i = 0; i < nclen; i++, pos += 3) lengths[CLEN_ORDER[i]!] = peek(input, pos) & 7;
  if (pos > end) fail('truncated');
  const clen = buildCode(lengths, 19, 'none');
  lengths.fill(0, 0, 19);
  for (let i = 0; i < nlit + ndist; ) {
    const e = decode(clen, input, pos);
    pos += e & 15;
    const sym = e >> 4;
    if (sym < 16) {
      lengths[i++] = sym;
    } else {
      let len = 0;
      let repeat: number;
      if (sym === 16) {
        if (i === 0) fail('repeat with no first length');
        len = lengths[i - 1]!;
        repeat = 3 + (peek(input, pos) & 3);
        pos += 2;
      } else if (sym === 17) {
        repeat = 3 + (peek(input, pos) & 7);
        pos += 3;
      } else {
        repeat = 11 + (peek(input, pos) & 127);
        pos += 7;
      }
      if (i + repeat > nlit + ndist) fail('too many lengths');
      while (repeat--) lengths[i++] = len;
    }
    if (pos > end) fail('truncated');
  }
  if (lengths[256] === 0) fail('no end-of-block code');
  s.pos = pos;
  return { lit: buildCode(lengths, nlit, 'lone'), dist: buildCode(lengths.subarray(nlit), ndist, 'lone') };
}

/**
 * A block's symbols up to its end-of-block code: literals, and lengths with distances copied from
 * what is already out. The hot loop: the state is in locals while it runs.
 */
function codesBlock(s: Inflation, lit: Code, dist: Code): void {
  const { input, end } = s;
  let { pos, out, n } = s;
  for (;;) {
    const e = decode(lit, input, pos);
    pos += e & 15;
    if (pos > end) fail('truncated');
    const sym = e >> 4;
    if (sym < 256) {
      if (n >= out.length) out = grow(out, n, n + 1);
      out[n++] = sym;
      continue;
    }
    if (sym === 256) break;
    const li = sym - 257;
    if (li >= 29) fail('invalid length symbol');
    const len = LENGTH_BASE[li]! + (peek(input, pos) & ((1 << LENGTH_EXTRA[li]!) - 1));
    pos += LENGTH_EXTRA[li]!;
    const de = decode(dist, input, pos);
    pos += de & 15;
    const di = de >> 4;
    if (di >= 30) fail('invalid distance symbol');
    const distance = DIST_BASE[di]! + (peek(input, pos) & ((1 << DIST_EXTRA[di]!) - 1));
    pos += DIST_EXTRA[di]!;
    if (pos > end) fail('truncated');
    if (distance > n) fail('distance too far back');
    if (n + len > out.length) out = grow(out, n, n + len);
    // Byte by byte: a copy may overlap what it writes (a run).
    for (let i = 0; i < len; i++, n++) out[n] = out[n - distance]!;
  }
  s.pos = pos;
  s.out = out;
  s.n = n;
}

/**
 * Inflates one zlib stream that is the whole of `input` (git refuses bytes after the stream, and
 * so does this), checking its header and Adler-32 — what zlib refuses, this refuses. Throws
 * ZlibFormatError on anything else.
 */
export function inflate(input: Uint8Array): Buffer {
  if (input.length < 6) fail('truncated');
  const cmf = input[0]!;
  const flg = input[1]!;
  if ((cmf & 0x0f) !== 8 || cmf >> 4 > 7 || ((cmf << 8) | flg) % 31 !== 0) fail('not a zlib header');
  if (flg & 0x20) fail('preset dictionary');
  const s: Inflation = { input, end: (input.length - 4) * 8, pos: 16, out: Buffer.allocUnsafe(Math.max(256, input.length * 4)), n: 0 };
  const lengths = new Uint8Array(320);
  for (let last = 0; !last; ) {
    if (s.pos + 3 > s.end) fail('truncated');
    const head = peek(input, s.pos);
    last = head & 1;
    const type = (head >> 1) & 3;
    s.pos += 3;
    if (type === 0) storedBlock(s);
    else if (type === 1) {
      const { lit, dist } = fixedCodes();
      codesBlock(s, lit, dist);
    } else if (type === 2) {
      const { lit, dist } = dynamicCodes(s, lengths);
      codesBlock(s, lit, dist);
    } else fail('invalid block type');
  }
  // The Adler-32 of the data follows the last block, from the next byte boundary.
  const o = (s.pos + 7) >> 3;
  if (o + 4 !== input.length) fail('bytes after the stream');
  const result = s.out.subarray(0, s.n);
  const check = ((input[o]! << 24) | (input[o + 1]! << 16) | (input[o + 2]! << 8) | input[o + 3]!) >>> 0;
  if (check !== adler32(result)) fail('adler-32 mismatch');
  return result;
}

function grow(out: Buffer, used: number, need: number): Buffer {
  const bigger = Buffer.allocUnsafe(Math.max(out.length * 2, need));
  out.copy(bigger, 0, 0, used);
  return bigger;
}

/**
 * A zlib stream of `data` in stored (uncompressed) blocks: valid for every zlib reader, git's
 * included, as git's own core.looseCompression=0 writes. For an object that fits in a file
 * system block, compressing saves no disk.
 */
export function deflateStored(data: Uint8Array): Buffer {
  const blocks = Math.max(1, Math.ceil(data.length / 0xffff));
  const out = Buffer.allocUnsafe(2 + blocks * 5 + data.length + 4);
  // CMF 0x78 (deflate, 32K window), FLG 0x01 (fastest; a multiple of 31 with CMF).
  out[0] = 0x78;
  out[1] = 0x01;
  let o = 2;
  for (let b = 0; b < blocks; b++) {
    const start = b * 0xffff;
    const len = Math.min(0xffff, data.length - start);
    out[o++] = b === blocks - 1 ? 1 : 0;
    out.writeUInt16LE(len, o);
    out.writeUInt16LE(~len & 0xffff, o + 2);
    o += 4;
    out.set(data.subarray(start, start + len), o);
    o += len;
  }
  out.writeUInt32BE(adler32(data), o);
  return out;
}
