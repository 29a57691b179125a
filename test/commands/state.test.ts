// forge state log / show / export / sync: plain views of the ref, and sharing it through a bare remote.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { openRepo } from '../../lib/git/repo';
import { StateStore } from '../../lib/git/state';
import { forge } from '../helpers/forge';
import { git, storeLines, tempDir, tempRepo, userView } from '../helpers/repo';

/** A bare remote and two clones of it, a and b, each with origin set. */
function twoClones(): { remote: string; a: string; b: string } {
  const remote = tempRepo({ bare: true });
  const a = tempRepo();
  git(a, 'remote', 'add', 'origin', remote);
  git(a, 'push', '-q', 'origin', 'main');
  const b = join(tempDir(), 'b');
  git(tempDir(), 'clone', '-q', remote, b);
  return { remote, a, b };
}

/** Writes a whole state file as an earlier forge did (one file per store), in one state commit. */
async function writeAsEarlierForge(dir: string, path: string, lines: string[]): Promise<void> {
  const store = new StateStore(await openRepo({ cwd: dir }));
  try {
    await store.update({ message: `an earlier forge writes ${path}`, apply: async (tx) => tx.write(path, `${lines.join('\n')}\n`) });
  } finally {
    store.close();
  }
}

test('log lists state commits newest first; show prints a file raw with the hint on stderr', async () => {
  const dir = tempRepo();
  await forge(['memory', 'save', 'one'], { cwd: dir });
  await forge(['memory', 'save', 'two'], { cwd: dir });
  const log = await forge(['state', 'log', '--json'], { cwd: dir });
  assert.equal(
    log.records.filter((x) => x.type === 'commit').map((x) => x.message),
    ['memory: save [convention] two', 'memory: save [convention] one'],
  );
  // Memory is kept in buckets; shown as the one file it was, its lines are what plain git reads.
  const show = await forge(['state', 'show', 'memory/project.jsonl'], { cwd: dir });
  assert.is(show.stdout, `${storeLines(dir, '.forge/memory/project').join('\n')}\n`);
  assert.equal(
    show.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).pattern)
      .sort(),
    ['one', 'two'],
  );
  assert.is(show.stderr, 'Done.\n');
  const bucket = await forge(['state', 'show', git(dir, 'ls-tree', '-r', '--name-only', 'refs/forge/state').split('\n')[0]!], { cwd: dir });
  assert.is(
    bucket.stdout,
    `${git(dir, 'show', `refs/forge/state:${git(dir, 'ls-tree', '-r', '--name-only', 'refs/forge/state').split('\n')[0]}`)}\n`,
  );
  const list = await forge(['state', 'show'], { cwd: dir });
  assert.match(
    list.stdout,
    /^( +\d+ {2}\.forge\/memory\/project\/[0-9a-f]{2}\.jsonl\n){1,2}[12] files? under \.forge\nNext: forge state show \.forge\/memory\/project\/[0-9a-f]{2}\.jsonl\n$/,
  );
  const missing = await forge(['state', 'show', 'nope', '--json'], { cwd: dir });
  assert.is(missing.code, 1);
  assert.equal(missing.records[0]!.error.code, 'STATE_PATH_NOT_FOUND');
  const escaped = await forge(['state', 'show', '../../etc/passwd'], { cwd: dir });
  assert.is(escaped.code, 2);
});

test('export writes .forge/ into an empty directory and refuses a non-empty one', async () => {
  const dir = tempRepo();
  await forge(['session', 'save', '--run-id', 'r', '--phase', 'p'], { cwd: dir });
  const out = join(tempDir(), 'export');
  const r = await forge(['state', 'export', out], { cwd: dir });
  assert.is(r.code, 0);
  assert.equal(JSON.parse(readFileSync(join(out, '.forge/sessions/r.json'), 'utf8')).currentPhase, 'p');
  const again = await forge(['state', 'export', out], { cwd: dir });
  assert.is(again.code, 1);
  assert.match(again.stderr, /is not empty/);
});

test('sync shares state between two clones through a bare remote, merging diverged changes', async () => {
  const { remote, a, b } = twoClones();
  const viewA = userView(a);
  const viewB = userView(b);

  await forge(['memory', 'save', 'from a'], { cwd: a });
  await forge(['session', 'save', '--run-id', 'shared', '--phase', 'a-phase'], { cwd: a });
  await forge(['iter', 'update', 'm1', '--run-id', 'r', '--status', 'failed'], { cwd: a });
  const pushed = await forge(['state', 'sync', '--json'], { cwd: a });
  assert.equal([pushed.code, pushed.records[0]!.action, pushed.records[0]!.pushed], [0, 'pushed', true]);

  await forge(['memory', 'save', 'from b'], { cwd: b });
  const ff = await forge(['state', 'sync'], { cwd: b });
  assert.match(ff.stdout, /^origin: merged both sides( \(combined [^)]+\))?, pushed at [0-9a-f]{12}\n/);

  // Diverge again: a resets m1 and saves a later session; b saves an older-phase session first.
  // Later by the clock: a's save is a process started after b's ended, and stamps are in milliseconds.
  await forge(['session', 'save', '--run-id', 'shared', '--phase', 'b-phase'], { cwd: b });
  await forge(['session', 'save', '--run-id', 'shared', '--phase', 'a-later'], { cwd: a });
  await forge(['iter', 'reset', 'm1', '--run-id', 'r'], { cwd: a });
  await forge(['memory', 'save', 'from a again'], { cwd: a });
  await forge(['state', 'sync'], { cwd: b });
  const merged = await forge(['state', 'sync', '--json'], { cwd: a });
  assert.is(merged.records[0]!.action, 'merged');
  const final = await forge(['state', 'sync', '--json'], { cwd: b });
  assert.is(final.records[0]!.action, 'fast-forwarded');

  for (const dir of [a, b]) {
    const memory = storeLines(dir, '.forge/memory/project').map((l) => JSON.parse(l).pattern);
    assert.equal(memory.sort(), ['from a', 'from a again', 'from b']);
    assert.is(JSON.parse(git(dir, 'show', 'refs/forge/state:.forge/sessions/shared.json')).currentPhase, 'a-later');
    assert.not.ok(git(dir, 'ls-tree', '-r', '--name-only', 'refs/forge/state').includes('iterations/r/m1.json'), 'the reset on a sticks');
  }
  assert.is(git(a, 'rev-parse', 'refs/forge/state'), git(remote, 'rev-parse', 'refs/forge/state'));
  assert.is(git(b, 'rev-parse', 'refs/forge/state'), git(remote, 'rev-parse', 'refs/forge/state'));
  assert.is(userView(a), viewA);
  assert.is(userView(b), viewB);
  assert.is(git(remote, 'fsck', '--strict', '--no-dangling'), '');
});

/** Every file of a repository's git dir with a hash of its content: a bare remote that did not change compares equal. */
function gitDirSnapshot(dir: string): string {
  return execFileSync('sh', ['-c', 'find . -type f -print0 | sort -z | xargs -0 sha256sum'], { cwd: dir, encoding: 'utf8' });
}

test('sync --dry-run says what a sync would share, by kind, and fetches and pushes nothing; a sync says what it pushed', async () => {
  const remote = tempRepo({ bare: true });
  const dir = tempRepo();
  git(dir, 'remote', 'add', 'origin', remote);
  await forge(['memory', 'save', 'one lesson'], { cwd: dir });
  await forge(['memory', 'save', 'another lesson'], { cwd: dir });
  await forge(['session', 'save', '--run-id', 'r1', '--phase', 'build'], { cwd: dir });
  await forge(['iter', 'update', 'm1', '--run-id', 'r1', '--status', 'failed'], { cwd: dir });
  await forge(['iter', 'update', 'm2', '--run-id', 'r1', '--status', 'passed'], { cwd: dir });
  await forge(['memory', 'recall', 'x', '--run-id', 'r2'], { cwd: dir });
  const shared = [
    { kind: 'memory', files: 1, entries: 2 },
    { kind: 'logs', files: 2, entries: 4 },
    { kind: 'iterations', files: 2, entries: 2 },
    { kind: 'sessions', files: 1, entries: 1 },
  ];
  const remoteBefore = gitDirSnapshot(remote);

  const dry = await forge(['state', 'sync', '--dry-run', '--json'], { cwd: dir });
  assert.is(dry.code, 0, dry.stderr);
  const record = dry.records.at(-1)!;
  assert.equal(
    [record.dryRun, record.pushed, record.head, record.shared],
    [true, false, git(dir, 'rev-parse', 'refs/forge/state'), shared],
  );
  assert.is(record._next_action, 'forge state sync origin');
  const text = await forge(['state', 'sync', '--dry-run'], { cwd: dir });
  assert.match(
    text.stdout,
    /^origin: dry run, nothing fetched or pushed; a sync would share refs\/forge\/state at [0-9a-f]{12} \(origin has no state yet\)\nwould share: memory 2 entries, logs 4 entries in 2 files, iterations 2 entries, sessions 1 entry\n/,
  );
  assert.is(gitDirSnapshot(remote), remoteBefore, 'the remote did not change');
  assert.is(git(dir, 'for-each-ref', 'refs/forge/remotes'), '', 'nothing was fetched');
  const unknown = await forge(['state', 'sync', 'nowhere', '--dry-run'], { cwd: dir });
  assert.is(unknown.code, 2);
  assert.match(unknown.stderr, /no remote named 'nowhere' \(remotes: origin\)/);
  // A path or URL that names no repository would fail the sync: the dry run says so, not what it would share.
  const gone = await forge(['state', 'sync', join(tempDir(), 'no-such-remote'), '--dry-run', '--json'], { cwd: dir });
  assert.equal([gone.code, gone.records[0]!.error.code], [1, 'SYNC_FAILED']);

  const real = await forge(['state', 'sync', '--json'], { cwd: dir });
  assert.equal([real.code, real.records[0]!.action, real.records[0]!.pushed, real.records[0]!.shared], [0, 'pushed', true, shared]);
  assert.is(git(remote, 'rev-parse', 'refs/forge/state'), git(dir, 'rev-parse', 'refs/forge/state'));
  const again = await forge(['state', 'sync'], { cwd: dir });
  assert.match(again.stdout, /^origin: already up to date at [0-9a-f]{12}\nNext: /, 'nothing pushed, nothing listed');
  const after = await forge(['state', 'sync', '--dry-run'], { cwd: dir });
  assert.match(after.stdout, /\(merged with what origin holds\)\n/);
});

test('two clones that appended to one run log and saved one lesson merge in the same segment and bucket: every event once, the lesson once; syncing again changes nothing', async () => {
  const { remote, a, b } = twoClones();
  const recall = (dir: string, n: number) =>
    forge(['memory', 'recall'], {
      cwd: dir,
      input: Array.from({ length: n }, () => '{"query":"x"}').join('\n'),
      env: { FORGE_RUN_ID: 'shared' },
    });
  await recall(a, 1);
  await forge(['state', 'sync'], { cwd: a });
  await forge(['state', 'sync'], { cwd: b });
  await recall(a, 3);
  await forge(['memory', 'save', 'same lesson'], { cwd: a });
  await recall(b, 2);
  await forge(['memory', 'save', 'Same lesson '], { cwd: b });
  await forge(['state', 'sync'], { cwd: a });
  const merged = await forge(['state', 'sync', '--json'], { cwd: b });
  assert.is(merged.records[0]!.action, 'merged');
  assert.equal(
    [...merged.records[0]!.combined].sort(),
    ['.forge/logs/shared.jsonl', '.forge/memory/project.jsonl'],
    'named as the files they stand for',
  );
  await forge(['state', 'sync'], { cwd: a });
  for (const dir of [a, b]) {
    const events = storeLines(dir, '.forge/logs/shared');
    assert.is(events.length, 6);
    assert.is(new Set(events.map((l) => JSON.parse(l).id)).size, 6);
    assert.equal(git(dir, 'ls-tree', '--name-only', 'refs/forge/state:.forge/logs/shared'), '000000.jsonl');
    assert.equal(
      storeLines(dir, '.forge/memory/project').map((l) => JSON.parse(l).pattern.toLowerCase()),
      ['same lesson'],
    );
    const logs = await forge(['logs', '--run-id', 'shared', '--limit', '0', '--json'], { cwd: dir });
    assert.is(logs.records.at(-1)!.total, 6);
  }
  const head = git(remote, 'rev-parse', 'refs/forge/state');
  for (const dir of [a, b, a]) {
    const again = await forge(['state', 'sync', '--json'], { cwd: dir });
    assert.is(again.records[0]!.action, 'up-to-date');
    assert.is(git(dir, 'rev-parse', 'refs/forge/state'), head);
  }
});

test("a clone still on an earlier forge's single memory file syncs with one that converted it: nothing lost, nothing twice", async () => {
  const { a, b } = twoClones();
  const line = (pattern: string) =>
    JSON.stringify({
      id: `mem-${pattern}`,
      category: 'convention',
      pattern,
      confidence: 0.5,
      tags: [],
      timestamp: '2025-12-01T00:00:00.000Z',
    });
  await writeAsEarlierForge(a, '.forge/memory/project.jsonl', [line('one'), line('two')]);
  await forge(['state', 'sync'], { cwd: a });
  await forge(['state', 'sync'], { cwd: b });
  await forge(['memory', 'save', 'saved on a'], { cwd: a }); // converts a's file into buckets
  await writeAsEarlierForge(b, '.forge/memory/project.jsonl', [line('one'), line('two'), line('three, by the earlier forge')]);
  await forge(['state', 'sync'], { cwd: a });
  assert.is((await forge(['state', 'sync', '--json'], { cwd: b })).records[0]!.action, 'merged');
  const patterns = async (dir: string) =>
    (await forge(['memory', 'recall', '--limit', '100', '--scope', 'project', '--json'], { cwd: dir })).records
      .filter((x) => x.type === 'memory')
      .map((x) => x.pattern)
      .sort();
  const all = ['one', 'saved on a', 'three, by the earlier forge', 'two'];
  assert.equal(await patterns(b), all, 'the old file the merge kept and the buckets are read together');
  const shown = (await forge(['state', 'show', 'memory/project.jsonl'], { cwd: b })).stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).pattern);
  assert.equal(shown.slice(0, 3), ['one', 'two', 'three, by the earlier forge'], 'shown whole: the old file first');
  assert.equal(shown.slice(3).sort(), ['one', 'saved on a', 'two']);
  await forge(['memory', 'save', 'saved on b'], { cwd: b }); // converts again: only the line the buckets lack is carried
  assert.equal(git(b, 'ls-tree', '--name-only', 'refs/forge/state:.forge/memory'), 'project');
  assert.equal(
    storeLines(b, '.forge/memory/project')
      .map((l) => JSON.parse(l).pattern)
      .sort(),
    [...all, 'saved on b'].sort(),
  );
  await forge(['state', 'sync'], { cwd: b });
  await forge(['state', 'sync'], { cwd: a });
  assert.equal(await patterns(a), [...all, 'saved on b'].sort());
});

test('sync with an unknown remote is a clean error naming the remotes', async () => {
  const dir = tempRepo();
  const r = await forge(['state', 'sync', 'nowhere'], { cwd: dir });
  assert.is(r.code, 2);
  assert.is(r.stderr, "Error: no remote named 'nowhere' (remotes: none)\nFix: git remote -v\n");
  assert.not.ok(existsSync(join(dir, '.git', 'refs', 'forge')));
  const option = await forge(['state', 'sync', '--', '--upload-pack=touch /tmp/forge-pwned;git-upload-pack'], { cwd: dir });
  assert.is(option.code, 2, `a remote that reads as an option is refused: ${option.stderr}`);
  assert.match(option.stderr, /no remote named '--upload-pack=/);
});

test("sync runs under the user's own git environment: an editor, askpass, pager and ssh command set (as in Claude Code's shell)", async () => {
  const { a, b } = twoClones();
  const env = {
    GIT_EDITOR: 'true',
    GIT_SEQUENCE_EDITOR: 'true',
    GIT_ASKPASS: '/bin/false',
    SSH_ASKPASS: '/bin/false',
    GIT_PAGER: 'cat',
    PAGER: 'less',
    GIT_SSH_COMMAND: 'ssh -o BatchMode=yes',
  };
  await forge(['memory', 'save', 'from a'], { cwd: a });
  const pushed = await forge(['state', 'sync', '--json'], { cwd: a, env });
  assert.equal([pushed.code, pushed.records[0]?.action], [0, 'pushed'], pushed.stderr);
  const dry = await forge(['state', 'sync', '--dry-run'], { cwd: b, env });
  assert.is(dry.code, 0, dry.stderr);
  const fetched = await forge(['state', 'sync', '--json'], { cwd: b, env });
  assert.equal([fetched.code, fetched.records[0]?.action], [0, 'fast-forwarded'], fetched.stderr);
});

test.run();
