// Writes files straight onto refs/forge/state with git's plumbing, as another clone, an old forge, a hand edit or a hostile agent could leave them.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { git, PINNED_ENV, tempDir } from './repo';

/**
 * One commit on refs/forge/state that sets these paths (null: removes one) and keeps every other
 * file: a blob each (`git hash-object -w`), the current tree read into a temp index, the index
 * updated, written and committed onto the ref. Nothing of the user's index or work tree is touched.
 */
export function plantState(dir: string, files: Record<string, string | Buffer | null>): void {
  const env = { ...process.env, ...PINNED_ENV, GIT_INDEX_FILE: join(tempDir('forge-plant-'), 'index') };
  const run = (args: string[], input?: string | Buffer) =>
    execFileSync('git', args, { cwd: dir, env, input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] }).trim();
  const head = (() => {
    try {
      return git(dir, 'rev-parse', '--verify', '-q', 'refs/forge/state');
    } catch {
      return null;
    }
  })();
  run(['read-tree', ...(head ? [head] : ['--empty'])]);
  for (const [path, content] of Object.entries(files)) {
    if (content === null) run(['update-index', '--force-remove', '--', path]);
    else run(['update-index', '--add', '--cacheinfo', `100644,${run(['hash-object', '-w', '--stdin'], content)},${path}`]);
  }
  const tree = run(['write-tree']);
  const commit = run(['commit-tree', tree, ...(head ? ['-p', head] : []), '-m', `plant ${Object.keys(files).join(', ')}`]);
  git(dir, 'update-ref', 'refs/forge/state', commit, ...(head ? [head] : []));
}

/** A file on the state ref as text, or null when it is not there. */
export function stateFile(dir: string, path: string): string | null {
  try {
    return execFileSync('git', ['show', `refs/forge/state:${path}`], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
}
