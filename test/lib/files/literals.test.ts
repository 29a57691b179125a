// requiredLiterals: every line a pattern matches holds one of its literals — checked on seeded random patterns and lines against V8 itself.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { requiredLiterals } from '../../../lib/files/literals';
import { seeded } from '../../helpers/seeded';

test('the literals of typical patterns', () => {
  const cases: Array<[string, boolean, string[] | null]> = [
    ['console\\.log', false, ['console.log']],
    ['\\bfoo\\b', false, ['foo']],
    ['TODO|FIXME', false, ['TODO', 'FIXME']],
    ['(?<name>abc)def', false, ['abcdef']],
    ['(ab|cd)efg', false, ['efg']],
    ['useState', true, ['tate']], // s ends a literal under -i: ſ folds to it
    ['café', false, ['caf']], // ASCII only: a Latin-1 file holds é as another byte
    ['a.*b', false, null],
    ['foo|', false, null],
    ['\\d+', false, null],
    ['[', false, null], // not a regex at all: no prefilter rather than an error
  ];
  for (const [pattern, ignoreCase, want] of cases) assert.equal(requiredLiterals({ pattern, ignoreCase }), want, pattern);
});

const ATOMS = [
  'abc',
  'cab',
  'aSk',
  'bca',
  'a',
  'b',
  'c',
  'S',
  'k',
  'ſ',
  'K',
  '.',
  '\\.',
  '\\d',
  '\\w',
  '\\s',
  '[ab]',
  '[^a]',
  '(?:ab)',
  '(ab|ca)',
  '(?=a)',
  '(?<=b)',
  '(?!c)',
  '\\b',
  '^',
  '$',
  'é',
  '\\u{1F600}',
  '\\x41',
  '\\t',
  ' ',
];
const QUANTS = ['', '', '', '*', '+', '?', '{2}', '{1,3}'];
const TEXT = ['abc', 'cab', 'ask', 'aſK', 'ASK', 'bca', 'a', 'b', 'c', 's', 'S', 'k', 'K', 'ſ', 'K', '.', '1', ' ', '\t', 'é', 'A', '😀'];

test('every line a random pattern matches holds one of its literals (V8 is the judge)', () => {
  let checked = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const next = seeded(seed);
    const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
    const pattern =
      Array.from({ length: 1 + Math.floor(next() * 6) }, () => pick(ATOMS) + pick(QUANTS)).join('') +
      (next() < 0.2 ? `|${pick(ATOMS)}${pick(ATOMS)}${pick(ATOMS)}` : '');
    const ignoreCase = next() < 0.5;
    let regex: RegExp;
    try {
      regex = new RegExp(pattern, ignoreCase ? 'iu' : 'u');
    } catch {
      continue;
    }
    const literals = requiredLiterals({ pattern, ignoreCase });
    if (!literals) continue;
    // What git grep -F (-i: ASCII case folded) would find in the line's bytes.
    const holds = (line: string) =>
      literals.some((l) =>
        ignoreCase
          ? line
              .replace(/[^\x00-\x7f]/g, '\0')
              .toLowerCase()
              .includes(l.toLowerCase())
          : line.includes(l),
      );
    for (let i = 0; i < 200; i++) {
      const line = Array.from({ length: Math.floor(next() * 12) }, () => pick(TEXT)).join('');
      if (regex.test(line)) {
        checked++;
        assert.ok(
          holds(line),
          `seed ${seed}: /${pattern}/${ignoreCase ? 'i' : ''} matches ${JSON.stringify(line)} without any of ${JSON.stringify(literals)}`,
        );
      }
    }
  }
  assert.ok(checked > 100, `enough matching lines were checked (${checked})`);
});

test.run();
