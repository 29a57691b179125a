// Memory entries: size limit, ids, keyword ranking.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import type { ForgeError } from '../../../lib/errors';
import { buildEntry, keywords, MAX_ENTRY_BYTES, rankEntries, type MemoryEntry } from '../../../lib/memory/memory';
import { seeded } from '../../helpers/seeded';

const now = new Date('2026-01-01T00:00:00Z');

test('the id depends on category and case-folded pattern only', async () => {
  const a = await buildEntry({ pattern: 'Use PNPM ', category: 'convention', confidence: 0.5, tags: [], now });
  const b = await buildEntry({ pattern: 'use pnpm', category: 'convention', confidence: 0.9, tags: ['x'], now });
  assert.is(a.id, b.id);
  assert.is(a.pattern, 'Use PNPM');
  assert.is.not(a.id, (await buildEntry({ pattern: 'use pnpm', category: 'test_command', confidence: 0.5, tags: [], now })).id);
});

test('refuses entries over 1 KB and blank patterns', async () => {
  try {
    await buildEntry({ pattern: 'x'.repeat(MAX_ENTRY_BYTES), category: 'convention', confidence: 0.5, tags: [], now });
    assert.unreachable();
  } catch (err) {
    assert.is((err as ForgeError).code, 'ENTRY_TOO_LARGE');
  }
  try {
    await buildEntry({ pattern: '   ', category: 'convention', confidence: 0.5, tags: [], now });
    assert.unreachable();
  } catch (err) {
    assert.is((err as ForgeError).code, 'EMPTY_PATTERN');
  }
});

test('ranks matches by confidence, then keyword hits; matches category words and tags', () => {
  const e = (pattern: string, category: MemoryEntry['category'], confidence: number, tags: string[] = []): MemoryEntry => ({
    id: pattern,
    pattern,
    category,
    confidence,
    tags,
    timestamp: '2026',
  });
  const entries = [
    e('run vitest', 'test_command', 0.8),
    e('avoid npm test', 'test_command', 0.9),
    e('tabs not spaces', 'convention', 0.99),
    e('db is postgres', 'architecture', 0.5, ['database']),
  ];
  assert.equal(
    rankEntries({ entries, words: keywords('test command') }).map((x) => x.id),
    ['avoid npm test', 'run vitest'],
  );
  assert.equal(
    rankEntries({ entries, words: keywords('database') }).map((x) => x.id),
    ['db is postgres'],
  );
  assert.equal(rankEntries({ entries, words: [] }).length, 4);
  assert.equal(
    rankEntries({ entries, words: [], category: 'convention' }).map((x) => x.id),
    ['tabs not spaces'],
  );
  assert.equal(rankEntries({ entries, words: keywords('kubernetes') }), []);
});

test('keywords: the words a Unicode-aware split finds, ASCII or not (Kelvin sign, accents, digits, underscores)', () => {
  const unicode = (q: string) => [
    ...new Set(
      q
        .toLowerCase()
        .split(/[^\p{L}\p{N}_]+/u)
        .filter(Boolean),
    ),
  ];
  const random = seeded(7);
  const alphabet = 'aZ9_ -./:;!?\t\n\u212a\u00e9\u0130\u0663';
  for (let t = 0; t < 500; t++) {
    const q = Array.from({ length: Math.floor(random() * 20) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    assert.equal(keywords(q), unicode(q), JSON.stringify(q));
  }
  assert.equal(keywords('pnpm vitest --run'), ['pnpm', 'vitest', 'run']);
});

test.run();
