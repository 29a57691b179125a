// Reads git's index file (gitformat-index: versions 2, 3 and 4) for its paths, modes and flags, without a git process.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { locateDirectly } from './repo';

/** What forge needs of an index entry's flags: bits of IndexEntries.flags. */
export const INDEX_FLAG = {
  /** assume-unchanged: git takes the file from the index without looking at the work tree. */
  assumeValid: 1,
  /** skip-worktree (sparse checkout): likewise, and the file may be absent. */
  skipWorktree: 2,
  /** `git add -N`: tracked, no content staged yet. */
  intentToAdd: 4,
  /** A stage of a conflict (1–3), not the merged entry. */
  unmerged: 8,
} as const;

/** File modes an index entry may have; a sparse index's directory entry (040000) is not among them. */
export const INDEX_MODE = { file: 0o100644, executable: 0o100755, symlink: 0o120000, gitlink: 0o160000 } as const;

/** The entries of an index, in its order (paths by bytes, then stage): paths relative to the work tree's root. */
export interface IndexEntries {
  /** Every entry's path, each ended by NUL, in one string: 100k paths without a string each until asked for. */
  paths: string;
  modes: Uint32Array;
  flags: Uint8Array;
}

const HASH_BYTES = { sha1: 20, sha256: 32 } as const;

/**
 * The index at `file`, or null for anything this reader does not take as it is — git then answers
 * (a split index, a sparse index, an extension git requires that is not known here, a version
 * other than 2–4) — or that is not a well-formed index: the header's count not met, a path not
 * ended, a path git would refuse to check out (`..`, `.`, an empty or absolute component), a mode
 * no entry has. No index file is an empty index, as git reads it (a repository before its first
 * add). The trailing checksum is not verified: git replaces the index by rename, so it is never
 * seen half written, and hashing 9 MB would cost more than reading it.
 */
export function readIndex(file: string, objectFormat: 'sha1' | 'sha256'): IndexEntries | null {
  let buf: Buffer;
  let fd: number | null = null;
  try {
    // Opened without blocking and read only when it is a regular file: a FIFO put there would never end.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!fstatSync(fd).isFile()) return null;
    buf = readFileSync(fd);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? { paths: '', modes: new Uint32Array(0), flags: new Uint8Array(0) } : null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
  const hashBytes = HASH_BYTES[objectFormat];
  if (buf.length < 12 + hashBytes || buf.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buf.readUInt32BE(4);
  const count = buf.readUInt32BE(8);
  const end = buf.length - hashBytes;
  // A count the bytes cannot hold is refused before anything is sized by it.
  if (version < 2 || version > 4 || count > (end - 12) / (40 + hashBytes + 4)) return null;
  // Paths are gathered into one buffer, each ended by NUL, and decoded once. Version 4's paths
  // share prefixes, so they may take more room than the file: the buffer grows when they do.
  let names = Buffer.allocUnsafe(Math.max(end, 64));
  let namesLength = 0;
  const modes = new Uint32Array(count);
  const flags = new Uint8Array(count);
  let previous = 0; // v4: where the previous path starts in `names`, and its length
  let previousLength = 0;
  let at = 12;
  for (let i = 0; i < count; i++) {
    const fixed = at + 40 + hashBytes + 2;
    if (fixed > end) return null;
    const mode = ((buf[at + 24]! << 24) | (buf[at + 25]! << 16) | (buf[at + 26]! << 8) | buf[at + 27]!) >>> 0;
    if (mode !== INDEX_MODE.file && mode !== INDEX_MODE.executable && mode !== INDEX_MODE.symlink && mode !== INDEX_MODE.gitlink)
      return null;
    const bits = (buf[fixed - 2]! << 8) | buf[fixed - 1]!;
    let f = (bits & 0x8000 ? INDEX_FLAG.assumeValid : 0) | (bits & 0x3000 ? INDEX_FLAG.unmerged : 0);
    let name = fixed;
    if (bits & 0x4000) {
      if (version < 3 || name + 2 > end) return null;
      const extended = (buf[name]! << 8) | buf[name + 1]!;
      if (extended & 0x9fff) return null; // reserved bits: a flag this reader does not know
      f |= (extended & 0x4000 ? INDEX_FLAG.skipWorktree : 0) | (extended & 0x2000 ? INDEX_FLAG.intentToAdd : 0);
      name += 2;
    }
    let strip = 0;
    if (version === 4) {
      // git's offset varint: the number of bytes to drop from the end of the previous path.
      let c = buf[name++]!;
      strip = c & 0x7f;
      while (c & 0x80) {
        if (name >= end || strip > 0xffffff) return null;
        c = buf[name++]!;
        strip = ((strip + 1) << 7) | (c & 0x7f);
      }
      if (strip > previousLength) return null;
    }
    const nul = buf.indexOf(0, name);
    if (nul === -1 || nul >= end) return null;
    const start = namesLength;
    const room = namesLength + previousLength + (nul - name) + 1;
    if (room > names.length) {
      const grown = Buffer.allocUnsafe(room * 2);
      names.copy(grown, 0, 0, namesLength);
      names = grown;
    }
    if (version === 4) {
      names.copyWithin(namesLength, previous, previous + previousLength - strip);
      namesLength += previousLength - strip;
    }
    // Most paths are short: a loop copies them for less than a call to copy() costs.
    if (nul - name < 64) for (let b = name; b < nul; b++) names[namesLength++] = buf[b]!;
    else namesLength += buf.copy(names, namesLength, name, nul);
    const length = namesLength - start;
    // The 12-bit length must agree with the path (it saturates at 0xfff) in versions 2 and 3, where it places the next entry.
    if (version !== 4 && (bits & 0xfff) !== (length < 0xfff ? length : 0xfff)) return null;
    if (!safePath(names, start, namesLength)) return null;
    names[namesLength++] = 0;
    modes[i] = mode;
    flags[i] = f;
    previous = start;
    previousLength = length;
    // Versions 2 and 3 pad an entry with 1–8 NULs to a multiple of 8 bytes; version 4 does not pad.
    at = version === 4 ? nul + 1 : at + ((nul - at + 8) & ~7);
    if (at > end) return null;
  }
  if (!knownExtensions(buf, at, end)) return null;
  return { paths: names.toString('utf8', 0, namesLength), modes, flags };
}

/** Whether the extensions after the entries leave the entries as they are: no split index (`link`), no sparse directories (`sdir`), no required one not known here. */
function knownExtensions(buf: Buffer, at: number, end: number): boolean {
  while (at < end) {
    if (at + 8 > end) return false;
    const signature = buf.toString('latin1', at, at + 4);
    if (signature === 'link' || signature === 'sdir') return false;
    // An extension whose signature starts with a capital may be ignored; any other must be understood.
    const first = signature.charCodeAt(0);
    if (first < 0x41 || first > 0x5a) return false;
    at += 8 + buf.readUInt32BE(at + 4);
  }
  return at === end;
}

/** Whether bytes start..end of `b` are a relative path whose components are neither empty, `.` nor `..`. */
function safePath(b: Buffer, start: number, end: number): boolean {
  if (start === end) return false;
  let component = start;
  for (let i = start; i <= end; i++) {
    if (i < end && b[i] !== 0x2f) continue;
    const n = i - component;
    if (n === 0 || (b[component] === 0x2e && (n === 1 || (n === 2 && b[component + 1] === 0x2e)))) return false;
    component = i + 1;
  }
  return true;
}

/**
 * The index of cwd's repository and its work tree's root (a real path), for a plain repository
 * (repo.ts locateDirectly) whose index git reads from its git dir; null for anything else
 * (GIT_INDEX_FILE points git elsewhere) or an index readIndex does not take.
 */
export function readRepositoryIndex(cwd: string): { root: string; index: IndexEntries } | null {
  const repo = locateDirectly(cwd);
  if (!repo || process.env.GIT_INDEX_FILE !== undefined) return null;
  const index = readIndex(join(repo.gitDir, 'index'), repo.objectFormat);
  return index && { root: repo.root, index };
}
