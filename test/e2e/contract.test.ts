// The I/O contract end to end: forge-<cmd>, NDJSON streams, exit codes, --cwd/FORGE_CWD, EPIPE, debug, concurrency.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { openRepo } from '../../lib/git/repo';
import { StateStore } from '../../lib/git/state';
import { FORGE, forge, forgeEnv } from '../helpers/forge';
import { git, stateCommits, storeLines, tempDir, tempRepo, userView } from '../helpers/repo';

test('forge-<cmd> is forge <cmd>, nested commands included', async () => {
  const dir = tempRepo();
  const saved = await forge(['save', 'via forge-memory'], { cwd: dir, program: 'forge-memory' });
  assert.is(saved.code, 0);
  const recalled = await forge(['recall', 'forge-memory', '--json'], { cwd: dir, program: 'forge-memory' });
  assert.is(recalled.records[0]!.pattern, 'via forge-memory');
  const log = await forge(['log', '--limit', '1'], { cwd: dir, program: 'forge-state' });
  assert.match(log.stdout, /memory: save \[convention\] via forge-memory/);
  const help = await forge(['--help'], { cwd: dir, program: 'forge-iter' });
  assert.match(help.stdout, /^forge iter — /);
});

test('NDJSON: ids echoed, one record per request, bad lines named, exit code is the highest', async () => {
  const dir = tempRepo();
  const input = [
    '{"id":"a","pattern":"one"}',
    '',
    '{"id":"b","pattern":',
    '{"id":"c","pattern":"two","category":"nope"}',
    '{"id":"d","pattern":"one"}',
  ].join('\n');
  const r = await forge(['memory', 'save'], { cwd: dir, input });
  assert.is(r.code, 2);
  assert.equal(
    r.records.map((x) => [x.id, x.ok, x.error?.code ?? (x.duplicate ? 'dup' : 'saved'), x.line]),
    [
      ['a', true, 'saved', undefined],
      [undefined, false, 'BAD_NDJSON', 3],
      ['c', false, 'INVALID_ARGUMENT', 4],
      ['d', true, 'dup', undefined],
    ],
  );
  assert.match(r.records[1]!.error.message, /^stdin:3: /);
  assert.is(r.stderr, '');
  const show = await forge(['state', 'show'], { cwd: dir, input: '{"id":1,"path":"memory/project.jsonl"}\n{"id":2,"path":"missing"}\n' });
  assert.is(show.code, 1, 'a refused request (1) and a success (0) give 1');
  assert.equal(
    show.records.map((x) => [x.id, x.ok]),
    [
      [1, true],
      [2, false],
    ],
  );
  const stream = await forge(['memory', 'recall'], { cwd: dir, input: '{"id":"q","query":"one"}\n' });
  assert.equal(
    stream.records.map((x) => [x.id, x.type]),
    [
      ['q', 'memory'],
      ['q', 'summary'],
    ],
  );
});

test('text stdin for a command that takes NDJSON is BAD_INPUT; --json and FORGE_JSON=1 give records', async () => {
  const dir = tempRepo();
  const r = await forge(['memory', 'save'], { cwd: dir, input: 'just text\n' });
  assert.is(r.code, 2);
  assert.match(r.stderr, /^Error: stdin is not NDJSON/);
  const j = await forge(['memory', 'recall', 'x'], { cwd: dir, env: { FORGE_JSON: '1' } });
  assert.equal(j.records, [{ ok: true, query: 'x', matches: 0, project: 0, global: 0, _next_action: null }]);
});

test('--cwd beats FORGE_CWD beats the process directory; hints carry --cwd; a missing dir is CWD_NOT_FOUND', async () => {
  const a = tempRepo();
  const b = tempRepo();
  const elsewhere = tempDir();
  await forge(['memory', 'save', 'in b', '--cwd', b], { cwd: elsewhere, env: { FORGE_CWD: a } });
  assert.is(stateCommits(b), 1);
  assert.is(stateCommits(a), 0);
  const viaEnv = await forge(['memory', 'save', 'in a'], { cwd: elsewhere, env: { FORGE_CWD: a } });
  assert.is(viaEnv.stdout, "saved to project memory [convention]: in a\nNext: forge memory recall 'in a'\n");
  assert.is(stateCommits(a), 1);
  const hinted = await forge(['memory', 'save', 'again', '--cwd', a, '--run-id', 'r7'], { cwd: elsewhere });
  assert.match(hinted.stdout, new RegExp(`Next: forge memory recall again --cwd ${a} --run-id r7\\n$`));
  const sub = join(a, 'src');
  mkdirSync(sub);
  assert.is((await forge(['memory', 'recall', 'again', '--json'], { cwd: sub })).records.at(-1)!.matches, 1, 'works from a subdirectory');
  const missing = await forge(['memory', 'recall', 'x', '--cwd', '/no/such/dir'], { cwd: elsewhere });
  assert.is(missing.code, 2);
  assert.is(missing.stderr, "Error: working directory '/no/such/dir' does not exist\nFix: mkdir -p /no/such/dir\n");
});

/** Runs a hint as a user pastes it into a shell with forge on PATH (and no FORGE_RUN_ID: a one-command environment is gone). */
function followHint(hint: string, cwd: string): { status: number | null; stdout: string; stderr: string } {
  const bin = tempDir('forge-hint-bin-');
  spawnSync('ln', ['-s', FORGE, join(bin, 'forge')]);
  return spawnSync('bash', ['-c', hint], { cwd, env: forgeEnv({ PATH: `${bin}:${process.env.PATH}` }), encoding: 'utf8' });
}

test('a run id given by FORGE_RUN_ID travels in the hint as --run-id, so following it in the same shell finds the run', async () => {
  const dir = tempRepo();
  const updated = await forge(['iter', 'update', 'm3', '--status', 'failed', '--score', '0.4', '--issue', 'auth.test fails'], {
    cwd: dir,
    env: { FORGE_RUN_ID: 'r1' },
  });
  assert.is(updated.stdout, 'r1/m3: attempt 1 failed\nNext: forge iter get m3 --run-id r1\n');
  const followed = followHint('forge iter get m3 --run-id r1', dir);
  assert.equal([followed.status, followed.stdout.split('\n')[0]], [0, 'r1/m3: 1 attempt, last failed']);
  const json = await forge(['memory', 'save', 'x', '--json'], { cwd: dir, env: { FORGE_RUN_ID: 'r2' } });
  assert.is(json.records[0]!._next_action, 'forge memory recall x --run-id r2');
  const flag = await forge(['memory', 'save', 'y', '--run-id', 'r3'], { cwd: dir, env: { FORGE_RUN_ID: 'r2' } });
  assert.match(flag.stdout, /Next: forge memory recall y --run-id r3\n$/, 'the flag beats the environment, in the hint too');
  const errored = await forge(['iter', 'get', 'm3', '--status', 'x'], { cwd: dir, env: { FORGE_RUN_ID: 'r1' } });
  assert.match(errored.stderr, /\nFix: forge iter get --help\n$/, 'help needs no run id');
});

test('under --cwd a git hint runs git -C DIR; outside a repository an edit hints forge read, which works', async () => {
  const dir = tempRepo();
  const elsewhere = tempDir();
  const edited = await forge(['edit', 'README.md', '--old', 'fixture', '--new', 'changed', '--cwd', dir], { cwd: elsewhere });
  assert.match(edited.stdout, new RegExp(`\nNext: git -C ${dir} diff -- README.md\n$`));
  const diff = followHint(`git -C ${dir} diff -- README.md`, elsewhere);
  assert.equal([diff.status, /^\+# changed$/m.test(diff.stdout)], [0, true]);
  const plain = tempDir();
  spawnSync('sh', ['-c', 'printf "one\\ntwo\\n" > a.txt'], { cwd: plain });
  const outside = await forge(['edit', 'a.txt', '--old', 'two', '--new', 'three'], { cwd: plain });
  assert.match(outside.stdout, /\nNext: forge read a\.txt --start 2\n$/);
  const read = followHint('forge read a.txt --start 2', plain);
  assert.is(read.status, 0);
  assert.match(read.stdout, /^a\.txt: lines 2–2 of 2\n2#[0-9a-f]{4}: three\nDone\.\n$/);
});

test('invocation errors exit 2 with Error/Fix; --help exits 0; no stack traces unless FORGE_DEBUG=1', async () => {
  const dir = tempRepo();
  const cases: Array<[string[], RegExp]> = [
    [['memory', 'save', 'x', '--bogus'], /^Error: unknown option '--bogus'\nFix: forge memory save --help\n$/],
    [['read', 'a.txt', '-z'], /^Error: unknown option '-z'\nFix: forge read --help\n$/],
    [['read', 'a.txt', '--no-bogus'], /^Error: unknown option '--no-bogus'\nFix: forge read --help\n$/],
    [['memroy'], /^Error: unknown command 'memroy'; did you mean 'memory'\?\nFix: forge memory --help\n$/],
    [['memory', '--bogus'], /^Error: 'forge memory' needs a subcommand: recall, save\nFix: forge memory --help\n$/],
    [['--bogus'], /^Error: unknown option '--bogus'\nFix: forge --help\n$/],
    [['memory', 'recall', '--limit', 'x'], /^Error: '--limit' must be a number\nFix: forge memory recall --help\n$/],
    [['memory', 'save'], /^Error: missing required argument 'pattern'\nFix: forge memory save --help\n$/],
    [['iter', 'get', 'a', 'b'], /^Error: unexpected argument 'b'\nFix: forge iter get --help\n$/],
    [['memory', 'save', 'x', '--category'], /^Error: option '--category' needs a value\nFix: forge memory save --help\n$/],
  ];
  for (const [args, expected] of cases) {
    const r = await forge(args, { cwd: dir });
    assert.is(r.code, 2, args.join(' '));
    assert.match(r.stderr, expected);
    assert.is(r.stdout, '');
  }
  assert.is(stateCommits(dir), 0);
  const help = await forge(['memory', 'save', '--help'], { cwd: dir });
  assert.is(help.code, 0);
  assert.match(help.stdout, /^forge memory save <pattern> \[--category CATEGORY\]/);
  assert.match(help.stdout, /Exit status:\n {2}0 {2}saved, or skipped as a duplicate/);
  const top = await forge([], { cwd: dir });
  assert.is(top.code, 0);
  assert.match(top.stdout, /memory recall +Find remembered patterns/);
  const version = await forge(['--version'], { cwd: dir });
  assert.match(version.stdout, /^forge \d+\.\d+\.\d+\n$/);
  const plain = await forge(['memory', 'save', 'x'], { cwd: tempDir() });
  assert.not.match(plain.stderr, /\n\s+at /);
  const debug = await forge(['memory', 'save', 'x'], { cwd: tempDir(), env: { FORGE_DEBUG: '1' } });
  assert.match(debug.stderr, /\n\s+at /);
});

test('a closed pipe ends the command quietly with exit 0 (forge … | head -1)', async () => {
  const dir = tempRepo();
  const store = new StateStore(await openRepo({ cwd: dir }));
  const line = (i: number) =>
    JSON.stringify({
      id: `ev-${i}`,
      timestamp: '2026-01-01T00:00:00Z',
      runId: 'big',
      phase: 'execution',
      moduleId: 'm',
      event: 'tick',
      severity: 'info',
      data: { i, pad: 'x'.repeat(100) },
    });
  await store.update({
    message: 'seed',
    apply: async (tx) => tx.write('.forge/logs/big.jsonl', Array.from({ length: 20000 }, (_, i) => line(i)).join('\n') + '\n'),
  });
  store.close();
  const r = spawnSync('bash', ['-c', `set -o pipefail; node ${FORGE} logs --run-id big --limit 0 --json | head -1`], {
    cwd: dir,
    env: forgeEnv(),
    encoding: 'utf8',
  });
  assert.is(r.status, 0);
  assert.is(r.stderr, '');
  assert.is(JSON.parse(r.stdout).data.i, 0);
});

test('8 processes × 50 concurrent saves of distinct patterns: exactly 400 entries, fsck clean, user view untouched', async () => {
  const dir = tempRepo();
  const before = userView(dir);
  const runs = await Promise.all(
    Array.from({ length: 8 }, (_, p) =>
      forge(['memory', 'save'], {
        cwd: dir,
        input: Array.from({ length: 50 }, (_, i) => JSON.stringify({ pattern: `writer ${p} lesson ${i}` })).join('\n'),
      }),
    ),
  );
  assert.equal(
    runs.map((r) => r.code),
    Array(8).fill(0),
  );
  assert.is(runs.flatMap((r) => r.records).filter((x) => x.saved).length, 400);
  const lines = storeLines(dir, '.forge/memory/project');
  assert.is(lines.length, 400);
  assert.is(new Set(lines.map((l) => JSON.parse(l).pattern)).size, 400);
  assert.is(stateCommits(dir), 400);
  assert.is(git(dir, 'fsck', '--strict', '--no-dangling'), '');
  assert.is(userView(dir), before);
});

test.run();
