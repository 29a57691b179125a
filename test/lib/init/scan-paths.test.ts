// scanPaths against the obvious per-path computation, on seeded random listings, sorted (git's order) and not, and given where each path ends.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { scanPaths } from '../../../lib/init/conventions';
import { seeded } from '../../helpers/seeded';

const PARTS = [
  'src',
  'test',
  'tests',
  'spec',
  '__tests__',
  'lib',
  '.github',
  'a.test.ts',
  'b_test.go',
  'test_c.py',
  'd.spec.jsx',
  'e.ts',
  'README.md',
  'testing',
  'specs',
  'x',
];

function listing(rand: () => number, n: number): string[] {
  const paths = new Set<string>();
  while (paths.size < n) {
    const depth = 1 + Math.floor(rand() * 4);
    paths.add(Array.from({ length: depth }, () => PARTS[Math.floor(rand() * PARTS.length)]).join('/'));
  }
  return [...paths];
}

function obvious(paths: string[]) {
  const top = new Set(paths.filter((p) => !p.includes('/')));
  const dirs = new Map<string, number>();
  for (const p of paths) if (p.includes('/')) dirs.set(p.slice(0, p.indexOf('/')), (dirs.get(p.slice(0, p.indexOf('/'))) ?? 0) + 1);
  const testLike = paths.filter((p) => p.includes('test') || p.includes('spec'));
  return { top: [...top], dirs: Object.fromEntries([...dirs].sort()), testLike };
}

test('scanPaths finds the top-level files, the files under each directory and every path naming test or spec, in listing order', () => {
  const rand = seeded(17);
  for (let round = 0; round < 200; round++) {
    const paths = listing(rand, 1 + Math.floor(rand() * 40));
    if (round % 2) paths.sort();
    const text = paths.map((p) => `${p}\0`).join('');
    const got = scanPaths(text);
    assert.equal(
      { top: [...got.top], dirs: Object.fromEntries([...got.dirs].sort()), testLike: got.testLike },
      obvious(paths),
      paths.join(' | '),
    );
    if (!(round % 2)) continue;
    // Sorted, as the index is: each directory's run found by binary search over where each path ends.
    const byEnds = scanPaths(text, new Uint32Array([...text.matchAll(/\0/g)].map((m) => m.index)));
    assert.equal([[...byEnds.top], [...byEnds.dirs], byEnds.testLike], [[...got.top], [...got.dirs], got.testLike], 'by ends');
  }
});

test('scanPaths of no paths is empty', () => {
  const got = scanPaths('');
  assert.equal([got.top.size, got.dirs.size, got.testLike.length], [0, 0, 0]);
});

test('a listing cut short (its last path without a NUL) ends at its last whole path, and the scan ends', () => {
  const got = scanPaths('README.md\0src/a.test.ts\0src/test_x.py');
  assert.equal([[...got.top], Object.fromEntries(got.dirs), got.testLike], [['README.md'], { src: 1 }, ['src/a.test.ts']]);
});

test.run();
