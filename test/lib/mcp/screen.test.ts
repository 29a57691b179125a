// What forge mcp's screen passes to the SDK: lines split across chunks whole, a character split between chunks whole, a line over the limit one error and dropped as it comes.
import { Readable } from 'node:stream';
import * as assert from 'uvu/assert';
import { screened } from '../../../lib/mcp/screen';
import { test } from '../../helpers/harness';

/** What comes out of the screen for these chunks, and the replies it made. */
async function through(chunks: Array<string | Buffer>): Promise<{ passed: string[]; replies: unknown[] }> {
  const replies: unknown[] = [];
  const out = screened(
    Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))),
    () => true,
    (r) => replies.push(r),
  );
  let text = '';
  for await (const chunk of out) text += chunk.toString();
  return { passed: text.split('\n').filter(Boolean), replies };
}

const ping = (id: number, extra = '') => `{"jsonrpc":"2.0","id":${id},"method":"ping"${extra}}`;

test('lines split across chunks, and a character split between two, arrive whole', async () => {
  const euro = Buffer.from('€');
  const r = await through([
    `${ping(1)}\n{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"`,
    euro.subarray(0, 1),
    Buffer.concat([euro.subarray(1), Buffer.from('"}}\n')]),
  ]);
  assert.equal(r.passed, [ping(1), '{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"€"}}']);
  assert.equal(r.replies, []);
});

test('a line over the limit is one error, its bytes dropped as they come; the next line is served', async () => {
  const mb = 'x'.repeat(1024 * 1024);
  const chunks = [
    `${ping(1)}\n{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"`,
    ...Array.from({ length: 12 }, () => mb),
    `"}}\n${ping(3)}\n`,
  ];
  const r = await through(chunks);
  assert.equal(r.passed, [ping(1), ping(3)]);
  assert.equal(r.replies, [
    { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a message over 10485760 bytes' } },
  ]);
});

test.run();
