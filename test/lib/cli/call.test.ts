// The one call path (lib/cli/call.ts, lib/cli/invoke.ts): a typed call gives the records --json prints and the text a pipe gets from one run, refuses without throwing, logs under its run, and reaches the registry it is given.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { entries } from '../../../commands/index';
import { createContext } from '../../../lib/cli/call';
import { callCommand, commandNamed } from '../../../lib/cli/invoke';
import { forge, forgeEnv, stable } from '../../helpers/forge';
import { test } from '../../helpers/harness';
import { git, repoWith } from '../../helpers/repo';

/** A typed call of `name` in `cwd`, in a context closed after it. */
async function call(name: string, args: Record<string, unknown>, cwd: string, env = forgeEnv()) {
  const ctx = createContext({ cwd, env, registry: () => entries });
  try {
    return await callCommand({ spec: commandNamed(entries, name), args, ctx });
  } finally {
    ctx.close();
  }
}

test('a typed call gives the records forge --json prints and the text forge prints, from one run', async () => {
  const dir = repoWith({ 'a.ts': 'one\ntwo\nthree\n' });
  const typed = await call('read', { path: 'a.ts', start: 2 }, dir);
  const json = await forge(['read', 'a.ts', '--start', '2', '--json'], { cwd: dir });
  const text = await forge(['read', 'a.ts', '--start', '2'], { cwd: dir });
  assert.is(typed.code, 0);
  assert.equal(typed.records, json.records);
  assert.equal([typed.stdout, typed.stderr], [text.stdout, text.stderr]);
});

test('a refusal or bad input comes back as its error and record, not a throw; nothing changes', async () => {
  const dir = repoWith({ 'a.ts': 'one\n' });
  const missing = await call('edit', { path: 'a.ts', old: 'zzz', new: 'x' }, dir);
  assert.equal([missing.code, missing.error?.code, missing.records.at(-1)?.ok], [1, 'NO_MATCH', false]);
  assert.match(missing.stderr, /^Error: [\s\S]+\nFix: forge read a\.ts --start 1 --end 1\n$/);
  const bad = await call('read', { path: 'a.ts', start: 'first' }, dir);
  assert.equal([bad.code, bad.error?.code], [2, 'INVALID_ARGUMENT']);
  const unknown = await call('read', { path: 'a.ts', colour: 'red' }, dir);
  assert.equal([unknown.code, unknown.error?.code], [2, 'UNKNOWN_FIELD']);
  assert.is(readFileSync(join(dir, 'a.ts'), 'utf8'), 'one\n');
});

test('a call whose caller cancelled before it started does nothing and says CANCELLED: an edit, a memory save, a write', async () => {
  const dir = repoWith({ 'a.ts': 'one\n' });
  const before = git(dir, 'for-each-ref');
  const cancelled = new AbortController();
  cancelled.abort();
  for (const [name, args] of [
    ['edit', { path: 'a.ts', old: 'one', new: 'two' }],
    ['memory save', { pattern: 'a lesson learned' }],
    ['write', { path: 'b.ts', content: 'x\n' }],
  ] as const) {
    const ctx = createContext({ cwd: dir, env: forgeEnv(), signal: cancelled.signal, registry: () => entries });
    try {
      const r = await callCommand({ spec: commandNamed(entries, name), args, ctx });
      assert.equal([r.code, r.error?.code], [1, 'CANCELLED'], `${name}: ${r.stderr}`);
    } finally {
      ctx.close();
    }
  }
  assert.is(readFileSync(join(dir, 'a.ts'), 'utf8'), 'one\n');
  assert.not.ok(existsSync(join(dir, 'b.ts')));
  assert.is(git(dir, 'for-each-ref'), before, 'no state commit');
});

test('typed values are coerced as an NDJSON request is: "true" for a flag, "3" for a number, one string for a list', async () => {
  const dir = repoWith({ 'a.ts': 'x\nx\nx\n' });
  const r = await call('edit', { path: 'a.ts', old: 'x', new: 'y', all: 'true' }, dir);
  assert.equal([r.code, r.outcome?.data.replacements], [0, 3], r.stderr);
  const read = await call('read', { path: 'a.ts', start: '3' }, dir);
  assert.equal(read.outcome?.data.start, 3);
  const search = await call('search', { pattern: 'y', paths: 'a.ts' }, dir);
  assert.is(search.code, 0, search.stderr);
});

test('a call under a run id is logged in that run, and its hints carry the id', async () => {
  const dir = repoWith({ 'a.ts': 'one\n' });
  const r = await call('edit', { path: 'a.ts', old: 'zzz', new: 'x' }, dir, forgeEnv({ FORGE_RUN_ID: 'r7' }));
  assert.match(String(r.records.at(-1)?._next_action), /--run-id r7$/);
  const logs = await forge(['logs', '--run-id', 'r7', '--json'], { cwd: dir });
  const calls = stable(logs.records.filter((x) => x.phase === 'tool_call'));
  assert.equal(
    calls.map((c) => [c.event, c.data.exitCode, c.data.error]),
    [['edit', 1, 'NO_MATCH']],
  );
});

test('completion and schema describe every command of the registry the caller gives', async () => {
  const dir = repoWith({ 'a.ts': 'one\n' });
  const r = await call('schema', {}, dir);
  assert.is(r.code, 0, r.stderr);
  assert.ok(r.records.filter((x) => x.type === 'tool').length > 40, `${r.records.length} records`);
  const ctx = createContext({ cwd: dir, env: forgeEnv(), registry: () => [commandNamed(entries, 'read')] });
  try {
    const one = await callCommand({ spec: commandNamed(entries, 'schema'), args: {}, ctx });
    assert.equal(
      one.records.filter((x) => x.type === 'tool').map((x) => x.name),
      ['read'],
    );
  } finally {
    ctx.close();
  }
});

test.run();
