// Lists a work tree's files from git's index and one read of each directory that holds tracked files: no lstat per file, and git only for names the index does not know.
import { type Dirent, readdirSync, realpathSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { runGitWhole } from '../git/exec';
import { INDEX_FLAG, INDEX_MODE, readRepositoryIndex } from '../git/index-file';
import type { WorkTreeKind } from '../git/repo';

/** Untracked names handed to git as pathspecs at most; past this, git lists every untracked file itself. */
const MAX_PATHSPECS = 256;
const MAX_PATHSPEC_BYTES = 64 * 1024;

/** A directory's entries by name; each is taken out once an index entry accounts for it, so what is left is untracked. */
type Listing = Map<string, Dirent>;

/**
 * The files under cwd git would consider, each handed to `onFile` with what is known of it, as
 * listWorkTree's `git ls-files -m -o` gives them, for a plain repository whose index
 * readRepositoryIndex takes. Each directory that holds a tracked path is read once, top-down, and
 * each tracked path is judged by its directory's entry: a regular file or a symlink is listed as
 * one; a path gone, or one whose directory is no longer a directory (a symlink now), is not. A
 * tracked path whose name the directory does not hold exactly (a case-folding file system) is
 * handed on as changed, for an lstat. Names no index entry accounts for are the only ones git is
 * asked about (`git ls-files -o --exclude-standard`, with them as literal pathspecs, or without
 * any when there are many): .gitignore is git's to apply. Directory reads cost what git's own walk
 * for untracked files costs, where git's `-m` lstats every tracked file as well. False when the
 * index is not taken, cwd cannot be read, or git's answer for the untracked names failed: the
 * caller then drops what it was handed and asks git.
 */
export async function listByIndex({
  cwd,
  onFile,
}: {
  cwd: string;
  onFile: (path: string, kind: WorkTreeKind, realDirs?: boolean) => void;
}): Promise<boolean> {
  const read = readRepositoryIndex(cwd);
  if (!read) return false;
  const { root, index } = read;
  let prefix: string;
  try {
    prefix = relative(root, realpathSync(cwd));
  } catch {
    return false;
  }
  if (prefix.startsWith('..') || (sep !== '/' && prefix.includes(sep))) return false;
  if (prefix) prefix += '/';

  const listings = new Map<string, Listing | null>();
  // A directory is read only when its parent's entry for it is a directory: never through a symlink.
  const listingOf = (dir: string): Listing | null => {
    let listing = listings.get(dir);
    if (listing !== undefined) return listing;
    const cut = dir.lastIndexOf('/');
    const parent = dir === '' ? null : listingOf(cut < 0 ? '' : dir.slice(0, cut));
    const name = dir.slice(cut + 1);
    const entry = parent?.get(name);
    listing = null;
    // Absent by this exact name, it is read all the same: it may be there under another case.
    if (dir === '' || (parent && (entry === undefined || entry.isDirectory()))) {
      parent?.delete(name);
      listing = readListing(dir ? join(cwd, dir) : cwd);
    }
    listings.set(dir, listing);
    return listing;
  };

  const paths = index.paths;
  let dir: string | null = null;
  let listing: Listing | null = null;
  let last = 0; // where the previous path starts: a conflict's stages follow each other under one path (readIndex holds to git's order)
  const { ends } = index; // where each path ends, when all are ASCII: no search for each NUL
  const endAfter = (i: number, start: number) => (ends ? (i < ends.length ? ends[i]! : -1) : paths.indexOf('\0', start));
  for (let i = 0, start = 0, end = endAfter(0, 0); end !== -1; last = start, i++, start = end + 1, end = endAfter(i, start)) {
    if (prefix && !paths.startsWith(prefix, start)) continue;
    if (index.flags[i]! & INDEX_FLAG.unmerged && i > 0 && paths.startsWith(paths.slice(last, start), start)) continue;
    const from = start + prefix.length;
    const slash = paths.lastIndexOf('/', end);
    const cut = slash < from ? from : slash + 1; // where the name starts
    // Entries of one directory are mostly adjacent: its name is sliced again only when it changes.
    if (dir === null || cut - from !== dir.length + (dir ? 1 : 0) || !paths.startsWith(dir, from)) {
      dir = paths.slice(from, Math.max(from, cut - 1));
      listing = listingOf(dir);
    }
    if (!listing) continue; // its directory is gone, or is a symlink now
    const name = paths.slice(cut, end);
    const entry = listing.get(name);
    const mode = index.modes[i]!;
    const assumed = (index.flags[i]! & (INDEX_FLAG.assumeValid | INDEX_FLAG.skipWorktree)) !== 0;
    const path = cut === from ? name : paths.slice(from, end);
    if (entry === undefined) {
      // Absent by this exact name: gone, or there under another case or normalisation; lstat tells.
      if (mode !== INDEX_MODE.gitlink) onFile(path, assumed ? 'assumed' : 'changed');
      continue;
    }
    // A tracked file that became a directory: git lists what is in it as untracked, so it stays a name to ask about.
    if (entry.isDirectory() && mode !== INDEX_MODE.gitlink) continue;
    listing.delete(name);
    if (mode === INDEX_MODE.gitlink) continue; // a submodule: its files are its own repository's
    // Every directory on its way was read as a directory, not through a link: no lstat of them is needed.
    if (assumed) onFile(path, 'assumed', true);
    else if (entry.isFile()) onFile(path, 'file', true);
    else if (entry.isSymbolicLink()) onFile(path, 'link', true);
    // a FIFO, socket or device where a tracked file was: tracked, so not untracked either, and not a file
  }
  // cwd itself unreadable: git's answer, not an empty listing.
  if (!listingOf('')) return false;

  const names: string[] = [];
  for (const [dir, listing] of listings) {
    if (!listing?.size) continue;
    for (const name of listing.keys()) if (name !== '.git') names.push(dir ? `${dir}/${name}` : name);
  }
  return listUntracked({ cwd, names, onFile });
}

/** Hands on the files git lists among `names` (untracked and not ignored); false when git failed. */
async function listUntracked({
  cwd,
  names,
  onFile,
}: {
  cwd: string;
  names: string[];
  onFile: (path: string, kind: WorkTreeKind) => void;
}): Promise<boolean> {
  if (!names.length) return true;
  const bytes = names.reduce((n, name) => n + name.length + 1, 0);
  const pathspecs = names.length <= MAX_PATHSPECS && bytes <= MAX_PATHSPEC_BYTES ? ['--', ...names] : [];
  const r = await runGitWhole({ cwd, args: ['--literal-pathspecs', 'ls-files', '-z', '--others', '--exclude-standard', ...pathspecs] });
  if (r.code !== 0) return false;
  const out = r.stdout.toString('utf8');
  for (let start = 0, end = out.indexOf('\0'); end !== -1; start = end + 1, end = out.indexOf('\0', start)) {
    // A nested repository is listed as its directory, with a trailing slash: not a file.
    if (end > start && out[end - 1] !== '/') onFile(out.slice(start, end), 'untracked');
  }
  return true;
}

/** A directory's entries by name; null when it cannot be read. */
function readListing(abs: string): Listing | null {
  try {
    const entries: Listing = new Map();
    for (const e of readdirSync(abs, { withFileTypes: true })) entries.set(e.name, e);
    return entries;
  } catch {
    return null;
  }
}
