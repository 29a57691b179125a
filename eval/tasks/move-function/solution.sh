# The reference solution the tests apply (test/e2e/eval-suite.test.ts): parseDate moves to src/dates.js, and its importers follow it.
cat > src/utils.js <<'JS'
export function chunk(items, size) {
  const out = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
JS
cat >> src/dates.js <<'JS'

export function parseDate(text) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) throw new Error(`not a date: ${text}`);
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
}
JS
edit() {
  node -e 'const fs = require("fs"); const [f, from, to] = process.argv.slice(1); const text = fs.readFileSync(f, "utf8"); if (!text.includes(from)) process.exit(1); fs.writeFileSync(f, text.split(from).join(to));' "$@"
}
edit src/events.js "import { addDays } from './dates.js';
import { chunk, parseDate } from './utils.js';" "import { addDays, parseDate } from './dates.js';
import { chunk } from './utils.js';" &&
  edit src/report.js "import { formatDate } from './dates.js';
import { parseDate } from './utils.js';" "import { formatDate, parseDate } from './dates.js';" &&
  edit test/calendar.test.js "import { formatDate } from '../src/dates.js';
import { parseDate } from '../src/utils.js';" "import { formatDate, parseDate } from '../src/dates.js';"
