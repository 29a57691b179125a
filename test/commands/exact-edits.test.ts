// Issue 14's reproductions through the built binary: each lands with exact expected bytes, or is
// refused with every file byte-identical — whitespace drift, stale numbers, endings, final newlines.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { git, repoWith } from '../helpers/repo';

const read = (dir: string, path: string) => readFileSync(join(dir, path), 'latin1');

async function patchCase(files: Record<string, string>, patch: string, args: string[] = []) {
  const dir = repoWith(Object.fromEntries(Object.entries(files).map(([p, c]) => [p, Buffer.from(c, 'latin1')])));
  const r = await forge(['patch', ...args], { cwd: dir, input: patch });
  return { r, dir, file: (p: string) => read(dir, p) };
}

async function editCase(content: string, args: string[]) {
  const dir = repoWith({ 'f.js': Buffer.from(content, 'latin1') });
  const r = await forge(['edit', 'f.js', ...args], { cwd: dir });
  return { r, bytes: read(dir, 'f.js') };
}

test('whitespace drift: lines that already fit the file stay, a closing brace keeps its depth, tabs and spaces convert at the width the old lines prove', async () => {
  // The removed line was written with a tab where the file has two spaces; the added lines already fit.
  const a = await patchCase(
    { 'f.js': 'function f() {\n  if (a) {\n    b();\n  }\n}\n' },
    '--- a/f.js\n+++ b/f.js\n@@ -3,3 +3,4 @@\n     b();\n-\t}\n+  }\n+  c();\n }\n',
  );
  assert.equal([a.r.code, a.file('f.js')], [0, 'function f() {\n  if (a) {\n    b();\n  }\n  c();\n}\n']);
  // Two-space model text in a tab-indented file, its first line at column 0.
  const b = await editCase('function f() {\n\treturn 1;\n}\n', [
    '--old',
    'function f() {\n  return 1;\n}',
    '--new',
    'function f() {\n  return 2;\n}',
  ]);
  assert.equal([b.r.code, b.bytes], [0, 'function f() {\n\treturn 2;\n}\n']);
  // One level too shallow throughout: the closing brace goes back to its own level, not the first line's.
  const c = await editCase('if (a) {\n\t\tx();\n\t}\n', ['--old', '\tx();\n}', '--new', '\ty();\n}']);
  assert.equal([c.r.code, c.bytes], [0, 'if (a) {\n\t\ty();\n\t}\n']);
  // Four-space model text in a two-space file: every level converts, nested ones too.
  const d = await editCase('class A {\n  m() {\n    return 1;\n  }\n}\n', [
    '--old',
    '    m() {\n        return 1;\n    }',
    '--new',
    '    m() {\n        if (x) {\n            return 2;\n        }\n        return 1;\n    }',
  ]);
  assert.equal([d.r.code, d.bytes], [0, 'class A {\n  m() {\n    if (x) {\n      return 2;\n    }\n    return 1;\n  }\n}\n']);
  // Python with its indentation dropped: the new block comes back at its depth, the nested line one deeper.
  const e = await editCase('def f():\n    x = 1\n    return x\n', ['--old', 'x = 1\nreturn x', '--new', 'x = 1\nif x:\n    return x']);
  assert.equal([e.r.code, e.bytes], [0, 'def f():\n    x = 1\n    if x:\n        return x\n']);
  // Dedented by one level while the new text nests one level deeper: each added line keeps its depth relative to the old ones.
  const f = await editCase('function f() {\n  if (a) {\n    b();\n  }\n}\n', [
    '--old',
    'if (a) {\n  b();\n}',
    '--new',
    'if (a) {\n  for (const x of y) {\n    b(x);\n  }\n}',
  ]);
  assert.equal([f.r.code, f.bytes], [0, 'function f() {\n  if (a) {\n    for (const x of y) {\n      b(x);\n    }\n  }\n}\n']);
  // Tabs per level in a two-space file, a doc comment's aligning space after the tab: the tab converts, the space stays.
  const g = await editCase('class A {\n  x = 1;\n}\n', [
    '--old',
    'class A {\n\tx = 1;\n}',
    '--new',
    'class A {\n\t/**\n\t * The x.\n\t */\n\tx = 1;\n}',
  ]);
  assert.equal([g.r.code, g.bytes], [0, 'class A {\n  /**\n   * The x.\n   */\n  x = 1;\n}\n']);
});

test('old lines that prove no single indentation change are refused with the region; nothing changes', async () => {
  const src = 'def f():\n    if a:\n        b()\n    return c\n';
  const r = await editCase(src, ['--old', '  if a:\n        b()\n  return c', '--new', '  if a:\n    b()\n    d()\n  return c']);
  assert.equal([r.r.code, r.bytes], [1, src]);
  assert.match(r.r.stderr, /no single indentation change/);
  assert.match(r.r.stderr, /2#[0-9a-f]{4}: {5}if a:/);
});

test('stale line numbers: of a repeated block the occurrence nearest the stated line wins, as git apply; equally near is refused', async () => {
  const src = 'a\nb\nX\nY\nc\nd\ne\nX\nY\nf\n';
  const near = await patchCase({ 'r.txt': src }, '--- a/r.txt\n+++ b/r.txt\n@@ -7,2 +7,2 @@\n X\n-Y\n+Z\n');
  assert.equal([near.r.code, near.file('r.txt')], [0, 'a\nb\nX\nY\nc\nd\ne\nX\nZ\nf\n']);
  const early = await patchCase({ 'r.txt': src }, '--- a/r.txt\n+++ b/r.txt\n@@ -2,2 +2,2 @@\n X\n-Y\n+Z\n');
  assert.equal([early.r.code, early.file('r.txt')], [0, 'a\nb\nX\nZ\nc\nd\ne\nX\nY\nf\n']);
  const even = 'a\nb\nX\nY\nc\nd\nX\nY\ne\n';
  const tie = await patchCase({ 'r.txt': even }, '--- a/r.txt\n+++ b/r.txt\n@@ -5,2 +5,2 @@\n X\n-Y\n+Z\n');
  assert.equal([tie.r.code, tie.file('r.txt')], [1, even]);
  assert.match(tie.r.stderr, /lines 3, 7\) equally near its stated line 5/);
  const bare = await patchCase({ 'r.txt': src }, '--- a/r.txt\n+++ b/r.txt\n@@ @@\n X\n-Y\n+Z\n');
  assert.equal([bare.r.code, bare.file('r.txt')], [1, src]);
});

test('a hunk with less context after than before is anchored at the end of the file', async () => {
  const src = 'a\nx\ny\nz\nw\nx\ny\nz\n';
  // A tool's diff: the block occurs twice, but only the second ends the file, as the missing trailing
  // context says — even though the stated line 2 fits the first exactly (git apply anchors it at the end too).
  const r = await patchCase({ 'e.txt': src }, '--- a/e.txt\n+++ b/e.txt\n@@ -2,3 +2,4 @@\n x\n y\n z\n+end\n');
  assert.equal([r.r.code, r.file('e.txt')], [0, 'a\nx\ny\nz\nw\nx\ny\nz\nend\n']);
  // Bare @@: a model that gives no context after a change says nothing of the end of the file.
  const bareEnd = await patchCase({ 'e.txt': src }, '--- a/e.txt\n+++ b/e.txt\n@@ @@\n x\n y\n z\n+end\n');
  assert.equal([bareEnd.r.code, bareEnd.file('e.txt')], [1, src]);
  // Numbered: one line after, three before is a tool's diff cut by the end of the file.
  const src2 = 'x\ny\nz\nw\nq\nx\ny\nz\nw\n';
  const numbered = await patchCase({ 'e.txt': src2 }, '--- a/e.txt\n+++ b/e.txt\n@@ -2,4 +2,5 @@\n x\n y\n z\n+end\n w\n');
  assert.equal([numbered.r.code, numbered.file('e.txt')], [0, 'x\ny\nz\nw\nq\nx\ny\nz\nend\nw\n']);
  // Bare, with a line after: a model chose that context, it says nothing of the end; both places fit, refused.
  const bare = await patchCase({ 'e.txt': src2 }, '--- a/e.txt\n+++ b/e.txt\n@@ @@\n x\n y\n z\n+end\n w\n');
  assert.equal([bare.r.code, bare.file('e.txt')], [1, src2]);
  assert.match(bare.r.stderr, /matches 2 places/);
});

test('a unified section text rules out places with no such line above; it never picks among places below the same one', async () => {
  // The section line is above both copies: the stated line decides, as git apply ignores the text.
  const src = 'function f() {\n  a();\n  b();\n  c();\n  a();\n  b();\n  c();\n}\n';
  const near = await patchCase(
    { 's.js': src },
    '--- a/s.js\n+++ b/s.js\n@@ -6,3 +6,3 @@ function f() {\n   a();\n-  b();\n+  B();\n   c();\n',
  );
  assert.equal([near.r.code, near.file('s.js')], [0, src.replace(/b\(\);\n {2}c\(\);\n}/, 'B();\n  c();\n}')]);
  // Nearer the stated line is g's copy, but only the copy below the named function is in it.
  const two = 'function g() {\n  a();\n}\nfunction h() {\n  a();\n}\n';
  const named = await patchCase({ 't.js': two }, '--- a/t.js\n+++ b/t.js\n@@ -3,1 +3,1 @@ function h() {\n-  a();\n+  z();\n');
  assert.equal([named.r.code, named.file('t.js')], [0, 'function g() {\n  a();\n}\nfunction h() {\n  z();\n}\n']);
});

test('final newline: patch and edit agree and keep the file without one; an explicit \\ No newline marker is obeyed', async () => {
  const src = 'one\ntwo\nthree';
  const p = await patchCase({ 'n.txt': src }, '--- a/n.txt\n+++ b/n.txt\n@@ -2,2 +2,2 @@\n two\n-three\n+THREE\n');
  const e = await editCase(src, ['--old', 'two\nthree', '--new', 'two\nTHREE']);
  assert.equal([p.r.code, p.file('n.txt'), e.r.code, e.bytes], [0, 'one\ntwo\nTHREE', 0, 'one\ntwo\nTHREE']);
  const fix = await patchCase({ 'n.txt': src }, '--- a/n.txt\n+++ b/n.txt\n@@ -3 +3 @@\n-three\n\\ No newline at end of file\n+three\n');
  assert.equal([fix.r.code, fix.file('n.txt')], [0, 'one\ntwo\nthree\n']);
  const drop = await patchCase({ 'n.txt': 'a\nb\n' }, '--- a/n.txt\n+++ b/n.txt\n@@ -2 +2 @@\n-b\n+b\n\\ No newline at end of file\n');
  assert.equal([drop.r.code, drop.file('n.txt')], [0, 'a\nb']);
});

test('mixed line endings: a changed line keeps its own ending, an added line takes the ending of the line it replaces', async () => {
  const src = 'a\r\nb\nc\r\nd\n';
  const p = await patchCase({ 'm.txt': src }, '--- a/m.txt\n+++ b/m.txt\n@@ -1,4 +1,5 @@\n a\n b\n-c\n+C\n+C2\n d\n');
  const e = await editCase(src, ['--old', 'b\nc', '--new', 'b\nC\nC2']);
  assert.equal([p.r.code, p.file('m.txt'), e.r.code, e.bytes], [0, 'a\r\nb\nC\r\nC2\r\nd\n', 0, 'a\r\nb\nC\r\nC2\r\nd\n']);
});

test('a git diff made at the top applies from a subdirectory, as git apply reads its paths', async () => {
  const dir = repoWith({ 'src/app.ts': 'export const a = 1;\n', 'README.md': 'hi\n' });
  mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
  writeFileSync(join(dir, 'src/app.ts'), 'export const a = 2;\n');
  const diff = git(dir, 'diff');
  git(dir, 'checkout', '--', 'src/app.ts');
  const r = await forge(['patch'], { cwd: join(dir, 'src', 'deep'), input: diff });
  assert.is(r.code, 0, r.stderr);
  assert.is(read(dir, 'src/app.ts'), 'export const a = 2;\n');
  assert.is(git(dir, 'status', '--porcelain'), ' M src/app.ts');
});

test('copied read prefixes and a blank edge line the file lacks: the edit lands as meant', async () => {
  const src = 'alpha\nbeta\ngamma\n';
  const copied = await editCase(src, [
    '--old',
    '2#' +
      (await import('../../lib/files/anchor')).lineHash('beta') +
      ': beta\n3#' +
      (await import('../../lib/files/anchor')).lineHash('gamma') +
      ': gamma',
    '--new',
    'beta\nGAMMA',
  ]);
  assert.equal([copied.r.code, copied.bytes], [0, 'alpha\nbeta\nGAMMA\n']);
  const piped = await editCase(src, ['--old', '1 | alpha\n2 | beta', '--new', '1 | alpha\n2 | BETA']);
  assert.equal([piped.r.code, piped.bytes], [0, 'alpha\nBETA\ngamma\n']);
  const blank = await editCase(src, ['--old', '\nbeta\ngamma\n', '--new', '\nbeta\nGAMMA\n']);
  assert.equal([blank.r.code, blank.bytes], [0, 'alpha\nbeta\nGAMMA\n']);
});

test('out of bounds, cut short or only weakly placed: refused, nothing changes; miscounted and whole: applied', async () => {
  const src = 'a\nb\nc\n';
  // An addition after line 40 of a 3-line file is not an addition at its end.
  const past = await patchCase({ 't.txt': src }, '--- a/t.txt\n+++ b/t.txt\n@@ -40,0 +41,1 @@\n+z\n');
  assert.equal([past.r.code, past.file('t.txt')], [1, src]);
  assert.match(past.r.stderr, /past the end of the file \(3 lines\)/);
  // A reply cut inside its last hunk: both sides fall short of the header's counts.
  const cut = await patchCase({ 't.txt': src }, '--- a/t.txt\n+++ b/t.txt\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n');
  assert.equal([cut.r.code, cut.file('t.txt')], [2, src]);
  assert.match(
    cut.r.stderr,
    /the patch looks cut off: its last hunk \(line 3\) ends on a '\+' line though its header promises 1 more old and 2 more new lines/,
  );
  // Cut among the lines it adds at the end: only the new side falls short.
  const added = await patchCase({ 't.txt': src }, '--- a/t.txt\n+++ b/t.txt\n@@ -2,2 +2,5 @@\n b\n c\n+d\n+e\n');
  assert.equal([added.r.code, added.file('t.txt')], [2, src]);
  assert.match(added.r.stderr, /promises 1 more new line;/);
  // Counts too high on both sides, the hunk ending on context the file has: whole, its counts wrong.
  const miscount = await patchCase({ 'f.txt': 'a\nb\nc\nd\n' }, '--- a/f.txt\n+++ b/f.txt\n@@ -1,4 +1,4 @@\n a\n-b\n+B\n c\n');
  assert.equal([miscount.r.code, miscount.file('f.txt')], [0, 'a\nB\nc\nd\n']);
  // …but blank context lines stripped of their space still make up the counts.
  const blanks = await patchCase({ 't.txt': 'a\nb\n\n' }, '--- a/t.txt\n+++ b/t.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n\n');
  assert.equal([blanks.r.code, blanks.file('t.txt')], [0, 'a\nB\n\n']);
  // …also right before the next hunk's header, as git reads an empty line inside a hunk.
  const ten = 'one\ntwo\n\nthree\nfour\nfive\nsix\nseven\neight\nnine\n';
  const between = await patchCase(
    { 'g.txt': ten },
    '--- a/g.txt\n+++ b/g.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n\n@@ -8,3 +8,3 @@\n seven\n-eight\n+EIGHT\n nine\n',
  );
  assert.equal([between.r.code, between.file('g.txt')], [0, ten.replace('two', 'TWO').replace('eight', 'EIGHT')]);
  // An envelope hunk's uneven context says nothing about the end of the file: two places are two places.
  const twice = 'x\ny\nz\nw\nx\ny\nz\n';
  const env = await patchCase({ 'e.txt': twice }, '*** Begin Patch\n*** Update File: e.txt\n x\n y\n-z\n+Z\n*** End Patch\n');
  assert.equal([env.r.code, env.file('e.txt')], [1, twice]);
});

test.run();
