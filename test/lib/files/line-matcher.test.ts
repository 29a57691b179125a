// lineMatcher: the lines a whole-text run finds are exactly those a line-by-line match finds — checked on seeded random texts and patterns against splitLines and V8.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { lineMatcher } from '../../../lib/files/search';
import { splitLines } from '../../../lib/files/text';
import { seeded } from '../../helpers/seeded';

/** What search did before: split into lines, then each line on its own. */
function reference(regex: RegExp, text: string): Array<[number, string, number]> {
  const out: Array<[number, string, number]> = [];
  splitLines(text).lines.forEach((line, i) => {
    const m = regex.exec(line);
    if (m) out.push([i + 1, line, m.index]);
  });
  return out;
}

function found(regex: RegExp, text: string): Array<[number, string, number]> {
  const out: Array<[number, string, number]> = [];
  lineMatcher(regex)(text, (line, n, at) => out.push([n, line, at]));
  return out;
}

// Patterns that can match across a line break (\s, [^a], \W), match nothing (x*, $, ^), anchor, or look around.
const PATTERNS = [
  'a',
  'ab',
  'a\\s*b',
  '\\s',
  '[^a]b',
  '\\W+',
  'b$',
  '^a',
  '^',
  '$',
  'x*',
  '(?:)',
  '.',
  'a.b',
  '\\bab\\b',
  '(a)\\1',
  'é|😀',
  '\\u2028',
  '(?<=a)b',
  'a(?!b)',
  '^$',
  'b\\s+$',
];
const PIECES = ['a', 'b', 'ab', ' ', '\n', '\r', '\r\n', '\n\n', 'é', '😀', '\u2028', '\t', 'x'];

test('whole-text runs find the lines a line-by-line match finds, at the same places', () => {
  const random = seeded(17);
  let texts = 0;
  for (const source of PATTERNS)
    for (const flags of ['u', 'iu']) {
      const regex = new RegExp(source, flags);
      for (let i = 0; i < 300; i++) {
        const length = Math.floor(random() * 24);
        const text = Array.from({ length }, () => PIECES[Math.floor(random() * PIECES.length)]).join('');
        assert.equal(found(regex, text), reference(regex, text), `/${source}/${flags} on ${JSON.stringify(text)}`);
        texts++;
      }
    }
  assert.is(texts, PATTERNS.length * 2 * 300);
});

test('the edges: empty text, a text of line breaks, no final newline, a long file with one late hit', () => {
  for (const text of ['', '\n', '\r\n', '\r', 'a', 'a\n', 'a\r', '\n\na', 'b\r\n\r\na\r\n'])
    for (const source of ['^', '$', 'a', '^$', '\\s'])
      assert.equal(
        found(new RegExp(source, 'u'), text),
        reference(new RegExp(source, 'u'), text),
        `/${source}/ on ${JSON.stringify(text)}`,
      );
  const long = `${'nothing here\n'.repeat(50_000)}the needle\r\nafter\n`;
  assert.equal(found(/needle/u, long), [[50_001, 'the needle', 4]]);
});

test.run();
