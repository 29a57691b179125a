// The gate's matcher without picomatch: on the globs and paths it takes, the answer picomatch(globs, { dot: true }) gives; everything else is left to picomatch.
import picomatch from 'picomatch';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { plainMatcher } from '../../../lib/plans/gate';
import { seeded } from '../../helpers/seeded';

const SEGMENTS = [
  'src',
  'a',
  'b',
  'A',
  'docs',
  'plans',
  '.github',
  '.x',
  'x.ts',
  'a.b.c',
  '-',
  '_',
  'x-y',
  'x_y',
  '9',
  'src2',
  'sr',
  '..a',
  'a..',
];

test('plain globs (segments, dir/**, **) on plain paths: what picomatch answers, 20,000 seeded cases', () => {
  const random = seeded(41);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
  const path = () => Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(SEGMENTS)).join('/');
  let compared = 0;
  for (let t = 0; t < 2000; t++) {
    const globs = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
      const r = random();
      return r < 0.05 ? '**' : r < 0.6 ? `${path()}/**` : path();
    });
    const isMatch = picomatch(globs, { dot: true });
    for (let k = 0; k < 10; k++) {
      // Paths near the globs: a glob's own directory, below it, beside it.
      const base = pick(globs).replace(/\/?\*\*$/, '');
      const p = [path(), base || path(), `${base || 'a'}/${path()}`, `${base || 'a'}x`, `${base || 'a'}.ts`][k % 5]!;
      const plain = plainMatcher(globs, [p]);
      assert.ok(plain, `plain: ${JSON.stringify(globs)} on ${p}`);
      assert.is(plain!(p), isMatch(p), `${JSON.stringify(globs)} on ${p}`);
      compared++;
    }
  }
  assert.is(compared, 20_000);
});

test('anything else goes to picomatch: a wildcard, a brace, a class, ./ or .. or an empty segment, in a glob or a path', () => {
  for (const glob of [
    'src/*.ts',
    'src/*',
    '*.md',
    'src/{a,b}/**',
    'src/[ab]',
    'src/?',
    './src/**',
    'src/../x/**',
    'src//a',
    '/src/**',
    'src/**/x',
    '!src/**',
    'a b/**',
    '',
    '**/x',
  ]) {
    assert.is(plainMatcher([glob], ['src/a.ts']), null, glob);
  }
  for (const path of ['./src/a.ts', 'src/../a', 'src//a', '/src/a', 'src/a b', 'src/a*', 'src/', '', 'é/a']) {
    assert.is(plainMatcher(['src/**'], [path]), null, path);
  }
});

test.run();
