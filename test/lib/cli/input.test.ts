// Reading stdin: NDJSON lines split as readline splits them, and bytes that are not UTF-8 kept apart (never turned into U+FFFD).
import { Readable } from 'node:stream';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { decodeBytes, readStdin, streamSource } from '../../../lib/cli/input';

/** stdin made of these chunks, as a pipe delivers them. */
const stdin = (...chunks: Array<string | number[]>) =>
  streamSource(
    Readable.from(
      chunks.map((c) => Buffer.from(c as string)),
      { objectMode: false },
    ),
  );

async function lines(...chunks: Array<string | number[]>): Promise<string[]> {
  const input = await readStdin(stdin(...chunks));
  assert.is(input.kind, 'ndjson');
  const out: string[] = [];
  for await (const line of (input as { lines: AsyncIterable<string> }).lines) out.push(line);
  return out;
}

test('NDJSON lines end at \\n, \\r\\n or a lone \\r, across chunks; a character split between chunks stays whole', async () => {
  assert.equal(await lines('{"a":1}\n{"b"', ':2}\r', '\n\n{"c":3}\r{"d":4}'), ['{"a":1}', '{"b":2}', '', '{"c":3}', '{"d":4}']);
  assert.equal(await lines('  \n{"p":"caf', [0xc3], [0xa9, 0x22, 0x7d, 0x0a]), ['  ', '{"p":"café"}']);
});

test('bytes that are not UTF-8 become lone surrogates U+DC80-U+DCFF, in lines and in text', async () => {
  assert.equal(await lines('{"p":"caf', [0xe9, 0x22, 0x7d]), ['{"p":"caf\udce9"}']);
  const text = await readStdin(stdin('--- a/x\n+', [0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0x80], 'ok é'));
  assert.equal(text, { kind: 'text', text: '--- a/x\n+\udcff\udcc3(\udced\udca0\udc80\udcf4\udc90\udc80\udc80ok é' });
  assert.is(decodeBytes(Buffer.from('\ufeffplain 😀 text')), '\ufeffplain 😀 text', 'a byte-order mark is content');
});

test.run();
