// The man pages pass mandoc's lint at warning level: the pages in man/ and the generator's output for every declaration, as a reader's man(1) gets them.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { entries } from '../../commands/index';
import { generatedFiles } from '../../lib/cli/docs';
import { pageDate } from '../../lib/cli/man';
import { tempDir } from '../helpers/repo';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const hasMandoc = spawnSync('sh', ['-c', 'command -v mandoc']).status === 0;
const SKIP = '  (no mandoc: the man page lint is skipped; apt-get install mandoc runs it)';

/** What `mandoc -T lint -W warning` says of the pages: nothing when they are clean. */
function lint(pages: string[]): string {
  const r = spawnSync('mandoc', ['-T', 'lint', '-W', 'warning', ...pages], { encoding: 'utf8' });
  return `${r.stdout}${r.stderr}`;
}

test('mandoc -T lint -W warning man/*.1 prints nothing', () => {
  if (!hasMandoc) return console.log(SKIP);
  const pages = readdirSync('man')
    .filter((f) => f.endsWith('.1'))
    .map((f) => join('man', f));
  assert.ok(pages.length > 20, `only ${pages.length} pages in man/`);
  assert.is(lint(pages), '');
});

test("the generator's pages, dated today, pass the same lint: every section of every declaration", () => {
  const today = new Date().toISOString().slice(0, 10);
  const generated = [...generatedFiles(entries, pkg.version, () => undefined, today)].filter(([path]) => path.endsWith('.1'));
  for (const [path, page] of generated) assert.is(pageDate(page), today, `${path} is dated`);
  if (!hasMandoc) return console.log(SKIP);
  const dir = tempDir('forge-man-lint-');
  const pages = generated.map(([path, page]) => {
    const file = join(dir, path.split('/').at(-1)!);
    writeFileSync(file, page);
    return file;
  });
  assert.is(lint(pages), '');
});

test('a page keeps its date while its text stays the same, and takes the new day when it changes', () => {
  const first = generatedFiles(entries, pkg.version, () => undefined, '2026-01-02');
  const again = generatedFiles(entries, pkg.version, (path) => first.get(path), '2026-03-04');
  assert.is(pageDate(again.get('man/forge-read.1')!), '2026-01-02');
  const edited = (path: string) => first.get(path)?.replace('.SH SEE ALSO', '.SH SEEN ALSO');
  assert.is(pageDate(generatedFiles(entries, pkg.version, edited, '2026-03-04').get('man/forge-read.1')!), '2026-03-04');
});

test.run();
