// Finds the repository that holds a directory: its common git dir (shared by linked worktrees) and object store.
import { access } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ForgeError, InvalidInputError, NotAGitRepoError } from '../errors';
import { shellJoin } from '../quote';
import { runGit, streamGit } from './exec';

export interface Repo {
  /** The directory commands run in (inside the repository). */
  cwd: string;
  /** The common git dir: refs and objects shared by every linked worktree. */
  commonDir: string;
  objectsDir: string;
  objectFormat: 'sha1' | 'sha256';
  bare: boolean;
}

/** Discovers the repository holding cwd with one `git rev-parse`; NOT_A_GIT_REPO outside one. */
export async function openRepo({ cwd }: { cwd: string }): Promise<Repo> {
  const r = await runGit({
    cwd,
    args: ['rev-parse', '--path-format=absolute', '--git-common-dir', '--git-path', 'objects', '--show-object-format', '--is-bare-repository'],
  });
  if (r.code !== 0) {
    if (/not a git repository/i.test(r.stderr)) throw new NotAGitRepoError(cwd);
    if (/dubious ownership/i.test(r.stderr)) {
      throw new ForgeError('UNSAFE_REPOSITORY', `git refuses the repository at '${cwd}': dubious ownership`, {
        fix: `git config --global --add safe.directory ${cwd}`,
      });
    }
    throw new ForgeError('GIT_FAILED', `git rev-parse failed in '${cwd}': ${r.stderr.trim()}`, { fix: 'git status' });
  }
  const [commonDir, objectsDir, format, bare] = r.stdout.toString('utf8').trim().split('\n');
  return {
    cwd,
    commonDir: commonDir!,
    objectsDir: objectsDir!,
    objectFormat: format === 'sha256' ? 'sha256' : 'sha1',
    bare: bare === 'true',
  };
}

/** The top of the work tree holding cwd and its (per-worktree) git dir; null outside a repository or in a bare one. */
export async function workTreeRoot({ cwd }: { cwd: string }): Promise<{ root: string; gitDir: string } | null> {
  const where = await locateGitDirs({ cwd });
  return where?.root ? { root: where.root, gitDir: where.gitDir } : null;
}

export interface GitDirs {
  /** The top of the work tree; null when cwd is inside a git dir (a bare repository, or .git itself). */
  root: string | null;
  /** This worktree's git dir, and the common dir every linked worktree shares ($GIT_DIR respected). */
  gitDir: string;
  commonDir: string;
  bare: boolean;
}

/**
 * Where cwd's repository keeps its work tree and its own files, with one `git rev-parse`; null
 * outside a repository. Inside a git dir git refuses --show-toplevel after printing the rest.
 */
export async function locateGitDirs({ cwd }: { cwd: string }): Promise<GitDirs | null> {
  const r = await runGit({ cwd, args: ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--is-inside-git-dir', '--is-bare-repository', '--show-toplevel'] });
  const [gitDir, commonDir, insideGitDir, bare, root] = r.stdout.toString('utf8').trim().split('\n');
  if (!gitDir || !commonDir || !bare) return null;
  if (r.code !== 0 && insideGitDir !== 'true') return null;
  return { root: insideGitDir === 'true' || !root ? null : root, gitDir, commonDir, bare: bare === 'true' };
}

/**
 * Why cwd has no work tree, as the error a command that needs one raises: a bare repository and
 * git's own directory are NO_WORK_TREE, with a fix that leads to a work tree; else NOT_A_GIT_REPO.
 */
export async function noWorkTreeError({ cwd }: { cwd: string }): Promise<ForgeError> {
  const where = await locateGitDirs({ cwd });
  if (!where || where.root) return new NotAGitRepoError(cwd);
  const { gitDir } = where;
  const data = { dir: cwd, gitDir };
  if (where.bare) {
    const clone = await unusedPath(gitDir.endsWith('.git') ? gitDir.slice(0, -4).replace(/[/.]+$/, '') || `${gitDir}-work` : `${gitDir}-work`);
    return new InvalidInputError('NO_WORK_TREE', `'${gitDir}' is a bare repository: it has no work tree`, { fix: shellJoin(['git', 'clone', gitDir, clone]), data });
  }
  // Inside a git dir. The work tree of a repository's own .git is its parent; a linked worktree's git dir says less.
  const top = await workTreeRoot({ cwd: dirname(gitDir) });
  const fix = top && top.gitDir === gitDir ? shellJoin(['cd', top.root]) : shellJoin(['git', '-C', gitDir, 'worktree', 'list']);
  return new InvalidInputError('NO_WORK_TREE', `'${cwd}' is inside the git dir '${gitDir}', not in a work tree`, { fix, data });
}

/** `path`, or `path-2`, `path-3`… : the first that does not exist yet. */
async function unusedPath(path: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? path : `${path}-${n}`;
    if (!(await access(candidate).then(() => true, () => false))) return candidate;
  }
}

/**
 * The paths the index tracks under cwd, relative to cwd, as staged: no walk, no lstat — for a
 * command that describes the repository rather than the work tree. Null outside a work tree.
 */
export async function listIndexedPaths({ cwd }: { cwd: string }): Promise<string[] | null> {
  const paths: string[] = [];
  const r = await streamGit({ cwd, args: ['ls-files', '-z', '--cached', '--deduplicate'], separator: '\0', onRecord: (p) => paths.push(p) });
  return r.code === 0 ? paths : null;
}

/**
 * Files under cwd that git would consider (tracked, plus untracked that .gitignore does not
 * exclude), relative to cwd; null outside a work tree.
 */
export async function listWorkTreeFiles({ cwd }: { cwd: string }): Promise<string[] | null> {
  const r = await runGit({ cwd, args: ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'] });
  if (r.code !== 0) return null;
  return r.stdout.toString('utf8').split('\0').filter(Boolean);
}

/**
 * What git says of a work tree path: a regular file or a symlink as staged and unchanged, or
 * something only the file system can tell — a tracked path git saw changed (modified, deleted,
 * retyped, skip-worktree) or an untracked one.
 */
export type WorkTreeKind = 'file' | 'link' | 'changed' | 'untracked';

/**
 * The files under cwd git would consider, relative to cwd, each handed to `onFile` with what git
 * knows of it, as git lists them: one `git ls-files -t -s -m`, which reads the index and walks
 * the work tree for untracked files. A tracked path git saw unchanged is a `file` or `link` by its
 * staged mode (submodules are left out); a deleted or retyped file shows as modified. False
 * outside a work tree.
 */
export async function listWorkTree({ cwd, onFile }: { cwd: string; onFile: (path: string, kind: WorkTreeKind) => void }): Promise<boolean> {
  // A tracked path's lines are adjacent (H, then C when modified; one per stage when unmerged):
  // each is handed on once the next path starts.
  let pending: { path: string; kind: WorkTreeKind } | null = null;
  const r = await streamGit({
    cwd,
    args: ['ls-files', '-z', '-t', '-s', '--cached', '--modified', '--others', '--exclude-standard'],
    separator: '\0',
    onRecord: (record) => {
      if (record[0] === '?') {
        // A nested repository is listed as its directory, with a trailing slash: not a file.
        if (!record.endsWith('/')) onFile(record.slice(2), 'untracked');
        return;
      }
      // "<tag> <mode> <object> <stage>\t<path>"
      const path = record.slice(record.indexOf('\t') + 1);
      const mode = record.slice(2, 8);
      const kind: WorkTreeKind = record[0] !== 'H' ? 'changed' : mode === '120000' ? 'link' : 'file';
      if (pending?.path === path) {
        if (kind === 'changed') pending.kind = kind;
        return;
      }
      if (pending) onFile(pending.path, pending.kind);
      pending = mode === '160000' ? null : { path, kind };
    },
  });
  if (r.code !== 0) return false;
  if (pending) onFile((pending as { path: string }).path, (pending as { kind: WorkTreeKind }).kind);
  return true;
}

/** `git blame --porcelain` of lines start..end: author and author time of each line. */
export async function blameLines({ cwd, path, start, end }: { cwd: string; path: string; start: number; end: number }): Promise<Map<number, { author: string; time: number; uncommitted: boolean }>> {
  const r = await runGit({ cwd, args: ['blame', '--porcelain', '-L', `${start},${end}`, '--', path] });
  const out = new Map<number, { author: string; time: number; uncommitted: boolean }>();
  if (r.code !== 0) return out;
  const commits = new Map<string, { author: string; time: number }>();
  let current: { sha: string; line: number } | null = null;
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const head = /^([0-9a-f]{40,64}) \d+ (\d+)/.exec(line);
    if (head) {
      current = { sha: head[1]!, line: Number(head[2]) };
      if (!commits.has(current.sha)) commits.set(current.sha, { author: '', time: 0 });
      continue;
    }
    if (!current) continue;
    const info = commits.get(current.sha)!;
    if (line.startsWith('author ')) info.author = line.slice(7);
    else if (line.startsWith('author-time ')) info.time = Number(line.slice(12));
    else if (line.startsWith('\t')) out.set(current.line, { ...info, uncommitted: /^0+$/.test(current.sha) });
  }
  return out;
}
