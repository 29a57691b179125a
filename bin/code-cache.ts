// Runs a CommonJS bundle with V8's code cache: the code compiled by an earlier run, kept in the user's cache directory and used only when it is provably this bundle's, intact and this Node's.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { xdgBase } from '../lib/fs/xdg';
import { Script } from 'node:vm';

/**
 * createRequire from the CommonJS loader this launcher runs in (module.constructor is node:module's
 * Module): importing node:module loads its public module too, with the ESM loader and source maps
 * (0.4 ms of every call). Run as an ES module (tsx, in tests), node:module's own.
 */
const createRequire: (file: string) => NodeJS.Require =
  typeof module === 'object' && typeof (module.constructor as Partial<typeof import('node:module')>).createRequire === 'function'
    ? (module.constructor as typeof import('node:module')).createRequire
    : (process.getBuiltinModule('node:module') as typeof import('node:module')).createRequire;

/** CommonJS's function wrapper (Module.wrapper): a default import of node:module would copy its forty exports onto a wrapper object in every call. */
const WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'] as const;

/** A cache file: this magic, the checksum of the data, then V8's code cache data. */
const MAGIC = Buffer.from('FGC1');
const HEADER = 8;

/**
 * Where this Node's caches go: $XDG_CACHE_HOME/forge (default ~/.cache/forge), one directory per
 * Node version and architecture; null when there is no home to put it in.
 */
export function codeCacheDir({ env, home }: { env: NodeJS.ProcessEnv; home: string | null }): string | null {
  const root = xdgBase(env.XDG_CACHE_HOME) ?? (home ? join(home, '.cache') : '');
  if (!root?.startsWith('/')) return null;
  return join(root, 'forge', 'code-cache', `node-${process.version}-${process.arch}`);
}

/**
 * Whether a directory may hold code this process runs: a real directory (not a symlink) that
 * this user owns and nobody else may write to; made (mode 0700) when missing.
 */
function trustedDir(dir: string, uid: number): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === uid && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** The verified cache data in `path`, or undefined: missing, someone else's, truncated or corrupt. */
function readCache(path: string, uid: number): Buffer | undefined {
  let fd: number;
  try {
    // Non-blocking: a FIFO put where the cache goes must not hang the call (it is then refused as not a file).
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.uid !== uid || (st.mode & 0o022) !== 0 || st.size <= HEADER) return undefined;
    const raw = readFileSync(fd);
    if (!raw.subarray(0, 4).equals(MAGIC)) return undefined;
    const data = raw.subarray(HEADER);
    // V8 checks its version, flags, the source length and the data length, not the bytes: a flipped bit would run.
    return checksum(data) === raw.readUInt32LE(4) ? data : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** FNV-1a of a short string, in hex: a name, not a check. */
function hashText(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16);
}

/**
 * A Fletcher-style sum over 32-byte blocks (a running total and the sum of the running totals,
 * mod 2^32) and the length: it catches a changed or truncated file, and costs half a millisecond
 * for a typical cache where a CRC would first load zlib (and its streams) into every call.
 */
export function checksum(data: Buffer): number {
  const bytes = data.byteOffset % 4 === 0 ? data : Buffer.from(data);
  const words = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2);
  let a = 1;
  let b = data.length | 0;
  const blocks = words.length & ~7;
  for (let i = 0; i < blocks; i += 8) {
    a = (a + words[i]! + words[i + 1]! + words[i + 2]! + words[i + 3]! + words[i + 4]! + words[i + 5]! + words[i + 6]! + words[i + 7]!) | 0;
    b = (b + a) | 0;
  }
  for (let i = blocks; i < words.length; i++) {
    a = (a + words[i]!) | 0;
    b = (b + a) | 0;
  }
  for (let i = words.length * 4; i < bytes.length; i++) {
    a = (a + bytes[i]!) | 0;
    b = (b + a) | 0;
  }
  return (Math.imul(a, 0x9e3779b1) ^ b) >>> 0;
}

/**
 * Caches a directory keeps at most: about four installs' worth (each bundle and vendored library
 * has one per install). npx and version managers put each version somewhere new, and a stale
 * cache is dropped only by a rebuild of the same install: past this, the oldest written go.
 */
export const MAX_CACHES = 256;

/** Writes the cache atomically (a reader sees the old file or the new one), drops this bundle's stale ones, and the oldest past MAX_CACHES. */
function writeCache({ dir, name, prefix, data }: { dir: string; name: string; prefix: string; data: Buffer }): void {
  const header = Buffer.alloc(HEADER);
  MAGIC.copy(header);
  header.writeUInt32LE(checksum(data), 4);
  const tmp = join(dir, `.${name}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, Buffer.concat([header, data]), { mode: 0o600 });
    renameSync(tmp, join(dir, name));
    const kept: string[] = [];
    for (const old of readdirSync(dir)) {
      if (old.startsWith(prefix) && old !== name) unlinkSync(join(dir, old));
      else if (old.endsWith('.v8') && old !== name) kept.push(old);
    }
    if (kept.length >= MAX_CACHES) {
      const byAge = kept.map((file) => ({ file, written: lstatSync(join(dir, file)).mtimeMs })).sort((a, b) => a.written - b.written);
      for (const { file } of byAge.slice(0, kept.length - MAX_CACHES + 1)) unlinkSync(join(dir, file));
    }
  } catch {
    // A cache is only ever a shortcut: a full disk or a read-only directory just means compiling again.
    try {
      unlinkSync(tmp);
    } catch {
      // never written
    }
  }
}

/** What each bundle and vendored library loaded so far exported, by file: each runs once per process, as with require(). */
const loadedFiles = new Map<string, unknown>();

/**
 * Loads `file` (a CommonJS bundle) and returns its exports, as require() would; so are the files
 * of dist/vendor/ it requires. With a cacheDir, the compiled code comes from the cache when one
 * exists for exactly this file — its path, size, inode and modification time name the cache, V8
 * checks its own version and flags, and a checksum guards the bytes — and `atExit` is handed the write
 * of a new one when there was none (or V8 refused it). Any problem with the cache falls back to
 * compiling, with the same result.
 */
export function loadBundle({
  file,
  cacheDir,
  atExit,
}: {
  file: string;
  cacheDir: string | null;
  atExit: (write: () => void) => void;
}): unknown {
  if (loadedFiles.has(file)) return loadedFiles.get(file);
  const fd = openSync(file, 'r');
  let source: string;
  let identity: string;
  try {
    const st = fstatSync(fd, { bigint: true });
    identity = `${st.dev}-${st.ino}-${st.size}-${st.mtimeNs}`;
    source = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  const uid = process.getuid?.() ?? -1;
  const usable = cacheDir !== null && uid >= 0 && trustedDir(cacheDir, uid);
  // The bundle's own name plus where it is: two installs of forge keep two caches.
  const prefix = `${basename(file, '.js')}-${hashText(dirname(file))}-`;
  const name = `${prefix}${identity}.v8`;
  const cachedData = usable ? readCache(join(cacheDir, name), uid) : undefined;
  const script = new Script(`${WRAPPER[0]}${source}${WRAPPER[1]}`, { filename: file, cachedData });
  if (usable && (cachedData === undefined || script.cachedDataRejected)) {
    // At exit the functions this run compiled are in the cache too, not just the top level.
    atExit(() => {
      try {
        writeCache({ dir: cacheDir, name, prefix, data: script.createCachedData() });
      } catch {
        // see writeCache
      }
    });
  }
  const module = { exports: {} as unknown };
  loadedFiles.set(file, module.exports);
  const real = createRequire(file);
  const vendored = (id: string) =>
    id.startsWith('../vendor/') ? loadBundle({ file: resolve(dirname(file), id), cacheDir, atExit }) : real(id);
  const run = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: unknown },
    filename: string,
    dirname: string,
  ) => void;
  run.call(module.exports, module.exports, Object.assign(vendored, real), module, file, dirname(file));
  loadedFiles.set(file, module.exports);
  return module.exports;
}
