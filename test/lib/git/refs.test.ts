// The state ref's compare-and-swap without git: what git update-ref writes, a true CAS against racing processes (forge's and git's own), a lock never taken over, and git doing it whenever the repository is not plain.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from '../../helpers/harness';
import { ownChild } from '../../helpers/owner';
import * as assert from 'uvu/assert';
import { ForgeError } from '../../../lib/errors';
import { updateRefDirectly } from '../../../lib/git/refs';
import { openRepo } from '../../../lib/git/repo';
import { STATE_REF, StateStore } from '../../../lib/git/state';
import { git, tempDir, tempRepo } from '../../helpers/repo';
import { until } from '../../helpers/process';

/** Two commits to move the ref between (HEAD, and one on top of it). */
function twoCommits(dir: string): [string, string] {
  const a = git(dir, 'rev-parse', 'HEAD');
  return [a, git(dir, 'commit-tree', '-p', a, '-m', 'b', `${a}^{tree}`)];
}

const direct = (dir: string, next: string, expected: string | null) => updateRefDirectly({ cwd: dir, ref: STATE_REF, next, expected });

test('creates and moves the ref as git update-ref does: the same file, rev-parse agrees, fsck clean, no lock left', () => {
  const dir = tempRepo();
  const [a, b] = twoCommits(dir);
  const theirs = tempRepo();
  const [ta, tb] = twoCommits(theirs);
  assert.is(direct(dir, a, null), 'updated');
  git(theirs, 'update-ref', STATE_REF, ta, '0'.repeat(40));
  assert.is(readFileSync(join(dir, '.git', STATE_REF), 'utf8'), readFileSync(join(theirs, '.git', STATE_REF), 'utf8').replace(ta, a));
  assert.is(statSync(join(dir, '.git', STATE_REF)).mode, statSync(join(theirs, '.git', STATE_REF)).mode);
  assert.is(direct(dir, b, a), 'updated');
  git(theirs, 'update-ref', STATE_REF, tb, ta);
  assert.is(git(dir, 'rev-parse', STATE_REF), b);
  assert.not.ok(existsSync(join(dir, '.git', `${STATE_REF}.lock`)));
  git(dir, 'fsck', '--strict');
  // No reflog for refs/forge/*, as git keeps none by default.
  assert.is(existsSync(join(dir, '.git', 'logs', STATE_REF)), existsSync(join(theirs, '.git', 'logs', STATE_REF)));
});

test('refuses a stale or missing expected value, and creating a ref that exists, writing nothing', () => {
  const dir = tempRepo();
  const [a, b] = twoCommits(dir);
  assert.is(direct(dir, a, b), 'moved');
  assert.not.ok(existsSync(join(dir, '.git', STATE_REF)));
  assert.is(direct(dir, a, null), 'updated');
  assert.is(direct(dir, b, null), 'moved');
  assert.is(direct(dir, b, b), 'moved');
  assert.is(git(dir, 'rev-parse', STATE_REF), a);
  assert.not.ok(existsSync(join(dir, '.git', `${STATE_REF}.lock`)));
});

test('a packed ref: its packed value is the one compared, the new one is written loose, as git does', () => {
  const dir = tempRepo();
  const [a, b] = twoCommits(dir);
  git(dir, 'update-ref', STATE_REF, a);
  git(dir, 'pack-refs', '--all');
  assert.not.ok(existsSync(join(dir, '.git', STATE_REF)));
  assert.is(direct(dir, b, null), 'moved');
  assert.is(direct(dir, a, b), 'moved');
  assert.is(direct(dir, b, a), 'updated');
  assert.is(git(dir, 'rev-parse', STATE_REF), b);
  assert.is(readFileSync(join(dir, '.git', STATE_REF), 'utf8'), `${b}\n`);
  git(dir, 'fsck', '--strict');
});

test('a .lock left by a crashed git is never taken over: the direct update and git both stop at it, and the store reports it', async () => {
  const dir = tempRepo();
  const [a, b] = twoCommits(dir);
  git(dir, 'update-ref', STATE_REF, a);
  const lock = join(dir, '.git', `${STATE_REF}.lock`);
  writeFileSync(lock, '');
  assert.is(direct(dir, b, a), 'locked');
  assert.ok(existsSync(lock));
  assert.throws(() => git(dir, 'update-ref', STATE_REF, b, a), /File exists/);
  const store = new StateStore(await openRepo({ cwd: dir }));
  try {
    await store.update({ message: 'blocked', apply: async (tx) => tx.write('.forge/x', 'y') });
    assert.unreachable('the update went through a held lock');
  } catch (err) {
    assert.instance(err, ForgeError);
    assert.is((err as ForgeError).code, 'LOCKED');
    assert.match((err as ForgeError).message, `'${lock}' exists`);
    assert.match((err as ForgeError).message, /crashed/);
  }
  store.close();
  assert.ok(existsSync(lock));
  assert.is(readFileSync(lock, 'utf8'), '');
  assert.is(git(dir, 'rev-parse', STATE_REF), a);
  // Once it is gone, writes go on.
  execFileSync('rm', [lock]);
  assert.is(direct(dir, b, a), 'updated');
});

test('git updates the ref instead when the repository is not plain: a hook, reflogs asked for, an include, fsync settings, a clashing packed ref, a symlinked ref, sha256, GIT_DIR', async () => {
  // A reference-transaction hook runs (git ran), and may refuse.
  const hooked = tempRepo();
  const [a] = twoCommits(hooked);
  const marker = join(tempDir(), 'ran');
  writeFileSync(join(hooked, '.git', 'hooks', 'reference-transaction'), `#!/bin/sh\necho "$1" >> '${marker}'\n`);
  chmodSync(join(hooked, '.git', 'hooks', 'reference-transaction'), 0o755);
  assert.is(direct(hooked, a, null), undefined);
  const store = new StateStore(await openRepo({ cwd: hooked }));
  await store.update({ message: 'through git', apply: async (tx) => tx.write('.forge/x', 'y') });
  store.close();
  assert.match(readFileSync(marker, 'utf8'), /committed/);

  const logged = tempRepo();
  git(logged, 'config', 'core.logAllRefUpdates', 'always');
  const [la] = twoCommits(logged);
  assert.is(direct(logged, la, null), undefined);
  const loggedStore = new StateStore(await openRepo({ cwd: logged }));
  await loggedStore.update({ message: 'logged', apply: async (tx) => tx.write('.forge/x', 'y') });
  loggedStore.close();
  assert.ok(existsSync(join(logged, '.git', 'logs', STATE_REF)), 'git wrote the reflog');

  // The same in the user's config, its value continued on a second line: git reads 'always'.
  const continued = tempRepo();
  git(continued, 'config', '--unset', 'core.logAllRefUpdates'); // git init's `true` would win over the user's
  const globalConfig = join(tempDir(), 'gitconfig');
  writeFileSync(globalConfig, '[core]\n\tlogAllRefUpdates = al\\\nways\n');
  const before = process.env.GIT_CONFIG_GLOBAL;
  process.env.GIT_CONFIG_GLOBAL = globalConfig;
  try {
    assert.is(git(continued, 'config', '--get', 'core.logAllRefUpdates'), 'always');
    assert.is(direct(continued, twoCommits(continued)[0], null), undefined);
  } finally {
    if (before === undefined) delete process.env.GIT_CONFIG_GLOBAL;
    else process.env.GIT_CONFIG_GLOBAL = before;
  }

  const withLog = tempRepo();
  const [wa] = twoCommits(withLog);
  mkdirSync(join(withLog, '.git', 'logs', 'refs', 'forge'), { recursive: true });
  writeFileSync(join(withLog, '.git', 'logs', STATE_REF), '');
  assert.is(direct(withLog, wa, null), undefined);

  const included = tempRepo();
  git(included, 'config', 'include.path', join(tempDir(), 'none'));
  assert.is(direct(included, twoCommits(included)[0], null), undefined);

  // A packed ref under the name: git refuses to create it, and so does forge (through git).
  const clash = tempRepo();
  const [ca] = twoCommits(clash);
  git(clash, 'update-ref', `${STATE_REF}/x`, ca);
  git(clash, 'pack-refs', '--all');
  assert.is(direct(clash, ca, null), undefined);
  assert.throws(() => git(clash, 'update-ref', STATE_REF, ca, '0'.repeat(40)));

  const fsynced = tempRepo();
  git(fsynced, 'config', 'core.fsync', 'reference');
  assert.is(direct(fsynced, twoCommits(fsynced)[0], null), undefined);

  // A ref that is a symbolic link is a symbolic ref to git: not written through.
  const linked = tempRepo();
  const [sa, sb] = twoCommits(linked);
  git(linked, 'update-ref', 'refs/forge/target', sa);
  symlinkSync('target', join(linked, '.git', STATE_REF));
  assert.is(direct(linked, sb, sa), undefined);
  assert.ok(lstatSync(join(linked, '.git', STATE_REF)).isSymbolicLink());
  assert.not.ok(existsSync(join(linked, '.git', `${STATE_REF}.lock`)));

  const sha256 = tempDir();
  execFileSync('git', ['init', '-q', '--object-format=sha256', sha256]);
  assert.is(updateRefDirectly({ cwd: sha256, ref: STATE_REF, next: 'a'.repeat(40), expected: null }), undefined);

  const plain = tempRepo();
  const [pa] = twoCommits(plain);
  process.env.GIT_DIR = join(plain, '.git');
  try {
    assert.is(direct(plain, pa, null), undefined);
  } finally {
    delete process.env.GIT_DIR;
  }
  assert.not.ok(existsSync(join(plain, '.git', STATE_REF)));
});

/**
 * A child process that moves the ref `rounds` times by compare-and-swap, by forge's direct update or
 * by git update-ref, each move a commit on the last. Once loaded it writes `<go>.<name>.ready` and
 * waits for `go`, so that all start at once however long each took to load.
 */
const RACER = `
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { openRepo } from ${JSON.stringify(resolve('lib/git/repo.ts'))};
import { STATE_REF, StateStore } from ${JSON.stringify(resolve('lib/git/state.ts'))};
const [dir, name, how, rounds, go] = process.argv.slice(2);
const store = new StateStore(await openRepo({ cwd: dir }));
writeFileSync(go + '.' + name + '.ready', '');
while (!existsSync(go)) await new Promise((r) => setTimeout(r, 2));
const tree = await store.writer.write('tree', Buffer.alloc(0));
for (let i = 0; i < Number(rounds); i++) {
  for (;;) {
    const base = await store.head();
    const commit = await store.writeCommit({ tree, parents: base ? [base] : [], message: name + '-' + i });
    if (how === 'forge') {
      if (await store.compareAndSwap(commit, base)) break;
    } else {
      try {
        execFileSync('git', ['update-ref', STATE_REF, commit, base ?? '0'.repeat(40)], { cwd: dir, stdio: 'ignore' });
        break;
      } catch {}
    }
  }
}
store.close();
`;

test('8 processes racing, six by the direct update and two by git update-ref: every move lands once, in one line of history', async () => {
  const dir = tempRepo();
  const script = join(tempDir(), 'racer.mts');
  writeFileSync(script, RACER);
  const go = join(tempDir(), 'go');
  const rounds = 15;
  const racers = Array.from({ length: 8 }, (_, i) => ({ name: `p${i}`, how: i < 6 ? 'forge' : 'git' }));
  const done = racers.map(
    ({ name, how }) =>
      new Promise<void>((ok, fail) => {
        const child = ownChild(
          spawn(process.execPath, ['--import', 'tsx', script, dir, name, how, String(rounds), go], {
            stdio: ['ignore', 'ignore', 'pipe'],
          }),
        );
        let err = '';
        child.stderr.on('data', (b) => (err += b));
        child.on('close', (code) => (code === 0 ? ok() : fail(new Error(`${name} exited ${code}: ${err}`))));
      }),
  );
  // Released once every racer is loaded and waiting (a racer that fails first fails the test here).
  const ready = () => racers.every(({ name }) => existsSync(`${go}.${name}.ready`));
  await Promise.race([until(ready), Promise.all(done)]);
  assert.ok(ready(), 'every racer was waiting at the start line');
  writeFileSync(go, '');
  await Promise.all(done);
  const messages = git(dir, 'log', '--format=%s', STATE_REF).split('\n');
  assert.is(messages.length, racers.length * rounds);
  assert.is(new Set(messages).size, messages.length);
  // One line: every commit but the first has exactly one parent, the commit before it.
  assert.is(git(dir, 'rev-list', '--count', '--min-parents=2', STATE_REF), '0');
  for (const { name } of racers) for (let i = 0; i < rounds; i++) assert.ok(messages.includes(`${name}-${i}`), `${name}-${i}`);
  assert.not.ok(existsSync(join(dir, '.git', `${STATE_REF}.lock`)));
  git(dir, 'fsck', '--strict');
});

test.run();
