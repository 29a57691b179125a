// stdin read with read(2): a file, a FIFO and a socket give their bytes as Node's stream would; a non-blocking pipe goes to Node's stream; anything else is Node's stream from the start.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, createReadStream, openSync, writeFileSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { inputSource } from '../../bin/stdio';
import { type StdinSource, streamSource } from '../../lib/cli/input';
import type { ForgeError } from '../../lib/errors';
import { tempDir } from '../helpers/repo';

/** Everything a source gives, and how many chunks it came in; the end stays the end. */
async function drain(source: StdinSource): Promise<{ bytes: Buffer; chunks: number }> {
  const parts: Buffer[] = [];
  for (let chunk = await source.read(); chunk !== null; chunk = await source.read()) parts.push(chunk);
  assert.is(await source.read(), null, 'read again after the end');
  return { bytes: Buffer.concat(parts), chunks: parts.length };
}

/** A new FIFO, open at both ends: the reader non-blocking (so that opening it does not wait for a writer). */
function fifo(): { path: string; reader: number; writer: number } {
  const path = join(tempDir(), 'fifo');
  execFileSync('mkfifo', [path]);
  const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  return { path, reader, writer: openSync(path, constants.O_WRONLY) };
}

const notUsed = () => {
  throw new Error("Node's stream was made");
};

test("a file is read whole in 64 KiB chunks, from the fd's offset, without Node's stream", async () => {
  const file = join(tempDir(), 'in.bin');
  const content = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7) % 256));
  writeFileSync(file, content);
  const fd = openSync(file, 'r');
  try {
    const source = inputSource(fd, notUsed);
    assert.is(source.isTTY, false);
    const { bytes, chunks } = await drain(source);
    assert.ok(bytes.equals(content));
    assert.is(chunks, 4);
  } finally {
    closeSync(fd);
  }
});

test('a FIFO: what the writer wrote, to its close', async () => {
  const { path, reader, writer } = fifo();
  // Blocking again, as a shell's pipe is: the reads wait for the writer.
  closeSync(reader);
  const blocking = openSync(path, constants.O_RDONLY);
  writeSync(writer, 'one\n');
  const source = inputSource(blocking, notUsed);
  const first = await source.read();
  assert.is(first?.toString(), 'one\n');
  writeSync(writer, 'two\n');
  closeSync(writer);
  assert.is((await drain(source)).bytes.toString(), 'two\n');
  closeSync(blocking);
});

test("a non-blocking pipe with nothing in it yet (EAGAIN) is handed to Node's stream, which waits for the writer", async () => {
  const { reader, writer } = fifo();
  let made = 0;
  const source = inputSource(reader, () => {
    made++;
    // Written only once the stream is made: the first read met an empty pipe (EAGAIN), whatever the machine's speed.
    setImmediate(() => {
      writeSync(writer, 'late\n');
      closeSync(writer);
    });
    return new Socket({ fd: reader, readable: true, writable: false });
  });
  assert.is((await drain(source)).bytes.toString(), 'late\n');
  assert.is(made, 1, "Node's stream made once, on EAGAIN");
});

test("a directory is read to fail: BAD_INPUT (EISDIR), where Node's stream makes an empty stdin of it", async () => {
  const fd = openSync(tempDir(), 'r');
  try {
    const failed = await inputSource(fd, notUsed)
      .read()
      .then(
        () => null,
        (err: ForgeError) => [err.code, (err.message.match(/\(\w+\)/) ?? [])[0]],
      );
    assert.equal(failed, ['BAD_INPUT', '(EISDIR)']);
  } finally {
    closeSync(fd);
  }
});

test("a failing Node stream (a terminal's, say) is BAD_INPUT too, not its end", async () => {
  const stream = new Readable({ read() {} });
  const source = streamSource(stream);
  const pending = source.read();
  stream.destroy(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
  await pending.then(
    () => assert.unreachable('read as the end'),
    (err: ForgeError) => assert.is(err.code, 'BAD_INPUT'),
  );
  await source.read().then(
    () => assert.unreachable('read as the end after the failure'),
    (err: ForgeError) => assert.is(err.code, 'BAD_INPUT'),
  );
});

test("/dev/null is empty without Node's stream; another character device or a closed fd is Node's stream's, made when first asked", async () => {
  const devNull = openSync('/dev/null', 'r');
  const empty = inputSource(devNull, notUsed);
  assert.is(empty.isTTY, false);
  assert.is(await empty.read(), null);
  assert.is(await empty.read(), null);
  closeSync(devNull);
  let made = 0;
  const zero = openSync('/dev/zero', 'r');
  const source = inputSource(zero, () => {
    made++;
    return createReadStream('', { fd: zero, autoClose: false, end: 9 });
  });
  assert.is(made, 0, 'not made before use');
  assert.is(source.isTTY, false);
  assert.is(made, 1);
  assert.is((await drain(source)).bytes.length, 10);
  closeSync(zero);
  const closed = inputSource(987, () => Object.assign(createReadStream('/dev/null'), { isTTY: false }));
  assert.is(await closed.read(), null);
});
test.run();
