# A tiny node script that counts a file's lines, with a test that runs it.
mkdir -p bin test
cat > package.json <<'JSON'
{ "name": "count", "type": "module", "bin": { "count": "bin/count.js" }, "scripts": { "test": "node --test" } }
JSON
cat > bin/count.js <<'JS'
#!/usr/bin/env node
// Prints how many lines a text file has: node bin/count.js notes.txt
import { readFileSync } from 'node:fs';

const [file] = process.argv.slice(2);
if (!file) {
  console.error('usage: count.js <file>');
  process.exit(2);
}
const text = readFileSync(file, 'utf8');
const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
console.log(lines);
JS
printf 'the quick brown fox\njumps over\n  the lazy dog\n' > test/sample.txt
cat > test/count.test.js <<'JS'
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';

const count = (...args) => execFileSync(process.execPath, ['bin/count.js', ...args], { encoding: 'utf8' }).trim();

test('counts lines', () => {
  assert.equal(count('test/sample.txt'), '3');
});

test('without a file it prints its usage and exits 2', () => {
  const r = spawnSync(process.execPath, ['bin/count.js'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^usage: count\.js/);
});
JS
