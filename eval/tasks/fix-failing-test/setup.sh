# A duration formatter with a bug its tests catch once a duration passes the hour.
mkdir -p src test
cat > package.json <<'JSON'
{ "name": "timesheet", "type": "module", "scripts": { "test": "node --test" } }
JSON
cat > src/duration.js <<'JS'
const pad = (n) => String(n).padStart(2, '0');

/** Seconds as hours, minutes and seconds: 3725 is "1h 02m 05s". */
export function formatDuration(totalSeconds) {
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${hours}h ${pad(minutes)}m ${pad(seconds)}s`;
}
JS
cat > src/timesheet.js <<'JS'
import { formatDuration } from './duration.js';

export function summary(entries) {
  const total = entries.reduce((sum, entry) => sum + (entry.end - entry.start), 0);
  return `${entries.length} entries, ${formatDuration(total)}`;
}
JS
cat > test/duration.test.js <<'JS'
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration } from '../src/duration.js';
import { summary } from '../src/timesheet.js';

test('under an hour', () => {
  assert.equal(formatDuration(0), '0h 00m 00s');
  assert.equal(formatDuration(59), '0h 00m 59s');
  assert.equal(formatDuration(125), '0h 02m 05s');
});

test('an hour and more', () => {
  assert.equal(formatDuration(3725), '1h 02m 05s');
  assert.equal(formatDuration(7200), '2h 00m 00s');
});

test('a timesheet adds its entries up', () => {
  assert.equal(summary([{ start: 0, end: 1800 }, { start: 5000, end: 7100 }]), '2 entries, 1h 05m 00s');
});
JS
