# A JSON file store written with Node callbacks; its tests already expect promises.
mkdir -p src test
cat > package.json <<'JSON'
{ "name": "user-store", "type": "module", "scripts": { "test": "node --test" } }
JSON
cat > src/store.js <<'JS'
import fs from 'node:fs';

export function loadUsers(path, callback) {
  fs.readFile(path, 'utf8', (err, text) => {
    if (err) return callback(err);
    let users;
    try {
      users = JSON.parse(text);
    } catch (parseError) {
      return callback(parseError);
    }
    callback(null, users);
  });
}

export function saveUsers(path, users, callback) {
  fs.writeFile(path, `${JSON.stringify(users, null, 2)}\n`, callback);
}

export function addUser(path, user, callback) {
  loadUsers(path, (err, users) => {
    if (err) return callback(err);
    if (users.some((u) => u.id === user.id)) return callback(new Error(`duplicate id ${user.id}`));
    users.push(user);
    saveUsers(path, users, (writeError) => callback(writeError, users));
  });
}
JS
cat > test/store.test.js <<'JS'
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addUser, loadUsers, saveUsers } from '../src/store.js';

function scratch(t) {
  const dir = mkdtempSync(join(tmpdir(), 'store-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('save then load', async (t) => {
  const file = join(scratch(t), 'users.json');
  assert.equal(await saveUsers(file, [{ id: 1, name: 'Ada' }]), undefined);
  assert.deepEqual(await loadUsers(file), [{ id: 1, name: 'Ada' }]);
});

test('addUser appends and refuses a duplicate id', async (t) => {
  const file = join(scratch(t), 'users.json');
  writeFileSync(file, '[{ "id": 1, "name": "Ada" }]');
  assert.deepEqual(await addUser(file, { id: 2, name: 'Grace' }), [{ id: 1, name: 'Ada' }, { id: 2, name: 'Grace' }]);
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).length, 2);
  await assert.rejects(addUser(file, { id: 1, name: 'Again' }), /duplicate id 1/);
});

test('errors reject', async (t) => {
  const dir = scratch(t);
  await assert.rejects(loadUsers(join(dir, 'missing.json')), { code: 'ENOENT' });
  writeFileSync(join(dir, 'bad.json'), '{ not json');
  await assert.rejects(loadUsers(join(dir, 'bad.json')), SyntaxError);
});
JS
