// A writable stream that keeps what is written to it: stdout and stderr for a call of main() in-process.
import { Writable } from 'node:stream';

export function collector(): Writable & { readonly text: string; isTTY?: boolean } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return Object.defineProperty(stream, 'text', { get: () => text }) as Writable & { readonly text: string };
}
