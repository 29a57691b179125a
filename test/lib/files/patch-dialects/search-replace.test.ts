// The SEARCH/REPLACE dialect read into exact FilePatch lists: Aider's file names and fences, Cline's and Roo's markers, and the blocks it refuses by name.
import { test } from '../../../helpers/harness';
import * as assert from 'uvu/assert';
import { parsePatch } from '../../../../lib/files/patch-parse';
import { block, lines, refusal, sr } from '../../../helpers/patch-parse';

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

test.run();
