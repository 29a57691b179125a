// `make bench`, bounds: input over the limit at each door — a device as --file, 2 GiB of stdin, a 1 GiB NDJSON line or MCP message — refused in what time and peak memory, beside `node -e 0` reading nothing.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { FORGE, forgeEnv } from '../test/helpers/forge';
import { feed } from '../test/helpers/process';
import { repoWith } from '../test/helpers/repo';

const env = forgeEnv();
const dir = repoWith({ 'a.txt': 'hello\n' });
const GiB = 1024 ** 3;

/** Runs node `args` with `input` written to its stdin as fast as it reads; wall time, peak RSS (bench/maxrss.cjs) and exit code. */
async function measure(args: string[], input: AsyncIterable<Buffer> | Buffer[] = []) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, ['--require', resolve('bench/maxrss.cjs'), ...args], {
    cwd: dir,
    env,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const feeding = feed(child.stdin, input);
  const code = await new Promise<number | null>((done) => child.once('close', done));
  await feeding;
  const rss = Number(/forge-bench-maxrss (\d+)/.exec(stderr)?.[1] ?? 0);
  return { s: Number(process.hrtime.bigint() - started) / 1e9, mib: rss / 1024, code };
}

/** `total` bytes of `fill`, after `head` and before `tail`, in 1 MiB chunks. */
async function* stream(total: number, { head = '', tail = '', fill = 'x' } = {}): AsyncGenerator<Buffer> {
  const chunk = Buffer.alloc(1024 * 1024, fill);
  yield Buffer.from(head);
  for (let sent = 0; sent < total; sent += chunk.length) yield chunk;
  yield Buffer.from(tail);
}

const baseline = await measure(['-e', '0']);
console.log(
  '\ninput over the limit (64 MiB, FORGE_MAX_INPUT; an MCP message: 10 MiB): refused in (wall time), peak RSS; goals: seconds, under 200 MiB',
);
console.log(`  node -e 0 (the floor)                           ${baseline.s.toFixed(2)} s  ${baseline.mib.toFixed(0).padStart(4)} MiB`);
for (const [label, args, input] of [
  ['forge patch --file /dev/zero', [FORGE, 'patch', '--file', '/dev/zero'], undefined],
  ['forge patch < 2 GiB of stdin', [FORGE, 'patch'], stream(2 * GiB)],
  [
    'forge read --json: 1 GiB NDJSON line, then one',
    [FORGE, 'read', '--json'],
    stream(GiB, { head: '{"path":"a.txt","x":"', tail: '"}\n{"path":"a.txt"}\n' }),
  ],
  [
    'forge mcp: a 1 GiB message, then tools/list',
    [FORGE, 'mcp'],
    stream(GiB, {
      head: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{"path":"',
      tail: '"}}}\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n',
    }),
  ],
] as const) {
  const r = await measure([...args], input);
  console.log(`  ${label.padEnd(48)}${r.s.toFixed(2)} s  ${r.mib.toFixed(0).padStart(4)} MiB  exit ${r.code}`);
}
