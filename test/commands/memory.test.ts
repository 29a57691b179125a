// forge memory save / recall through the built binary: exact records, dedupe, scopes, refusals.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { openRepo } from '../../lib/git/repo';
import { StateStore } from '../../lib/git/state';
import { buildEntry, CATEGORIES } from '../../lib/memory/memory';
import { forge, stable } from '../helpers/forge';
import { git, stateCommits, storeLines, tempDir, tempRepo, userView } from '../helpers/repo';

/**
 * Memory as an earlier forge kept it, one line per entry in one file: 300 entries, a line a hand
 * edit broke, an entry whose id was edited, and no final newline.
 */
async function oldMemory(): Promise<string[]> {
  const now = new Date('2025-12-01T00:00:00Z');
  const lines: string[] = [];
  for (let i = 0; i < 300; i++)
    lines.push(
      JSON.stringify(
        await buildEntry({
          pattern: `old lesson ${i}`,
          category: CATEGORIES[i % CATEGORIES.length]!,
          confidence: 0.5,
          tags: [`t${i}`],
          now,
        }),
      ),
    );
  lines.splice(150, 0, '{"pattern": broken by hand');
  lines.push(
    JSON.stringify({
      ...(await buildEntry({ pattern: 'edited id lesson', category: 'convention', confidence: 0.6, tags: [], now })),
      id: 'mem-handmade',
    }),
  );
  return lines;
}

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
  assert.match(
    r.stdout,
    /^duplicate pattern already in project memory \[test_command\], skipped: Use PNPM\nNext: forge memory recall pnpm\n$/,
  );
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
  ]
    .map((o) => JSON.stringify(o))
    .join('\n');
  await forge(['memory', 'save'], { cwd: dir, input, env });
  await forge(['memory', 'save', 'tests need docker', '--category', 'test_command', '--confidence', '1', '--scope', 'global'], {
    cwd: dir,
    env,
  });
  const r = await forge(['memory', 'recall', 'test', 'command', '--json'], { cwd: dir, env });
  assert.is(r.code, 0);
  assert.equal(
    r.records.map((x) => [x.type, x.scope, x.confidence]),
    [
      ['memory', 'project', 0.9],
      ['memory', 'project', 0.8],
      ['memory', 'global', 1],
      ['summary', undefined, undefined],
    ],
  );
  assert.equal(stable(r.records.at(-1)), {
    ok: true,
    type: 'summary',
    query: 'test command',
    matches: 3,
    project: 2,
    global: 1,
    _next_action: null,
  });
  const tagged = await forge(['memory', 'recall', 'database'], { cwd: dir, env });
  assert.match(tagged.stdout, /\[architecture\] 0\.7 — db is postgres 16\n1 match for 'database' \(project 1, global 0\)\nDone\.\n$/);
  // Global memory is bucketed like project memory: the entry is in the bucket its id names.
  const globalDir = join(xdg, 'forge', 'memory', 'global');
  const bucket = `${r.records.find((x) => x.scope === 'global')!.id.slice(4, 6)}.jsonl`;
  assert.equal(readdirSync(globalDir), [bucket]);
  assert.equal(
    readFileSync(join(globalDir, bucket), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).pattern),
    ['tests need docker'],
  );
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
  assert.match(all.stdout, /global {2}\[tool_usage\] 0\.7 — prefer rg over grep/);
  const p = await forge(['memory', 'save', 'x'], { cwd: dir });
  assert.is(p.code, 2);
  assert.is(p.stderr, `Error: not a git repository: '${dir}'\nFix: git init\n`);
  const j = await forge(['memory', 'recall', 'x', '--scope', 'project', '--json', '--cwd', dir], { cwd: tempDir() });
  assert.equal(j.records, [
    {
      ok: false,
      error: { code: 'NOT_A_GIT_REPO', message: `not a git repository: '${dir}'`, data: { dir } },
      _next_action: `git init ${dir}`,
    },
  ]);
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

test('a ref lock a crashed git left is not taken over: exit 1, the error names it and says why, nothing saved, the lock kept', async () => {
  const dir = tempRepo();
  assert.is((await forge(['memory', 'save', 'first lesson'], { cwd: dir })).code, 0);
  const head = git(dir, 'rev-parse', 'refs/forge/state');
  const lock = join(dir, '.git', 'refs', 'forge', 'state.lock');
  writeFileSync(lock, '');
  const r = await forge(['memory', 'save', 'second lesson'], { cwd: dir });
  assert.is(r.code, 1);
  assert.match(r.stderr, `'${lock}' exists`);
  assert.match(r.stderr, /crashed/);
  assert.is(git(dir, 'rev-parse', 'refs/forge/state'), head);
  assert.is(readFileSync(lock, 'utf8'), '');
});

test('a save reads and extends one bucket: the one commit changes one file', async () => {
  const dir = tempRepo();
  await forge(['memory', 'save'], {
    cwd: dir,
    input: Array.from({ length: 40 }, (_, i) => JSON.stringify({ pattern: `lesson ${i}` })).join('\n'),
  });
  const before = git(dir, 'rev-parse', 'refs/forge/state');
  const r = await forge(['memory', 'save', 'one more lesson', '--json'], { cwd: dir });
  assert.equal(git(dir, 'diff-tree', '-r', '--name-only', before, 'refs/forge/state').split('\n'), [
    `.forge/memory/project/${r.records[0]!.entry.id.slice(4, 6)}.jsonl`,
  ]);
  assert.ok(
    git(dir, 'ls-tree', '--name-only', 'refs/forge/state:.forge/memory/project').split('\n').length > 10,
    'forty entries are spread over buckets',
  );
  assert.is(storeLines(dir, '.forge/memory/project').length, 41);
});

test('project memory an earlier forge kept in one file is recalled, and converted by the next save with every line kept', async () => {
  const dir = tempRepo();
  const old = await oldMemory();
  const store = new StateStore(await openRepo({ cwd: dir }));
  await store.update({
    message: 'seed as an earlier forge wrote it',
    apply: async (tx) => tx.write('.forge/memory/project.jsonl', old.join('\n')),
  });
  store.close();
  const recall = await forge(['memory', 'recall', '--limit', '1000', '--scope', 'project', '--json'], { cwd: dir });
  assert.is(recall.records.at(-1)!.project, 301, 'read before any write');
  // A duplicate of an old entry (even one whose id was edited) is found there, and the ref stays.
  const ref = git(dir, 'rev-parse', 'refs/forge/state');
  for (const [pattern, category] of [
    ['OLD LESSON 7', CATEGORIES[7 % CATEGORIES.length]!],
    ['edited id lesson', 'convention'],
  ] as Array<[string, string]>) {
    const dup = await forge(['memory', 'save', pattern, '--category', category, '--json'], { cwd: dir });
    assert.is(dup.records[0]!.duplicate, true, pattern);
  }
  assert.is(git(dir, 'rev-parse', 'refs/forge/state'), ref);

  const saved = await forge(['memory', 'save', 'a new lesson', '--json'], { cwd: dir });
  assert.is(saved.records[0]!.saved, true);
  assert.equal(git(dir, 'ls-tree', '--name-only', 'refs/forge/state:.forge/memory'), 'project', 'the old file is gone, converted');
  const lines = storeLines(dir, '.forge/memory/project');
  assert.equal(
    [...lines].sort(),
    [...old, JSON.stringify(saved.records[0]!.entry)].sort(),
    'every line kept as it was, the broken one too',
  );
  // Each entry is in the bucket its key hashes to, the one a later save of it reads.
  for (const name of git(dir, 'ls-tree', '--name-only', 'refs/forge/state:.forge/memory/project').split('\n')) {
    for (const line of git(dir, 'show', `refs/forge/state:.forge/memory/project/${name}`).split('\n')) {
      if (line.includes('"id":"mem-') && !line.includes('mem-handmade')) assert.is(JSON.parse(line).id.slice(4, 6), name.slice(0, 2), line);
    }
  }
  const again = await forge(['memory', 'save', 'edited id lesson', '--json'], { cwd: dir });
  assert.is(again.records[0]!.duplicate, true, 'found in its bucket after the conversion');
  const all = await forge(['memory', 'recall', '--limit', '1000', '--scope', 'project', '--json'], { cwd: dir });
  assert.is(all.records.at(-1)!.project, 302);
});

test('only an entry repeats a save: a line with its pattern that is not an entry does not, and the first entry that does is the one named', async () => {
  const now = new Date('2025-12-01T00:00:00Z');
  const entry = await buildEntry({ pattern: 'Lesson Twice', category: 'convention', confidence: 0.6, tags: [], now });
  const seed = async (lines: string[]) => {
    const dir = tempRepo();
    const store = new StateStore(await openRepo({ cwd: dir }));
    await store.update({ message: 'seed', apply: async (tx) => tx.write('.forge/memory/project.jsonl', `${lines.join('\n')}\n`) });
    store.close();
    return dir;
  };
  const notEntries = [
    '{"category":"convention","pattern":"lesson twice", broken',
    JSON.stringify({ category: 'convention', pattern: 'lesson twice' }), // no id
    JSON.stringify({ ...entry, confidence: 'high' }),
    JSON.stringify({ ...entry, id: 42 }),
    JSON.stringify({ ...entry, category: 'test_command', id: 'mem-other' }),
  ];
  const none = await seed(notEntries);
  const saved = await forge(['memory', 'save', 'lesson twice', '--category', 'convention', '--json'], { cwd: none });
  assert.is(saved.records[0]!.saved, true, 'nothing there was an entry with its key');
  const two = await seed([...notEntries, JSON.stringify({ ...entry, id: 'mem-first' }), JSON.stringify({ ...entry, id: 'mem-second' })]);
  const ref = git(two, 'rev-parse', 'refs/forge/state');
  const dup = await forge(['memory', 'save', 'lesson twice', '--category', 'convention', '--json'], { cwd: two });
  assert.is(dup.records[0]!.duplicate, true);
  assert.is(dup.records[0]!.entry.id, 'mem-first');
  assert.is(git(two, 'rev-parse', 'refs/forge/state'), ref);
});

test('global memory an earlier forge kept in global.jsonl is recalled, and converted by the next global save with every line kept', async () => {
  const xdg = tempDir();
  const env = { XDG_DATA_HOME: xdg };
  const old = await oldMemory();
  mkdirSync(join(xdg, 'forge', 'memory'), { recursive: true });
  writeFileSync(join(xdg, 'forge', 'memory', 'global.jsonl'), old.join('\n'));
  const dir = tempDir();
  const recall = await forge(['memory', 'recall', '--limit', '1000', '--scope', 'global', '--json'], { cwd: dir, env });
  assert.is(recall.records.at(-1)!.global, 301);
  const dup = await forge(['memory', 'save', 'old lesson 0', '--category', CATEGORIES[0], '--scope', 'global', '--json'], {
    cwd: dir,
    env,
  });
  assert.is(dup.records[0]!.duplicate, true);
  assert.ok(readdirSync(join(xdg, 'forge', 'memory')).includes('global.jsonl'), 'a duplicate converts nothing');
  const saved = await forge(['memory', 'save', 'a new global lesson', '--scope', 'global', '--json'], { cwd: dir, env });
  assert.is(saved.records[0]!.saved, true);
  assert.equal(readdirSync(join(xdg, 'forge', 'memory')), ['global'], 'the old file is gone, converted');
  const globalDir = join(xdg, 'forge', 'memory', 'global');
  const lines = readdirSync(globalDir).flatMap((n) => readFileSync(join(globalDir, n), 'utf8').split('\n').filter(Boolean));
  assert.equal(lines.sort(), [...old, JSON.stringify(saved.records[0]!.entry)].sort());
  const all = await forge(['memory', 'recall', '--limit', '1000', '--scope', 'global', '--json'], { cwd: dir, env });
  assert.is(all.records.at(-1)!.global, 302);
});

test('a relative XDG_DATA_HOME is ignored, as the XDG spec says: global memory goes to $HOME/.local/share, never into the work tree', async () => {
  const dir = tempRepo();
  const home = tempDir('forge-home-');
  const env = { XDG_DATA_HOME: 'rel-data', HOME: home };
  const r = await forge(['memory', 'save', 'use pnpm', '--scope', 'global'], { cwd: dir, env });
  assert.is(r.code, 0, r.stderr);
  assert.ok(readdirSync(join(home, '.local', 'share', 'forge', 'memory', 'global')).length > 0, 'saved under $HOME/.local/share/forge');
  assert.is(git(dir, 'status', '--porcelain', '--ignored'), '', 'nothing in the work tree');
  const found = await forge(['memory', 'recall', 'pnpm', '--scope', 'global', '--json'], { cwd: join(dir), env });
  assert.equal(
    found.records.filter((x) => x.type === 'memory').map((x) => x.pattern),
    ['use pnpm'],
  );
});

test.run();
