// forge checkpoint, undo and diff as real child processes on real repositories: exact restores, HEAD and the index untouched.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { git, ownPath, tempDir, tempRepo, userView } from '../helpers/repo';

function write(dir: string, path: string, content: string) {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), content);
}

function read(dir: string, path: string): string | null {
  return existsSync(join(dir, path)) ? readFileSync(join(dir, path), 'utf8') : null;
}

const index = (dir: string) => readFileSync(join(dir, '.git', 'index'));

/** Committed, staged, unstaged, untracked and ignored files. */
function dirtyRepo(): string {
  const dir = tempRepo();
  write(dir, '.gitignore', '*.log\n');
  write(dir, 'src/app.ts', 'export const version = 1;\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'app');
  write(dir, 'src/app.ts', 'export const version = 2;\n');
  write(dir, 'src/staged.ts', 'staged\n');
  git(dir, 'add', 'src/staged.ts');
  write(dir, 'README.md', '# fixture, edited\n');
  write(dir, 'notes.txt', 'untracked notes\n');
  write(dir, 'server.log', 'ignored\n');
  return dir;
}

test('forge undo restores a tree that had uncommitted and untracked files, with HEAD and the index unchanged', async () => {
  const dir = dirtyRepo();
  const view = userView(dir);
  const idx = index(dir);
  const head = git(dir, 'rev-parse', 'HEAD');
  const branches = git(dir, 'branch', '--list');
  const made = await forge(['checkpoint', 'rewrite the app'], { cwd: dir });
  assert.is(made.code, 0, made.stderr);
  assert.match(
    made.stdout,
    /^checkpoint 1: refs\/forge\/checkpoints\/\d{8}-\d{6}-\d{3} \(5 files, 4 uncommitted\) forge: checkpoint before "rewrite the app"\nNext: forge diff\nOr: forge undo --list\n$/,
  );
  assert.ok(index(dir).equals(idx), 'checkpoint: .git/index byte-identical');
  assert.is(userView(dir), view, 'checkpoint: HEAD, status, index entries, branches unchanged');

  // What a task does: edit, delete (tracked and untracked), create.
  write(dir, 'src/app.ts', 'export const version = 3; // broken\n');
  rmSync(join(dir, 'notes.txt'));
  rmSync(join(dir, 'README.md'));
  write(dir, 'src/generated/new.ts', 'new file\n');
  write(dir, 'server.log', 'ignored, written meanwhile\n');
  const undo = await forge(['undo'], { cwd: dir });
  assert.is(undo.code, 0, undo.stderr);
  const lines = undo.stdout.split('\n');
  assert.match(
    lines[0]!,
    /^restored the work tree to checkpoint 1 \(forge: checkpoint before "rewrite the app", \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, 4 uncommitted files\): 4 files$/,
  );
  assert.equal(lines.slice(1, 5), ['  A README.md', '  A notes.txt', '  M src/app.ts', '  D src/generated/new.ts']);
  assert.match(
    lines[5]!,
    /^the work tree it replaced is saved as refs\/forge\/checkpoints\/\d{8}-\d{6}-\d{3}; forge undo --redo puts it back$/,
  );
  assert.equal(lines.slice(6), ['Next: git status', 'Or: forge undo --redo', '']);
  assert.equal(
    [
      read(dir, 'src/app.ts'),
      read(dir, 'notes.txt'),
      read(dir, 'README.md'),
      read(dir, 'src/staged.ts'),
      existsSync(join(dir, 'src/generated')),
    ],
    ['export const version = 2;\n', 'untracked notes\n', '# fixture, edited\n', 'staged\n', false],
  );
  assert.is(read(dir, 'server.log'), 'ignored, written meanwhile\n', 'ignored files are left alone');
  assert.ok(index(dir).equals(idx), 'undo: .git/index byte-identical');
  assert.is(git(dir, 'rev-parse', 'HEAD'), head);
  assert.is(git(dir, 'branch', '--list'), branches);
  assert.is(userView(dir), view, 'git status is exactly what it was at the checkpoint');
});

test('forge undo 2, undo twice (the second is a no-op), and an undo undone with --redo', async () => {
  const dir = tempRepo();
  write(dir, 'f.txt', 'one\n');
  await forge(['checkpoint', 'task one'], { cwd: dir });
  write(dir, 'f.txt', 'two\n');
  await forge(['checkpoint', 'task two'], { cwd: dir });
  write(dir, 'f.txt', 'three\n');
  const back2 = await forge(['undo', '2', '--json'], { cwd: dir });
  assert.is(back2.code, 0, back2.stderr);
  assert.is(read(dir, 'f.txt'), 'one\n');
  const r = back2.records[0]!;
  assert.equal(
    [r.ok, r.restored, r.checkpoint.n, r.checkpoint.message, r.saved.kind, r.changes, r._next_action, r._or_action],
    [
      true,
      true,
      2,
      'forge: checkpoint before "task one"',
      'undo',
      [{ path: 'f.txt', status: 'modified' }],
      'git status',
      'forge undo --redo',
    ],
  );
  const again = await forge(['undo', '2'], { cwd: dir });
  assert.match(
    again.stdout,
    /^the work tree already matches checkpoint 2 \(forge: checkpoint before "task one", .*\): nothing to do\nNext: forge undo --list\n$/,
  );
  const redo = await forge(['undo', '--redo'], { cwd: dir });
  assert.is(redo.code, 0, redo.stderr);
  assert.is(read(dir, 'f.txt'), 'three\n', '--redo puts back what the undo replaced');
  const toggle = await forge(['undo', '--redo'], { cwd: dir });
  assert.is(toggle.code, 0);
  assert.is(read(dir, 'f.txt'), 'one\n', '--redo twice toggles');
  const list = await forge(['undo', '--list', '--json'], { cwd: dir });
  const items = list.records.filter((x) => x.type === 'checkpoint');
  assert.equal(
    items.map((x) => [x.n, x.kind]),
    [
      [null, 'undo'],
      [null, 'undo'],
      [null, 'undo'],
      [1, 'manual'],
      [2, 'manual'],
    ],
  );
  assert.equal(list.records.at(-1), {
    ok: true,
    type: 'summary',
    count: 5,
    numbered: 2,
    undoCopies: 3,
    _next_action: 'forge diff',
    _or_action: 'forge undo',
  });
  const text = await forge(['undo', '--list'], { cwd: dir });
  assert.match(
    text.stdout,
    /^ {2}- {2}\S+ {2}undo {4}2 files, 1 uncommitted {2}forge: work tree before redo to undo copy \d{8}-\d{6}-\d{3}\n/,
  );
  assert.match(
    text.stdout,
    /\n {2}2 {2}\S+ {2}manual {2}2 files, 1 uncommitted {2}forge: checkpoint before "task one"\n2 checkpoints and 3 undo copies \(not numbered\), newest first\nNext: forge diff\nOr: forge undo\n$/,
  );
});

test("forge diff: git's patch and --stat since the newest checkpoint, per file with --json, the hint on stderr", async () => {
  const dir = dirtyRepo();
  await forge(['checkpoint'], { cwd: dir });
  const none = await forge(['diff'], { cwd: dir });
  assert.is(none.stdout, 'no changes since checkpoint 1 (forge: checkpoint)\nNext: forge undo --list\n');
  write(dir, 'src/app.ts', 'export const version = 3;\n');
  rmSync(join(dir, 'notes.txt'));
  write(dir, 'bin/run.sh', 'echo hi\n');
  const stat = await forge(['diff', '--stat'], { cwd: dir });
  assert.is(stat.code, 0);
  assert.match(
    stat.stdout,
    /^ bin\/run.sh +\| 1 \+\n notes.txt +\| 1 -\n src\/app.ts +\| 2 \+-\n 3 files changed, 2 insertions\(\+\), 2 deletions\(-\)\n$/,
  );
  assert.is(stat.stderr, 'Next: forge undo\nOr: forge checkpoint\n');
  const patch = await forge(['diff'], { cwd: dir });
  assert.match(patch.stdout, /^diff --git a\/bin\/run.sh b\/bin\/run.sh\nnew file mode 100644\n/);
  // The patch applies in reverse: it is exactly what undo would take back.
  const check = spawnSync('git', ['apply', '--check', '-R'], { cwd: dir, input: patch.stdout, encoding: 'utf8' });
  assert.is(check.status, 0, check.stderr);
  const json = await forge(['diff', '--json'], { cwd: dir });
  const files = json.records.filter((x) => x.type === 'file');
  assert.equal(
    files.map((f) => [f.path, f.status, f.insertions, f.deletions]),
    [
      ['bin/run.sh', 'added', 1, 0],
      ['notes.txt', 'deleted', 0, 1],
      ['src/app.ts', 'modified', 1, 1],
    ],
  );
  assert.match(
    files[2]!.patch,
    /^diff --git a\/src\/app.ts b\/src\/app.ts\n[\s\S]*-export const version = 2;\n\+export const version = 3;\n$/,
  );
  const summary = json.records.at(-1)!;
  assert.equal(
    [summary.type, summary.files, summary.insertions, summary.deletions, summary.checkpoint.n, summary._next_action],
    ['summary', 3, 2, 2, 1, 'forge undo'],
  );
  const statJson = await forge(['diff', '--stat', '--json'], { cwd: dir });
  assert.not.ok('patch' in statJson.records[0]!);
});

test('on an unborn branch and in a linked worktree', async () => {
  const unborn = tempRepo({ commit: false });
  write(unborn, 'a.txt', 'first\n');
  const view = userView(unborn);
  assert.is((await forge(['checkpoint', 'start'], { cwd: unborn })).code, 0);
  write(unborn, 'a.txt', 'second\n');
  write(unborn, 'b.txt', 'new\n');
  assert.is((await forge(['undo', '--yes'], { cwd: unborn })).code, 0);
  assert.equal([read(unborn, 'a.txt'), read(unborn, 'b.txt')], ['first\n', null]);
  assert.is(userView(unborn), view);
  assert.throws(() => git(unborn, 'rev-parse', '--verify', 'HEAD'), 'still unborn');

  const dir = tempRepo();
  const linked = join(tempDir(), 'linked');
  git(dir, 'worktree', 'add', '-q', '--detach', linked);
  write(linked, 'x.txt', 'x\n');
  await forge(['checkpoint', 'in linked'], { cwd: linked });
  write(linked, 'x.txt', 'changed\n');
  const mainView = userView(dir);
  const none = await forge(['undo'], { cwd: dir });
  assert.is(none.code, 1, 'the main worktree has no checkpoint of its own');
  const r = await forge(['undo'], { cwd: linked });
  assert.is(r.code, 0, r.stderr);
  assert.is(read(linked, 'x.txt'), 'x\n');
  assert.is(userView(dir), mainView);
});

test('errors: no checkpoint (exit 1), N too big or not a number (exit 2), --redo with nothing to redo, outside a repository', async () => {
  const dir = tempRepo();
  const none = await forge(['undo'], { cwd: dir });
  assert.equal([none.code, none.stdout, none.stderr], [1, '', 'Error: no checkpoint yet: nothing to go back to\nFix: forge checkpoint\n']);
  const noneJson = await forge(['diff', '--json'], { cwd: dir });
  assert.equal(
    [noneJson.code, noneJson.records[0]!.error.code, noneJson.records[0]!._next_action],
    [1, 'NO_CHECKPOINT', 'forge checkpoint'],
  );
  await forge(['checkpoint'], { cwd: dir });
  const big = await forge(['undo', '3'], { cwd: dir });
  assert.equal([big.code, big.stderr], [2, 'Error: there is no checkpoint 3: there is 1\nFix: forge undo --list\n']);
  const zero = await forge(['undo', '0', '--json'], { cwd: dir });
  assert.equal([zero.code, zero.records[0]!.error.code], [2, 'INVALID_ARGUMENT']);
  const word = await forge(['undo', 'last'], { cwd: dir });
  assert.is(word.code, 2);
  const redo = await forge(['undo', '--redo'], { cwd: dir });
  assert.equal(
    [redo.code, redo.stderr],
    [1, 'Error: no undo to take back: undo saves the tree it replaces, and none is saved\nFix: forge undo --list\n'],
  );
  const both = await forge(['undo', '1', '--redo'], { cwd: dir });
  assert.is(both.code, 2);
  const outside = tempDir();
  for (const args of [['undo'], ['undo', '--list'], ['diff'], ['checkpoint']]) {
    const r = await forge(args, { cwd: outside });
    assert.equal([r.code, r.stderr], [2, `Error: not a git repository: '${outside}'\nFix: git init\n`], args.join(' '));
  }
  const cwdFlag = await forge(['undo', '--cwd', outside], { cwd: dir });
  assert.match(cwdFlag.stderr, /\nFix: git init /);
});

test('in a bare repository or inside .git: NO_WORK_TREE with a fix that leads to a work tree', async () => {
  const bare = tempRepo({ bare: true });
  for (const args of [['checkpoint'], ['undo'], ['undo', '--list'], ['diff']]) {
    const r = await forge(args, { cwd: bare });
    assert.equal(
      [r.code, r.stderr],
      [2, `Error: '${bare}' is a bare repository: it has no work tree\nFix: git clone ${bare} ${bare}-work\n`],
      args.join(' '),
    );
  }
  git(tempDir(), 'clone', '-q', bare, ownPath(`${bare}-work`));
  assert.is((await forge(['checkpoint', '--json'], { cwd: `${bare}-work` })).code, 0, 'the fix gives a work tree to checkpoint');
  const dir = tempRepo();
  for (const args of [
    ['checkpoint', '--json'],
    ['diff', '--json'],
  ]) {
    const r = await forge(args, { cwd: join(dir, '.git', 'refs') });
    assert.equal([r.code, r.records[0]!.error.code, r.records[0]!._next_action], [2, 'NO_WORK_TREE', `cd ${dir}`], args.join(' '));
  }
});

test.run();
