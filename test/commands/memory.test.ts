// forge memory save / recall through the built binary: exact records, dedupe, scopes, refusals.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { forge, stable } from '../helpers/forge';
import { git, stateCommits, tempDir, tempRepo, userView } from '../helpers/repo';

test('NDJSON save prints one record with _next_action and commits once', async () => {
  const dir = tempRepo();
  const before = userView(dir);
  const r = await forge(['memory', 'save'], { cwd: dir, input: '{"pattern":"use pnpm","category":"test_command"}\n' });
  assert.is(r.code, 0);
  assert.equal(stable(r.records), [
    {
      ok: true,
      saved: true,
      duplicate: false,
      scope: 'project',
      entry: { id: 'mem-<id>', category: 'test_command', pattern: 'use pnpm', confidence: 0.7, tags: [], timestamp: '<time>' },
      _next_action: 'forge memory recall pnpm',
    },
  ]);
  assert.is(stateCommits(dir), 1);
  assert.is(git(dir, 'log', '-1', '--format=%s', 'refs/forge/state'), 'memory: save [test_command] use pnpm');
  assert.is(userView(dir), before);
});

test('a duplicate (case-insensitive) is skipped, says so, and leaves the ref alone', async () => {
  const dir = tempRepo();
  await forge(['memory', 'save', 'Use PNPM', '--category', 'test_command'], { cwd: dir });
  const ref = git(dir, 'rev-parse', 'refs/forge/state');
  const r = await forge(['memory', 'save', 'use pnpm ', '--category', 'test_command'], { cwd: dir });
  assert.is(r.code, 0);
  assert.match(r.stdout, /^duplicate pattern already in project memory \[test_command\], skipped: Use PNPM\nNext: forge memory recall pnpm\n$/);
  assert.is(git(dir, 'rev-parse', 'refs/forge/state'), ref);
  const other = await forge(['memory', 'save', 'use pnpm', '--category', 'convention', '--json'], { cwd: dir });
  assert.is(other.records[0]!.saved, true);
});

test('recall: keyword match over pattern, category and tags, by confidence, project before global', async () => {
  const dir = tempRepo();
  const xdg = tempDir();
  const env = { XDG_DATA_HOME: xdg };
  const input = [
    { pattern: 'avoid npm test, use pnpm test', category: 'test_command', confidence: 0.8 },
    { pattern: 'pnpm vitest --run (watch mode hangs in CI)', category: 'test_command', confidence: 0.9 },
    { pattern: 'db is postgres 16', category: 'architecture', tag: ['database'] },
  ].map((o) => JSON.stringify(o)).join('\n');
  await forge(['memory', 'save'], { cwd: dir, input, env });
  await forge(['memory', 'save', 'tests need docker', '--category', 'test_command', '--confidence', '1', '--scope', 'global'], { cwd: dir, env });
  const r = await forge(['memory', 'recall', 'test', 'command', '--json'], { cwd: dir, env });
  assert.is(r.code, 0);
  assert.equal(r.records.map((x) => [x.type, x.scope, x.confidence]), [
    ['memory', 'project', 0.9],
    ['memory', 'project', 0.8],
    ['memory', 'global', 1],
    ['summary', undefined, undefined],
  ]);
  assert.equal(stable(r.records.at(-1)), { ok: true, type: 'summary', query: 'test command', matches: 3, project: 2, global: 1, _next_action: null });
  const tagged = await forge(['memory', 'recall', 'database'], { cwd: dir, env });
  assert.match(tagged.stdout, /\[architecture\] 0\.7 — db is postgres 16\n1 match for 'database' \(project 1, global 0\)\nDone\.\n$/);
  // Global memory is bucketed like project memory: the entry is in the bucket its id names.
  const globalDir = join(xdg, 'forge', 'memory', 'global');
  const bucket = `${r.records.find((x) => x.scope === 'global')!.id.slice(4, 6)}.jsonl`;
  assert.equal(readdirSync(globalDir), [bucket]);
  assert.equal(readFileSync(join(globalDir, bucket), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).pattern), ['tests need docker']);
});

test('no match is an informative answer, not an error', async () => {
  const dir = tempRepo();
  const r = await forge(['memory', 'recall', 'kubernetes'], { cwd: dir });
  assert.is(r.code, 0);
  assert.is(r.stdout, "no memory matches 'kubernetes'\nDone.\n");
});

test('outside a repository: global scope works, project scope is NOT_A_GIT_REPO', async () => {
  const dir = tempDir();
  const g = await forge(['memory', 'save', 'prefer rg over grep', '--scope', 'global', '--category', 'tool_usage'], { cwd: dir });
  assert.is(g.code, 0);
  const all = await forge(['memory', 'recall', 'rg'], { cwd: dir });
  assert.match(all.stdout, /not in a git repository: project memory skipped/);
  assert.match(all.stdout, /global  \[tool_usage\] 0\.7 — prefer rg over grep/);
  const p = await forge(['memory', 'save', 'x'], { cwd: dir });
  assert.is(p.code, 2);
  assert.is(p.stderr, `Error: not a git repository: '${dir}'\nFix: git init\n`);
  const j = await forge(['memory', 'recall', 'x', '--scope', 'project', '--json', '--cwd', dir], { cwd: tempDir() });
  assert.equal(j.records, [{ ok: false, error: { code: 'NOT_A_GIT_REPO', message: `not a git repository: '${dir}'`, data: { dir } }, _next_action: `git init ${dir}` }]);
});

test('an entry over 1 KB is refused with exit 2 and the ref does not move', async () => {
  const dir = tempRepo();
  await forge(['memory', 'save', 'first'], { cwd: dir });
  const ref = git(dir, 'rev-parse', 'refs/forge/state');
  const r = await forge(['memory', 'save', '--json'], { cwd: dir, input: JSON.stringify({ pattern: 'x'.repeat(1100) }) + '\n' });
  assert.is(r.code, 2);
  assert.is(r.records[0]!.error.code, 'ENTRY_TOO_LARGE');
  assert.is(r.records[0]!._next_action, 'forge memory save --help');
  assert.is(git(dir, 'rev-parse', 'refs/forge/state'), ref);
});

test.run();
