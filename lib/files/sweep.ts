// Reads the files a search or a replacement covers, in path order: one listing with no stat per file, then each file judged as it is opened and read once.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { RefusedError } from '../errors';
import { grepFilesWith } from '../git/grep';
import { listWorkTreeFiles } from '../git/repo';
import { FIRST_READ, globMatcher, listWorkspace, readListedFile, underPaths } from './list';
import { escapeRegex, requiredLiterals } from './literals';
import { decodeString, type Encoding, isBinary, utf16Bom } from './text';
import { walkRules, type Workspace } from './workspace';

/**
 * Who picks the files a sweep reads. `js` (the default): forge opens every listed file itself, once,
 * and that open is also the check that the path is still a file the rule allows. `git`: a threaded
 * `git grep -l -F` picks the tracked files holding the pattern's literal text, over a listing that
 * has git lstat every tracked file first. Both hand on the same files.
 */
export type SearchEngine = 'git' | 'js';

/** FORGE_SEARCH_ENGINE=git picks files with git grep (the answer is the same; for comparing, or a many-core machine's wall time). */
export const searchEngineOf = (env: NodeJS.ProcessEnv): SearchEngine => (env.FORGE_SEARCH_ENGINE === 'git' ? 'git' : 'js');

/** A text file a sweep read, decoded. */
export interface SweptText {
  path: string;
  text: string;
  encoding: Encoding;
  bom: boolean;
}

/**
 * Reads every file under `paths` matching `glob` that the rule lets a file tool read, in path order,
 * and hands `onText` each text file that holds one of the plain texts every match of `pattern` must
 * contain (literals.ts; folded when the pattern ignores case), or every text file when there are
 * none. Returns how many files were searched, binary ones included. `onProgress` hears every 256 files;
 * `signal`, aborted, stops the sweep there (CANCELLED).
 */
export async function sweepFiles({
  ws,
  paths,
  glob,
  pattern,
  engine,
  onText,
  onProgress,
  signal,
}: {
  ws: Workspace;
  paths: string[];
  glob?: string;
  pattern: RegExp;
  engine: SearchEngine;
  onText: (file: SweptText) => Promise<void> | void;
  onProgress?: (done: number, of: number) => Promise<void>;
  signal?: AbortSignal;
}): Promise<number> {
  const ignoreCase = pattern.flags.includes('i');
  const literals = requiredLiterals({ pattern: pattern.source, ignoreCase });
  const holds = holdsLiteral(literals, ignoreCase);
  const rules = walkRules({ ws });
  const [match, files] = await Promise.all([globMatcher(glob), engine === 'git' ? null : candidatePaths({ ws, rules })]);
  if (!files) return gitSweep({ ws, paths, match, literals, ignoreCase, holds, onText, onProgress, signal });
  const reader = fileReader();
  const chosen = underPaths({ ws, files, paths }).filter(match);
  const root = ws.cwd.endsWith('/') ? ws.cwd.slice(0, -1) : ws.cwd;
  let searched = 0;
  for (let i = 0; i < chosen.length; i++) {
    if (i % 256 === 0) await checkpoint({ done: i, of: chosen.length, onProgress, signal });
    const path = chosen[i]!;
    // git's and the walk's paths are normal: joined without join's normalising pass over each.
    const bytes = reader.read(`${root}/${path}`, rules.linkTarget);
    if (bytes === null) continue;
    searched++;
    if (bytes === 'binary' || !holds.bytes(bytes)) continue;
    const decoded = decodeString(bytes);
    // Bytes that hold a literal hold it as text; a UTF-16 file's, or a folded one's, are looked at decoded.
    if ((ignoreCase || utf16Bom(bytes)) && !holds.text(decoded.text)) continue;
    const pending = onText({ path, ...decoded });
    if (pending) await pending;
  }
  return searched;
}

/**
 * The paths a sweep opens, sorted, each still to be judged: in a repository one `git ls-files -co
 * --exclude-standard` (no lstat: the open is the check), minus git's names, control dirs and paths
 * through a directory that is now a symlink; elsewhere the directory walk's files and links.
 */
async function candidatePaths({ ws, rules }: { ws: Workspace; rules: ReturnType<typeof walkRules> }): Promise<string[]> {
  const listed = ws.inRepo ? await listWorkTreeFiles({ cwd: ws.cwd }) : null;
  if (!listed) return (await listWorkspace({ ws })).files;
  // A nested repository is listed as its directory, with a trailing slash: not a file.
  return listed.filter((p) => !p.endsWith('/') && !rules.blocked(p) && rules.realDir(p)).sort();
}

/**
 * Whether a file may hold one of the literals: by its bytes (a literal is ASCII, so it is the same
 * bytes in UTF-8 and Latin-1) or, under ignoreCase, by its decoded text.
 */
function holdsLiteral(literals: string[] | null, ignoreCase: boolean): { bytes(b: Buffer): boolean; text(t: string): boolean } {
  const yes = () => true;
  if (!literals) return { bytes: yes, text: yes };
  if (ignoreCase) {
    const folded = new RegExp(literals.map(escapeRegex).join('|'), 'iu');
    return { bytes: yes, text: (t) => folded.test(t) };
  }
  const needles = literals.map((l) => Buffer.from(l, 'latin1'));
  // A UTF-16 file's ASCII is other bytes: a byte search for a literal cannot rule it out.
  return { bytes: (b) => utf16Bom(b) !== null || needles.some((n) => b.includes(n)), text: (t) => literals.some((l) => t.includes(l)) };
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * Reads files into one reused buffer (a view of it, valid until the next read). A path is opened
 * without following a symlink and without blocking (nor on a FIFO); a symlink is read only through
 * the file it resolves to when the rule allows that (`linkTarget`), opened by its resolved path;
 * anything but a regular file, or a path gone, is null; a binary file is 'binary', only its head read.
 */
function fileReader(): { read(abs: string, linkTarget: (abs: string) => string | null): Buffer | 'binary' | null } {
  let buf = Buffer.allocUnsafe(FIRST_READ);
  const open = (abs: string, linkTarget: (abs: string) => string | null): number | null => {
    try {
      return openSync(abs, OPEN_FLAGS);
    } catch (err) {
      // ELOOP (EMLINK on the BSDs): the last component is a symlink.
      const code = (err as NodeJS.ErrnoException).code;
      const real = code === 'ELOOP' || code === 'EMLINK' ? linkTarget(abs) : null;
      if (real === null) return null;
      try {
        return openSync(real, OPEN_FLAGS);
      } catch {
        return null;
      }
    }
  };
  const read = (abs: string, linkTarget: (abs: string) => string | null): Buffer | 'binary' | null => {
    const fd = open(abs, linkTarget);
    if (fd === null) return null;
    try {
      const info = fstatSync(fd);
      if (!info.isFile()) return null;
      if (info.size > buf.length) buf = Buffer.allocUnsafe(info.size);
      let got = 0;
      for (let n = -1; n !== 0 && got < info.size; got += n) {
        n = readSync(fd, buf, got, got === 0 ? Math.min(info.size, FIRST_READ) : info.size - got, got);
        if (got === 0 && n > 0 && isBinary(buf, n)) return 'binary';
      }
      return buf.subarray(0, got);
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  };
  return { read };
}

/**
 * The `git` engine: the listing that has git lstat every tracked file (listWorkspace), and one
 * threaded `git grep -l -F` for the tracked files holding a literal; only those are read — with the
 * listed symlinks (git grep does not follow them), untracked files (searching those too would make
 * git walk the work tree a second time) and files git greps in the index, not the work tree
 * (assume-unchanged, skip-worktree).
 */
async function gitSweep({
  ws,
  paths,
  match,
  literals,
  ignoreCase,
  holds,
  onText,
  onProgress,
  signal,
}: {
  ws: Workspace;
  paths: string[];
  match: (path: string) => boolean;
  literals: string[] | null;
  ignoreCase: boolean;
  holds: { text(t: string): boolean };
  onText: (file: SweptText) => Promise<void> | void;
  onProgress?: (done: number, of: number) => Promise<void>;
  signal?: AbortSignal;
}): Promise<number> {
  const [listing, holders] = await Promise.all([
    listWorkspace({ ws, engine: 'git' }),
    ws.inRepo && literals ? grepFilesWith({ cwd: ws.cwd, literals, ignoreCase, paths }) : null,
  ]);
  const files = underPaths({ ws, files: listing.files, paths }).filter(match);
  const toRead = holders ? files.filter((f) => holders.has(f) || listing.links.has(f) || listing.unseenByGrep.has(f)) : files;
  for (let i = 0; i < toRead.length; i++) {
    if (i % 256 === 0) await checkpoint({ done: i, of: toRead.length, onProgress, signal });
    const path = toRead[i]!;
    const bytes = readListedFile(join(ws.cwd, path), { link: listing.links.has(path) });
    if (!bytes) continue;
    const decoded = decodeString(bytes);
    if (!holds.text(decoded.text)) continue;
    const pending = onText({ path, ...decoded });
    if (pending) await pending;
  }
  return files.length;
}

/** Every 256 files: the caller hears how far the sweep is, and a caller that gave up stops it there. */
async function checkpoint({
  done,
  of,
  onProgress,
  signal,
}: {
  done: number;
  of: number;
  onProgress?: (done: number, of: number) => Promise<void>;
  signal?: AbortSignal;
}): Promise<void> {
  if (signal?.aborted) throw new RefusedError('CANCELLED', `cancelled after ${done} of ${of} files: nothing was changed`);
  if (onProgress) await onProgress(done, of);
}
