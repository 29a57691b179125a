// `make bench`, bounds: input over the limit at each door — a device as --file, 2 GiB of stdin, a 1 GiB NDJSON line or MCP message — refused in what time and peak memory, beside `node -e 0` reading nothing.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { FORGE, forgeEnv } from '../test/helpers/forge';
import { repoWith } from '../test/helpers/repo';

const env = forgeEnv();
const dir = repoWith({ 'a.txt': 'hello\n' });
const GiB = 1024 ** 3;

/** Runs node `args` with `produce` writing its stdin as fast as it reads; wall time, peak RSS (bench/maxrss.cjs) and exit code. */
async function measure(args: string[], produce?: (write: (b: Buffer) => Promise<boolean>) => Promise<void>) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, ['--require', resolve('bench/maxrss.cjs'), ...args], {
    cwd: dir,
    env,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.on('error', () => {});
  const closed = new Promise((r) => child.stdin.once('close', r));
  const write = async (b: Buffer) => {
    if (child.stdin.destroyed) return false;
    if (!child.stdin.write(b)) await Promise.race([new Promise((r) => child.stdin.once('drain', r)), closed]);
    return !child.stdin.destroyed;
  };
  const feeding = produce ? produce(write).then(() => child.stdin.end()) : Promise.resolve(child.stdin.end());
  const code = await new Promise<number | null>((done) => child.once('close', done));
  await feeding;
  const rss = Number(/forge-bench-maxrss (\d+)/.exec(stderr)?.[1] ?? 0);
  return { s: Number(process.hrtime.bigint() - started) / 1e9, mib: rss / 1024, code };
}

/** `total` bytes of `fill`, after `head` and before `tail`, in 1 MiB chunks. */
const stream =
  (total: number, { head = '', tail = '', fill = 'x' } = {}) =>
  async (write: (b: Buffer) => Promise<boolean>) => {
    const chunk = Buffer.alloc(1024 * 1024, fill);
    if (!(await write(Buffer.from(head)))) return;
    for (let sent = 0; sent < total; sent += chunk.length) if (!(await write(chunk))) return;
    await write(Buffer.from(tail));
  };

const baseline = await measure(['-e', '0']);
console.log(
  '\ninput over the limit (64 MiB, FORGE_MAX_INPUT; an MCP message: 10 MiB): refused in (wall time), peak RSS; goals: seconds, under 200 MiB',
);
console.log(`  node -e 0 (the floor)                           ${baseline.s.toFixed(2)} s  ${baseline.mib.toFixed(0).padStart(4)} MiB`);
for (const [label, args, produce] of [
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
  const r = await measure([...args], produce);
  console.log(`  ${label.padEnd(48)}${r.s.toFixed(2)} s  ${r.mib.toFixed(0).padStart(4)} MiB  exit ${r.code}`);
}
