// SHA-1 in JavaScript (noble-hashes) for the small inputs a call hashes (object ids, memory ids): node:crypto costs 3 ms to load, more than hashing a few kilobytes here.
import { sha1 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** Above this many bytes node:crypto hashes: its load is then paid back. */
const JS_MAX = 64 * 1024;

/** The SHA-1 of `data` (a string is hashed as UTF-8), in hex, as createHash('sha1') gives it: noble-hashes' for small inputs. */
export function sha1Hex(data: Uint8Array | string): string {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (bytes.length > JS_MAX)
    return (process.getBuiltinModule('node:crypto') as typeof import('node:crypto')).createHash('sha1').update(bytes).digest('hex');
  return bytesToHex(sha1(bytes));
}
