// Where file tools may act: the work tree holding cwd (or cwd itself outside git); paths that escape it are refused.
import { realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { InvalidInputError } from '../errors';
import { workTreeRoot } from '../git/repo';
import { recoverJournals, recoveryWarning } from './journal';

export interface Workspace {
  /** The directory paths are relative to. */
  cwd: string;
  /** The boundary: the repository's work tree, or cwd outside a repository. */
  root: string;
  inRepo: boolean;
  /** Where file writes are journaled: this worktree's git dir, else cwd (removed again once empty). */
  journalRoot: string;
}

/**
 * Opens the workspace of cwd and first recovers what a killed forge command left (a half-applied
 * patch rolled back, its temp files removed), so a crash never outlives the next forge file
 * command. Recovery never fails the command: `warn` gets one line for each thing it did or could not do.
 */
export async function openWorkspace({ cwd, warn }: { cwd: string; warn: (text: string) => Promise<void> }): Promise<Workspace> {
  const top = await workTreeRoot({ cwd });
  const ws = { cwd, root: top?.root ?? cwd, inRepo: top !== null, journalRoot: top ? join(top.gitDir, 'forge', 'journal') : join(cwd, '.forge-journal') };
  for (const r of await recoverJournals({ root: ws.journalRoot, within: ws.root })) await warn(recoveryWarning(r));
  return ws;
}

export interface ResolvedPath {
  /** Absolute path. */
  abs: string;
  /** Relative to cwd, as hints should print it. */
  display: string;
}

function inside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The deepest part of `abs` that exists, resolved through symlinks (for a file not yet written). */
async function realExisting(abs: string): Promise<string> {
  let dir = abs;
  const rest: string[] = [];
  for (;;) {
    try {
      return resolve(await realpath(dir), ...rest.reverse());
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return abs;
      rest.push(dir.slice(parent.length + 1));
      dir = parent;
    }
  }
}

/**
 * Resolves a user path against the workspace and refuses one that leaves it — by `..`, an
 * absolute path elsewhere, or a symlink pointing out.
 */
export async function resolveInside({ ws, path }: { ws: Workspace; path: string }): Promise<ResolvedPath> {
  if (path === '' || path.includes('\0')) {
    throw new InvalidInputError('INVALID_PATH', `invalid path '${path.replace(/\0/g, '\\0')}'`, { fix: 'forge ls' });
  }
  const abs = resolve(ws.cwd, path);
  const where = ws.inRepo ? 'the repository' : 'the working directory';
  const refuse = () =>
    new InvalidInputError('PATH_OUTSIDE_REPO', `'${path}' is outside ${where} (${ws.root})`, { fix: 'forge ls', data: { path, root: ws.root } });
  if (!inside(ws.root, abs)) throw refuse();
  const [realRoot, realAbs] = await Promise.all([realpath(ws.root), realExisting(abs)]);
  if (!inside(realRoot, realAbs)) throw refuse();
  const display = relative(ws.cwd, abs) || '.';
  return { abs, display };
}

export async function isDirectory(abs: string): Promise<boolean> {
  return stat(abs).then((s) => s.isDirectory(), () => false);
}
