// The state store on real repositories: one commit per change, CAS under concurrency, the user's view untouched.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { openRepo } from '../../../lib/git/repo';
import { STATE_REF, StateStore } from '../../../lib/git/state';
import { git, stateCommits, tempDir, tempRepo, userView } from '../../helpers/repo';

async function store(dir: string): Promise<StateStore> {
  return new StateStore(await openRepo({ cwd: dir }));
}

async function append(s: StateStore, path: string, line: string) {
  return s.update({
    message: `append ${line}`,
    apply: async (tx) => tx.write(path, `${await tx.readText(path)}${line}\n`),
  });
}

test('each change is one commit with its message, parented on the last', async () => {
  const dir = tempRepo();
  const s = await store(dir);
  assert.is(await s.head(), null);
  await append(s, '.forge/memory/project.jsonl', 'a');
  await append(s, '.forge/memory/project.jsonl', 'b');
  assert.is(git(dir, 'show', `${STATE_REF}:.forge/memory/project.jsonl`), 'a\nb');
  assert.is(git(dir, 'log', '--format=%s', STATE_REF), 'append b\nappend a');
  assert.is(stateCommits(dir), 2);
  assert.is(git(dir, 'fsck', '--strict', '--no-dangling'), '');
  s.close();
});

test('a transaction that changes nothing makes no commit; one that throws moves nothing', async () => {
  const dir = tempRepo();
  const s = await store(dir);
  await append(s, '.forge/a.json', '{}');
  const before = await s.head();
  const r = await s.update({ message: 'noop', apply: async () => 'same' });
  assert.equal([r.changed, r.commit, r.value], [false, before, 'same']);
  try {
    await s.update({
      message: 'boom',
      apply: async (tx) => {
        tx.write('.forge/b', 'x');
        throw new Error('boom');
      },
    });
  } catch {}
  assert.is(await s.head(), before);
  s.close();
});

test('removing the last file of a directory drops the directory; siblings keep their trees', async () => {
  const dir = tempRepo();
  const s = await store(dir);
  await s.update({
    message: 'w',
    apply: async (tx) => {
      tx.write('.forge/iterations/r/m1.json', '1');
      tx.write('.forge/memory/project.jsonl', 'x\n');
    },
  });
  const memoryTree = git(dir, 'rev-parse', `${STATE_REF}:.forge/memory`);
  await s.update({ message: 'rm', apply: async (tx) => tx.remove('.forge/iterations/r/m1.json') });
  assert.is(git(dir, 'ls-tree', '-r', '--name-only', STATE_REF), '.forge/memory/project.jsonl');
  assert.is(git(dir, 'rev-parse', `${STATE_REF}:.forge/memory`), memoryTree);
  s.close();
});

test('concurrent writers through separate stores lose nothing', async () => {
  const dir = tempRepo();
  const stores = await Promise.all(Array.from({ length: 6 }, () => store(dir)));
  await Promise.all(stores.flatMap((s, i) => Array.from({ length: 5 }, (_, j) => append(s, '.forge/log.jsonl', `w${i}-${j}`))));
  const lines = git(dir, 'show', `${STATE_REF}:.forge/log.jsonl`).split('\n');
  assert.is(lines.length, 30);
  assert.is(new Set(lines).size, 30);
  assert.is(stateCommits(dir), 30);
  for (const s of stores) s.close();
});

test('a foreign writer moving the ref mid-transaction makes it re-run on the new state', async () => {
  const dir = tempRepo();
  const s = await store(dir);
  await append(s, '.forge/log.jsonl', 'first');
  let runs = 0;
  await s.update({
    message: 'mine',
    apply: async (tx) => {
      if (runs++ === 0) {
        // Another tool (no lock) commits between our read and our compare-and-swap.
        const head = git(dir, 'rev-parse', STATE_REF);
        const foreign = git(dir, 'commit-tree', '-p', head, '-m', 'foreign', `${head}^{tree}`);
        git(dir, 'update-ref', STATE_REF, foreign, head);
      }
      tx.write('.forge/log.jsonl', `${await tx.readText('.forge/log.jsonl')}mine\n`);
    },
  });
  assert.is(runs, 2);
  assert.is(git(dir, 'log', '--format=%s', STATE_REF), 'mine\nforeign\nappend first');
  assert.is(git(dir, 'show', `${STATE_REF}:.forge/log.jsonl`), 'first\nmine');
  s.close();
});

test('a lock left by a dead process is taken over', async () => {
  const dir = tempRepo();
  const s = await store(dir);
  const lock = join(s.repo.commonDir, 'forge', 'state.lock');
  mkdirSync(join(s.repo.commonDir, 'forge'), { recursive: true });
  writeFileSync(lock, '2147483646\n');
  await append(s, '.forge/x', 'ok');
  assert.is(git(dir, 'show', `${STATE_REF}:.forge/x`), 'ok');
  assert.not.ok(existsSync(lock));
  s.close();
});

test('compare-and-swap refuses a stale expected value', async () => {
  const dir = tempRepo();
  const s = await store(dir);
  await append(s, '.forge/x', '1');
  const head = (await s.head())!;
  await append(s, '.forge/x', '2');
  assert.not.ok(await s.compareAndSwap(head, head));
  assert.is.not(await s.head(), head);
  s.close();
});

test('HEAD, index, work tree and branches stay as they were in a dirty tree', async () => {
  const dir = tempRepo();
  writeFileSync(join(dir, 'README.md'), 'changed\n');
  writeFileSync(join(dir, 'staged.txt'), 'staged\n');
  git(dir, 'add', 'staged.txt');
  writeFileSync(join(dir, 'untracked.txt'), 'u\n');
  const before = userView(dir);
  const s = await store(dir);
  await append(s, '.forge/memory/project.jsonl', 'x');
  assert.is(userView(dir), before);
  s.close();
});

test('works on a detached HEAD, an unborn branch, and from a subdirectory', async () => {
  const detached = tempRepo();
  git(detached, 'checkout', '-q', '--detach');
  const unborn = tempRepo({ commit: false });
  const nested = tempRepo();
  mkdirSync(join(nested, 'src', 'deep'), { recursive: true });
  for (const [dir, cwd] of [
    [detached, detached],
    [unborn, unborn],
    [nested, join(nested, 'src', 'deep')],
  ] as const) {
    const before = userView(dir);
    const s = await store(cwd);
    await append(s, '.forge/x.jsonl', 'ok');
    assert.is(git(dir, 'show', `${STATE_REF}:.forge/x.jsonl`), 'ok');
    assert.is(userView(dir), before);
    s.close();
  }
});

test('a linked worktree shares the state of its main repository', async () => {
  const dir = tempRepo();
  const wt = join(tempDir(), 'wt');
  git(dir, 'worktree', 'add', '-q', '-b', 'side', wt);
  const fromWorktree = await store(wt);
  await append(fromWorktree, '.forge/x.jsonl', 'from-worktree');
  const fromMain = await store(dir);
  assert.is((await fromMain.read('.forge/x.jsonl'))!.toString(), 'from-worktree\n');
  assert.is(git(dir, 'rev-parse', 'HEAD'), git(dir, 'rev-parse', 'main'));
  fromWorktree.close();
  fromMain.close();
});

test('reads and writes after git gc packed the objects and refs, and in a sha256 repository', async () => {
  const dir = tempRepo();
  const s = await store(dir);
  await append(s, '.forge/x.jsonl', 'a');
  git(dir, 'gc', '-q', '--prune=now');
  assert.is((await s.read('.forge/x.jsonl'))!.toString(), 'a\n');
  await append(s, '.forge/x.jsonl', 'b');
  assert.is(git(dir, 'show', `${STATE_REF}:.forge/x.jsonl`), 'a\nb');
  s.close();

  const sha256 = tempDir();
  git(sha256, 'init', '-q', '--object-format=sha256');
  const s2 = await store(sha256);
  await append(s2, '.forge/memory/project.jsonl', 'x');
  await append(s2, '.forge/memory/project.jsonl', 'y');
  assert.is(git(sha256, 'show', `${STATE_REF}:.forge/memory/project.jsonl`), 'x\ny');
  assert.is(git(sha256, 'rev-parse', STATE_REF).length, 64);
  assert.is(git(sha256, 'fsck', '--strict', '--no-dangling'), '');
  s2.close();
});

test('outside a repository: NOT_A_GIT_REPO with git init as the fix', async () => {
  try {
    await openRepo({ cwd: tempDir() });
    assert.unreachable();
  } catch (err: any) {
    assert.is(err.code, 'NOT_A_GIT_REPO');
    assert.is(err.fix, 'git init');
  }
});

test('a state path with an invalid part (.., a newline, a slash too many) is INVALID_ID and nothing is committed', async () => {
  const dir = tempRepo();
  const s = await store(dir);
  for (const path of [
    '.forge/logs/../../x.jsonl',
    '.forge/logs/a\nb.jsonl',
    '.forge//x.json',
    '.forge/sessions/./x.json',
    '.forge/a b.json',
  ]) {
    try {
      await s.update({ message: 'bad', apply: async (tx) => tx.write(path, 'x') });
      assert.unreachable(JSON.stringify(path));
    } catch (err) {
      assert.is((err as { code?: string }).code, 'INVALID_ID', JSON.stringify(path));
    }
  }
  assert.is(stateCommits(dir), 0);
  s.close();
});

test('files are redacted on their way into the state, commit messages too; activated plan contracts are kept exactly', async () => {
  const dir = tempRepo();
  const s = await store(dir);
  const key = 'sk-proj-Tq8vN2xLk4Hc9WmZr7Yb3Jd6Fg1Ps5Ua';
  const contract = `${JSON.stringify({ plan_id: 'p1', verification: `OPENAI_API_KEY=${key} npm test` }, null, 2)}\n`;
  await s.update({
    message: `memory: save use ${key}`,
    apply: async (tx) => {
      tx.write('.forge/memory/project.jsonl', `${JSON.stringify({ pattern: `use ${key}`, n: 1 })}\n`);
      tx.write('.forge/plans/journal.jsonl', `${JSON.stringify({ reason: `ran curl -H 'Authorization: Bearer ${key}'` })}\n`);
      tx.write('.forge/plans/p1.json', contract);
      tx.write('.forge/plan.md', `# Plan\n\n- export OPENAI_API_KEY=${key}\n`);
    },
  });
  assert.is(git(dir, 'show', `${STATE_REF}:.forge/memory/project.jsonl`), '{"pattern":"use [REDACTED:openai-key]","n":1}');
  assert.is(
    git(dir, 'show', `${STATE_REF}:.forge/plans/journal.jsonl`),
    `{"reason":"ran curl -H 'Authorization: Bearer [REDACTED:openai-key]'"}`,
  );
  assert.is(git(dir, 'show', `${STATE_REF}:.forge/plan.md`), '# Plan\n\n- export OPENAI_API_KEY=[REDACTED:openai-key]');
  assert.is(`${git(dir, 'show', `${STATE_REF}:.forge/plans/p1.json`)}\n`, contract, 'the contract is as activated');
  assert.is(git(dir, 'log', '-1', '--format=%s', STATE_REF), 'memory: save use [REDACTED:openai-key]');
  s.close();
});

test('an append redacts what it adds and leaves what is stored as it was (history is not rewritten)', async () => {
  const dir = tempRepo();
  const key = 'ghp_R4nD0mT0k3nV4lu3F0rT3st1ngAbCdEfGh12';
  // State written before redaction existed, committed with plain git.
  const old = `${JSON.stringify({ pattern: `old ${key}` })}\n`;
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: dir, input: old, encoding: 'utf8' }).trim();
  const memoryTree = execFileSync('git', ['mktree'], { cwd: dir, input: `100644 blob ${blob}\tproject.jsonl\n`, encoding: 'utf8' }).trim();
  const memoryDir = execFileSync('git', ['mktree'], { cwd: dir, input: `040000 tree ${memoryTree}\tmemory\n`, encoding: 'utf8' }).trim();
  const root = execFileSync('git', ['mktree'], { cwd: dir, input: `040000 tree ${memoryDir}\t.forge\n`, encoding: 'utf8' }).trim();
  git(dir, 'update-ref', STATE_REF, git(dir, 'commit-tree', root, '-m', 'old state'));
  const s = await store(dir);
  await append(s, '.forge/memory/project.jsonl', JSON.stringify({ pattern: `new ${key}` }));
  assert.is(git(dir, 'show', `${STATE_REF}:.forge/memory/project.jsonl`), `${old}{"pattern":"new [REDACTED:github-token]"}`);
  s.close();
});

test('a loop keeps what the user gave it exactly (prompt, promise, done-when, command) and redacts what its iterations bring back', async () => {
  const dir = tempRepo();
  const s = await store(dir);
  const key = 'ghp_R4nD0mT0k3nV4lu3F0rT3st1ngAbCdEfGh12';
  const given = {
    prompt: `use GITHUB_TOKEN=${key}`,
    promise: `done ${key}`,
    doneWhen: `GITHUB_TOKEN=${key} npm test`,
    command: ['agent', '--token', key],
  };
  const loop = {
    loop_id: 'loop-1',
    ...given,
    reason: `stuck: ${key}`,
    iterations: [{ n: 1, doneWhen: { passed: false, tail: `401 for ${key}` } }],
  };
  await s.update({ message: 'loop', apply: async (tx) => tx.write('.forge/loops/loop-1.json', `${JSON.stringify(loop, null, 2)}\n`) });
  const stored = JSON.parse(git(dir, 'show', `${STATE_REF}:.forge/loops/loop-1.json`));
  assert.equal(stored, {
    ...loop,
    reason: 'stuck: [REDACTED:github-token]',
    iterations: [{ n: 1, doneWhen: { passed: false, tail: '401 for [REDACTED:github-token]' } }],
  });
  s.close();
});

test.run();
