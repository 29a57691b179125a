// The patch parser across dialects: the format told by its first marker, mixed formats and cut-short replies refused, rooted paths, reversePatch.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { parsePatch, reversePatch } from '../../../lib/files/patch-parse';
import { refusal, sr } from '../../helpers/patch-parse';

test('a reply cut short — an envelope without *** End Patch, a block without its closing marker — is refused as truncated', () => {
  const truncated = {
    '*** Begin Patch\n*** Update File: a.py\n@@\n-a\n+half a li':
      "the patch is truncated: the '*** Begin Patch' at line 1 has no '*** End Patch' after it; send the whole patch again",
    '*** Begin Patch\n*** Add File: a.py\n+x\n*** Begin Patch\n*** Delete File: b.py\n*** End Patch\n':
      "the patch is truncated: the '*** Begin Patch' at line 1 has no '*** End Patch' after it; send the whole patch again",
    'a.py\n<<<<<<< SEARCH\na\n=======\nhalf a li':
      "the patch is truncated: the SEARCH block at line 2 has no '>>>>>>> REPLACE' after it; send the whole block again",
    'a.py\n<<<<<<< SEARCH\na\nb':
      "the patch is truncated: the SEARCH block at line 2 has no '=======' and '>>>>>>> REPLACE' after it; send the whole block again",
  };
  for (const [text, message] of Object.entries(truncated))
    assert.equal(refusal(text), { code: 'INVALID_PATCH', message, fix: 'forge patch --help' }, text);
});

test('rooted: a diff --git header, or both --- and +++ with a/ b/ prefixes (or /dev/null); never a plain unified diff, an envelope or blocks', () => {
  const rooted = (text: string) => parsePatch(text).map((p) => p.rooted ?? false);
  assert.equal(rooted('--- a/x\n+++ b/x\n@@ @@\n-a\n'), [true]);
  assert.equal(rooted('--- /dev/null\n+++ b/x\n@@ @@\n+a\n'), [true]);
  assert.equal(rooted('--- x\n+++ x\n@@ @@\n-a\n'), [false]);
  assert.equal(rooted('--- a/x\n+++ x\n@@ @@\n-a\n'), [false]);
  assert.equal(rooted('diff --git x x\n--- x\n+++ x\n@@ @@\n-a\n'), [true]);
  assert.equal(rooted('*** Begin Patch\n*** Delete File: a/x\n*** End Patch\n'), [false]);
  assert.equal(rooted(`a/x\n${sr('a', 'b')}\n`), [false]);
});

test('the format is told by its first marker line; a patch that mixes formats is refused, not half applied', () => {
  assert.is(
    refusal(`--- a/x\n+++ b/x\n@@ @@\n-a\n+b\n\nx.py\n${sr('a', 'b')}\n`).message,
    "the patch mixes formats: line 8, '<<<<<<< SEARCH', starts a SEARCH/REPLACE block after a unified diff; send one format per patch",
  );
  assert.is(
    refusal(`x.py\n${sr('a', 'b')}\n\n*** Begin Patch\n*** Delete File: y\n*** End Patch\n`).message,
    "the patch mixes formats: line 8, '*** Begin Patch', starts a *** Begin Patch envelope after a SEARCH/REPLACE block; send one format per patch",
  );
  assert.is(
    refusal('*** Begin Patch\n*** Delete File: y\n*** End Patch\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ @@\n-a\n').message,
    "the patch mixes formats: line 4, 'diff --git a/x b/x', starts a unified diff after a *** Begin Patch envelope; send one format per patch",
  );
  // A unified diff that changes a file holding another format's markers is a unified diff.
  assert.equal(
    parsePatch('--- a/t.md\n+++ b/t.md\n@@ @@\n <<<<<<< SEARCH\n-*** Begin Patch\n+*** End Patch\n').map((p) => p.hunks[0]!.lines.length),
    [3],
  );
  assert.is(
    refusal('just some text\n').message,
    'not a patch: expected a unified or git diff, a *** Begin Patch envelope, or <<<<<<< SEARCH blocks',
  );
});

test('reversePatch swaps the sides and carries seek, section, atEnd and rooted; line hints move to the new side as git numbers it', () => {
  const patch = parsePatch(
    '--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@ top\n a\n+n\n b\n@@ -10,0 +12,2 @@\n+p\n+q\n@@ -20,2 +22,0 @@\n-r\n-s\n\\ No newline at end of file\n',
  );
  assert.equal(reversePatch(patch), [
    {
      dialect: 'unified',
      kind: 'modify',
      oldPath: 'x',
      newPath: 'x',
      rooted: true,
      hunks: [
        {
          oldStart: 1,
          section: 'top',
          lines: [
            { op: ' ', text: 'a' },
            { op: '-', text: 'n' },
            { op: ' ', text: 'b' },
          ],
        },
        {
          oldStart: 12,
          lines: [
            { op: '-', text: 'p' },
            { op: '-', text: 'q' },
          ],
        },
        {
          oldStart: 22,
          newNoEol: true,
          lines: [
            { op: '+', text: 'r' },
            { op: '+', text: 's' },
          ],
        },
      ],
    },
  ]);
  const envelope = parsePatch('*** Begin Patch\n*** Update File: a\n@@ f\n x\n+y\n*** End of File\n*** End Patch\n');
  assert.equal(reversePatch(envelope), [
    {
      dialect: 'envelope',
      kind: 'modify',
      oldPath: 'a',
      newPath: 'a',
      hunks: [
        {
          seek: ['f'],
          atEnd: true,
          lines: [
            { op: ' ', text: 'x' },
            { op: '-', text: 'y' },
          ],
        },
      ],
    },
  ]);
  assert.equal(reversePatch(reversePatch(patch)), patch);
});

test.run();
