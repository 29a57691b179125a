# A blog's helpers: one exported function that nothing calls, the only user of an import in its file.
mkdir -p src test
cat > package.json <<'JSON'
{ "name": "blog", "type": "module", "scripts": { "test": "node --test" } }
JSON
cat > src/utils.js <<'JS'
import { createHash } from 'node:crypto';

export function slugify(title) {
  return title
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function legacyChecksum(text) {
  return createHash('md5').update(text).digest('hex').slice(0, 8);
}

export function truncate(text, max) {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
JS
cat > src/post.js <<'JS'
import { slugify, truncate } from './utils.js';

export function postSummary(post) {
  return { url: `/posts/${slugify(post.title)}`, teaser: truncate(post.body, 40) };
}
JS
cat > src/cache.js <<'JS'
import { createHash } from 'node:crypto';

export function cacheKey(parts) {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}
JS
cat > test/blog.test.js <<'JS'
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slugify, truncate } from '../src/utils.js';
import { postSummary } from '../src/post.js';
import { cacheKey } from '../src/cache.js';

test('slugs and teasers', () => {
  assert.equal(slugify('  Hello, World! '), 'hello-world');
  assert.equal(truncate('short', 10), 'short');
  assert.equal(truncate('a longer sentence', 8), 'a longe…');
  assert.deepEqual(postSummary({ title: 'First Post', body: 'Hi.' }), { url: '/posts/first-post', teaser: 'Hi.' });
});

test('cache keys', () => {
  assert.match(cacheKey(['post', '1']), /^[0-9a-f]{64}$/);
  assert.notEqual(cacheKey(['a', 'b']), cacheKey(['ab']));
});
JS
