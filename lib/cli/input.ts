// Reads stdin: NDJSON requests line by line (first non-blank byte `{`), or raw text for text-input commands; bytes that are not UTF-8 are kept apart for validation to refuse.
import type { Readable } from 'node:stream';
import { InvalidInputError } from '../errors';

/** A line of NDJSON input, or the size of one over the limit (skipped, not held). */
export type InputLine = string | { over: number };

export type StdinInput = { kind: 'empty' } | { kind: 'ndjson'; lines: AsyncIterable<InputLine> } | { kind: 'text'; text: string };

/** The most stdin, a --file or one NDJSON line may hold unless FORGE_MAX_INPUT says otherwise: memory is bounded by it, not by the input. */
export const DEFAULT_MAX_INPUT = 64 * 1024 * 1024;

const UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** FORGE_MAX_INPUT (bytes, or with K, M or G: 256M) as bytes; the default when unset; INVALID_ARGUMENT for anything else. */
export function maxInput(env: NodeJS.ProcessEnv): number {
  const text = env.FORGE_MAX_INPUT?.trim();
  if (!text) return DEFAULT_MAX_INPUT;
  const m = /^(\d+)\s*([KMG]?)i?B?$/i.exec(text);
  const bytes = m ? Number(m[1]) * UNITS[m[2]!.toUpperCase()]! : Number.NaN;
  if (!(bytes > 0) || !Number.isSafeInteger(bytes))
    throw new InvalidInputError('INVALID_ARGUMENT', `FORGE_MAX_INPUT must be a size in bytes (or with K, M or G: 256M), got '${text}'`, {
      fix: 'FORGE_MAX_INPUT=256M',
    });
  return bytes;
}

/** A size for a message: 64 MiB, 1.5 GiB, 900 bytes. */
export function sizeText(bytes: number): string {
  for (const [unit, n] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const)
    if (bytes >= n) return `${Number((bytes / n).toFixed(1))} ${unit}`;
  return `${bytes} bytes`;
}

/** INPUT_TOO_LARGE for `what` (stdin, a file, an NDJSON line) over `limit`: refused as it arrives, never read whole. The Fix runs `command` with four times the room. */
export function tooLarge({ what, limit, command }: { what: string; limit: number; command: string }): InvalidInputError<'INPUT_TOO_LARGE'> {
  return new InvalidInputError('INPUT_TOO_LARGE', `${what} is over ${sizeText(limit)}, the most forge reads as input`, {
    fix: `FORGE_MAX_INPUT=${Math.ceil((limit * 4) / 1024 ** 2)}M ${command}`,
    data: { limit },
  });
}

/**
 * stdin as a run reads it: its bytes a chunk at a time, and whether it is a terminal. A pipe,
 * socket or file is read with read(2) (bin/stdio.ts), without the net and stream modules Node's
 * stream for it loads (3 ms); Node's stream is made for a terminal, where a question may be asked.
 */
export interface StdinSource {
  readonly isTTY: boolean;
  /** There is no input at all (a call made in-process: an agent's tool, an MCP call): a text argument it would give is missing, not empty. */
  readonly absent?: boolean;
  /** The next chunk; null at the end. Rejects with BAD_INPUT (unreadable) when the read fails. */
  read(): Promise<Buffer | null>;
  /** Node's stream of the same input, for readline's questions on a terminal: only a terminal's source has it. */
  stream?(): Readable;
}

/** A StdinSource over a Node stream (a terminal's, or Node's for what bin/stdio.ts does not read itself). */
export function streamSource(stream: Readable & { isTTY?: boolean }): Required<StdinSource> {
  return { isTTY: stream.isTTY === true, absent: false, read: () => nextChunk(stream), stream: () => stream };
}

/** A StdinSource of these chunks (what an in-process call is given), then the end. */
export function bytesSource(chunks: Buffer[]): StdinSource {
  const pending = [...chunks];
  return { isTTY: false, ...(chunks.length ? {} : { absent: true }), read: () => Promise.resolve(pending.shift() ?? null) };
}

/** A source that gives `first` before the rest of `source`: what a peek took, handed back. */
function prepended(first: Buffer, source: StdinSource): StdinSource {
  let pending: Buffer | null = first;
  return {
    isTTY: source.isTTY,
    read: () => {
      const chunk = pending;
      pending = null;
      return chunk ? Promise.resolve(chunk) : source.read();
    },
  };
}

/**
 * Peeks until the first non-blank byte decides the kind, then hands the source — with what was
 * peeked given back first — to the line splitter, so a million requests stream in constant memory.
 */
export async function readStdin(source: StdinSource, { limit = DEFAULT_MAX_INPUT, command = 'forge' } = {}): Promise<StdinInput> {
  const peeked: Buffer[] = [];
  let first: number | undefined;
  for (;;) {
    const chunk = await source.read();
    if (chunk === null) break;
    peeked.push(chunk);
    const i = chunk.findIndex((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09);
    if (i >= 0) {
      first = chunk[i];
      break;
    }
  }
  if (first === undefined) return { kind: 'empty' };
  const rest = prepended(Buffer.concat(peeked), source);
  if (first === 0x7b) return { kind: 'ndjson', lines: splitLines(rest, limit) };
  return { kind: 'text', text: await readAll(rest, { limit, command }) };
}

/** All of stdin as text (the content of `forge write path < file`), decoded by decodeBytes; INPUT_TOO_LARGE once over `limit`. */
export async function readAll(source: StdinSource, { limit = DEFAULT_MAX_INPUT, command = 'forge' } = {}): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const chunk = await source.read();
    if (chunk === null) break;
    size += chunk.length;
    if (size > limit) throw tooLarge({ what: 'stdin', limit, command });
    chunks.push(chunk);
  }
  return decodeBytes(Buffer.concat(chunks));
}

/** A line ends at \n, \r\n or a lone \r, as readline ends it. */
const LINE_END = /\r?\n|\r/;

/**
 * stdin's lines, each decoded by decodeBytes: every chunk up to its last \n is decoded at once (no
 * character spans a \n byte); the rest waits for the next chunk, so a long line costs its length —
 * up to `limit`: a line over it is let go of as it arrives and given as its size, and the lines
 * after it are read on.
 */
async function* splitLines(source: StdinSource, limit: number): AsyncGenerator<InputLine> {
  const lines = (bytes: Buffer) => {
    const text = decodeBytes(bytes);
    return (text.endsWith('\r') ? text.slice(0, -1) : text).split(LINE_END);
  };
  let parts: Buffer[] = [];
  let held = 0;
  // The bytes of a line over the limit seen so far, its end still to come: counted, not kept.
  let skipped: number | null = null;
  for (;;) {
    const chunk = await source.read();
    if (chunk === null) break;
    const last = chunk.lastIndexOf(0x0a);
    // The common case: nothing skipped, and what ends here is within the limit (so is each line of it).
    if (skipped === null && last >= 0 && held + last <= limit) {
      const block = parts.length ? Buffer.concat([...parts, chunk.subarray(0, last)]) : chunk.subarray(0, last);
      yield* lines(block);
      parts = last + 1 < chunk.length ? [chunk.subarray(last + 1)] : [];
      held = chunk.length - last - 1;
      continue;
    }
    for (let at = 0; at < chunk.length; ) {
      const nl = chunk.indexOf(0x0a, at);
      const piece = chunk.subarray(at, nl < 0 ? chunk.length : nl);
      at = nl < 0 ? chunk.length : nl + 1;
      if (skipped !== null) skipped += piece.length;
      else {
        held += piece.length;
        if (held > limit) [skipped, parts, held] = [held, [], 0];
        else parts.push(piece);
      }
      if (nl < 0) break;
      if (skipped !== null) yield { over: skipped };
      else yield* lines(Buffer.concat(parts));
      [skipped, parts, held] = [null, [], 0];
    }
  }
  if (skipped !== null) yield { over: skipped };
  else if (parts.length) yield* lines(Buffer.concat(parts));
}

/**
 * ignoreBOM: a byte-order mark is content, kept (`forge write x < file` writes it back). Made on
 * first use: making one costs 0.1 ms, and most calls read no stdin.
 */
let decoder: TextDecoder | null = null;
const strictUtf8 = () => (decoder ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }));

/**
 * Bytes as text. A byte that is not part of valid UTF-8 becomes a lone surrogate, U+DC80-U+DCFF
 * (Python's surrogateescape), which request validation refuses: text that is not UTF-8 is never
 * written to a file as U+FFFD while the command reports success.
 */
export function decodeBytes(bytes: Uint8Array): string {
  try {
    return strictUtf8().decode(bytes);
  } catch {
    // Decoded run by run below, each bad byte escaped.
  }
  let out = '';
  let run = 0;
  for (let i = 0; i < bytes.length; ) {
    const n = sequenceLength(bytes, i);
    if (n) {
      i += n;
      continue;
    }
    out += strictUtf8().decode(bytes.subarray(run, i)) + String.fromCharCode(0xdc00 | bytes[i]!);
    run = ++i;
  }
  return out + strictUtf8().decode(bytes.subarray(run));
}

/** The length of the well-formed UTF-8 sequence at bytes[i] (the Unicode standard's table 3-7), or 0. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  // The lead byte decides the length and the range of the second byte (no overlongs, no surrogates, nothing past U+10FFFF).
  const [n, lo, hi] =
    b >= 0xc2 && b <= 0xdf
      ? [2, 0x80, 0xbf]
      : b === 0xe0
        ? [3, 0xa0, 0xbf]
        : b === 0xed
          ? [3, 0x80, 0x9f]
          : b >= 0xe1 && b <= 0xef
            ? [3, 0x80, 0xbf]
            : b === 0xf0
              ? [4, 0x90, 0xbf]
              : b >= 0xf1 && b <= 0xf3
                ? [4, 0x80, 0xbf]
                : b === 0xf4
                  ? [4, 0x80, 0x8f]
                  : [0, 0, 0];
  if (!n || i + n > bytes.length || bytes[i + 1]! < lo || bytes[i + 1]! > hi) return 0;
  for (let k = 2; k < n; k++) if (bytes[i + k]! < 0x80 || bytes[i + k]! > 0xbf) return 0;
  return n;
}

function nextChunk(stream: Readable): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunk = stream.read() as Buffer | null;
    if (chunk !== null) return resolve(chunk);
    if (stream.errored) return reject(unreadable(stream.errored));
    if (stream.readableEnded || stream.destroyed) return resolve(null);
    const cleanup = () => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    const onReadable = () => {
      const c = stream.read() as Buffer | null;
      if (c !== null) {
        cleanup();
        resolve(c);
      }
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(unreadable(err));
    };
    stream.on('readable', onReadable);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

/**
 * BAD_INPUT for stdin that failed to read (a directory, an I/O error): never taken as its end, or
 * a command would act on what came before the failure as if it were all (`forge write x < dir`
 * wrote an empty file). The command's help is its Fix (lib/cli/main.ts).
 */
export function unreadable(err: Error): InvalidInputError<'BAD_INPUT'> {
  const code = (err as NodeJS.ErrnoException).code;
  return new InvalidInputError('BAD_INPUT', `stdin could not be read${code ? ` (${code})` : ''}: ${err.message}`);
}
