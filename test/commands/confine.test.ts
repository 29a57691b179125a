// Confinement of the file tools, tried as an attacker would: git's own files, symlinks out, bare repositories, FIFOs — through the built binary, MCP and the agent's tools.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { entries } from '../../commands/index';
import { agentTools } from '../../lib/cli/agent-tools';
import { FORGE, forge, forgeEnv } from '../helpers/forge';
import { changedPaths, git, repoWith, tempDir, tempRepo, treeHashes } from '../helpers/repo';

/** forge's own journal and log spool live in the git dir by design; everything else there must stay as it was. */
const forgeOwn = (rel: string) => /(^|\/)forge$/.test(rel);

function assertUnchanged(before: Map<string, string>, dir: string, what: string) {
  assert.equal(changedPaths(before, treeHashes(dir, forgeOwn)), [], `${what} changed`);
}

test("write, edit and patch refuse git's own files however they are named, and change nothing there", async () => {
  const dir = repoWith({ 'src/a.js': 'a\n' });
  symlinkSync('.git', join(dir, 'g'));
  symlinkSync('.git/config', join(dir, 'cfg'));
  const before = treeHashes(join(dir, '.git'), forgeOwn);
  const config = readFileSync(join(dir, '.git/config'), 'utf8');
  const targets = [
    '.git/config',
    '.GIT/config',
    '.Git/hooks/pre-commit',
    '.git/hooks/pre-commit',
    join(dir, '.git/config'),
    'g/config',
    'cfg',
    'src/../.git/HEAD',
    '.git',
    '.git./config',
    '.git /config',
    'git~1/config',
    '.g\u200cit/config',
    'sub/.git/config',
  ];
  for (const path of targets) {
    const w = await forge(['write', path, '--content', '[core]\n\tfsmonitor = "touch pwned; false"\n', '--overwrite', '--json'], {
      cwd: dir,
    });
    assert.equal([w.code, w.records[0]?.error?.code], [1, 'PATH_IN_GIT_DIR'], `write ${path}: ${w.stdout}`);
  }
  const e = await forge(['edit', '.git/config', '--old', '[core]', '--new', '[core]\n\tfsmonitor = "touch pwned; false"', '--json'], {
    cwd: dir,
  });
  assert.equal([e.code, e.records[0]!.error.code], [1, 'PATH_IN_GIT_DIR']);
  for (const header of ['+++ b/.git/hooks/post-checkout', '+++ b/.GIT/hooks/post-checkout', '+++ b/g/hooks/post-checkout']) {
    const p = await forge(['patch', '--json'], {
      cwd: dir,
      input: `--- /dev/null\n${header}\n@@ -0,0 +1,2 @@\n+#!/bin/sh\n+touch pwned\n`,
    });
    assert.equal([p.code, p.records[0]?.error?.code], [1, 'PATH_IN_GIT_DIR'], header);
  }
  // A patch that also touches an allowed file changes nothing at all.
  const both = await forge(['patch'], {
    cwd: dir,
    input: '--- a/src/a.js\n+++ b/src/a.js\n@@ -1 +1 @@\n-a\n+b\n--- /dev/null\n+++ b/.git/hooks/post-merge\n@@ -0,0 +1 @@\n+x\n',
  });
  assert.is(both.code, 1);
  assert.is(readFileSync(join(dir, 'src/a.js'), 'utf8'), 'a\n');
  const read = await forge(['read', '.git/config', '--json'], { cwd: dir });
  assert.equal([read.code, read.records[0]!.error.code], [1, 'PATH_IN_GIT_DIR']);
  assert.match(
    (await forge(['read', 'cfg'], { cwd: dir })).stderr,
    /^Error: 'cfg' is inside git's own files: file tools never read or change them\nFix: forge ls\n$/,
  );
  assertUnchanged(before, join(dir, '.git'), '.git');
  assert.is(readFileSync(join(dir, '.git/config'), 'utf8'), config);
  git(dir, 'status');
  assert.not.ok(existsSync(join(dir, 'pwned')), 'no hook or fsmonitor ran');
});

test("a linked worktree's .git file and gitdir, $GIT_DIR, a nested repository's .git and a submodule's are refused", async () => {
  const main = tempRepo();
  const wt = join(tempDir(), 'wt');
  git(main, 'worktree', 'add', '-q', wt);
  const gitdir = git(wt, 'rev-parse', '--path-format=absolute', '--git-dir');
  const before = treeHashes(join(main, '.git'), forgeOwn);
  for (const path of [
    '.git',
    relative(wt, join(gitdir, 'HEAD')),
    join(main, '.git/config'),
    relative(wt, join(main, '.git/hooks/pre-commit')),
  ]) {
    const r = await forge(['write', path, '--content', 'x', '--overwrite', '--json'], { cwd: wt });
    assert.equal([r.code, r.records[0]!.error.code], [1, 'PATH_IN_GIT_DIR'], path);
  }
  assertUnchanged(before, join(main, '.git'), "the main repository's .git");

  // GIT_DIR under another name inside the work tree, as `git --git-dir=.repo --work-tree=.` uses it.
  const custom = tempDir();
  execFileSync('git', ['init', '-q', '--separate-git-dir', join(custom, '.repo'), join(custom, 'tree')]);
  const tree = join(custom, 'tree');
  execFileSync('git', ['init', '-q', '--bare', join(tree, 'store')]);
  const env = { GIT_DIR: join(tree, 'store'), GIT_WORK_TREE: tree };
  const r = await forge(['write', 'store/config', '--content', 'x', '--overwrite', '--json'], { cwd: tree, env });
  assert.equal([r.code, r.records[0]!.error.code], [1, 'PATH_IN_GIT_DIR'], '$GIT_DIR');
  writeFileSync(join(tree, 'a.txt'), 'a\n');
  const listed = await forge(['ls', '--json'], { cwd: tree, env });
  assert.equal(
    listed.records.filter((x) => x.type === 'file').map((x) => x.path),
    ['a.txt'],
    'git lists $GIT_DIR as untracked; the walk leaves it out',
  );
  const viaFile = await forge(['write', '../.repo/config', '--content', 'x', '--overwrite', '--json'], { cwd: tree });
  assert.equal([viaFile.code, viaFile.records[0]!.error.code], [1, 'PATH_IN_GIT_DIR'], '--separate-git-dir');

  const outer = tempRepo();
  const nested = join(outer, 'vendor/lib');
  mkdirSync(nested, { recursive: true });
  git(nested, 'init', '-q');
  writeFileSync(join(outer, 'sub.git-file'), 'gitdir: elsewhere\n');
  mkdirSync(join(outer, 'mod'));
  writeFileSync(join(outer, 'mod/.git'), 'gitdir: ../.git/modules/mod\n');
  // Links whose own names say nothing of .git, into the nested repository's: judged where they lead.
  symlinkSync('vendor/lib/.git', join(outer, 'vlink'));
  symlinkSync('vendor/lib/.git/config', join(outer, 'vcfg'));
  for (const path of ['vendor/lib/.git/config', 'mod/.git', 'vlink/config', 'vcfg']) {
    const w = await forge(['write', path, '--content', 'x', '--overwrite', '--json'], { cwd: outer });
    assert.equal([w.code, w.records[0]!.error.code], [1, 'PATH_IN_GIT_DIR'], path);
  }
  for (const path of ['vlink/config', 'vcfg']) {
    const r = await forge(['read', path, '--json'], { cwd: outer });
    assert.equal([r.code, r.records[0]!.error.code], [1, 'PATH_IN_GIT_DIR'], `read ${path}`);
  }
  assert.not.match(readFileSync(join(nested, '.git/config'), 'utf8'), /^x$/);
  assert.is(readFileSync(join(outer, 'mod/.git'), 'utf8'), 'gitdir: ../.git/modules/mod\n');
  assert.is(
    (await forge(['write', 'sub.git-file', '--content', 'ok\n', '--overwrite'], { cwd: outer })).code,
    0,
    'a name merely containing .git is content',
  );
});

test('in a bare repository or inside .git every file tool refuses and nothing changes', async () => {
  const bare = tempRepo({ bare: true });
  const before = treeHashes(bare, forgeOwn);
  for (const args of [
    ['ls'],
    ['search', 'bare'],
    ['read', 'config'],
    ['write', 'config', '--content', 'x', '--overwrite'],
    ['edit', 'config', '--old', 'bare', '--new', 'x'],
  ]) {
    const r = await forge([...args, '--json'], { cwd: bare });
    assert.equal([r.code, r.records.at(-1)!.error.code], [1, 'PATH_IN_GIT_DIR'], args.join(' '));
  }
  assert.is((await forge(['ls', '--json'], { cwd: bare })).records[0]!._next_action, 'git worktree list');
  assertUnchanged(before, bare, 'the bare repository');
  const dir = tempRepo();
  const inGit = await forge(['ls', '--json'], { cwd: join(dir, '.git') });
  assert.equal([inGit.code, inGit.records[0]!._next_action], [1, `forge ls --cwd ${dir}`]);
});

test('search and ls skip symlinks that leave the repository or reach .git, as read refuses them', async () => {
  const outside = tempDir();
  writeFileSync(join(outside, 'secret.txt'), 'SECRET outside\n');
  const dir = repoWith({ 'in.txt': 'SECRET inside\n' });
  symlinkSync(join(outside, 'secret.txt'), join(dir, 'out-link'));
  symlinkSync('.git/config', join(dir, 'cfg'));
  symlinkSync('in.txt', join(dir, 'in-link'));
  symlinkSync(outside, join(dir, 'out-dir'));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'links');
  const s = await forge(['search', 'SECRET|repositoryformatversion', '--json'], { cwd: dir });
  assert.equal(
    s.records.filter((r) => r.type === 'match').map((r) => `${r.path}: ${r.text}`),
    ['in-link: SECRET inside', 'in.txt: SECRET inside'],
  );
  assert.not.match(s.stdout, /SECRET outside|repositoryformatversion = /);
  const named = await forge(['search', 'SECRET', 'out-link', '--json'], { cwd: dir });
  assert.equal([named.code, named.records[0]!.error.code], [2, 'PATH_OUTSIDE_REPO']);
  const ls = await forge(['ls', '--json'], { cwd: dir });
  assert.equal(
    ls.records.filter((r) => r.type === 'file').map((r) => r.path),
    ['README.md', 'in-link', 'in.txt'],
  );
  for (const glob of ['../elsewhere', `${outside}/*`, '../*/secret.txt', 'out-dir/*']) {
    const r = await forge(['ls', glob, '--json'], { cwd: dir });
    assert.equal([r.code, r.records[0]!.error?.code], [2, 'PATH_OUTSIDE_REPO'], glob);
  }
  const g = await forge(['ls', '.git/*', '--json'], { cwd: dir });
  assert.equal([g.code, g.records[0]!.error.code], [1, 'PATH_IN_GIT_DIR']);
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src/x.ts'), '');
  assert.equal(
    (await forge(['ls', 'src', '--json'], { cwd: dir })).records.filter((r) => r.type === 'file').map((r) => r.path),
    ['src/x.ts'],
    'a directory name lists what is under it',
  );
  // A link to a directory inside is walked where it points; a path above cwd is refused, never "no files".
  writeFileSync(join(dir, 'src/x.ts'), 'NEEDLE\n');
  symlinkSync('src', join(dir, 'src-link'));
  assert.equal(
    (await forge(['search', 'NEEDLE', 'src-link', '--json'], { cwd: dir })).records.filter((r) => r.type === 'match').map((r) => r.path),
    ['src/x.ts'],
  );
  assert.equal(
    (await forge(['ls', 'src-link', '--json'], { cwd: dir })).records.filter((r) => r.type === 'file').map((r) => r.path),
    ['src/x.ts'],
  );
  for (const args of [
    ['search', 'NEEDLE', '..'],
    ['search', 'NEEDLE', '../README.md'],
    ['ls', '..'],
    ['ls', '../*.md'],
  ]) {
    const r = await forge([...args, '--json'], { cwd: join(dir, 'src') });
    assert.equal(
      [r.code, r.records[0]!.error?.code, r.records[0]!._next_action],
      [2, 'PATH_ABOVE_CWD', `forge ls --cwd ${dir}`],
      args.join(' '),
    );
  }

  // Outside a repository the walk follows the same rule.
  const plain = tempDir();
  writeFileSync(join(plain, 'a.txt'), 'SECRET plain\n');
  symlinkSync(join(outside, 'secret.txt'), join(plain, 'out-link'));
  symlinkSync('a.txt', join(plain, 'a-link'));
  mkdirSync(join(plain, '.GIT'));
  writeFileSync(join(plain, '.GIT/config'), 'SECRET in a .GIT\n');
  const p = await forge(['search', 'SECRET', '--json'], { cwd: plain });
  assert.equal(
    p.records.filter((r) => r.type === 'match').map((r) => r.path),
    ['a-link', 'a.txt'],
  );
  assert.equal(
    (await forge(['ls', '--json'], { cwd: plain })).records.filter((r) => r.type === 'file').map((r) => r.path),
    ['a-link', 'a.txt'],
  );
});

test('a dangling symlink pointing out is refused, not followed to create a file outside', async () => {
  const outside = tempDir();
  const dir = tempRepo();
  symlinkSync(join(outside, 'new.txt'), join(dir, 'dangling'));
  symlinkSync(join(outside, 'newdir'), join(dir, 'dangling-dir'));
  symlinkSync('dangling', join(dir, 'chain'));
  for (const path of ['dangling', 'dangling-dir/x.txt', 'chain']) {
    const r = await forge(['write', path, '--content', 'x', '--json'], { cwd: dir });
    assert.equal([r.code, r.records[0]!.error.code], [2, 'PATH_OUTSIDE_REPO'], path);
  }
  assert.equal(readdirSync(outside), []);
  symlinkSync('not-yet.txt', join(dir, 'inside-dangling'));
  assert.is(
    (await forge(['write', 'inside-dangling', '--content', 'x\n'], { cwd: dir })).code,
    0,
    'a dangling link inside is a file to create',
  );
});

test('a file where a directory must be is NOT_A_DIRECTORY, and a patch around it changes nothing', async () => {
  const dir = repoWith({ 'f.txt': 'x\n', 'keep.txt': 'a\n' });
  const w = await forge(['write', 'f.txt/new.txt', '--content', 'x', '--json'], { cwd: dir });
  assert.equal([w.code, w.records[0]!.error.code], [1, 'NOT_A_DIRECTORY']);
  const p = await forge(['patch', '--json'], {
    cwd: dir,
    input: '--- a/keep.txt\n+++ b/keep.txt\n@@ -1 +1 @@\n-a\n+b\n--- /dev/null\n+++ b/f.txt/new.txt\n@@ -0,0 +1 @@\n+x\n',
  });
  assert.equal(
    [p.code, p.records[0]!.error.code, readFileSync(join(dir, 'keep.txt'), 'utf8'), readFileSync(join(dir, 'f.txt'), 'utf8')],
    [1, 'NOT_A_DIRECTORY', 'a\n', 'x\n'],
  );
});

test('a FIFO is refused by read, edit, write and patch without hanging', async () => {
  const dir = tempRepo();
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  for (const args of [
    ['read', 'pipe'],
    ['edit', 'pipe', '--old', 'a', '--new', 'b'],
    ['write', 'pipe', '--content', 'x', '--overwrite'],
  ]) {
    const r = await forge([...args, '--json'], { cwd: dir });
    assert.equal([r.code, r.records[0]!.error.code], [1, 'NOT_A_REGULAR_FILE'], args[0]);
  }
  const p = await forge(['patch', '--json'], { cwd: dir, input: '--- a/pipe\n+++ b/pipe\n@@ -1 +1 @@\n-a\n+b\n' });
  assert.equal([p.code, p.records[0]!.error.code], [1, 'NOT_A_REGULAR_FILE']);
  assert.ok(lstatSync(join(dir, 'pipe')).isFIFO());
});

test("the MCP tools and the agent's tools refuse .git the same way", async () => {
  const dir = tempRepo();
  const config = readFileSync(join(dir, '.git/config'), 'utf8');
  const env = Object.fromEntries(Object.entries(forgeEnv()).filter((e): e is [string, string] => e[1] !== undefined));
  const client = new Client({ name: 'forge-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [FORGE, 'mcp'], cwd: dir, env, stderr: 'pipe' }));
  try {
    const r = await client.callTool({
      name: 'edit',
      arguments: { path: '.git/config', old: '[core]', new: '[core]\n\tfsmonitor = "touch pwned"' },
    });
    assert.is(r.isError, true);
    assert.match((r.content as Array<{ text: string }>)[0]!.text, /"code":"PATH_IN_GIT_DIR"/);
  } finally {
    await client.close();
  }
  const tools = agentTools({ entries, cwd: dir, root: dir, env: forgeEnv() });
  const w = await tools.run('write', { path: '.git/hooks/pre-commit', content: '#!/bin/sh\ntouch pwned\n' });
  assert.equal([w.ok, /PATH_IN_GIT_DIR|git's own files/.test(w.text)], [false, true], w.text);
  const p = await tools.run('patch', {
    diff: '--- a/.git/config\n+++ b/.git/config\n@@ -1 +1 @@\n-[core]\n+[core]\n+\tfsmonitor = "touch pwned"\n',
  });
  assert.is(p.ok, false);
  assert.is(readFileSync(join(dir, '.git/config'), 'utf8'), config);
  assert.not.ok(existsSync(join(dir, '.git/hooks/pre-commit')));
});

test.run();
