// The unified diff dialect read into exact FilePatch lists: hunk headers, corrupt hunks, git's extended headers and C-quoted paths, and what it refuses by name.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../../helpers/harness';
import * as assert from 'uvu/assert';
import { type FilePatch, type Hunk, parsePatch } from '../../../../lib/files/patch-parse';
import { refusal } from '../../../helpers/patch-parse';
import { git, tempRepo } from '../../../helpers/repo';

test('unified: the section after the numbers is kept trimmed, only when there is one; a missing count is 1', () => {
  const text = '--- a/x.py\n+++ b/x.py\n@@ -3,2 +3,2 @@   class B:  \n a\n-b\n+c\n@@ -9 +9 @@\n-d\n+e\n@@ -20,1 +20,1 @@ \n-f\n+g\n';
  assert.equal(parsePatch(text), [
    {
      dialect: 'unified',
      kind: 'modify',
      oldPath: 'x.py',
      newPath: 'x.py',
      rooted: true,
      hunks: [
        {
          oldStart: 3,
          section: 'class B:',
          lines: [
            { op: ' ', text: 'a' },
            { op: '-', text: 'b' },
            { op: '+', text: 'c' },
          ],
        },
        {
          oldStart: 9,
          lines: [
            { op: '-', text: 'd' },
            { op: '+', text: 'e' },
          ],
        },
        {
          oldStart: 20,
          lines: [
            { op: '-', text: 'f' },
            { op: '+', text: 'g' },
          ],
        },
      ],
    },
  ]);
  assert.is(
    refusal('--- a/x\n+++ b/x\n@@ -3,2 +3 2 @@\n-a\n').message,
    "a malformed hunk header (line 3): '@@ -3,2 +3 2 @@'; write '@@ -<line>,<count> +<line>,<count> @@', or a bare '@@'",
  );
});

test("unified: a line inside a hunk that is not a hunk line is a corrupt patch, as git says; prose around a diff, blank context lines and format-patch's signature are not", () => {
  assert.equal(refusal('--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\nwhat the model said\n+c\n d\n'), {
    code: 'INVALID_PATCH',
    message:
      "corrupt patch at line 6: 'what the model said' is inside a hunk, where every line starts with ' ' (context), '-' (removed) or '+' (added)",
    fix: 'forge patch --help',
  });
  assert.is(
    refusal('--- a/x\n+++ b/x\n@@ @@\n-b\n```\n+c\n').message,
    "corrupt patch at line 5: '```' is inside a hunk, where every line starts with ' ' (context), '-' (removed) or '+' (added)",
  );
  const x = (hunks: Hunk[]): FilePatch[] => [{ dialect: 'unified', kind: 'modify', oldPath: 'x', newPath: 'x', rooted: true, hunks }];
  const body = [
    { op: ' ', text: 'a' },
    { op: ' ', text: '' },
    { op: '-', text: 'b' },
    { op: '+', text: 'c' },
  ] as Hunk['lines'];
  // Prose around the diff, a blank context line whose space was dropped.
  assert.equal(
    parsePatch('Here is the fix:\n\n```diff\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n```\n\nThis changes:\n- b to c\n'),
    x([{ oldStart: 1, lines: body }]),
  );
  // git format-patch's signature under a hunk whose counts are all read is not a removed line.
  assert.equal(parsePatch('--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n-- \n2.43.0\n\n'), x([{ oldStart: 1, lines: body }]));
  // Counts too small: hunk lines under the counted ones still belong to the hunk, past a blank line too;
  // and a line that is not a hunk line among them is corrupt whatever the counts say.
  assert.equal(parsePatch('--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n a\n\n-b\n+c\n'), x([{ oldStart: 1, lines: body }]));
  assert.is(
    refusal('--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n a\nNotes:\n-b\n+c\n').message,
    "corrupt patch at line 5: 'Notes:' is inside a hunk, where every line starts with ' ' (context), '-' (removed) or '+' (added)",
  );
});

test('unified: a file header with no hunk is refused; a git rename, new empty file or mode change needs none', () => {
  assert.equal(refusal('--- a/x\n+++ b/x\n'), {
    code: 'INVALID_PATCH',
    message: "the change to 'x' (line 1) has no hunk: put its '@@' hunks, lines starting with ' ', '-' or '+', under its header",
    fix: 'forge patch --help',
  });
  assert.is(
    refusal('diff --git a/x b/x\nindex 1111111..2222222 100644\n').message,
    "the change to 'x' (line 1) has no hunk: put its '@@' hunks, lines starting with ' ', '-' or '+', under its header",
  );
  assert.equal(
    parsePatch(
      'diff --git a/x b/y\nsimilarity index 100%\nrename from x\nrename to y\ndiff --git a/e b/e\nnew file mode 100644\nindex 0000000..e69de29\ndiff --git a/m b/m\nold mode 100644\nnew mode 100755\n',
    ),
    [
      { dialect: 'unified', kind: 'rename', oldPath: 'x', newPath: 'y', hunks: [], rooted: true },
      { dialect: 'unified', kind: 'create', oldPath: null, newPath: 'e', hunks: [], rooted: true },
      { dialect: 'unified', kind: 'modify', oldPath: 'm', newPath: 'm', hunks: [], rooted: true },
    ],
  );
});

test("git's C-quoted paths, as real git writes them — non-ASCII, quotes, tabs, backslashes, spaces — name the real files in every header; a git diff is rooted", () => {
  const names = ['café.txt', 'say "hi".txt', 'tab\there.txt', 'back\\slash.txt', 'sp ace.txt', 'dir b/x b.txt'];
  const dir = tempRepo();
  mkdirSync(join(dir, 'dir b'));
  for (const n of names) writeFileSync(join(dir, n), `one of ${n}\n`);
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'files');
  for (const n of names) writeFileSync(join(dir, n), `two of ${n}\n`);
  const modified = `${git(dir, '-c', 'core.quotePath=true', 'diff')}\n`;
  assert.match(modified, /^--- "a\/caf\\303\\251\.txt"$/m, 'git quotes the name');
  assert.equal(
    parsePatch(modified).map((p) => [p.kind, p.oldPath, p.newPath, p.rooted]),
    [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))).map((n) => ['modify', n, n, true]),
  );
  git(dir, 'checkout', '--', '.');
  git(dir, 'mv', 'café.txt', 'dir b/né "w".txt');
  git(dir, 'mv', 'sp ace.txt', 'tab\tnew.txt');
  git(dir, 'rm', '-q', 'back\\slash.txt');
  writeFileSync(join(dir, 'émpty.txt'), '');
  writeFileSync(join(dir, 'dir b/new b.txt'), '');
  git(dir, 'add', '.');
  const moved = `${git(dir, '-c', 'core.quotePath=true', 'diff', '--cached', '-M')}\n`;
  const summary = parsePatch(moved).map((p) => [p.kind, p.oldPath, p.newPath, p.rooted]);
  assert.equal(
    summary.sort(),
    [
      ['create', null, 'dir b/new b.txt', true],
      ['create', null, 'émpty.txt', true],
      ['delete', 'back\\slash.txt', null, true],
      ['rename', 'café.txt', 'dir b/né "w".txt', true],
      ['rename', 'sp ace.txt', 'tab\tnew.txt', true],
    ].sort(),
  );
});

test("diff --git names: unquoted names with spaces split at the line's middle, as git does; a split nothing confirms is refused", () => {
  assert.equal(parsePatch('diff --git a/x b/e.txt b/x b/e.txt\nnew file mode 100644\n'), [
    { dialect: 'unified', kind: 'create', oldPath: null, newPath: 'x b/e.txt', hunks: [], rooted: true },
  ]);
  assert.equal(
    refusal('diff --git a/x b/old a/x b/new\nold mode 100644\nnew mode 100755\n').message,
    "the 'diff --git' line at line 1 does not say where its first path ends: 'diff --git a/x b/old a/x b/new'; put '--- a/<path>' and '+++ b/<path>' lines under it",
  );
  assert.is(refusal('diff --git nothing\n').message, "a 'diff --git' line without two paths (line 1): 'diff --git nothing'");
  assert.is(refusal('--- "a/\\q"\n+++ b/x\n@@ @@\n-one\n').message, `a quoted path with a bad escape (line 1): '"a/\\q"'`);
});

test.run();
