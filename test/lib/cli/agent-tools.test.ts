// The agent's tool views: near-miss argument keys, hints as tool calls, descriptions without CLI flags, the replace tool.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { entries } from '../../../commands/index';
import { agentTools } from '../../../lib/cli/agent-tools';
import { repoWith } from '../../helpers/repo';

const toolsIn = (dir: string) => agentTools({ entries, cwd: dir, root: dir, env: { ...process.env, NO_COLOR: '1' } });

test('near-miss keys are taken as the argument they mean, and the result says so', async () => {
  const dir = repoWith({ 'a.ts': 'one\ntwo\n' });
  const r = await toolsIn(dir).run('read', { file_path: 'a.ts', Start: 2 });
  assert.ok(r.ok, r.text);
  assert.is(r.text.split('\n')[0], "[read: took 'file_path' as 'path'; took 'Start' as 'start']");
  assert.match(r.text, /2#[0-9a-f]{4}: two/);
  const e = await toolsIn(dir).run('edit', { path: 'a.ts', old_string: 'one', new_string: 'ONE' });
  assert.ok(e.ok, e.text);
  assert.is(readFileSync(join(dir, 'a.ts'), 'utf8'), 'ONE\ntwo\n');
});

test('an unknown key is refused naming the real arguments; no hint names a CLI command', async () => {
  const dir = repoWith({ 'a.ts': 'one\n' });
  const tools = toolsIn(dir);
  const unknown = await tools.run('read', { bogus: 1 });
  assert.equal(unknown, { ok: false, text: "Error: read has no argument 'bogus'; it takes path (required), start, end, symbols" });
  const missing = await tools.run('read', {});
  assert.is(missing.text, "Error: missing required argument 'path'\nFix: call read with path (required), start, end, symbols");
  const none = await tools.run('replace', { old: 'zzz(', new: 'x' });
  assert.is(none.text.split('\n').at(-1), 'Fix: search {"pattern":"zzz\\\\("}');
  const stale = await tools.run('edit', { path: 'a.ts', old: 'qqq', new: 'x' });
  assert.is(stale.text.split('\n').at(-1), 'Fix: read {"path":"a.ts","start":1,"end":1}');
});

test('the replace tool removes every console.log under src/ in one call', async () => {
  const files = Object.fromEntries(
    Array.from({ length: 5 }, (_, i) => [`src/f${i}.ts`, `export const v${i} = ${i};\n  console.log(v${i});\nexport {};\n`]),
  );
  const dir = repoWith({ ...files, 'lib/keep.ts': 'console.log(1);\n' });
  const r = await toolsIn(dir).run('replace', { old: '^\\s*console\\.log\\(.*\\);?\\n', new: '', paths: ['src'], regex: true });
  assert.ok(r.ok, r.text);
  for (let i = 0; i < 5; i++) assert.is(readFileSync(join(dir, `src/f${i}.ts`), 'utf8'), `export const v${i} = ${i};\nexport {};\n`);
  assert.is(readFileSync(join(dir, 'lib/keep.ts'), 'utf8'), 'console.log(1);\n');
  assert.is(r.text.split('\n').at(-1), 'Next: bash {"command":"git diff --stat"}');
});

test('tool descriptions are written for the model: no CLI flags, no stdin', () => {
  const { schemas } = toolsIn(process.cwd());
  assert.ok(schemas.some((s) => s.function.name === 'replace'));
  const text = JSON.stringify(schemas);
  assert.not.match(text, /--[a-z]|stdin/);
});

test.run();
