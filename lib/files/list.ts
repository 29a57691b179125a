// Lists a workspace's files the way git sees them (.gitignore respected), filtered by globs and paths.
import { basename, relative, resolve, sep } from 'node:path';
import { editDistance } from '../distance';
import { listWorkTreeFiles } from '../git/repo';
import { walkableFiles, type WalkableFiles, type Workspace } from './workspace';

/** Outside a repository there is no .gitignore to ask git about; these are never worth listing. */
const ALWAYS_IGNORED = ['**/.git/**', '**/node_modules/**'];

/**
 * Files under cwd, relative to cwd, sorted. In a repository: tracked files plus untracked ones
 * .gitignore does not exclude (git's own rules, nested .gitignore and info/exclude included),
 * minus tracked files deleted from the work tree. Elsewhere: every file but .git and node_modules.
 * Either way, what a file tool may not read is left out: a symlink resolving outside the
 * workspace or into git's files, anything under a .git, and what is not a regular file.
 */
export async function listWorkspace({ ws }: { ws: Workspace }): Promise<WalkableFiles> {
  let found = ws.inRepo ? await listWorkTreeFiles({ cwd: ws.cwd }) : null;
  if (!found) {
    const { default: glob } = await import('fast-glob');
    // Symlinks are listed, not followed: each is judged by where it points, like any other.
    found = await glob('**/*', { cwd: ws.cwd, dot: true, onlyFiles: false, ignore: ALWAYS_IGNORED, followSymbolicLinks: false });
  }
  const listed = walkableFiles({ ws, paths: found });
  listed.files.sort();
  return listed;
}

/** The files of listWorkspace, without saying which are symlinks. */
export async function listFiles({ ws }: { ws: Workspace }): Promise<string[]> {
  return (await listWorkspace({ ws })).files;
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
