# The reference solution the tests apply (test/e2e/eval-suite.test.ts): the same store, each function async over fs/promises.
cat > src/store.js <<'JS'
import { readFile, writeFile } from 'node:fs/promises';

export async function loadUsers(path) {
  const text = await readFile(path, 'utf8');
  return JSON.parse(text);
}

export async function saveUsers(path, users) {
  await writeFile(path, `${JSON.stringify(users, null, 2)}\n`);
}

export async function addUser(path, user) {
  const users = await loadUsers(path);
  if (users.some((u) => u.id === user.id)) throw new Error(`duplicate id ${user.id}`);
  users.push(user);
  await saveUsers(path, users);
  return users;
}
JS
