// stdin that fails to read is BAD_INPUT, never the end of the input: no command acts on what came before the failure as if it were all.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { entries } from '../../../commands/index';
import { type StdinSource, unreadable } from '../../../lib/cli/input';
import { main } from '../../../lib/cli/main';
import { repoWith } from '../../helpers/repo';
import { collector } from '../../helpers/streams';

/** A stdin that gives these chunks, then fails as a read(2) with EIO does. */
function failingAfter(...chunks: string[]): StdinSource {
  const pending = chunks.map((c) => Buffer.from(c));
  const eio = Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
  return { isTTY: false, read: () => (pending.length ? Promise.resolve(pending.shift()!) : Promise.reject(unreadable(eio))) };
}

async function run(argv: string[], stdin: StdinSource, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const [stdout, stderr] = [collector(), collector()];
  const code = await main({
    entries,
    argv: ['node', 'forge', ...argv],
    env: { ...process.env, NO_COLOR: '1', FORGE_JSON: undefined },
    cwd,
    stdin,
    stdout,
    stderr,
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

test('a text command (forge write) whose stdin fails: BAD_INPUT, exit 2, nothing written', async () => {
  const dir = repoWith({ 'a.txt': 'one\n' });
  const r = await run(['write', 'new.txt'], failingAfter('the first half'), dir);
  assert.is(r.code, 2);
  assert.match(r.stderr, /stdin could not be read \(EIO\)/);
  assert.match(r.stderr, /Fix: forge write --help/);
  assert.not.ok(existsSync(join(dir, 'new.txt')));
});

test('NDJSON whose stdin fails after a request: that request runs, then BAD_INPUT ends the call with exit 2', async () => {
  const dir = repoWith({ 'a.txt': 'one\n' });
  const r = await run(['read'], failingAfter('{"path":"a.txt"}\n{"path":'), dir);
  const records = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.is(r.code, 2);
  assert.is(records[0].path, 'a.txt');
  assert.equal([records.at(-1).error.code, records.at(-1).line], ['BAD_INPUT', 2]);
});

test('a hook payload that cannot be read is judged as an empty one: allowed with no plan active', async () => {
  const dir = repoWith({ 'a.txt': 'one\n' });
  const r = await run(['plan', 'preflight', '--hook', 'claude'], failingAfter(), dir);
  assert.is(r.code, 0);
  assert.is(r.stdout, '');
});

test.run();
