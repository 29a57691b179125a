// A window read in chunks says exactly what decoding the whole file says: lines, anchors, total, encoding, line endings, minified, errors.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { readWindow, windowOfWhole, type ReadResult } from '../../../lib/files/read';
import { locateWorkspace } from '../../../lib/files/workspace';
import { tempDir } from '../../helpers/repo';
import { seeded } from '../../helpers/seeded';

const CHUNK = 64 * 1024;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const utf8 = (s: string) => Buffer.from(s, 'utf8');

/** Files of several chunks, each shape a way the chunked scan could differ from a whole decode. */
function shapes(): Record<string, Buffer> {
  const random = seeded(7);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
  // Characters of 1, 2, 3 and 4 UTF-8 bytes, so some straddle every chunk boundary.
  const mixed = (n: number, eol: () => string) =>
    Array.from(
      { length: n },
      (_, i) =>
        `${i} ${Array.from({ length: 5 + Math.floor(random() * 40) }, () => pick(['a', ' ', 'é', 'ß', '中', '€', '😀'])).join('')}${eol()}`,
    ).join('');
  const ascii = (n: number) => Array.from({ length: n }, (_, i) => `line ${i} of a generated file\n`).join('');
  const longLine = 'a'.repeat(CHUNK - 1);
  return {
    ascii: utf8(ascii(20_000)),
    'ascii, no final newline': utf8(ascii(20_000).slice(0, -1)),
    'utf-8 across chunk boundaries': utf8(mixed(12_000, () => '\n')),
    'utf-8 with BOM and CRLF': Buffer.concat([BOM, utf8(mixed(12_000, () => '\r\n'))]),
    'mixed LF and CRLF': utf8(mixed(12_000, () => pick(['\n', '\r\n', '\r\n']))),
    // Valid UTF-8 for 300 KB, then one byte that is not: the whole file is Latin-1.
    'latin-1 only near the end': Buffer.concat([utf8(mixed(10_000, () => '\n')), Buffer.from('caf\xe9\n', 'latin1')]),
    'ends inside a character': Buffer.concat([utf8(ascii(10_000)), utf8('€').subarray(0, 2)]),
    // A CR ends one chunk and its LF starts the next.
    'CRLF split by a chunk end': utf8(`${longLine}\r\n${ascii(5000).replace(/\n/g, '\r\n')}`),
    'a lone CR late': utf8(`${ascii(10_000)}old mac\rline\n`),
    'line of 2000 characters': utf8(`${ascii(5000)}${'x'.repeat(2000)}\n${ascii(10)}`),
    'line of 2001 characters': utf8(`${ascii(5000)}${'x'.repeat(2001)}\n${ascii(10)}`),
    '2000 two-byte characters': utf8(`${ascii(5000)}${'é'.repeat(2000)}\n`),
    '3000 two-byte characters': utf8(`${ascii(5000)}${'é'.repeat(3000)}\n`),
    '2500 three-byte characters': utf8(`${ascii(5000)}${'中'.repeat(2500)}\n`),
    'latin-1 line of 2001': Buffer.from(`${ascii(5000)}${'\xe9'.repeat(2001)}\n`, 'latin1'),
    'NUL after 8000 bytes': utf8(`${ascii(1000)}\0\n${ascii(10)}`),
    binary: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0]), Buffer.alloc(CHUNK * 2, 1)]),
    empty: Buffer.alloc(0),
    'BOM only': BOM,
    'two BOMs': Buffer.concat([BOM, BOM, utf8('a\n')]),
    'one newline': utf8('\n'),
    'utf-16le': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(ascii(3000), 'utf16le')]),
  };
}

const outcome = async (read: () => ReadResult | Promise<ReadResult>) => {
  try {
    return await read();
  } catch (err) {
    return { error: (err as Error & { code?: string }).code, message: (err as Error).message };
  }
};

test('a window read in chunks equals the window of the file decoded whole, for every shape and window', async () => {
  const dir = tempDir();
  const ws = await locateWorkspace({ cwd: dir });
  for (const [name, buf] of Object.entries(shapes())) {
    writeFileSync(join(dir, 'f.txt'), buf);
    const whole = windowOfWhole({ buf, display: 'f.txt', start: 1 });
    const total = whole.total;
    const windows: Array<{ start?: number; end?: number }> = [
      {},
      { start: 2, end: 3 },
      { start: Math.max(1, total - 5) },
      { start: total },
      { start: total + 1 },
      { start: Math.max(1, Math.floor(total / 2)), end: Math.floor(total / 2) + 400 },
      { start: 1, end: 1_000_000 },
      { start: 5001, end: 5001 },
    ];
    for (const w of windows) {
      const got = await outcome(() => readWindow({ ws, path: 'f.txt', ...w }));
      const want = await outcome(() => windowOfWhole({ buf, display: 'f.txt', start: w.start ?? 1, end: w.end }));
      assert.equal(got, want, `${name}, window ${JSON.stringify(w)}`);
    }
  }
});

test.run();
