// stdout and stderr for a run: a pipe, socket or file is written with write(2), as Node's own stream for them does on Linux (synchronously), without loading the net and stream modules that stream costs every call; a terminal gets Node's own stream.
import { EventEmitter } from 'node:events';
import { fstatSync, statSync, writeSync, type Stats } from 'node:fs';
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

/** Whether a character device is /dev/null (Node writes it with write(2) too, through a stream that loads the stream module). */
function isDevNull(kind: { rdev: number }): boolean {
  try {
    const devNull = statSync('/dev/null');
    return devNull.isCharacterDevice() && devNull.rdev === kind.rdev;
  } catch {
    return false;
  }
}

/** The stream for fd 1 or 2: a write(2) writer for a pipe, socket, file or /dev/null; Node's (made on first use otherwise) for a terminal or anything else. */
export function outputStream(fd: 1 | 2, nodeStream: () => Stream): Stream {
  let kind: Stats;
  try {
    kind = fstatSync(fd);
  } catch {
    return nodeStream();
  }
  const plain = kind.isFIFO() || kind.isSocket() || kind.isFile() || (kind.isCharacterDevice() && isDevNull(kind));
  return plain ? (new FdWriter(fd, nodeStream) as unknown as Stream) : nodeStream();
}
