// Lists a workspace's files the way git sees them (.gitignore respected), filtered by globs and paths.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { basename, relative, resolve, sep } from 'node:path';
import { editDistance } from '../distance';
import { listWorkTree, type WorkTreeKind } from '../git/repo';
import { listByIndex } from './index-walk';
import { isBinary } from './text';
import { walkableFiles, type WalkableFiles, type Workspace } from './workspace';

/** Outside a repository there is no .gitignore to ask git about; these are never worth listing. */
const ALWAYS_IGNORED = ['**/.git/**', '**/node_modules/**'];

/**
 * Who lists a repository's work tree. `index` (the default): forge reads git's index and each
 * directory holding tracked files (index-walk.ts), and asks git only about names the index does not
 * know; `git`: one `git ls-files -m -o`, which lstats every tracked file. Both list the same files.
 */
export type ListEngine = 'index' | 'git';

/** FORGE_LIST_ENGINE=git lists through git's -m (the answer is the same; for comparing). */
export const listEngineOf = (env: NodeJS.ProcessEnv): ListEngine => (env.FORGE_LIST_ENGINE === 'git' ? 'git' : 'index');

/**
 * Files under cwd, relative to cwd, sorted. In a repository: tracked files plus untracked ones
 * .gitignore does not exclude (git's own rules, nested .gitignore and info/exclude included),
 * minus tracked files deleted from the work tree. Elsewhere: every file but .git and node_modules.
 * Either way, what a file tool may not read is left out: a symlink resolving outside the
 * workspace or into git's files, anything under a .git, and what is not a regular file.
 */
export async function listWorkspace({ ws, engine = 'index' }: { ws: Workspace; engine?: ListEngine }): Promise<WalkableFiles> {
  const listers: Array<(onFile: OnFile) => Promise<boolean>> = [
    ...(ws.inRepo && engine === 'index' ? [(onFile: OnFile) => listByIndex({ cwd: ws.cwd, onFile })] : []),
    ...(ws.inRepo ? [(onFile: OnFile) => listWorkTree({ cwd: ws.cwd, onFile })] : []),
    walkDirectories(ws), // always answers
  ];
  // Each in turn until one answers: what a failed one handed on goes with its walk.
  let walk: ReturnType<typeof walkableFiles> | undefined;
  for (const list of listers) {
    walk = walkableFiles({ ws });
    if (await list(walk.accept)) break;
  }
  walk!.result.files.sort();
  return walk!.result;
}

type OnFile = (path: string, kind: WorkTreeKind, realDirs?: boolean) => void;

/** Outside git (or when git cannot answer): every file under cwd but ALWAYS_IGNORED, by a directory walk. */
function walkDirectories(ws: Workspace) {
  return async (onFile: OnFile): Promise<boolean> => {
    const { default: glob } = await import('fast-glob');
    // Symlinks are listed, not followed: each is judged by where it points, like any other.
    const entries = await glob('**/*', {
      cwd: ws.cwd,
      dot: true,
      onlyFiles: false,
      objectMode: true,
      ignore: ALWAYS_IGNORED,
      followSymbolicLinks: false,
    });
    for (const e of entries) if (e.dirent.isFile() || e.dirent.isSymbolicLink()) onFile(e.path, e.dirent.isFile() ? 'file' : 'link');
    return true;
  };
}

/** The files of listWorkspace, without saying which are symlinks. */
export async function listFiles({ ws, engine }: { ws: Workspace; engine?: ListEngine }): Promise<string[]> {
  return (await listWorkspace({ ws, engine })).files;
}

/** A bigger first read than binary detection needs: most source files then take one read. */
export const FIRST_READ = 64 * 1024;

/**
 * A listed file's bytes, or null when it is binary or no longer a regular file. A file listed as
 * regular is opened without following a symlink (one swapped in since the listing, or one the
 * index does not know of yet, could lead out) and without blocking (nor on a FIFO swapped in);
 * only the head of a binary file is read.
 */
export function readListedFile(abs: string, { link }: { link: boolean }): Buffer | null {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK | (link ? 0 : constants.O_NOFOLLOW));
  } catch {
    return null;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return null;
    const buf = Buffer.allocUnsafe(Math.max(info.size, 1));
    let got = 0;
    for (let n = -1; n !== 0 && got < buf.length; got += n) {
      n = readSync(fd, buf, got, Math.min(buf.length - got, got === 0 ? FIRST_READ : buf.length - got), got);
      if (got === 0 && isBinary(buf, n)) return null;
    }
    return buf.subarray(0, got);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** A glob without a slash matches file names anywhere (`*.ts`), as in .gitignore. */
export async function globMatcher(pattern: string | undefined): Promise<(path: string) => boolean> {
  if (!pattern) return () => true;
  const { default: picomatch } = await import('picomatch');
  const isMatch = picomatch(pattern, { dot: true, basename: !pattern.includes('/') });
  return (path) => isMatch(path);
}

/** Keeps files equal to or under one of the given paths (relative to cwd). */
export function underPaths({ ws, files, paths }: { ws: Workspace; files: string[]; paths: string[] }): string[] {
  if (!paths.length) return files;
  const prefixes = paths.map((p) => relative(ws.cwd, resolve(ws.cwd, p)));
  return files.filter((f) => prefixes.some((p) => p === '' || f === p || f.startsWith(p.endsWith(sep) ? p : `${p}${sep}`)));
}

/** Up to `max` listed files most like `wanted`: same name elsewhere first, then by edit distance. */
export function similarPaths({ wanted, files, max = 3 }: { wanted: string; files: string[]; max?: number }): string[] {
  const name = basename(wanted);
  return files
    .map((f) => ({ f, score: (basename(f) === name ? 0 : 1000) + editDistance(wanted, f) + editDistance(name, basename(f)) * 2 }))
    .filter((x) => x.score < 1000 || editDistance(name, basename(x.f)) <= Math.max(2, Math.floor(name.length / 3)))
    .sort((a, b) => a.score - b.score || a.f.localeCompare(b.f))
    .slice(0, max)
    .map((x) => x.f);
}
