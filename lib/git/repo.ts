// Finds the repository that holds a directory: its common git dir (shared by linked worktrees) and object store.
import { ForgeError, NotAGitRepoError } from '../errors';
import { runGit } from './exec';

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
