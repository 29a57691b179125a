// forge patch on what the parser decides: a patch cut short, malformed or mixed is INVALID_PATCH (exit 2) with every file unchanged; git's names land on the real files.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { git, repoWith } from '../helpers/repo';

const APP = 'def main():\n    x = 1\n    return x\n';

/** Runs each patch on a fresh copy of app.py and asks for exit 2, INVALID_PATCH, the message, and no change at all. */
async function refused(patches: Record<string, string>): Promise<void> {
  for (const [patch, message] of Object.entries(patches)) {
    const dir = repoWith({ 'app.py': APP });
    const r = await forge(['patch', '--json'], { cwd: dir, input: patch });
    assert.equal([r.code, r.records[0]?.error?.code, r.records[0]?.error?.message], [2, 'INVALID_PATCH', message], patch);
    assert.is(r.records[0]?._next_action, 'forge patch --help');
    assert.is(git(dir, 'status', '--porcelain', '--untracked-files=all'), '', patch);
  }
}

test('a reply cut short is refused as truncated and nothing is written: an envelope without *** End Patch, a SEARCH block without its closing marker', async () => {
  await refused({
    '*** Begin Patch\n*** Update File: app.py\n@@ def main():\n-    return x\n+    return x +':
      "the patch is truncated: the '*** Begin Patch' at line 1 has no '*** End Patch' after it; send the whole patch again",
    '*** Begin Patch\n*** Update File: app.py\n@@\n-    return x\n+    return 2\n*** Add File: new.py\n+print(1)\n':
      "the patch is truncated: the '*** Begin Patch' at line 1 has no '*** End Patch' after it; send the whole patch again",
    'app.py\n```python\n<<<<<<< SEARCH\n    return x\n=======\n    return x + 1\n':
      "the patch is truncated: the SEARCH block at line 3 has no '>>>>>>> REPLACE' after it; send the whole block again",
    'app.py\n------- SEARCH\n    return x\n':
      "the patch is truncated: the SEARCH block at line 2 has no '=======' and '>>>>>>> REPLACE' after it; send the whole block again",
  });
});

test('a malformed patch changes nothing: a doubled =======, an Update File with no hunk, a hunk line without its prefix, garbage inside a unified hunk', async () => {
  await refused({
    'app.py\n<<<<<<< SEARCH\n    return x\n=======\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n':
      "a second '=======' (line 6) in the SEARCH block at line 2: a block has one, between the old and the new lines; escape a '=======' line of the file as '\\======='",
    '*** Begin Patch\n*** Update File: app.py\n*** End Patch\n':
      "'*** Update File: app.py' (line 2) has no hunk: put the lines to change under it, each starting with ' ', '-' or '+', after an '@@' line",
    '*** Begin Patch\n*** Update File: app.py\n@@ def main():\n    x = 1\n-    return x\nreturn x + 1\n*** End Patch\n':
      "line 6 of the patch, 'return x + 1', is not a hunk line: in a *** Begin Patch hunk every line starts with ' ' (context), '-' (removed) or '+' (added)",
    '--- a/app.py\n+++ b/app.py\n@@ -2,2 +2,2 @@\n     x = 1\n-    return x\n(the new line)\n+    return x + 1\n':
      "corrupt patch at line 6: '(the new line)' is inside a hunk, where every line starts with ' ' (context), '-' (removed) or '+' (added)",
    '--- a/app.py\n+++ b/app.py\n':
      "the change to 'app.py' (line 1) has no hunk: put its '@@' hunks, lines starting with ' ', '-' or '+', under its header",
  });
});

test('a SEARCH block names no file from prose, and a patch that mixes formats is refused whole', async () => {
  await refused({
    'I will change the return value:\n<<<<<<< SEARCH\n    return x\n=======\n    return x + 1\n>>>>>>> REPLACE\n':
      "a SEARCH block without a file name (line 2): put the file's path alone on the line above it, or above its opening fence",
    '--- a/app.py\n+++ b/app.py\n@@ @@\n-    x = 1\n+    x = 2\n\napp.py\n<<<<<<< SEARCH\n    return x\n=======\n    return x + 1\n>>>>>>> REPLACE\n':
      "the patch mixes formats: line 8, '<<<<<<< SEARCH', starts a SEARCH/REPLACE block after a unified diff; send one format per patch",
  });
});

test("Aider's <source> fences and a '...' line between blocks: both blocks change the named file, none is created from a fence or prose", async () => {
  const dir = repoWith({ 'app.py': APP });
  const patch = [
    'app.py',
    '<source>python',
    '<<<<<<< SEARCH',
    '    x = 1',
    '=======',
    '    x = 2',
    '>>>>>>> REPLACE',
    '</source>',
    '',
    '...',
    '',
    '<source>python',
    '<<<<<<< SEARCH',
    '    return x',
    '=======',
    '    return x + 1',
    '>>>>>>> REPLACE',
    '</source>',
    '',
  ].join('\n');
  const r = await forge(['patch', '--json'], { cwd: dir, input: patch });
  assert.equal([r.code, r.records[0]?.files], [0, [{ path: 'app.py', kind: 'modify', hunks: 2, strategies: ['exact', 'exact'] }]]);
  assert.is(readFileSync(join(dir, 'app.py'), 'utf8'), 'def main():\n    x = 2\n    return x + 1\n');
  assert.is(git(dir, 'status', '--porcelain', '--untracked-files=all'), ' M app.py');
});

test("Aider's udiff header '@@ ... @@' says where nothing: the hunk is found by its lines, as after a bare '@@'", async () => {
  for (const header of ['@@ ... @@', '@@ … @@']) {
    const dir = repoWith({ 'app.py': APP });
    const r = await forge(['patch'], {
      cwd: dir,
      input: `--- app.py\n+++ app.py\n${header}\n     x = 1\n-    return x\n+    return x + 1\n`,
    });
    assert.is(r.code, 0, `${header}: ${r.stderr}`);
    assert.is(readFileSync(join(dir, 'app.py'), 'utf8'), 'def main():\n    x = 1\n    return x + 1\n', header);
  }
});

test("a git diff's new empty file whose name holds ' b/' is created under its real name", async () => {
  const dir = repoWith({ 'app.py': APP });
  mkdirSync(join(dir, 'x b'));
  writeFileSync(join(dir, 'x b/e.txt'), '');
  git(dir, 'add', '.');
  const patch = `${git(dir, 'diff', '--cached')}\n`;
  assert.is(patch, 'diff --git a/x b/e.txt b/x b/e.txt\nnew file mode 100644\nindex 0000000..e69de29\n');
  git(dir, 'rm', '-q', '--cached', 'x b/e.txt');
  git(dir, 'clean', '-qfd');
  const r = await forge(['patch'], { cwd: dir, input: patch });
  assert.is(r.stdout, 'created x b/e.txt\nNext: git diff --stat\n');
  assert.equal([existsSync(join(dir, 'x b/e.txt')), existsSync(join(dir, 'e.txt b'))], [true, false]);
});

test.run();
