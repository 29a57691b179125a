# An HTTP client whose 30000 ms timeout is written out in three modules; a row limit of the same number is another thing.
mkdir -p src test
cat > package.json <<'JSON'
{ "name": "client", "type": "module", "scripts": { "test": "node --test" } }
JSON
cat > src/api.js <<'JS'
export function requestOptions(url) {
  return { url, method: 'GET', timeout: 30000 };
}
JS
cat > src/upload.js <<'JS'
export function uploadOptions(file) {
  return { url: '/upload', method: 'PUT', body: file, timeout: 30000 };
}
JS
cat > src/poll.js <<'JS'
export function shouldGiveUp(startedAt, now) {
  return now - startedAt > 30000;
}
JS
cat > src/export.js <<'JS'
// A spreadsheet takes this many rows at most.
export const MAX_ROWS = 30000;

export function exportRows(rows) {
  return rows.slice(0, MAX_ROWS);
}
JS
cat > test/client.test.js <<'JS'
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requestOptions } from '../src/api.js';
import { uploadOptions } from '../src/upload.js';
import { shouldGiveUp } from '../src/poll.js';
import { MAX_ROWS } from '../src/export.js';

test('every request times out after 30 s', () => {
  assert.equal(requestOptions('/notes').timeout, 30000);
  assert.equal(uploadOptions('a.txt').timeout, 30000);
  assert.equal(shouldGiveUp(0, 30000), false);
  assert.equal(shouldGiveUp(0, 30001), true);
});

test('exports keep their own row limit', () => {
  assert.equal(MAX_ROWS, 30000);
});
JS
