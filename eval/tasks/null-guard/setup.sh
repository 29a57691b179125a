# A profile helper that reads a nested field without checking the user has a profile; a test exposes it.
mkdir -p src test
cat > package.json <<'JSON'
{ "name": "accounts", "type": "module", "scripts": { "test": "node --test" } }
JSON
cat > src/profile.js <<'JS'
export function displayName(user) {
  return user.profile.nickname || user.name;
}

export function greeting(user) {
  return `Welcome back, ${displayName(user)}!`;
}

export function mentions(users) {
  return users.map((user) => `@${displayName(user).toLowerCase().replace(/\s+/g, '.')}`);
}
JS
cat > test/profile.test.js <<'JS'
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { displayName, greeting, mentions } from '../src/profile.js';

test('prefers the nickname', () => {
  const maggie = { name: 'Margaret Hamilton', profile: { nickname: 'Maggie' } };
  assert.equal(displayName(maggie), 'Maggie');
  assert.equal(greeting(maggie), 'Welcome back, Maggie!');
});

test('falls back to the name when there is no nickname', () => {
  assert.equal(displayName({ name: 'Alan Kay', profile: {} }), 'Alan Kay');
});

test('users who never filled in a profile', () => {
  assert.equal(displayName({ name: 'Barbara Liskov' }), 'Barbara Liskov');
  assert.equal(greeting({ name: 'Barbara Liskov', profile: null }), 'Welcome back, Barbara Liskov!');
  assert.deepEqual(mentions([{ name: 'Ken Thompson' }, { name: 'x', profile: { nickname: 'Dmr' } }]), ['@ken.thompson', '@dmr']);
});
JS
