// The `*** Begin Patch` envelope dialect read into exact FilePatch lists: @@ <line> headers, *** End of File, bare sections, and what it refuses by name.
import { test } from '../../../helpers/harness';
import * as assert from 'uvu/assert';
import { type FilePatch, parsePatch } from '../../../../lib/files/patch-parse';
import { refusal } from '../../../helpers/patch-parse';

test('envelope: @@ <line> headers are the lines to seek first, nested in order; a bare @@ has none; a numbered header gives oldStart and its section', () => {
  const text = [
    '*** Begin Patch',
    '*** Update File: src/shapes.py',
    '@@ class Square:',
    '@@     def area(self):',
    '-        return 0',
    '+        return self.side ** 2',
    '@@',
    ' x = 1',
    '-y = 2',
    '+y = 3',
    '@@ def main(): @@',
    '-    pass',
    '+    run()',
    '@@ -40,2 +40,2 @@ class Circle:  ',
    ' a',
    '-b',
    '+c',
    '*** End Patch',
  ].join('\n');
  assert.equal(parsePatch(text), [
    {
      dialect: 'envelope',
      kind: 'modify',
      oldPath: 'src/shapes.py',
      newPath: 'src/shapes.py',
      hunks: [
        {
          seek: ['class Square:', '    def area(self):'],
          lines: [
            { op: '-', text: '        return 0' },
            { op: '+', text: '        return self.side ** 2' },
          ],
        },
        {
          lines: [
            { op: ' ', text: 'x = 1' },
            { op: '-', text: 'y = 2' },
            { op: '+', text: 'y = 3' },
          ],
        },
        {
          seek: ['def main():'],
          lines: [
            { op: '-', text: '    pass' },
            { op: '+', text: '    run()' },
          ],
        },
        {
          oldStart: 40,
          section: 'class Circle:',
          lines: [
            { op: ' ', text: 'a' },
            { op: '-', text: 'b' },
            { op: '+', text: 'c' },
          ],
        },
      ],
    },
  ]);
});

test('envelope: *** End of File marks that hunk atEnd and is not content; hunk lines after it need their own @@', () => {
  const text = '*** Begin Patch\n*** Update File: a.txt\n@@\n last\n+added\n*** End of File\n@@ top\n-x\n+y\n*** End Patch\n';
  assert.equal(parsePatch(text), [
    {
      dialect: 'envelope',
      kind: 'modify',
      oldPath: 'a.txt',
      newPath: 'a.txt',
      hunks: [
        {
          atEnd: true,
          lines: [
            { op: ' ', text: 'last' },
            { op: '+', text: 'added' },
          ],
        },
        {
          seek: ['top'],
          lines: [
            { op: '-', text: 'x' },
            { op: '+', text: 'y' },
          ],
        },
      ],
    },
  ]);
  assert.is(
    refusal('*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n*** End of File\n+y\n*** End Patch\n').message,
    "a hunk line after '*** End of File' (line 6): '+y'; start the next hunk with an '@@' line",
  );
  assert.is(
    refusal('*** Begin Patch\n*** Update File: a.txt\n@@\n*** End of File\n*** End Patch\n').message,
    "'*** End of File' with no hunk lines above it (line 4)",
  );
});

test('envelope: an Update File with no hunk, a hunk line without its prefix, a header with no lines, a line outside any section are refused, naming the line', () => {
  const refused = {
    '*** Begin Patch\n*** Update File: a.py\n*** End Patch\n':
      "'*** Update File: a.py' (line 2) has no hunk: put the lines to change under it, each starting with ' ', '-' or '+', after an '@@' line",
    '*** Begin Patch\n*** Update File: a.py\n\n*** Delete File: b.py\n*** End Patch\n':
      "'*** Update File: a.py' (line 2) has no hunk: put the lines to change under it, each starting with ' ', '-' or '+', after an '@@' line",
    '*** Begin Patch\n*** Update File: a.py\n@@\n-old\nnew\n*** End Patch\n':
      "line 5 of the patch, 'new', is not a hunk line: in a *** Begin Patch hunk every line starts with ' ' (context), '-' (removed) or '+' (added)",
    '*** Begin Patch\n*** Update File: a.py\n@@ def f():\n*** End Patch\n': 'a hunk header with no lines under it (line 3)',
    '*** Begin Patch\n*** Add File: a.py\n+x\ny\n*** End Patch\n':
      "line 4 of the patch, 'y', is not an added line: under '*** Add File:' every line starts with '+'",
    '*** Begin Patch\nHere is the patch:\n*** Add File: a.py\n+x\n*** End Patch\n':
      "line 2 of the patch, 'Here is the patch:', is not in a file section: inside '*** Begin Patch' each change starts with '*** Update File: <path>', '*** Add File: <path>' or '*** Delete File: <path>'",
    '*** Begin Patch\n*** Delete File: a.py\n-x\n*** End Patch\n':
      "line 3 of the patch, '-x', is not in a file section: inside '*** Begin Patch' each change starts with '*** Update File: <path>', '*** Add File: <path>' or '*** Delete File: <path>'",
    '*** Begin Patch\n*** Add File: a.py\n+x\n*** End Patch\n*** Delete File: b.py\n':
      "a file section outside '*** Begin Patch' … '*** End Patch' (line 5): '*** Delete File: b.py'; put every section inside the envelope",
  };
  for (const [text, message] of Object.entries(refused))
    assert.equal(refusal(text), { code: 'INVALID_PATCH', message, fix: 'forge patch --help' }, text);
});

test('envelope: indented markers are markers; sections without *** Begin Patch are read, prose around them skipped; blank lines inside hunks are context', () => {
  const indented =
    '  *** Begin Patch\n  *** Update File: a.py\n@@\n-a\n+b\n\n  *** Add File: n.txt\n+one\n\n+three\n  *** Delete File: old.txt\n  *** End Patch\n';
  const want: FilePatch[] = [
    {
      dialect: 'envelope',
      kind: 'modify',
      oldPath: 'a.py',
      newPath: 'a.py',
      hunks: [
        {
          lines: [
            { op: '-', text: 'a' },
            { op: '+', text: 'b' },
          ],
        },
      ],
    },
    {
      dialect: 'envelope',
      kind: 'create',
      oldPath: null,
      newPath: 'n.txt',
      hunks: [
        {
          lines: [
            { op: '+', text: 'one' },
            { op: '+', text: '' },
            { op: '+', text: 'three' },
          ],
        },
      ],
    },
    { dialect: 'envelope', kind: 'delete', oldPath: 'old.txt', newPath: null, hunks: [] },
  ];
  assert.equal(parsePatch(indented), want);
  const bare =
    'I will change a.py:\n\n*** Update File: a.py\n@@\n-a\n+b\n\nand add a file:\n\n*** Add File: n.txt\n+one\n\n+three\n*** Delete File: old.txt\n';
  assert.equal(parsePatch(bare), want);
  assert.equal(parsePatch('*** Update File: a.py\n*** Move to: b.py\n@@ f\n x\n\n y\n-z\n*** End Patch\n'), [
    {
      dialect: 'envelope',
      kind: 'rename',
      oldPath: 'a.py',
      newPath: 'b.py',
      hunks: [
        {
          seek: ['f'],
          lines: [
            { op: ' ', text: 'x' },
            { op: ' ', text: '' },
            { op: ' ', text: 'y' },
            { op: '-', text: 'z' },
          ],
        },
      ],
    },
  ]);
  // Without the envelope, a line that is not a hunk line with hunk lines right under it is inside a hunk.
  assert.is(
    refusal('*** Update File: a.py\n@@\n-a\nb\n+c\n').message,
    "corrupt patch at line 4: 'b' is inside a hunk, where every line starts with ' ' (context), '-' (removed) or '+' (added)",
  );
  assert.is(
    refusal('*** Update File: a.py\n@@\n-a\n+b\n\nprose\n@@\n-c\n+d\n').message,
    "line 7 of the patch, '@@', is outside any file section: put it under its '*** Update File: <path>' line",
  );
});

test.run();
