// Reads stdin: NDJSON requests line by line (first non-blank byte `{`), or raw text for text-input commands.
import type { Readable } from 'node:stream';

export type StdinInput =
  | { kind: 'empty' }
  | { kind: 'ndjson'; lines: AsyncIterable<string> }
  | { kind: 'text'; text: string };

/**
 * Peeks until the first non-blank byte decides the kind, then hands the stream — with what was
 * peeked pushed back — to readline, so a million requests stream in constant memory.
 */
export async function readStdin(stream: Readable): Promise<StdinInput> {
  const peeked: Buffer[] = [];
  let first: number | undefined;
  for (;;) {
    const chunk = await nextChunk(stream);
    if (chunk === null) break;
    peeked.push(chunk);
    const i = chunk.findIndex((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09);
    if (i >= 0) {
      first = chunk[i];
      break;
    }
  }
  if (first === undefined) return { kind: 'empty' };
  if (first === 0x7b) {
    stream.unshift(Buffer.concat(peeked));
    const { createInterface } = await import('node:readline');
    return { kind: 'ndjson', lines: createInterface({ input: stream, crlfDelay: Infinity }) };
  }
  stream.unshift(Buffer.concat(peeked));
  return { kind: 'text', text: await readAll(stream) };
}

/** All of stdin as text (the content of `forge write path < file`). */
export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for (;;) {
    const chunk = await nextChunk(stream);
    if (chunk === null) break;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function nextChunk(stream: Readable): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunk = stream.read() as Buffer | null;
    if (chunk !== null) return resolve(chunk);
    if (stream.readableEnded || stream.destroyed) return resolve(null);
    const cleanup = () => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', onEnd);
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
    stream.on('readable', onReadable);
    stream.on('end', onEnd);
    stream.on('error', onEnd);
  });
}
