// The patch parser: every dialect models write read into exact FilePatch lists, and what it must refuse refused by name.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { ForgeError } from '../../../lib/errors';
import { type FilePatch, type Hunk, parsePatch, reversePatch } from '../../../lib/files/patch-parse';
import { git, tempRepo } from '../../helpers/repo';

/** The error parsePatch throws, as code and message (and its Fix). */
function refusal(text: string): { code: string; message: string; fix?: string } {
  try {
    parsePatch(text);
  } catch (e) {
    if (!(e instanceof ForgeError)) throw e;
    return { code: e.code, message: e.message, ...(e.fix ? { fix: e.fix } : {}) };
  }
  throw new Error(`parsed: ${JSON.stringify(text)}`);
}

const lines = (search: string[], replace: string[]): Hunk['lines'] => [
  ...search.map((text) => ({ op: '-' as const, text })),
  ...replace.map((text) => ({ op: '+' as const, text })),
];
const block = (path: string, hunks: Hunk[]): FilePatch => ({
  dialect: 'search-replace',
  kind: 'modify',
  oldPath: path,
  newPath: path,
  hunks,
});
const sr = (search: string, replace: string) => `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;

test("SEARCH/REPLACE: the file name above Aider's fences (```, ````, <source>python … </source>, <code>, <pre>), decorated or in the fence line", () => {
  const cases: Array<[string, string]> = [
    [`src/a.py\n\`\`\`python\n${sr('a', 'b')}\n\`\`\`\n`, 'src/a.py'],
    [`src/a.py\n\`\`\`\`python\n${sr('a', 'b')}\n\`\`\`\`\n`, 'src/a.py'],
    [`src/a.py\n<source>python\n${sr('a', 'b')}\n</source>\n`, 'src/a.py'],
    [`src/a.py\n<code>\n${sr('a', 'b')}\n</code>\n`, 'src/a.py'],
    [`src/a.py\n<pre>\n${sr('a', 'b')}\n</pre>\n`, 'src/a.py'],
    [`src/a.py\n<sourcecode>python\n${sr('a', 'b')}\n</sourcecode>\n`, 'src/a.py'],
    [`\`\`\`python\nsrc/a.py\n${sr('a', 'b')}\n\`\`\`\n`, 'src/a.py'],
    [`\`\`\`python\nsrc/a.py\n\`\`\`\n\`\`\`python\n${sr('a', 'b')}\n\`\`\`\n`, 'src/a.py'],
    [`\`\`\`src/a.py\n${sr('a', 'b')}\n\`\`\`\n`, 'src/a.py'],
    [`### src/a.py\n\n${sr('a', 'b')}\n`, 'src/a.py'],
    [`**src/a.py**\n${sr('a', 'b')}\n`, 'src/a.py'],
    [`\`src/a.py\`:\n${sr('a', 'b')}\n`, 'src/a.py'],
    [`\`docs/my notes.md\`\n${sr('a', 'b')}\n`, 'docs/my notes.md'],
    [`Makefile\n${sr('a', 'b')}\n`, 'Makefile'],
  ];
  for (const [text, path] of cases) assert.equal(parsePatch(text), [block(path, [{ lines: lines(['a'], ['b']) }])], text);
});

test("SEARCH/REPLACE: a '...' line, a closing fence or prose above a block never names a file: the block changes the previous block's file", () => {
  const text = [
    'Here are the changes.',
    '',
    'src/a.py',
    '<source>python',
    sr('one', 'ONE'),
    '</source>',
    '',
    '...',
    '',
    '<source>python',
    sr('two', 'TWO'),
    '</source>',
    'Then the second function:',
    '```python',
    sr('three', 'THREE'),
    '```',
    'Done.',
    sr('four', 'FOUR'),
    '## Changes',
    sr('five', 'FIVE'),
    'src/b.py',
    sr('six', 'SIX'),
  ].join('\n');
  assert.equal(parsePatch(text), [
    block('src/a.py', [
      { lines: lines(['one'], ['ONE']) },
      { lines: lines(['two'], ['TWO']) },
      { lines: lines(['three'], ['THREE']) },
      { lines: lines(['four'], ['FOUR']) },
      { lines: lines(['five'], ['FIVE']) },
    ]),
    block('src/b.py', [{ lines: lines(['six'], ['SIX']) }]),
  ]);
  // An empty SEARCH creates the file; a block under it with no name adds to the same file.
  assert.equal(parsePatch(`new.txt\n\`\`\`\n<<<<<<< SEARCH\n=======\nhello\n>>>>>>> REPLACE\n\`\`\`\n...\n${sr('hello', 'hi')}`), [
    {
      dialect: 'search-replace',
      kind: 'create',
      oldPath: null,
      newPath: 'new.txt',
      hunks: [{ lines: lines([], ['hello']) }, { lines: lines(['hello'], ['hi']) }],
    },
  ]);
});

test('SEARCH/REPLACE: a first block with no file name above it is INVALID_PATCH with a Fix', () => {
  for (const text of [
    sr('a', 'b'),
    `Here is the change:\n${sr('a', 'b')}`,
    `...\n<source>python\n${sr('a', 'b')}\n</source>`,
    `Changes:\n\n\`\`\`python\n${sr('a', 'b')}\n\`\`\``,
  ]) {
    assert.equal(
      refusal(text),
      {
        code: 'INVALID_PATCH',
        message: `a SEARCH block without a file name (line ${text.split('\n').findIndex((l) => l.endsWith('SEARCH')) + 1}): put the file's path alone on the line above it, or above its opening fence`,
        fix: 'forge patch --help',
      },
      text,
    );
  }
});

test("Cline's ------- SEARCH / ======= / +++++++ REPLACE markers, the legacy <<<<<<< / >>>>>>> ones, mixed, with a trailing '>' or indented", () => {
  const text =
    'src/a.ts\n------- SEARCH\nold\n=======\nnew\n+++++++ REPLACE\n\n<<<<<<< SEARCH>\nx\n=======\ny\n+++++++ REPLACE\n  ------- SEARCH\nz\n  =======\nw\n  >>>>>>> REPLACE>\n';
  assert.equal(parsePatch(text), [
    block('src/a.ts', [{ lines: lines(['old'], ['new']) }, { lines: lines(['x'], ['y']) }, { lines: lines(['z'], ['w']) }]),
  ]);
});

test("Roo's :start_line:N, :end_line:N and ------- at the top of the SEARCH part are hints, not content; its escaped markers are content", () => {
  const text =
    'src/a.ts\n<<<<<<< SEARCH\n:start_line:12\n:end_line:14\n-------\na\n\\=======\n\\-------\n=======\nb\n\\>>>>>>> REPLACE\n>>>>>>> REPLACE\n';
  assert.equal(parsePatch(text), [
    block('src/a.ts', [{ oldStart: 12, lines: lines(['a', '=======', '-------'], ['b', '>>>>>>> REPLACE']) }]),
  ]);
  // Without its hints, ------- is Roo's separator only when the new text does not start with it too.
  assert.equal(parsePatch('a.md\n<<<<<<< SEARCH\n-------\nx\n=======\ny\n>>>>>>> REPLACE\n'), [
    block('a.md', [{ lines: lines(['x'], ['y']) }]),
  ]);
  assert.equal(parsePatch('a.md\n<<<<<<< SEARCH\n-------\nx\n=======\n-------\ny\n>>>>>>> REPLACE\n'), [
    block('a.md', [{ lines: lines(['-------', 'x'], ['-------', 'y']) }]),
  ]);
  assert.equal(
    refusal('a.ts\n<<<<<<< SEARCH\nx\n=======\n:start_line:3\ny\n>>>>>>> REPLACE\n').message,
    "':start_line:3' (line 5) in the REPLACE part of the block at line 2: it belongs right under '<<<<<<< SEARCH'",
  );
});

test('a doubled ======= divider, a marker out of place and a stray REPLACE are refused, never written as content', () => {
  assert.equal(refusal(`a.py\n${sr('a', 'b\n=======\nc')}\n`), {
    code: 'INVALID_PATCH',
    message:
      "a second '=======' (line 6) in the SEARCH block at line 2: a block has one, between the old and the new lines; escape a '=======' line of the file as '\\======='",
    fix: 'forge patch --help',
  });
  assert.is(
    refusal('a.py\n<<<<<<< SEARCH\na\n>>>>>>> REPLACE\n').message,
    "'>>>>>>> REPLACE' (line 4) before the '=======' of the SEARCH block at line 2: each block is '<<<<<<< SEARCH', the old lines, '=======', the new lines, '>>>>>>> REPLACE'",
  );
  assert.is(
    refusal('a.py\n<<<<<<< SEARCH\na\n=======\nb\n<<<<<<< SEARCH\n').message,
    "'<<<<<<< SEARCH' (line 6) inside the SEARCH block at line 2: close each block with '>>>>>>> REPLACE'",
  );
  assert.is(
    refusal(`a.py\n${sr('a', 'b')}\nc\n>>>>>>> REPLACE\n`).message,
    "'>>>>>>> REPLACE' without a SEARCH block above it (line 8): each block is '<<<<<<< SEARCH', the old lines, '=======', the new lines, '>>>>>>> REPLACE'",
  );
});

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
