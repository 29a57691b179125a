// An exact replacement spliced into the file's bytes gives what the whole-file edit gives: bytes, line numbers, strategy and the region's fresh anchors.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { lineHash } from '../../../lib/files/anchor';
import { replaceText } from '../../../lib/files/edit';
import { spliceExact } from '../../../lib/files/splice';
import { splitLines } from '../../../lib/files/text';
import { locateWorkspace } from '../../../lib/files/workspace';
import { tempDir } from '../../helpers/repo';

/** Lines from..to of a file's text with their anchors: the region an edit reports. */
function regionOf(text: string, from: number, to: number) {
  const { lines } = splitLines(text);
  return lines.slice(from - 1, to).map((t, i) => ({ n: from + i, hash: lineHash(t), text: t }));
}

interface Case {
  name: string;
  before: Buffer;
  old: string;
  new: string;
  after: Buffer;
  all?: boolean;
  anchor?: string;
  /** strategy, replacements, startLine, endLine, and the region's first and last line. */
  result: [string, number, number, number, number, number];
}

const u = (s: string) => Buffer.from(s, 'utf8');
const l1 = (s: string) => Buffer.from(s, 'latin1');
const lines10 = Array.from({ length: 10 }, (_, i) => `l${i + 1}`).join('\n') + '\n';
const CASES: Case[] = [
  {
    name: 'at the very start',
    before: u('alpha\nbeta\ngamma\n'),
    old: 'alpha',
    new: 'ALPHA',
    after: u('ALPHA\nbeta\ngamma\n'),
    result: ['exact', 1, 1, 1, 1, 3],
  },
  {
    name: 'lines added in the middle',
    before: u(lines10),
    old: 'l5\nl6',
    new: 'l5\nX\nY\nl6',
    after: u(lines10.replace('l5\nl6', 'l5\nX\nY\nl6')),
    result: ['exact', 1, 5, 8, 2, 11],
  },
  {
    name: 'lines removed',
    before: u(lines10),
    old: 'l4\nl5\nl6\n',
    new: '',
    after: u(lines10.replace('l4\nl5\nl6\n', '')),
    result: ['exact', 1, 4, 4, 1, 7],
  },
  {
    name: 'old text starting at a line break',
    before: u('a\nb\nc\n'),
    old: '\nb',
    new: '\nB',
    after: u('a\nB\nc\n'),
    result: ['exact', 1, 1, 2, 1, 5],
  },
  {
    name: 'old text ending with its line break',
    before: u('a\nb\nc\n'),
    old: 'b\n',
    new: 'B\n',
    after: u('a\nB\nc\n'),
    result: ['exact', 1, 2, 2, 1, 5],
  },
  {
    name: 'CRLF file, old text with LF breaks',
    before: u('a\r\nb\r\nc\r\n'),
    old: 'a\nb',
    new: 'A\nB\nB2',
    after: u('A\r\nB\r\nB2\r\nc\r\n'),
    result: ['line-endings', 1, 1, 3, 1, 4],
  },
  {
    name: 'CRLF file, old text with CRLF breaks',
    before: u('a\r\nb\r\nc\r\n'),
    old: 'a\r\nb',
    new: 'A\r\nB',
    after: u('A\r\nB\r\nc\r\n'),
    result: ['exact', 1, 1, 2, 1, 3],
  },
  {
    name: 'CRLF file, old text starting at a line break',
    before: u('a\r\nb\r\nc\r\n'),
    old: '\nb',
    new: '\nB',
    after: u('a\r\nB\r\nc\r\n'),
    result: ['exact', 1, 1, 2, 1, 3],
  },
  {
    name: 'CRLF file without a final newline gains one',
    before: u('a\r\nb'),
    old: 'b',
    new: 'b\n',
    after: u('a\r\nb\r\n'),
    result: ['exact', 1, 2, 3, 1, 2],
  },
  { name: 'the final newline removed', before: u('a\nb\n'), old: 'b\n', new: 'b', after: u('a\nb'), result: ['exact', 1, 2, 2, 1, 2] },
  {
    name: 'BOM and characters of 2 to 4 bytes before the match',
    before: u('\ufeffé中\r\n😀\r\nx = 1\r\n'),
    old: 'x = 1',
    new: 'x = 2',
    after: u('\ufeffé中\r\n😀\r\nx = 2\r\n'),
    result: ['exact', 1, 3, 3, 1, 3],
  },
  {
    name: 'Latin-1',
    before: l1('caf\xe9\nx = 1\n'),
    old: 'café',
    new: 'cafe',
    after: l1('cafe\nx = 1\n'),
    result: ['exact', 1, 1, 1, 1, 2],
  },
  {
    name: '--all, neighbouring places',
    before: u('x\nx\ny\nx\n'),
    old: 'x',
    new: 'z',
    all: true,
    after: u('z\nz\ny\nz\n'),
    result: ['exact', 3, 1, 1, 1, 4],
  },
  {
    name: '--anchor picks one of two',
    before: u('x = 1\ny\nx = 1\n'),
    old: 'x = 1',
    new: 'x = 9',
    anchor: `3#${lineHash('x = 1')}`,
    after: u('x = 1\ny\nx = 9\n'),
    result: ['exact', 1, 3, 3, 1, 3],
  },
  { name: 'everything removed', before: u('only\n'), old: 'only\n', new: '', after: u(''), result: ['exact', 1, 1, 1, 0, -1] },
  {
    name: 'a multi-line replacement ending the file',
    before: u('a\nb\nc'),
    old: 'c',
    new: 'c\nd\ne',
    after: u('a\nb\nc\nd\ne'),
    result: ['exact', 1, 3, 5, 1, 5],
  },
];

test('each exact replacement is spliced in the bytes and reports what the whole-file edit reports', async () => {
  const dir = tempDir();
  const ws = await locateWorkspace({ cwd: dir });
  for (const c of CASES) {
    writeFileSync(join(dir, 'f.txt'), c.before);
    const oldLf = c.old.replace(/\r\n?/g, '\n');
    assert.ok(
      spliceExact({
        buf: c.before,
        old: c.old,
        oldLf,
        newLf: c.new.replace(/\r\n?/g, '\n'),
        all: !!c.all,
        context: 3,
        ...(c.anchor ? { anchor: { line: Number(c.anchor.split('#')[0]), hash: c.anchor.split('#')[1]! } } : {}),
      }),
      `${c.name}: spliced`,
    );
    const r = await replaceText({
      ws,
      path: 'f.txt',
      old: c.old,
      replacement: c.new,
      all: !!c.all,
      ...(c.anchor ? { anchor: c.anchor } : {}),
    });
    const bytes = readFileSync(join(dir, 'f.txt'));
    assert.ok(bytes.equals(c.after), `${c.name}: ${JSON.stringify(bytes.toString('latin1'))}`);
    const [strategy, replacements, startLine, endLine, regionStart, regionEnd] = c.result;
    const text = c.after.toString(c.name === 'Latin-1' ? 'latin1' : 'utf8').replace(/^\ufeff/, '');
    assert.equal(
      r,
      { path: 'f.txt', strategy, replacements, startLine, endLine, regionStart, region: regionOf(text, regionStart, regionEnd) },
      c.name,
    );
  }
});

test('mixed line endings, a lone CR, UTF-16, no match, several places, a lone surrogate: left to the whole-file edit', () => {
  const none = (buf: Buffer, old: string, all = false) =>
    assert.is(
      spliceExact({ buf, old, oldLf: old.replace(/\r\n?/g, '\n'), newLf: 'X', all, context: 3 }),
      null,
      JSON.stringify(buf.toString('latin1')),
    );
  none(u('a\nb\r\nc\n'), 'b');
  none(u('a\rb\n'), 'b');
  none(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\nb\n', 'utf16le')]), 'b');
  none(u('a\nb\n'), 'c');
  none(u('b\nb\n'), 'b');
  none(l1('caf\xe9\n'), 'café — ok');
  none(u('a\ufffdb\n'), 'a\ud800b');
});

test.run();
