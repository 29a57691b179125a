# A Node package whose name formatter is called from two modules, the tests and the README.
mkdir -p src test
cat > package.json <<'JSON'
{ "name": "authors", "type": "module", "scripts": { "test": "node --test" } }
JSON
cat > README.md <<'MD'
# authors

Helpers for showing who wrote what.

- `fmtName(first, last)` joins a first and a last name, skipping the missing one.
- `initials(first, last)` gives the capitals: `initials('Ada', 'Lovelace')` is `AL`.
MD
cat > src/names.js <<'JS'
export function fmtName(first, last) {
  return [first, last].filter(Boolean).join(' ');
}

export function initials(first, last) {
  return [first, last]
    .filter(Boolean)
    .map((part) => part[0].toUpperCase())
    .join('');
}
JS
cat > src/user.js <<'JS'
import { fmtName, initials } from './names.js';

export function describeUser(user) {
  return `${fmtName(user.first, user.last)} (${initials(user.first, user.last)})`;
}
JS
cat > src/report.js <<'JS'
import { fmtName } from './names.js';

export function authorLine(post) {
  const author = fmtName(post.author.first, post.author.last);
  return `${post.title} by ${author}`;
}

export function authorList(posts) {
  return posts.map((post) => fmtName(post.author.first, post.author.last)).join(', ');
}
JS
cat > test/names.test.js <<'JS'
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmtName, initials } from '../src/names.js';
import { describeUser } from '../src/user.js';
import { authorLine, authorList } from '../src/report.js';

test('full names', () => {
  assert.equal(fmtName('Ada', 'Lovelace'), 'Ada Lovelace');
  assert.equal(fmtName('Plato', ''), 'Plato');
  assert.equal(initials('grace', 'hopper'), 'GH');
});

test('the callers', () => {
  assert.equal(describeUser({ first: 'Grace', last: 'Hopper' }), 'Grace Hopper (GH)');
  assert.equal(authorLine({ title: 'Notes', author: { first: 'Ada', last: 'Lovelace' } }), 'Notes by Ada Lovelace');
  assert.equal(authorList([{ author: { first: 'A', last: 'B' } }, { author: { first: 'C' } }]), 'A B, C');
});
JS
