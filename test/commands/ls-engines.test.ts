// forge ls from git's index and directory reads (the default) and through git's -m (FORGE_LIST_ENGINE=git): the same files, counts and hints on every kind of path a walk meets.
import { mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { git, tempDir, tempRepo } from '../helpers/repo';
import { conflict, gitCallLog, WALK_FIXTURE_FILES, walkFixture, write } from '../helpers/walk-fixture';

/** Every git call forge makes, logged by a wrapper ahead of the real git on PATH. */
const gitLog = gitCallLog();

async function ls(cwd: string, args: string[], env: Record<string, string>) {
  return gitLog.forge(['ls', ...args, '--json'], { cwd, env });
}

/** ls by both engines: the same records, and the default never has git lstat the tracked files (-m). Returns the default's listed paths. */
async function both(cwd: string, args: string[] = ['--limit', '0']): Promise<{ paths: string[]; calls: string }> {
  const viaGit = await ls(cwd, args, { FORGE_LIST_ENGINE: 'git' });
  const byIndex = await ls(cwd, args, {});
  assert.is(byIndex.code, 0, byIndex.stderr);
  assert.equal(byIndex.records, viaGit.records, `engines differ on ls ${args.join(' ')} in ${cwd}`);
  assert.match(viaGit.calls, /ls-files .*--modified/, 'the git engine has git lstat the tracked files');
  return { paths: byIndex.records.filter((r) => r.type === 'file').map((r) => r.path), calls: byIndex.calls };
}

test('every kind of path: listed alike, and no git at all when the index accounts for every name', async () => {
  const dir = walkFixture();
  const { paths, calls } = await both(dir);
  assert.equal(paths, WALK_FIXTURE_FILES);
  assert.not.match(calls, /--modified/);
  assert.match(
    calls,
    /--literal-pathspecs ls-files -z --others --exclude-standard -- /,
    'only the names the index does not know go to git',
  );
  for (const args of [['--limit', '3'], ['*.ts'], ['src'], ['src/**'], ['--limit', '0', 'ünïcode dir']]) await both(dir, args);
  await both(join(dir, 'src'));

  // Every name accounted for by the index: the listing needs no git process.
  const clean = tempRepo();
  write(clean, 'a/b/c.txt', 'c\n');
  write(clean, 'top.md', 'top\n');
  git(clean, 'add', '-A');
  git(clean, 'commit', '-q', '-m', 'clean');
  const quiet = await both(clean);
  assert.equal(quiet.paths, ['README.md', 'a/b/c.txt', 'top.md']);
  assert.is(quiet.calls, '', 'no git process');
});

test('conflicts, flags, submodules, nested repositories and names git must judge: listed alike', async () => {
  const dir = tempRepo();
  write(dir, '.gitignore', 'build/\n*.o\n');
  write(dir, 'conflict.txt', 'base\n');
  write(dir, 'assumed.txt', 'assumed\n');
  write(dir, 'sparse.txt', 'sparse\n');
  write(dir, 'build/keep.txt', 'tracked under an ignored directory\n');
  write(dir, 'Case.txt', 'case\n');
  write(dir, 'gone/only.txt', 'its directory will go\n');
  write(dir, 'swapped/inner.txt', 'its directory will become a file\n');
  git(dir, 'add', '-A');
  git(dir, 'add', '-f', 'build/keep.txt');
  git(dir, 'commit', '-q', '-m', 'base');
  conflict(dir, 'conflict.txt');
  git(dir, 'update-index', '--assume-unchanged', 'assumed.txt');
  git(dir, 'update-index', '--skip-worktree', 'sparse.txt');
  rmSync(join(dir, 'sparse.txt'));
  write(dir, 'new.txt', 'untracked\n');
  git(dir, 'add', '-N', 'new.txt');
  write(dir, 'build/new.o', 'ignored beside a tracked file\n');
  write(dir, 'build/fresh.txt', 'untracked, but its directory is ignored\n');
  write(dir, 'loose/deep/x.txt', 'an untracked directory\n');
  renameSync(join(dir, 'Case.txt'), join(dir, 'case.txt'));
  rmSync(join(dir, 'gone'), { recursive: true });
  rmSync(join(dir, 'swapped'), { recursive: true });
  write(dir, 'swapped', 'a file where a directory was\n');
  // A nested repository, untracked: git lists it as its directory, which is not a file.
  const nested = join(dir, 'nested');
  mkdirSync(nested);
  git(nested, 'init', '-q');
  write(nested, 'inner.txt', 'inner\n');
  // A submodule: a gitlink whose files are its own repository's.
  const sub = tempRepo();
  write(sub, 's.txt', 's\n');
  git(sub, 'add', '-A');
  git(sub, 'commit', '-q', '-m', 'sub');
  git(dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'mod');
  const { paths } = await both(dir);
  assert.equal(paths, [
    '.gitignore',
    '.gitmodules',
    'README.md',
    'assumed.txt',
    'build/keep.txt',
    'case.txt',
    'conflict.txt',
    'loose/deep/x.txt',
    'new.txt',
    'swapped',
  ]);
  // Many names the index does not know: git walks for them all, without pathspecs.
  for (let i = 0; i < 300; i++) write(dir, `many/m${i}.txt`, `${i}\n`);
  for (let i = 0; i < 300; i++) write(dir, `u${i}.txt`, `${i}\n`);
  const many = await both(dir);
  assert.is(many.paths.length, 610);
  assert.match(many.calls, /ls-files -z --others --exclude-standard\n/, 'no pathspecs past the cap');
});

test('an index this reader does not take (split, sparse, version 4) is listed all the same', async () => {
  const dir = tempRepo();
  for (let i = 0; i < 5; i++) write(dir, `d${i}/f.txt`, `${i}\n`);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'files');
  rmSync(join(dir, 'd1/f.txt'));
  git(dir, 'update-index', '--index-version', '4');
  assert.equal((await both(dir)).paths, ['README.md', 'd0/f.txt', 'd2/f.txt', 'd3/f.txt', 'd4/f.txt']);
  git(dir, 'update-index', '--index-version', '2');
  git(dir, 'update-index', '--split-index');
  const split = await both(dir);
  assert.equal(split.paths, ['README.md', 'd0/f.txt', 'd2/f.txt', 'd3/f.txt', 'd4/f.txt']);
  assert.match(split.calls, /--modified/, 'a split index goes to git');
  git(dir, 'update-index', '--no-split-index');
  git(dir, 'sparse-checkout', 'set', '--cone', '--sparse-index', 'd0', 'd2');
  const sparse = await both(dir);
  assert.equal(sparse.paths, ['README.md', 'd0/f.txt', 'd2/f.txt']);
  assert.match(sparse.calls, /--modified/, 'a sparse index goes to git');
});

test('a directory that became a symlink out is not walked, and the files out there are not listed', async () => {
  const dir = tempRepo();
  const away = tempDir('forge-away-');
  write(dir, 'pkg/a.txt', 'a\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'pkg');
  renameSync(join(dir, 'pkg'), join(away, 'pkg'));
  write(away, 'pkg/b.txt', 'b, only out there\n');
  symlinkSync(join(away, 'pkg'), join(dir, 'pkg'));
  assert.equal((await both(dir)).paths, ['README.md']);
});

test.run();
