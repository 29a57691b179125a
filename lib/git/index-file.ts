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
  /**
   * Where each path's NUL is in `paths`, when every path is ASCII (a byte is a character, and
   * character order is git's); null otherwise: then NULs are found by searching.
   */
  ends: Uint32Array | null;
  modes: Uint32Array;
  flags: Uint8Array;
}

const HASH_BYTES = { sha1: 20, sha256: 32 } as const;

/**
 * The index at `file`, or null for anything this reader does not take as it is — git then answers
 * (a split index, a sparse index, an extension git requires that is not known here, a version
 * other than 2–4) — or that is not a well-formed index: the header's count not met, a path not
 * ended or not of the length its entry gives, a path git would refuse to check out (`..`, `.`, an
 * empty or absolute component), a mode no entry has, entries out of git's order (by path, then
 * stage: a path is listed twice only as a conflict's stages). No index file is an empty index, as
 * git reads it (a repository before its first add). The trailing checksum is not verified: git
 * replaces the index by rename, so it is never seen half written, and hashing 9 MB would cost more
 * than reading it.
 */
export function readIndex(file: string, objectFormat: 'sha1' | 'sha256'): IndexEntries | null {
  const buf = readRegularFile(file);
  if (buf === 'absent') return { paths: '', ends: new Uint32Array(0), modes: new Uint32Array(0), flags: new Uint8Array(0) };
  if (!buf) return null;
  const hashBytes = HASH_BYTES[objectFormat];
  if (buf.length < 12 + hashBytes || buf.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buf.readUInt32BE(4);
  const count = buf.readUInt32BE(8);
  const end = buf.length - hashBytes;
  // A count the bytes cannot hold is refused before anything is sized by it.
  if (version < 2 || version > 4 || count > (end - 12) / (40 + hashBytes + 4)) return null;
  const read = readEntries(buf, { version, count, hashBytes, end });
  return read && knownExtensions(buf, read.at, end) ? read.entries : null;
}

/** The entries of an index whose header was read: the entries and where the extensions start, or null for anything readIndex refuses. */
function readEntries(
  buf: Buffer,
  { version, count, hashBytes, end }: { version: number; count: number; hashBytes: number; end: number },
): { entries: IndexEntries; at: number } | null {
  // Paths are gathered into one buffer, each ended by NUL, and decoded once. Version 4's paths
  // share prefixes, so they may take more room than the file: the buffer grows when they do.
  let names: Buffer = Buffer.allocUnsafe(Math.max(end, 64));
  let namesLength = 0;
  const ends = new Uint32Array(count);
  const modes = new Uint32Array(count);
  const flags = new Uint8Array(count);
  let previous = 0; // where the previous path starts in `names`, its length and its stage
  let previousLength = 0;
  let previousStage = 0;
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
      const extended = version < 3 || name + 2 > end ? -1 : extendedFlags((buf[name]! << 8) | buf[name + 1]!);
      if (extended < 0) return null;
      f |= extended;
      name += 2;
    }
    let strip = 0;
    if (version === 4) {
      // git's offset varint: the number of bytes to drop from the end of the previous path.
      let c = buf[name++]!;
      for (strip = c & 0x7f; c & 0x80; strip = ((strip + 1) << 7) | (c & 0x7f)) {
        if (name >= end || strip > 0xffffff) return null;
        c = buf[name++]!;
      }
      if (strip > previousLength) return null;
    }
    // Versions 2 and 3 give the path's length (saturated at 0xfff): where it is exact, the NUL must
    // be there, and a NUL before it is refused as the path is copied.
    const given = bits & 0xfff;
    const nul = version !== 4 && given < 0xfff ? name + given : buf.indexOf(0, name);
    if (nul < 0 || nul >= end || buf[nul] !== 0) return null;
    const start = namesLength;
    const room = namesLength + previousLength + (nul - name) + 1;
    if (room > names.length) names = grown(names, namesLength, room * 2);
    if (version === 4) {
      names.copyWithin(namesLength, previous, previous + previousLength - strip);
      namesLength += previousLength - strip;
    }
    if (version !== 4 && given < 0xfff) {
      namesLength = copyPath(buf, name, nul, names, namesLength);
      if (namesLength < 0) return null;
    } else {
      namesLength += buf.copy(names, namesLength, name, nul);
      // A saturated length must be 0xfff or more in versions 2 and 3, where it places the next entry.
      if (version !== 4 && namesLength - start < 0xfff) return null;
      if (!safePath(names, start, namesLength)) return null;
    }
    const length = namesLength - start;
    // Version 4 gives the whole path's length too, and git reads the path by it: a path whose NUL
    // is elsewhere is one git would read otherwise (and the entries after it), so it is refused.
    if (version === 4 && given < 0xfff && given !== length) return null;
    // Entries are sorted by path, then stage, as git checks on reading: a path out of order, or one
    // twice that is not a conflict's stages in order, is refused. Users may then rely on that order.
    const stage = (bits >> 12) & 3;
    if (i > 0) {
      // Version 4's path shares what was kept of the previous one: compared from there.
      const order = compareBytes(names, start, length, previous, previousLength, version === 4 ? previousLength - strip : 0);
      if (order < 0 || (order === 0 && (previousStage === 0 || stage <= previousStage))) return null;
    }
    ends[i] = namesLength;
    names[namesLength++] = 0;
    modes[i] = mode;
    flags[i] = f;
    previous = start;
    previousLength = length;
    previousStage = stage;
    // Versions 2 and 3 pad an entry with 1–8 NULs to a multiple of 8 bytes; version 4 does not pad.
    at = version === 4 ? nul + 1 : at + ((nul - at + 8) & ~7);
    if (at > end) return null;
  }
  const paths = names.toString('utf8', 0, namesLength);
  // As many characters as bytes and no U+FFFD: no byte sequence decoded to anything but itself, so all is ASCII.
  const ascii = paths.length === namesLength && !paths.includes('\uFFFD');
  return { entries: { paths, ends: ascii ? ends : null, modes, flags }, at };
}

/** The bytes of a regular file; 'absent' when there is none; null when it is not a regular file or cannot be read. */
function readRegularFile(file: string): Buffer | 'absent' | null {
  let fd: number | null = null;
  try {
    // Opened without blocking and read only when it is a regular file: a FIFO put there would never end.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    return fstatSync(fd).isFile() ? readFileSync(fd) : null;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** INDEX_FLAG's bits for version 3's extended flags, or -1 when a reserved bit is set: a flag this reader does not know. */
function extendedFlags(extended: number): number {
  if (extended & 0x9fff) return -1;
  return (extended & 0x4000 ? INDEX_FLAG.skipWorktree : 0) | (extended & 0x2000 ? INDEX_FLAG.intentToAdd : 0);
}

/**
 * Copies buf[from..to) to names[at..], a byte at a time (cheaper than a call, even to copy(), for
 * most paths), checking each component on the way: where names now ends, or -1 for a NUL or a
 * component git would refuse.
 */
function copyPath(buf: Buffer, from: number, to: number, names: Buffer, at: number): number {
  let component = at;
  for (let b = from; b < to; b++) {
    const c = buf[b]!;
    if (c === 0x2f) {
      if (!safeComponent(names, component, at)) return -1;
      component = at + 1;
    } else if (c === 0) return -1;
    names[at++] = c;
  }
  return safeComponent(names, component, at) ? at : -1;
}

/** A bigger buffer holding the first `used` bytes of `b`. */
function grown(b: Buffer, used: number, size: number): Buffer {
  const bigger = Buffer.allocUnsafe(size);
  b.copy(bigger, 0, 0, used);
  return bigger;
}

/** How the bytes at b[start..+length) compare with b[other..+otherLength) (strcmp's sign), the first `same` bytes known equal. */
function compareBytes(b: Buffer, start: number, length: number, other: number, otherLength: number, same: number): number {
  const shared = Math.min(length, otherLength);
  let k = same;
  while (k < shared && b[start + k] === b[other + k]) k++;
  return k < shared ? b[start + k]! - b[other + k]! : length - otherLength;
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
  let component = start;
  for (let i = start; i < end; i++) {
    if (b[i] !== 0x2f) continue;
    if (!safeComponent(b, component, i)) return false;
    component = i + 1;
  }
  return safeComponent(b, component, end);
}

/** Whether bytes start..end of `b` are a path component git would check out: not empty, `.` or `..`. */
function safeComponent(b: Buffer, start: number, end: number): boolean {
  const n = end - start;
  return n !== 0 && !(b[start] === 0x2e && (n === 1 || (n === 2 && b[start + 1] === 0x2e)));
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

/**
 * The paths of cwd's index, each ended by NUL, once each (a conflict's stages are one path), as
 * `git ls-files -z --cached --deduplicate` run at the work tree's root lists them, and where they
 * end (readIndex's `ends`); null when readRepositoryIndex does not take the repository (git then
 * answers).
 */
export function readIndexPaths(cwd: string): { paths: string; ends: Uint32Array | null } | null {
  const index = readRepositoryIndex(cwd)?.index;
  if (!index) return null;
  const { paths, ends, flags } = index;
  if (!flags.some((f) => f & INDEX_FLAG.unmerged)) return { paths, ends };
  // A conflict's stages are adjacent (readIndex holds to git's order): each path is kept once.
  let kept = '';
  let last = '';
  for (let start = 0, end = paths.indexOf('\0'); end !== -1; start = end + 1, end = paths.indexOf('\0', start)) {
    const path = paths.slice(start, end + 1);
    if (path !== last) kept += path;
    last = path;
  }
  return { paths: kept, ends: null };
}
