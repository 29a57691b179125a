# The reference solution the tests apply (test/e2e/eval-suite.test.ts): --words counts whitespace-separated words; the usage and the test say so.
cat > bin/count.js <<'JS'
#!/usr/bin/env node
// Prints how many lines (or, with --words, words) a text file has: node bin/count.js [--words] notes.txt
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const words = args.includes('--words');
const [file] = args.filter((arg) => arg !== '--words');
if (!file) {
  console.error('usage: count.js [--words] <file>');
  process.exit(2);
}
const text = readFileSync(file, 'utf8');
if (words) console.log(text.split(/\s+/).filter(Boolean).length);
else console.log(text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
JS
cat >> test/count.test.js <<'JS'

test('--words counts words', () => {
  assert.equal(count('--words', 'test/sample.txt'), '9');
});
JS
