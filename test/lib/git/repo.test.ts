// Repository discovery: read from the file system in plain layouts exactly as git rev-parse finds it, and left to git in every other.
import { chownSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { locateDirectly, locateGitDirs, openRepo } from '../../../lib/git/repo';
import { git, tempDir, tempRepo } from '../../helpers/repo';

/** What git itself says, in the shape locateDirectly answers. */
function fromGit(cwd: string) {
  const [root, gitDir, commonDir, objectsDir, objectFormat] = git(
    cwd,
    'rev-parse',
    '--path-format=absolute',
    '--show-toplevel',
    '--git-dir',
    '--git-common-dir',
    '--git-path',
    'objects',
    '--show-object-format',
  ).split('\n');
  return { root, gitDir, commonDir, objectsDir, objectFormat };
}

test('in a plain repository, its subdirectories, through a symlink, a linked worktree and a sha256 repository: what git rev-parse says, without git', async () => {
  const repo = tempRepo();
  mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
  const links = tempDir();
  symlinkSync(join(repo, 'src'), join(links, 'src-link'));
  const worktree = join(tempDir(), 'wt');
  git(repo, 'worktree', 'add', '-q', worktree);
  mkdirSync(join(worktree, 'lib'));
  const sha256 = tempDir();
  git(sha256, 'init', '-q', '--object-format=sha256');
  for (const cwd of [repo, join(repo, 'src', 'deep'), join(links, 'src-link'), worktree, join(worktree, 'lib'), sha256]) {
    const direct = locateDirectly(cwd);
    assert.ok(direct, `read directly in ${cwd}`);
    assert.equal(direct, fromGit(cwd), cwd);
    const repoOf = await openRepo({ cwd });
    assert.equal(
      [repoOf.commonDir, repoOf.objectsDir, repoOf.objectFormat, repoOf.bare],
      [direct.commonDir, direct.objectsDir, direct.objectFormat, false],
    );
    assert.equal(await locateGitDirs({ cwd }), { root: direct.root, gitDir: direct.gitDir, commonDir: direct.commonDir, bare: false });
  }
});

test('a bare repository, a git dir, a moved work tree, includes, other extensions and GIT_DIR are left to git, whose answer forge keeps', async () => {
  const bare = tempRepo({ bare: true });
  const repo = tempRepo();
  const elsewhere = tempRepo();
  git(elsewhere, 'config', 'core.worktree', tempDir());
  const included = tempRepo();
  git(included, 'config', 'include.path', '/dev/null');
  const worktreeConfig = tempRepo();
  git(worktreeConfig, 'config', 'extensions.worktreeConfig', 'true');
  for (const cwd of [bare, join(repo, '.git'), join(repo, '.git', 'refs'), elsewhere, included, worktreeConfig]) {
    assert.is(locateDirectly(cwd), undefined, cwd);
    const r = await openRepo({ cwd });
    assert.is(r.commonDir, git(cwd, 'rev-parse', '--path-format=absolute', '--git-common-dir'), cwd);
  }
  assert.equal(await locateGitDirs({ cwd: bare }), { root: null, gitDir: realpathSync(bare), commonDir: realpathSync(bare), bare: true });
  process.env.GIT_DIR = join(elsewhere, '.git');
  try {
    assert.is(locateDirectly(repo), undefined);
  } finally {
    delete process.env.GIT_DIR;
  }
});

test('outside any repository: NOT_A_GIT_REPO, whether the file system or git says so', async () => {
  const dir = tempDir();
  assert.ok(locateDirectly(dir) === null || locateDirectly(dir) === undefined);
  assert.is(await locateGitDirs({ cwd: dir }), null);
  try {
    await openRepo({ cwd: dir });
    assert.unreachable('opened a repository outside one');
  } catch (err) {
    assert.is((err as { code?: string }).code, 'NOT_A_GIT_REPO');
  }
});

test('a repository another user owns is git to judge: UNSAFE_REPOSITORY (when the tests run as root)', async () => {
  if (process.getuid?.() !== 0) return;
  const repo = tempRepo();
  writeFileSync(join(repo, 'a.txt'), 'a\n');
  chownSync(repo, 12345, 12345);
  assert.is(locateDirectly(repo), undefined);
  try {
    await openRepo({ cwd: repo });
    assert.unreachable('opened a repository of another user');
  } catch (err) {
    assert.is((err as { code?: string }).code, 'UNSAFE_REPOSITORY');
  }
});

test.run();
