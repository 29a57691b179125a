// Input bounds at every door: a device or FIFO as --file is refused before a byte is read, stdin and NDJSON lines over FORGE_MAX_INPUT are refused as they arrive.
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { bytesSource, type InputLine, readStdin } from '../../lib/cli/input';
import { FORGE, forge, forgeEnv } from '../helpers/forge';
import { test } from '../helpers/harness';
import { ownChild } from '../helpers/owner';
import { feed } from '../helpers/process';
import { repoWith, tempDir } from '../helpers/repo';

/** Runs forge with `input` written to its stdin as it reads it (a pipe, not a file). */
async function piped(args: string[], cwd: string, input: Buffer[], env: Record<string, string> = {}) {
  const child = ownChild(spawn(process.execPath, [FORGE, ...args], { cwd, env: forgeEnv(env), stdio: ['pipe', 'pipe', 'pipe'] }));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  // forge may stop reading (and exit) before all of it is written: a closed pipe is its answer.
  await feed(child.stdin, input);
  const code = await new Promise<number | null>((done) => child.once('close', done));
  const records =
    args.includes('--json') && stdout.trim()
      ? stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : [];
  return { code, stdout, stderr, records };
}

test('forge patch --file /dev/zero, or a FIFO with no writer, is refused before a byte is read', async () => {
  const dir = repoWith({ 'a.txt': 'a\n' });
  const zero = await forge(['patch', '--file', '/dev/zero', '--json'], { cwd: dir });
  assert.equal([zero.code, zero.records[0]!.error.code], [1, 'NOT_A_REGULAR_FILE']);
  const fifo = join(tempDir('forge-fifo-'), 'p');
  execFileSync('mkfifo', [fifo]);
  const r = await forge(['patch', '--file', fifo, '--json'], { cwd: dir });
  assert.equal([r.code, r.records[0]!.error.code], [1, 'NOT_A_REGULAR_FILE']);
});

test('stdin over FORGE_MAX_INPUT is INPUT_TOO_LARGE, with the command that has room for it as the Fix; nothing changes', async () => {
  const dir = repoWith({ 'a.txt': 'a\n' });
  const megabyte = Buffer.alloc(1024 * 1024, 'x');
  const r = await piped(['patch'], dir, [megabyte, megabyte, megabyte], { FORGE_MAX_INPUT: '1M' });
  assert.is(r.code, 2, r.stderr);
  assert.match(r.stderr, /Error: stdin is over 1 MiB, the most forge reads as input\nFix: FORGE_MAX_INPUT=4M forge patch\n/);
  const named = await piped(['write', 'my notes.txt'], dir, [megabyte, megabyte], { FORGE_MAX_INPUT: '1M' });
  assert.match(named.stderr, /\nFix: FORGE_MAX_INPUT=4M forge write 'my notes.txt'\n/, 'the Fix is the whole command line');
  // Within the limit, the same door reads it.
  const within = await piped(['write', 'b.txt'], dir, [Buffer.from('hello\n')], { FORGE_MAX_INPUT: '1M' });
  assert.is(within.code, 0, within.stderr);
});

test('an NDJSON line over FORGE_MAX_INPUT is refused as its own line, and the lines after it are served', async () => {
  const dir = repoWith({ 'a.txt': 'hello\n' });
  const long = Buffer.from(`{"path":"a.txt","x":"${'y'.repeat(5000)}"}\n`);
  const r = await piped(['read', '--json'], dir, [long, Buffer.from('{"path":"a.txt"}\n')], { FORGE_MAX_INPUT: '1K' });
  assert.is(r.code, 2);
  assert.equal(
    r.records.map((x) => [x.line, x.error?.code ?? x.ok]),
    [
      [1, 'INPUT_TOO_LARGE'],
      [undefined, true],
    ],
  );
  assert.match(r.records[0].error.message, /^line 1 of stdin \(4\.9 KiB\) is over 1 KiB/);
});

test('FORGE_MAX_INPUT that is no size is INVALID_ARGUMENT, naming it', async () => {
  const r = await piped(['read', '--json'], repoWith({ 'a.txt': 'a\n' }), [Buffer.from('{"path":"a.txt"}\n')], { FORGE_MAX_INPUT: 'lots' });
  assert.is(r.code, 2);
  assert.match(r.stdout + r.stderr, /FORGE_MAX_INPUT must be a size in bytes/);
});

/** The lines readStdin gives for these chunks, with a limit of `limit` bytes a line. */
async function linesOf(chunks: string[], limit: number): Promise<InputLine[]> {
  const input = await readStdin(bytesSource(chunks.map((c) => Buffer.from(c))), { limit });
  assert.is(input.kind, 'ndjson');
  const out: InputLine[] = [];
  for await (const line of (input as { lines: AsyncIterable<InputLine> }).lines) out.push(line);
  return out;
}

test('NDJSON lines split across chunks, a line of exactly the limit, one byte over, and one over that spans chunks', async () => {
  assert.equal(await linesOf(['{"a":1}\n{"b"', ':2}\n{"c":3}'], 8), ['{"a":1}', '{"b":2}', '{"c":3}']);
  assert.equal(await linesOf(['{"abc":1}\n{"abcd":1}\n'], 9), ['{"abc":1}', { over: 10 }]);
  assert.equal(await linesOf(['{"a":"', 'xxxxxxxxxx', 'xxxxxxxxxx', '"}\n{"b":2}\n'], 12), [{ over: 28 }, '{"b":2}']);
  assert.equal(await linesOf(['{"a":"', 'xxxxxxxxxxxxxxxxxxxx'], 12), [{ over: 26 }]);
  assert.equal(await linesOf(['{"a":1}\r\n{"b":2}\r\n'], 64), ['{"a":1}', '{"b":2}']);
});

test.run();
