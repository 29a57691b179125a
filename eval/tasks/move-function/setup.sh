# A date parser living in a grab-bag utils module, imported from there by two modules and the tests.
mkdir -p src test
cat > package.json <<'JSON'
{ "name": "calendar", "type": "module", "scripts": { "test": "node --test" } }
JSON
cat > src/utils.js <<'JS'
export function parseDate(text) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) throw new Error(`not a date: ${text}`);
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
}

export function chunk(items, size) {
  const out = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
JS
cat > src/dates.js <<'JS'
export function formatDate(date) {
  return date.toISOString().slice(0, 10);
}

export function addDays(date, days) {
  return new Date(date.getTime() + days * 86_400_000);
}
JS
cat > src/events.js <<'JS'
import { addDays } from './dates.js';
import { chunk, parseDate } from './utils.js';

export function nextWeek(event) {
  return addDays(parseDate(event.date), 7);
}

export function pages(events) {
  return chunk(events, 10);
}
JS
cat > src/report.js <<'JS'
import { formatDate } from './dates.js';
import { parseDate } from './utils.js';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export function dayLabel(text) {
  const date = parseDate(text);
  return `${DAYS[date.getUTCDay()]} ${formatDate(date)}`;
}
JS
cat > test/calendar.test.js <<'JS'
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDate } from '../src/dates.js';
import { parseDate } from '../src/utils.js';
import { nextWeek, pages } from '../src/events.js';
import { dayLabel } from '../src/report.js';

test('parsing dates', () => {
  assert.equal(formatDate(parseDate('2024-02-29')), '2024-02-29');
  assert.throws(() => parseDate('29/02/2024'), /not a date/);
});

test('events and reports', () => {
  assert.equal(formatDate(nextWeek({ date: '2024-12-28' })), '2025-01-04');
  assert.equal(pages(Array.from({ length: 25 }, (_, i) => i)).length, 3);
  assert.equal(dayLabel('2024-01-01'), 'Mon 2024-01-01');
});
JS
