// The JavaScript zlib reader and stored-block writer, and the JavaScript SHA-1: the same bytes as node:zlib and node:crypto, and what git itself reads and checks.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { constants, deflateSync, inflateSync } from 'node:zlib';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { ObjectWriter } from '../../../lib/git/objects';
import { adler32, deflateStored, inflate, ZlibFormatError } from '../../../lib/git/zlib';
import { sha1Hasher, sha1Hex } from '../../../lib/sha1';
import { git, tempRepo } from '../../helpers/repo';
import { seeded } from '../../helpers/seeded';

/** Bytes with repeats (so deflate makes matches) from a small or a full alphabet. */
function sample(random: () => number, length: number): Buffer {
  const out = Buffer.alloc(length);
  const alphabet = 1 + Math.floor(random() * 256);
  for (let i = 0; i < length; i++)
    out[i] = i > 8 && random() < 0.3 ? out[i - 1 - Math.floor(random() * Math.min(i, 300))]! : Math.floor(random() * alphabet);
  return out;
}

const STRATEGIES = [constants.Z_DEFAULT_STRATEGY, constants.Z_FILTERED, constants.Z_HUFFMAN_ONLY, constants.Z_RLE, constants.Z_FIXED];

test('inflate gives what node:zlib gives, for every level and strategy, empty to 300 kB', () => {
  const random = seeded(17);
  for (let t = 0; t < 400; t++) {
    const data = sample(random, t < 300 ? Math.floor(random() * 3000) : Math.floor(random() * 300_000));
    if (t === 0) data.fill(0, 0, 0);
    const level = [0, 1, 6, 9][t % 4]!;
    const strategy = STRATEGIES[Math.floor(random() * STRATEGIES.length)]!;
    const compressed = deflateSync(data, { level, strategy });
    assert.ok(inflate(compressed).equals(data), `length ${data.length}, level ${level}, strategy ${strategy}`);
  }
  assert.equal(inflate(deflateSync(Buffer.alloc(0))), Buffer.alloc(0));
});

test('inflate refuses what node:zlib refuses — flipped bits, truncation — and bytes after the stream, as git does', () => {
  const random = seeded(29);
  let refused = 0;
  for (let t = 0; t < 3000; t++) {
    const data = Buffer.from(`blob ${t}\0${'a line of state text\n'.repeat(Math.floor(random() * 20))}`);
    const compressed = Buffer.from(deflateSync(data, { level: 1 }));
    const at = Math.floor(random() * compressed.length);
    compressed[at]! ^= 1 << Math.floor(random() * 8);
    let zlib: Buffer | null = null;
    try {
      zlib = inflateSync(compressed);
    } catch {
      // refused
    }
    let ours: Buffer | null = null;
    try {
      ours = inflate(compressed);
    } catch (err) {
      assert.instance(err, ZlibFormatError);
      refused++;
    }
    if (ours) assert.ok(zlib?.equals(ours), `a stream zlib refuses or reads otherwise was accepted (bit flipped at ${at})`);
  }
  assert.ok(refused > 2500);
  const good = deflateSync(Buffer.from('blob 3\0abc'));
  for (let cut = 0; cut < good.length; cut++)
    assert.throws(
      () => inflate(good.subarray(0, cut)),
      (err: unknown) => err instanceof ZlibFormatError,
    );
  assert.throws(
    () => inflate(Buffer.concat([good, Buffer.from([0])])),
    (err: unknown) => err instanceof ZlibFormatError,
  );
});

test('deflateStored writes streams node:zlib and inflate read back, over several 64 kB blocks too', () => {
  const random = seeded(5);
  for (const length of [0, 1, 100, 4000, 65535, 65536, 200_000]) {
    const data = sample(random, length);
    const stored = deflateStored(data);
    assert.ok(inflateSync(stored).equals(data), `node:zlib, ${length}`);
    assert.ok(inflate(stored).equals(data), `inflate, ${length}`);
    assert.is(stored.length, 2 + Math.max(1, Math.ceil(length / 65535)) * 5 + length + 4);
  }
  assert.is(adler32(Buffer.from('Wikipedia')), 0x11e60398);
});

test('sha1Hex is node:crypto SHA-1, in JavaScript around every padding boundary, and once its budget is spent', () => {
  const random = seeded(3);
  const inJavaScript = sha1Hasher(Number.POSITIVE_INFINITY);
  for (let length = 0; length < 300; length++) {
    const data = sample(random, length);
    assert.is(inJavaScript(data), createHash('sha1').update(data).digest('hex'), `length ${length}`);
  }
  // A budget of 100 bytes: the first two inputs fit it, the third (and everything after) is crypto's.
  const budgeted = sha1Hasher(100);
  for (const length of [60, 40, 1, 0, 65_536, 200_000]) {
    const data = sample(random, length);
    assert.is(budgeted(data), createHash('sha1').update(data).digest('hex'), `length ${length}`);
  }
  assert.is(sha1Hex('héllo 🎉\0'), createHash('sha1').update('héllo 🎉\0').digest('hex'));
  assert.is(inJavaScript('héllo 🎉\0'), createHash('sha1').update('héllo 🎉\0').digest('hex'));
});

test('objects written small (stored) and big (compressed) are the ones git writes: same ids, git cat-file reads them, git fsck is clean', async () => {
  const dir = tempRepo();
  const writer = new ObjectWriter(join(dir, '.git', 'objects'), 'sha1');
  const random = seeded(11);
  for (const length of [0, 10, 4000, 4032, 4033, 50_000]) {
    const content = sample(random, length);
    const oid = await writer.write('blob', content);
    assert.is(
      oid,
      execFileSync('git', ['hash-object', '--stdin'], { cwd: dir, input: content, encoding: 'utf8' }).trim(),
      `length ${length}`,
    );
    assert.ok(
      execFileSync('git', ['cat-file', 'blob', oid], { cwd: dir, maxBuffer: 1 << 24 }).equals(content),
      `cat-file, length ${length}`,
    );
    const file = join(dir, '.git', 'objects', oid.slice(0, 2), oid.slice(2));
    assert.is(statSync(file).mode & 0o777, 0o444);
    // Small objects are stored blocks: a few bytes of framing.
    if (length <= 4000) assert.is(readFileSync(file).length, `blob ${length}\0`.length + length + 11);
  }
  assert.not.ok(readdirSync(join(dir, '.git', 'objects')).some((d) => /^tmp/.test(d)));
  git(dir, 'fsck', '--strict', '--no-dangling');
});

test.run();
