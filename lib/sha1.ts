// SHA-1 in JavaScript (noble-hashes) for the little a call hashes (object ids, memory ids): node:crypto costs 3 ms to load, more than hashing a few kilobytes here.
import { sha1 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/**
 * Bytes a process hashes in JavaScript before node:crypto takes over. Not yet optimised, the
 * JavaScript hash costs ~0.55 ms a KiB (1 KiB 0.55 ms, 4 KiB 2.3 ms, 8 KiB 7.5 ms, cold, on the
 * bench machine) against crypto's ~3 ms to load and hash anything: past 4 KiB, crypto pays. (A
 * limit per input let a save into a big memory store hash its 10 KiB tree in JavaScript: 8 ms.)
 */
const JS_BUDGET = 4 * 1024;

/** A SHA-1 in hex, as createHash('sha1') gives it, hashing in JavaScript until `budget` bytes are spent, then with node:crypto. */
export function sha1Hasher(budget: number): (data: Uint8Array | string) => string {
  return (data) => {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (bytes.length > budget) {
      budget = 0;
      return (process.getBuiltinModule('node:crypto') as typeof import('node:crypto')).createHash('sha1').update(bytes).digest('hex');
    }
    budget -= bytes.length;
    return bytesToHex(sha1(bytes));
  };
}

/** The SHA-1 of `data` (a string is hashed as UTF-8), in hex: the process's one budget of JavaScript hashing. */
export const sha1Hex = sha1Hasher(JS_BUDGET);
