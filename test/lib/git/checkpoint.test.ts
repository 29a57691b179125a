// Checkpoints on real repositories: the whole work tree captured and restored, HEAD, the index and branches untouched.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import {
  autoCommit,
  CHECKPOINT_LIMIT,
  createCheckpoint,
  diffSinceCheckpoint,
  listCheckpoints,
  workTreeChanges,
} from '../../../lib/git/checkpoint';
import { restoreCheckpoint } from '../../../lib/checkpoints/undo';
import { git, tempDir, tempRepo, userView } from '../../helpers/repo';

function write(dir: string, path: string, content: string) {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), content);
}

function read(dir: string, path: string): string | null {
  return existsSync(join(dir, path)) ? readFileSync(join(dir, path), 'utf8') : null;
}

/** A repository with staged, unstaged, untracked and ignored changes on top of two commits. */
function dirtyRepo(): string {
  const dir = tempRepo();
  write(dir, '.gitignore', '*.log\nbuild/\n');
  write(dir, 'src/a.ts', 'export const a = 1;\n');
  write(dir, 'src/b.ts', 'export const b = 1;\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'sources');
  write(dir, 'src/a.ts', 'export const a = 2; // staged\n');
  git(dir, 'add', 'src/a.ts');
  write(dir, 'src/a.ts', 'export const a = 3; // staged, then changed again\n');
  write(dir, 'src/b.ts', 'export const b = 2; // unstaged\n');
  write(dir, 'notes/todo.md', 'untracked\n');
  write(dir, 'debug.log', 'ignored\n');
  write(dir, 'build/out.js', 'ignored dir\n');
  return dir;
}

const index = (dir: string) => readFileSync(join(dir, '.git', 'index'));

test('a checkpoint in a dirty tree captures staged, unstaged and untracked files, not ignored ones, and changes nothing of the user', async () => {
  const dir = dirtyRepo();
  const view = userView(dir);
  const before = index(dir);
  const head = git(dir, 'rev-parse', 'HEAD');
  const c = await createCheckpoint({ cwd: dir, message: 'fix the login form', kind: 'task' });
  assert.ok(c);
  assert.ok(index(dir).equals(before), '.git/index is byte-identical');
  assert.is(userView(dir), view, 'HEAD, branch, status, index entries and refs as they were');
  assert.is(git(dir, 'rev-parse', 'HEAD'), head);
  assert.match(c.ref, /^refs\/forge\/checkpoints\/\d{8}-\d{6}-\d{3}$/);
  assert.is(c.message, 'forge: checkpoint before "fix the login form"');
  assert.equal([c.kind, c.n, c.head, c.files, c.uncommitted], ['task', 1, head, 5, 3]);
  assert.is(git(dir, 'log', '-1', '--format=%s%n%P', c.ref), `forge: checkpoint before "fix the login form"\n${head}`);
  assert.is(git(dir, 'ls-tree', '-r', '--name-only', c.ref), '.gitignore\nREADME.md\nnotes/todo.md\nsrc/a.ts\nsrc/b.ts');
  assert.is(git(dir, 'show', `${c.ref}:src/a.ts`), 'export const a = 3; // staged, then changed again');
  assert.is(git(dir, 'for-each-ref', '--format=%(refname)', 'refs/forge/checkpoints'), c.ref);
  assert.equal(
    readdirSync(join(dir, '.git')).filter((f) => f.startsWith('forge-index-')),
    [],
    'the temporary index is gone',
  );
});

test('restore makes the work tree equal to the checkpoint: untracked back, new files gone, ignored files untouched, HEAD and index unchanged', async () => {
  const dir = dirtyRepo();
  const c = (await createCheckpoint({ cwd: dir, message: 'refactor' }))!;
  const view = userView(dir);
  write(dir, 'src/a.ts', 'broken\n');
  rmSync(join(dir, 'src/b.ts'));
  rmSync(join(dir, 'notes'), { recursive: true });
  write(dir, 'src/new.ts', 'created by the task\n');
  write(dir, 'deep/er/file.txt', 'also new\n');
  write(dir, 'debug.log', 'ignored, changed after the checkpoint\n');
  const idx = index(dir);
  const r = await restoreCheckpoint({ cwd: dir, n: 1 });
  assert.is(r.checkpoint.ref, c.ref);
  assert.equal(
    r.changes.map((x) => `${x.status} ${x.path}`),
    ['deleted deep/er/file.txt', 'added notes/todo.md', 'modified src/a.ts', 'added src/b.ts', 'deleted src/new.ts'],
  );
  assert.is(read(dir, 'src/a.ts'), 'export const a = 3; // staged, then changed again\n');
  assert.is(read(dir, 'src/b.ts'), 'export const b = 2; // unstaged\n');
  assert.is(read(dir, 'notes/todo.md'), 'untracked\n');
  assert.is(read(dir, 'src/new.ts'), null);
  assert.not.ok(existsSync(join(dir, 'deep')), 'emptied directories are removed');
  assert.is(read(dir, 'debug.log'), 'ignored, changed after the checkpoint\n');
  assert.is(read(dir, 'build/out.js'), 'ignored dir\n');
  assert.ok(index(dir).equals(idx), '.git/index is byte-identical');
  assert.is(userView(dir), view, 'git sees exactly the state of the checkpoint');
  // The replaced tree is kept, as an undo copy that numbers skip.
  assert.ok(r.saved);
  assert.equal([r.saved.kind, r.saved.n], ['undo', null]);
  assert.is(git(dir, 'show', `${r.saved.ref}:src/new.ts`), 'created by the task');
  const list = await listCheckpoints({ cwd: dir });
  assert.equal(
    list.map((x) => [x.kind, x.n]),
    [
      ['undo', null],
      ['task', 1],
    ],
  );
});

test('numbers skip undo copies: undo twice is a no-op the second time, n=2 goes further back, a redo takes an undo back', async () => {
  const dir = tempRepo();
  write(dir, 'f.txt', 'one\n');
  await createCheckpoint({ cwd: dir, message: 'task one' });
  write(dir, 'f.txt', 'two\n');
  await createCheckpoint({ cwd: dir, message: 'task two' });
  write(dir, 'f.txt', 'three\n');
  const first = await restoreCheckpoint({ cwd: dir });
  assert.is(read(dir, 'f.txt'), 'two\n');
  assert.is(first.checkpoint.message, 'forge: checkpoint before "task two"');
  const again = await restoreCheckpoint({ cwd: dir });
  assert.equal([again.saved, again.changes, again.checkpoint.n], [null, [], 1]);
  assert.is((await listCheckpoints({ cwd: dir })).length, 3, 'a no-op saves nothing');
  await restoreCheckpoint({ cwd: dir, n: 2 });
  assert.is(read(dir, 'f.txt'), 'one\n');
  const copies = (await listCheckpoints({ cwd: dir })).filter((c) => c.kind === 'undo');
  assert.equal(
    copies.map((c) => c.message),
    [
      `forge: work tree before undo to checkpoint ${(await listCheckpoints({ cwd: dir }))
        .find((c) => c.n === 2)!
        .ref.split('/')
        .pop()}`,
      first.saved!.message,
    ],
  );
  const redo = await restoreCheckpoint({ cwd: dir, ref: copies[0]!.ref });
  assert.is(read(dir, 'f.txt'), 'two\n', 'the redo puts back the tree the last undo replaced');
  assert.match(redo.saved!.message, /^forge: work tree before redo to undo copy \d{8}-\d{6}-\d{3}$/);
  assert.equal(
    (await listCheckpoints({ cwd: dir })).filter((c) => c.n !== null).map((c) => c.message),
    ['forge: checkpoint before "task two"', 'forge: checkpoint before "task one"'],
  );
});

test('an ignored file the checkpoint would overwrite goes into the undo copy first', async () => {
  const dir = tempRepo();
  // A name that is also a glob: it must be taken literally.
  write(dir, 'p[1].txt', 'from the checkpoint\n');
  await createCheckpoint({ cwd: dir, message: 'x' });
  write(dir, '.gitignore', 'p*.txt\n');
  write(dir, 'p[1].txt', 'ignored now, and precious\n');
  write(dir, 'p1.txt', "ignored, in nobody's way\n");
  const r = await restoreCheckpoint({ cwd: dir });
  assert.is(read(dir, 'p[1].txt'), 'from the checkpoint\n');
  assert.is(read(dir, '.gitignore'), null);
  assert.is(read(dir, 'p1.txt'), "ignored, in nobody's way\n");
  assert.is(git(dir, 'show', `${r.saved!.ref}:p[1].txt`), 'ignored now, and precious');
  assert.is(git(dir, 'ls-tree', '--name-only', r.saved!.ref), '.gitignore\nREADME.md\np[1].txt');
});

test('an ignored file where the checkpoint has a directory, or an ignored directory where it has a file, is saved too', async () => {
  const dir = tempRepo();
  write(dir, 'out/x.txt', 'a file in a directory\n');
  write(dir, 'cache', 'a file\n');
  await createCheckpoint({ cwd: dir, message: 'x' });
  rmSync(join(dir, 'out'), { recursive: true });
  rmSync(join(dir, 'cache'));
  write(dir, '.gitignore', 'out\ncache\n');
  write(dir, 'out', 'ignored file\n');
  write(dir, 'cache/blob.bin', 'ignored directory\n');
  const r = await restoreCheckpoint({ cwd: dir });
  assert.equal([read(dir, 'out/x.txt'), read(dir, 'cache')], ['a file in a directory\n', 'a file\n']);
  assert.equal(
    [git(dir, 'show', `${r.saved!.ref}:out`), git(dir, 'show', `${r.saved!.ref}:cache/blob.bin`)],
    ['ignored file', 'ignored directory'],
  );
});

test('on an unborn branch: a parentless checkpoint, restored with HEAD still unborn', async () => {
  const dir = tempRepo({ commit: false });
  write(dir, 'a.txt', 'first\n');
  git(dir, 'add', 'a.txt');
  write(dir, 'b.txt', 'untracked\n');
  const view = userView(dir);
  const c = (await createCheckpoint({ cwd: dir, message: 'start' }))!;
  assert.equal([c.head, c.files, c.uncommitted], [null, 2, 2]);
  assert.is(git(dir, 'rev-list', '--parents', '-n', '1', c.ref), c.oid);
  write(dir, 'a.txt', 'changed\n');
  rmSync(join(dir, 'b.txt'));
  await restoreCheckpoint({ cwd: dir });
  assert.equal([read(dir, 'a.txt'), read(dir, 'b.txt')], ['first\n', 'untracked\n']);
  assert.is(userView(dir), view);
});

test('in a linked worktree: its own namespace, its own tree restored, the main worktree untouched', async () => {
  const dir = tempRepo();
  const linked = join(tempDir(), 'wt');
  git(dir, 'worktree', 'add', '-q', '-b', 'side', linked);
  write(dir, 'main-only.txt', 'main\n');
  const mainView = userView(dir);
  write(linked, 'side.txt', 'side\n');
  const c = (await createCheckpoint({ cwd: linked, message: 'in the linked one' }))!;
  assert.is(c.ref.replace(/\d{8}-\d{6}-\d{3}$/, 'ID'), 'refs/forge/checkpoints/worktrees/wt/ID');
  assert.equal(await listCheckpoints({ cwd: dir }), [], 'the main worktree does not see it');
  await createCheckpoint({ cwd: dir, message: 'in main' });
  assert.equal(
    (await listCheckpoints({ cwd: linked })).map((x) => x.message),
    ['forge: checkpoint before "in the linked one"'],
  );
  write(linked, 'side.txt', 'changed\n');
  write(linked, 'extra.txt', 'new\n');
  const view = userView(linked);
  await restoreCheckpoint({ cwd: linked });
  assert.equal([read(linked, 'side.txt'), read(linked, 'extra.txt'), read(linked, 'main-only.txt')], ['side\n', null, null]);
  assert.is.not(userView(linked), view);
  assert.is(git(linked, 'status', '--porcelain'), '?? side.txt');
  assert.is(userView(dir), mainView);
});

test('with a detached HEAD and from a subdirectory', async () => {
  const dir = dirtyRepo();
  git(dir, 'checkout', '-q', '--detach');
  const view = userView(dir);
  const c = (await createCheckpoint({ cwd: join(dir, 'notes'), message: 'detached' }))!;
  assert.is(c.head, git(dir, 'rev-parse', 'HEAD'));
  write(dir, 'src/b.ts', 'gone wrong\n');
  await restoreCheckpoint({ cwd: join(dir, 'notes') });
  assert.is(userView(dir), view);
});

test('outside a repository: no checkpoint (null), listing and restoring say NOT_A_GIT_REPO', async () => {
  const dir = tempDir();
  assert.is(await createCheckpoint({ cwd: dir, message: 'x' }), null);
  assert.is(await autoCommit({ cwd: dir, message: 'x' }), null);
  for (const call of [
    () => listCheckpoints({ cwd: dir }),
    () => restoreCheckpoint({ cwd: dir }),
    () => diffSinceCheckpoint({ cwd: dir }),
  ]) {
    try {
      await call();
      assert.unreachable('should throw');
    } catch (err) {
      assert.is((err as { code: string }).code, 'NOT_A_GIT_REPO');
    }
  }
});

test('no checkpoint is NO_CHECKPOINT (exit 1); a number past the last is NO_SUCH_CHECKPOINT (exit 2)', async () => {
  const dir = tempRepo();
  const codes = async (f: () => Promise<unknown>) =>
    f().then(
      () => 'ok',
      (e) => `${e.code} ${e.exitCode}`,
    );
  assert.is(await codes(() => restoreCheckpoint({ cwd: dir })), 'NO_CHECKPOINT 1');
  assert.is(await codes(() => diffSinceCheckpoint({ cwd: dir })), 'NO_CHECKPOINT 1');
  await createCheckpoint({ cwd: dir });
  assert.is(await codes(() => restoreCheckpoint({ cwd: dir, n: 2 })), 'NO_SUCH_CHECKPOINT 2');
  assert.is(await codes(() => restoreCheckpoint({ cwd: dir, ref: 'refs/forge/checkpoints/nope' })), 'NO_SUCH_CHECKPOINT 2');
});

test('an undo marker naming a live process refuses a second undo (UNDO_IN_PROGRESS); one cut short while written means nothing was restored', async () => {
  const dir = tempRepo();
  write(dir, 'f.txt', 'one\n');
  await createCheckpoint({ cwd: dir });
  write(dir, 'f.txt', 'two\n');
  // Dies once the replaced tree is saved and the undo marked, before a file is restored.
  const crash = await restoreCheckpoint({
    cwd: dir,
    onStep: (n) => {
      if (n === 2) throw new Error('killed');
    },
  }).catch((e: Error) => e.message);
  assert.is(crash, 'killed');
  const marker = join(dir, '.git', 'forge', 'undo-in-progress.json');
  const m = JSON.parse(readFileSync(marker, 'utf8'));
  writeFileSync(marker, JSON.stringify({ ...m, pid: process.ppid }));
  const codes = async (f: () => Promise<unknown>) =>
    f().then(
      () => 'ok',
      (e) => `${e.code} ${e.exitCode}`,
    );
  assert.is(await codes(() => restoreCheckpoint({ cwd: dir })), 'UNDO_IN_PROGRESS 1');
  assert.is(read(dir, 'f.txt'), 'two\n');
  writeFileSync(marker, '{"pid":');
  const r = await restoreCheckpoint({ cwd: dir });
  assert.equal([r.resumed, read(dir, 'f.txt')], [null, 'one\n']);
  assert.not.ok(existsSync(marker));
});

test("temp indexes left by dead forge processes are removed by the next checkpoint; a live process's is left", async () => {
  const dir = tempRepo();
  const dead = spawnSync('true').pid!;
  const live = `forge-index-${process.ppid}-fedcba9876543210`;
  for (const name of [`forge-index-${dead}-0123456789abcdef`, `forge-index-${dead}-0123456789abcdef.lock`, live])
    writeFileSync(join(dir, '.git', name), 'index');
  await createCheckpoint({ cwd: dir });
  assert.equal(
    readdirSync(join(dir, '.git')).filter((f) => f.startsWith('forge-index-')),
    [live],
  );
});

test('ids stay in creation order within one millisecond; only the newest CHECKPOINT_LIMIT are kept', async () => {
  const dir = tempRepo();
  const now = new Date('2026-01-01T00:00:00.000Z');
  const made: string[] = [];
  for (let i = 0; i < CHECKPOINT_LIMIT + 2; i++) {
    write(dir, 'n.txt', `${i}\n`);
    made.push((await createCheckpoint({ cwd: dir, message: `step ${i}`, now }))!.ref);
  }
  assert.is(made[0], 'refs/forge/checkpoints/20260101-000000-000');
  assert.is(made[1], 'refs/forge/checkpoints/20260101-000000-001');
  const list = await listCheckpoints({ cwd: dir });
  assert.is(list.length, CHECKPOINT_LIMIT);
  assert.equal(
    [list[0]!.message, list.at(-1)!.message],
    [`forge: checkpoint before "step ${CHECKPOINT_LIMIT + 1}"`, 'forge: checkpoint before "step 2"'],
  );
  assert.equal(
    list.map((c) => c.n),
    Array.from({ length: CHECKPOINT_LIMIT }, (_, i) => i + 1),
  );
});

test('the diff since a checkpoint: untracked files included, per file and as git prints it', async () => {
  const dir = dirtyRepo();
  await createCheckpoint({ cwd: dir, message: 'before' });
  write(dir, 'src/a.ts', 'export const a = 4;\nexport const more = 1;\n');
  rmSync(join(dir, 'notes/todo.md'));
  write(dir, 'src/c.ts', 'new\n');
  write(dir, 'more.log', 'ignored\n');
  const d = await diffSinceCheckpoint({ cwd: dir, stat: true });
  assert.equal(d.files, [
    { path: 'notes/todo.md', status: 'deleted', insertions: 0, deletions: 1 },
    { path: 'src/a.ts', status: 'modified', insertions: 2, deletions: 1 },
    { path: 'src/c.ts', status: 'added', insertions: 1, deletions: 0 },
  ]);
  assert.equal([d.insertions, d.deletions], [3, 2]);
  assert.match(d.text, / 3 files changed, 3 insertions\(\+\), 2 deletions\(-\)/);
  const patch = await diffSinceCheckpoint({ cwd: dir });
  assert.match(patch.text, /^diff --git a\/notes\/todo.md b\/notes\/todo.md\ndeleted file mode 100644/);
  assert.match(patch.text, /\n-export const a = 3; \/\/ staged, then changed again\n\+export const a = 4;\n\+export const more = 1;\n/);
  const since = await workTreeChanges({ cwd: dir, base: 'HEAD' });
  assert.equal(
    since.files.map((f) => f.path),
    ['src/a.ts', 'src/b.ts', 'src/c.ts'],
  );
});

test('autoCommit commits everything on the branch, then has nothing to commit; refused mid-merge', async () => {
  const dir = tempRepo();
  git(dir, 'config', 'user.name', 'Test');
  git(dir, 'config', 'user.email', 'test@example.com');
  write(dir, 'a.txt', 'a\n');
  write(dir, '.gitignore', '*.log\n');
  write(dir, 'x.log', 'ignored\n');
  const oid = await autoCommit({ cwd: dir, message: 'forge: add a' });
  assert.is(oid, git(dir, 'rev-parse', 'HEAD'));
  assert.is(git(dir, 'log', '-1', '--format=%s'), 'forge: add a');
  assert.is(git(dir, 'show', '--name-only', '--format=', 'HEAD'), '.gitignore\na.txt');
  assert.is(git(dir, 'status', '--porcelain'), '');
  assert.is(await autoCommit({ cwd: dir, message: 'again' }), null);
  write(dir, 'a.txt', 'b\n');
  writeFileSync(join(dir, '.git/MERGE_HEAD'), `${oid}\n`);
  const refused = await autoCommit({ cwd: dir, message: 'x' }).then(
    () => 'ok',
    (e) => e.code,
  );
  assert.is(refused, 'GIT_BUSY');
});

test.run();
