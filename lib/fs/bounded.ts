// Reads a file a user names as input (forge patch --file) with a bound: only a regular file, and never more than the limit, whatever the path turns out to be.
import { constants, closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Why a named input file cannot be read, for the caller to say in its own terms. */
export type BoundedRead =
  | { ok: true; bytes: Buffer }
  | { ok: false; why: 'missing' | 'directory' | 'not-regular' | 'too-large'; code?: string; size?: number };

/**
 * The bytes of the file at `path`, when it is a regular file of at most `limit` bytes. A FIFO, a
 * device (/dev/zero, /dev/stdin) or a socket is refused at once, before a byte is read (opened
 * non-blocking, so a FIFO with no writer cannot hang it); a file that grows past the limit while it
 * is read is refused too: memory is bounded by the limit, not by the file.
 */
export function readBounded(path: string, limit: number): BoundedRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') return { ok: false, why: 'directory' };
    return { ok: false, why: 'missing', ...(code ? { code } : {}) };
  }
  try {
    const info = fstatSync(fd);
    if (info.isDirectory()) return { ok: false, why: 'directory' };
    if (!info.isFile()) return { ok: false, why: 'not-regular' };
    if (info.size > limit) return { ok: false, why: 'too-large', size: info.size };
    // Read to its end, not to the size stat gave: a file written meanwhile is read whole or refused.
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.max(64 * 1024, Math.min(info.size - length + 1, limit - length + 1)));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      length += n;
      if (length > limit) return { ok: false, why: 'too-large' };
      chunks.push(chunk.subarray(0, n));
    }
    return { ok: true, bytes: Buffer.concat(chunks, length) };
  } finally {
    closeSync(fd);
  }
}
