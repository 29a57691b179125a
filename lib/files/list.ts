// Lists a workspace's files the way git sees them (.gitignore respected), filtered by globs and paths.
import { stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import { editDistance } from '../distance';
import { listWorkTreeFiles } from '../git/repo';
import type { Workspace } from './workspace';

/** Outside a repository there is no .gitignore to ask git about; these are never worth listing. */
const ALWAYS_IGNORED = ['**/.git/**', '**/node_modules/**'];

/**
 * Files under cwd, relative to cwd, sorted. In a repository: tracked files plus untracked ones
 * .gitignore does not exclude (git's own rules, nested .gitignore and info/exclude included),
 * minus tracked files deleted from the work tree. Elsewhere: every file but .git and node_modules.
 */
export async function listFiles({ ws }: { ws: Workspace }): Promise<string[]> {
  const fromGit = ws.inRepo ? await listWorkTreeFiles({ cwd: ws.cwd }) : null;
  if (fromGit) {
    const present = await Promise.all(fromGit.map((f) => stat(join(ws.cwd, f)).then((s) => s.isFile(), () => false)));
    return fromGit.filter((_, i) => present[i]).sort();
  }
  const { default: glob } = await import('fast-glob');
  return (await glob('**/*', { cwd: ws.cwd, dot: true, onlyFiles: true, ignore: ALWAYS_IGNORED, followSymbolicLinks: false })).sort();
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
