// stdin, stdout and stderr for a run: a pipe, socket or file is read with read(2) and written with write(2) (as Node's own stream writes them on Linux, synchronously), without loading the net and stream modules Node's stream costs every call; a terminal gets Node's own stream.
import { EventEmitter } from 'node:events';
import { fstatSync, read, statSync, writeSync, type Stats } from 'node:fs';
import type { Readable } from 'node:stream';
import { type StdinSource, streamSource, unreadable } from '../lib/cli/input';
import type { Stream } from '../lib/cli/output';

/**
 * Writes each chunk whole before returning. A full non-blocking pipe (EAGAIN: another process set
 * O_NONBLOCK on it) hands this and every later write to Node's stream, which waits for the pipe;
 * its 'error' and 'drain' reach this writer's listeners. Other errors (EPIPE) are 'error' events,
 * as Node's stream makes them.
 */
class FdWriter extends EventEmitter {
  readonly isTTY = false;
  private stream: Stream | null = null;

  constructor(
    private readonly fd: number,
    private readonly nodeStream: () => Stream,
  ) {
    super();
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.stream) return this.stream.write(chunk);
    let rest = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    while (rest.length) {
      try {
        rest = rest.subarray(writeSync(this.fd, rest));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') {
          this.stream = this.nodeStream();
          this.stream.on('error', (e) => this.emit('error', e));
          this.stream.on('drain', () => this.emit('drain'));
          return this.stream.write(rest);
        }
        if (!this.listenerCount('error')) throw err;
        this.emit('error', err);
        return true;
      }
    }
    return true;
  }
}

/** /dev/null's device number, stat'ed once a run (stdin, stdout and stderr may each ask); null when there is none. */
let devNullRdev: number | null | undefined;

/** Whether fd's file is /dev/null: Node reads and writes it through a stream that loads the stream module. */
function isDevNull(kind: Stats): boolean {
  if (!kind.isCharacterDevice()) return false;
  if (devNullRdev === undefined) {
    try {
      const devNull = statSync('/dev/null');
      devNullRdev = devNull.isCharacterDevice() ? devNull.rdev : null;
    } catch {
      devNullRdev = null;
    }
  }
  return devNullRdev === kind.rdev;
}

/** The stream for fd 1 or 2: a write(2) writer for a pipe, socket, file or /dev/null; Node's (made on first use otherwise) for a terminal or anything else. */
export function outputStream(fd: 1 | 2, nodeStream: () => Stream): Stream {
  let kind: Stats;
  try {
    kind = fstatSync(fd);
  } catch {
    return nodeStream();
  }
  const plain = kind.isFIFO() || kind.isSocket() || kind.isFile() || isDevNull(kind);
  return plain ? (new FdWriter(fd, nodeStream) as unknown as Stream) : nodeStream();
}

/** What one read(2) of stdin asks for: Node's stream reads 64 KiB at a time too. */
const READ_SIZE = 64 * 1024;

/**
 * stdin for a run: read(2) on a pipe, socket, file or anything else that is not a character
 * device, a chunk per read on libuv's threads (a read that waits blocks one of them, not the event
 * loop); nothing for /dev/null, which is empty; Node's stream, made on first use, for a terminal
 * or another character device. A non-blocking pipe (EAGAIN: another process set O_NONBLOCK on it)
 * hands this and every later read to Node's stream, which waits for data. A failed read is
 * BAD_INPUT (lib/cli/input.ts unreadable), never the end.
 */
export function inputSource(fd: number, nodeStream: () => Readable & { isTTY?: boolean }): StdinSource {
  let kind: Stats | null = null;
  try {
    kind = fstatSync(fd);
  } catch {
    // closed: Node's stream says what it is
  }
  // /dev/null (CI's and many agents' stdin) ends at once: Node's stream for it costs ~6 ms of loading.
  if (kind && isDevNull(kind)) return { isTTY: false, read: () => Promise.resolve(null) };
  // A directory is read too, to fail (EISDIR): Node's stream makes an empty stdin of it.
  if (!kind || kind.isCharacterDevice()) {
    let node: Required<StdinSource> | null = null;
    const own = () => (node ??= streamSource(nodeStream()));
    return {
      get isTTY() {
        return own().isTTY;
      },
      read: () => own().read(),
      stream: () => own().stream(),
    };
  }
  let fallback: StdinSource | null = null;
  let ended = false;
  return {
    isTTY: false,
    read: () => {
      if (fallback) return fallback.read();
      if (ended) return Promise.resolve(null);
      return new Promise((resolve, reject) => {
        const buf = Buffer.allocUnsafe(READ_SIZE);
        read(fd, buf, 0, READ_SIZE, null, (err, n) => {
          if (err?.code === 'EAGAIN') {
            fallback = streamSource(nodeStream());
            resolve(fallback.read());
          } else if (err) reject(unreadable(err));
          else if (n === 0) {
            ended = true;
            resolve(null);
          } else resolve(buf.subarray(0, n));
        });
      });
    },
  };
}
