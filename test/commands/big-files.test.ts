// Files of a few MB through the built binary: a window read in chunks and an edit spliced in the bytes give the lines, anchors and bytes a whole-file pass gives.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { lineHash } from '../../lib/files/anchor';
import { forge } from '../helpers/forge';
import { tempRepo } from '../helpers/repo';

const LINES = 60_000;
const line = (i: number) => `  const v${i} = compute(${i}, "généré");`;
const lf = Array.from({ length: LINES }, (_, i) => line(i)).join('\n') + '\n';
const crlf = lf.replace(/\n/g, '\r\n');
const shown = (from: number, to: number, text: (n: number) => string = (n) => line(n - 1)) =>
  Array.from({ length: to - from + 1 }, (_, k) => ({ n: from + k, hash: lineHash(text(from + k)), text: text(from + k) }));

test("read: windows of a 3 MB file — its start, its middle, its last lines — with the whole file's total and line endings", async () => {
  const dir = tempRepo();
  writeFileSync(join(dir, 'big.txt'), crlf);
  const first = (await forge(['read', 'big.txt', '--json'], { cwd: dir })).records[0]!;
  assert.equal(
    [first.total, first.start, first.end, first.more, first.eol, first.encoding, first.bytes],
    [LINES, 1, 150, true, '\r\n', 'utf8', Buffer.byteLength(crlf)],
  );
  assert.equal(first.lines, shown(1, 150));
  const middle = (await forge(['read', 'big.txt', '--start', '30000', '--end', '30002', '--json'], { cwd: dir })).records[0]!;
  assert.equal([middle.total, middle.lines], [LINES, shown(30000, 30002)]);
  const last = (await forge(['read', 'big.txt', '--start', String(LINES - 1), '--json'], { cwd: dir })).records[0]!;
  assert.equal([last.end, last.more, last.lines], [LINES, false, shown(LINES - 1, LINES)]);
  const past = await forge(['read', 'big.txt', '--start', String(LINES + 1), '--json'], { cwd: dir });
  assert.equal(
    [past.code, past.records[0]!.error.code, past.records[0]!._next_action],
    [2, 'LINE_OUT_OF_RANGE', `forge read big.txt --start ${LINES - 149}`],
  );
});

test('edit: one line of a 3 MB file, LF and CRLF, exact bytes and the region with fresh anchors', async () => {
  for (const [name, before, eol] of [
    ['LF', lf, '\n'],
    ['CRLF', crlf, '\r\n'],
  ] as const) {
    const dir = tempRepo();
    writeFileSync(join(dir, 'big.txt'), before);
    // The old text spans two lines written with LF breaks, as a model writes them.
    const r = await forge(
      ['edit', 'big.txt', '--old', `${line(29999)}\n${line(30000)}`, '--new', `${line(29999)}\n  // edited\n${line(30000)}`, '--json'],
      { cwd: dir },
    );
    assert.is(r.code, 0, r.stderr);
    const after = before.replace(`${line(29999)}${eol}`, `${line(29999)}${eol}  // edited${eol}`);
    assert.ok(readFileSync(join(dir, 'big.txt')).equals(Buffer.from(after)), name);
    const text = (n: number) => (n <= 30000 ? line(n - 1) : n === 30001 ? '  // edited' : line(n - 2));
    const rec = r.records[0]!;
    assert.equal(
      [rec.strategy, rec.startLine, rec.endLine, rec.regionStart, rec.region],
      [eol === '\n' ? 'exact' : 'line-endings', 30000, 30002, 29997, shown(29997, 30005, text)],
      name,
    );
  }
});

test.run();
