// Crash recovery through the built binary: a patch killed at any step ends all-or-nothing, and the next command recovers without error and leaves nothing behind.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { git, repoWith, tempDir, tempRepo } from '../helpers/repo';
import { seeded } from '../helpers/seeded';

/** Every file under dir, git's own directory included, whose name is one of forge's temp files. */
function leftovers(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (/\.forge-\w+\.tmp$|^forge-index-|^\.forge-journal$/.test(e.name)) found.push(p.slice(dir.length + 1));
      if (e.isDirectory() && e.name !== 'objects') walk(p);
    }
  };
  walk(dir);
  const journal = join(dir, '.git', 'forge', 'journal');
  if (existsSync(journal)) found.push(...readdirSync(journal).map((n) => `.git/forge/journal/${n}`));
  return found;
}

const FILES = 50;
const name = (i: number) => `src/f${String(i).padStart(2, '0')}.txt`;
/** Before: files 0–46 exist; the patch changes 0–43, deletes 44–46 and creates 47–49. */
const before = (i: number) => (i < 47 ? `file ${i}\nline two of ${i}\nline three\n` : null);
const after = (i: number) => (i < 44 ? `file ${i}\nline 2 of ${i}, patched\nline three\n` : i < 47 ? null : `new file ${i}\n`);

function bigPatch(): string {
  return Array.from({ length: FILES }, (_, i) => {
    const [b, a] = [before(i), after(i)];
    if (b === null) return `--- /dev/null\n+++ b/${name(i)}\n@@ -0,0 +1 @@\n+${a!.trimEnd()}\n`;
    if (a === null)
      return `--- a/${name(i)}\n+++ /dev/null\n@@ -1,3 +0,0 @@\n${b
        .trimEnd()
        .split('\n')
        .map((l) => `-${l}`)
        .join('\n')}\n`;
    return `--- a/${name(i)}\n+++ b/${name(i)}\n@@ -1,3 +1,3 @@\n file ${i}\n-line two of ${i}\n+line 2 of ${i}, patched\n line three\n`;
  }).join('');
}

const hash = (content: string | null) => (content === null ? 'absent' : createHash('sha256').update(content).digest('hex'));
const OLD = Array.from({ length: FILES }, (_, i) => hash(before(i))).join(',');
const NEW = Array.from({ length: FILES }, (_, i) => hash(after(i))).join(',');
const now = (dir: string) =>
  Array.from({ length: FILES }, (_, i) => hash(existsSync(join(dir, name(i))) ? readFileSync(join(dir, name(i)), 'utf8') : null)).join(',');

function reset(dir: string): void {
  for (let i = 0; i < FILES; i++) {
    const b = before(i);
    if (b === null) rmSync(join(dir, name(i)), { force: true });
    else writeFileSync(join(dir, name(i)), b);
  }
}

test('a 50-file patch killed at 30 seeded instants of its journal protocol always ends all-or-nothing, and the next forge read recovers', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) if (before(i) !== null) files[name(i)] = before(i)!;
  const dir = repoWith(files);
  const patch = bigPatch();
  const random = seeded(13);
  const seen = { beforeWrites: 0, midChange: 0, cleanup: 0 };
  const trials = 30;
  for (let t = 0; t < trials; t++) {
    // Spread over the whole protocol: trial t lands somewhere in the t-th thirtieth of its steps.
    const at = ((t + random()) / trials).toFixed(4);
    const killed = await forge(['patch'], { cwd: dir, input: patch, env: { FORGE_TEST_CRASH_AT: at } });
    assert.is(killed.code, -1, `trial ${t} (at ${at}): the patch was killed: ${killed.stderr}`);
    const journals = existsSync(join(dir, '.git', 'forge', 'journal')) ? readdirSync(join(dir, '.git', 'forge', 'journal')) : [];
    const mid = journals.some((j) => existsSync(join(dir, '.git', 'forge', 'journal', j, 'manifest.json')));
    if (mid) seen.midChange++;
    else if (journals.length && now(dir) === NEW) seen.cleanup++;
    else if (journals.length && now(dir) === OLD) seen.beforeWrites++;

    const read = await forge(['read', name(0)], { cwd: dir });
    assert.is(read.code, 0, `trial ${t} (at ${at}): forge read after the kill: ${read.stderr}`);
    assert.ok(/^(warning: .*\n)*$/.test(read.stderr), `trial ${t}: only warnings on stderr: ${read.stderr}`);
    if (journals.length)
      assert.match(read.stderr, /^warning: forge process \d+ was killed part-way/, `trial ${t}: the recovery is reported`);
    const state = now(dir);
    assert.ok(state === OLD || state === NEW, `trial ${t} (at ${at}): every file old or every file new`);
    if (mid) assert.is(state, OLD, `trial ${t}: a change cut short is rolled back`);
    assert.equal(leftovers(dir), [], `trial ${t} (at ${at}): no temp file, journal or temp index left`);
    reset(dir);
  }
  // The seeded instants reach every phase: before the first write, in the middle, and in the cleanup.
  assert.ok(seen.beforeWrites > 0 && seen.midChange > 0 && seen.cleanup > 0, JSON.stringify(seen));
  assert.is(git(dir, 'status', '--porcelain', '--ignored'), '');
});

test('a journal torn by an older forge (its manifest left, copies of originals gone) is discarded with a warning; no file command fails', async () => {
  const dir = repoWith({ 'a.txt': 'new a\n', 'b.txt': 'new b\n' });
  // What killing forge 0.x during rm -r of its journal left: the manifest, one of two copies.
  const journal = join(dir, '.git', 'forge', 'journal', '1767225600000-999999-0123456789abcdef');
  mkdirSync(journal, { recursive: true });
  writeFileSync(
    join(journal, 'manifest.json'),
    JSON.stringify([
      { path: join(dir, 'a.txt'), backup: '0.orig' },
      { path: join(dir, 'b.txt'), backup: '1.orig' },
    ]),
  );
  writeFileSync(join(journal, '1.orig'), 'old b\n');
  const read = await forge(['read', 'a.txt'], { cwd: dir });
  assert.is(read.code, 0, read.stderr);
  assert.is(
    read.stderr,
    "warning: discarded the journal of forge process 999999 without rolling anything back (its copy '0.orig' of an original is gone): its files are left as they are\n",
  );
  assert.equal(
    [readFileSync(join(dir, 'a.txt'), 'utf8'), readFileSync(join(dir, 'b.txt'), 'utf8')],
    ['new a\n', 'new b\n'],
    'not half rolled back',
  );
  assert.equal(leftovers(dir), []);
  for (const args of [
    ['ls'],
    ['search', 'new'],
    ['write', 'c.txt', '--content', 'c'],
    ['edit', 'a.txt', '--old', 'new a', '--new', 'edited a'],
  ]) {
    const r = await forge(args, { cwd: dir });
    assert.equal([r.code, r.stderr], [0, ''], args.join(' '));
  }
});

test('a one-file write killed between its temp file and the rename leaves the old file, and the next command removes the temp file', async () => {
  const dir = repoWith({ 'a.txt': 'one\n' });
  // One file: edit and write take this same path (one journaled temp file, one rename).
  const killed = await forge(['patch'], {
    cwd: dir,
    input: '--- a/a.txt\n+++ b/a.txt\n@@ @@\n-one\n+ONE\n',
    env: { FORGE_TEST_CRASH_AT: '0.4' },
  });
  assert.is(killed.code, -1);
  assert.is(readFileSync(join(dir, 'a.txt'), 'utf8'), 'one\n');
  assert.equal(readdirSync(dir).filter((f) => f.endsWith('.tmp')).length, 1, 'the temp file is there after the kill');
  const next = await forge(['ls'], { cwd: dir });
  assert.is(next.code, 0);
  assert.match(
    next.stderr,
    /^warning: forge process \d+ was killed part-way: no file was left half-written; removed its journal and temp files\n$/,
  );
  assert.equal(leftovers(dir), []);
  assert.is(git(dir, 'status', '--porcelain', '--ignored'), '');
});

test('two commands recovering the same crash at once: one rolls it back, both succeed', async () => {
  const dir = repoWith({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
  const patch = '--- a/a.txt\n+++ b/a.txt\n@@ @@\n-one\n+ONE\n--- a/b.txt\n+++ b/b.txt\n@@ @@\n-two\n+TWO\n';
  assert.is((await forge(['patch'], { cwd: dir, input: patch, env: { FORGE_TEST_CRASH_AT: '0.6' } })).code, -1);
  const [r1, r2] = await Promise.all([forge(['read', 'a.txt'], { cwd: dir }), forge(['read', 'b.txt'], { cwd: dir })]);
  assert.equal([r1.code, r2.code], [0, 0], r1.stderr + r2.stderr);
  assert.is((r1.stderr + r2.stderr).match(/rolled it back/g)?.length, 1, 'rolled back once');
  assert.equal([readFileSync(join(dir, 'a.txt'), 'utf8'), readFileSync(join(dir, 'b.txt'), 'utf8')], ['one\n', 'two\n']);
  assert.equal(leftovers(dir), []);
});

test('a recovery that fails is a warning, not an error: the command goes on and the journal is kept for the next one', async () => {
  const dir = repoWith({ 'a.txt': 'one\n' });
  // A change cut short that had created new.txt; a directory is there now, so it cannot be removed.
  const journal = join(dir, '.git', 'forge', 'journal', '1767225600000-999999-0123456789abcdef');
  mkdirSync(journal, { recursive: true });
  writeFileSync(join(journal, 'manifest.json'), JSON.stringify([{ path: join(dir, 'new.txt'), backup: null }]));
  mkdirSync(join(dir, 'new.txt', 'inside'), { recursive: true });
  for (let i = 0; i < 2; i++) {
    const r = await forge(['read', 'a.txt'], { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /^warning: could not recover after forge process 999999: cannot recover '.*': .*; the next forge file command tries again\n$/,
    );
    assert.ok(readdirSync(join(dir, '.git', 'forge', 'journal')).length === 1, 'kept for the next try');
  }
  rmSync(join(dir, 'new.txt'), { recursive: true });
  const fixed = await forge(['read', 'a.txt'], { cwd: dir });
  assert.match(fixed.stderr, /rolled it back/);
  assert.equal(leftovers(dir), []);
});

test("a journal planted in the user's directory that names files elsewhere is discarded without touching them", async () => {
  const dir = tempDir();
  const elsewhere = tempDir();
  writeFileSync(join(dir, 'a.txt'), 'one\n');
  writeFileSync(join(elsewhere, 'victim.txt'), 'keep me\n');
  writeFileSync(join(elsewhere, '.victim.txt.forge-0123456789abcdef.tmp'), 'keep me too\n');
  // Any file tool could have written this: outside a repository the journal is a plain directory.
  const journal = join(dir, '.forge-journal', '1767225600000-999999-0123456789abcdef');
  mkdirSync(journal, { recursive: true });
  writeFileSync(join(journal, 'temps.json'), JSON.stringify([join(elsewhere, '.victim.txt.forge-0123456789abcdef.tmp')]));
  writeFileSync(
    join(journal, 'manifest.json'),
    JSON.stringify([
      { path: join(elsewhere, 'victim.txt'), backup: null },
      { path: join(dir, 'a.txt'), backup: null },
    ]),
  );
  const read = await forge(['read', 'a.txt'], { cwd: dir });
  assert.is(read.code, 0, read.stderr);
  assert.match(
    read.stderr,
    /^warning: discarded the journal of forge process 999999 without rolling anything back \(it names a file outside the work tree or in git's own files/,
  );
  assert.equal(
    [
      readFileSync(join(elsewhere, 'victim.txt'), 'utf8'),
      readFileSync(join(elsewhere, '.victim.txt.forge-0123456789abcdef.tmp'), 'utf8'),
      readFileSync(join(dir, 'a.txt'), 'utf8'),
    ],
    ['keep me\n', 'keep me too\n', 'one\n'],
  );
  assert.equal(readdirSync(dir), ['a.txt']);

  // One naming a nested repository's hooks, inside the directory, is not forge's either.
  mkdirSync(join(dir, 'sub/.git/hooks'), { recursive: true });
  mkdirSync(journal, { recursive: true });
  writeFileSync(join(journal, 'temps.json'), '[]');
  writeFileSync(join(journal, '0.orig'), '#!/bin/sh\ntouch pwned\n');
  writeFileSync(
    join(journal, 'manifest.json'),
    JSON.stringify([
      {
        path: join(dir, 'sub/.git/hooks/pre-commit'),
        backup: '0.orig',
        mode: 0o755,
        temp: join(dir, 'sub/.git/hooks/.pre-commit.forge-0123456789abcdef.tmp'),
      },
    ]),
  );
  assert.match((await forge(['read', 'a.txt'], { cwd: dir })).stderr, /^warning: discarded the journal/);
  assert.not.ok(existsSync(join(dir, 'sub/.git/hooks/pre-commit')));
  // And no file tool can plant one: outside a repository the journal is forge's own, like .git.
  const plant = await forge(['write', '.forge-journal/1767225600000-999999-0123456789abcdef/manifest.json', '--content', '[]', '--json'], {
    cwd: dir,
  });
  assert.equal(
    [plant.code, plant.records[0]!.error.code, plant.records[0]!.error.message],
    [
      1,
      'PATH_IN_GIT_DIR',
      "'.forge-journal/1767225600000-999999-0123456789abcdef/manifest.json' is inside forge's recovery journal: file tools never read or change them",
    ],
  );
});

test('outside a repository nothing is left in the directory: after a patch, a write, and the recovery of a killed patch', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'a.txt'), 'one\n');
  writeFileSync(join(dir, 'b.txt'), 'two\n');
  const patch = '--- a/a.txt\n+++ b/a.txt\n@@ @@\n-one\n+ONE\n--- a/b.txt\n+++ b/b.txt\n@@ @@\n-two\n+TWO\n';
  assert.is((await forge(['patch'], { cwd: dir, input: patch })).code, 0);
  assert.is((await forge(['write', 'c.txt', '--content', 'c'], { cwd: dir })).code, 0);
  assert.equal(readdirSync(dir).sort(), ['a.txt', 'b.txt', 'c.txt']);
  assert.is((await forge(['patch', '--reverse'], { cwd: dir, input: patch, env: { FORGE_TEST_CRASH_AT: '0.6' } })).code, -1);
  assert.ok(existsSync(join(dir, '.forge-journal')), 'the journal of the killed patch');
  const next = await forge(['read', 'a.txt'], { cwd: dir });
  assert.is(next.code, 0);
  assert.match(next.stderr, /rolled it back/);
  assert.equal([readFileSync(join(dir, 'a.txt'), 'utf8'), readFileSync(join(dir, 'b.txt'), 'utf8')], ['ONE\n', 'TWO\n']);
  assert.equal(readdirSync(dir).sort(), ['a.txt', 'b.txt', 'c.txt']);
});

test('an edit of a 2 MB file, written as pieces of the buffer read, killed after each step of its journal protocol leaves the old file or the new one, and the next command recovers', async () => {
  const before = Array.from({ length: 80_000 }, (_, i) => `line ${i} of a big file`).join('\n') + '\n';
  const after = before.replace('\nline 40000 of a big file\n', '\nline 40000, edited\n');
  const dir = repoWith({ 'big.txt': before });
  const seen = new Set<string>();
  // One file: the journal, its temps list, the temp file, the rename, then three cleanup steps.
  const STEPS = 7;
  for (let step = 1; step <= STEPS; step++) {
    const at = ((step - 0.5) / STEPS).toFixed(4);
    const killed = await forge(['edit', 'big.txt', '--old', 'line 40000 of a big file', '--new', 'line 40000, edited'], {
      cwd: dir,
      env: { FORGE_TEST_CRASH_AT: at },
    });
    assert.is(killed.code, -1, `step ${step}: the edit was killed: ${killed.stderr}`);
    const now = readFileSync(join(dir, 'big.txt'), 'utf8');
    assert.ok(now === before || now === after, `step ${step}: the old file or the new one`);
    seen.add(now === before ? 'old' : 'new');
    const read = await forge(['read', 'big.txt'], { cwd: dir });
    assert.is(read.code, 0, `step ${step}: forge read after the kill: ${read.stderr}`);
    assert.ok(/^(warning: .*\n)*$/.test(read.stderr), `step ${step}: only warnings on stderr: ${read.stderr}`);
    assert.equal(leftovers(dir), [], `step ${step}: no temp file or journal left`);
    writeFileSync(join(dir, 'big.txt'), before);
  }
  assert.equal([...seen].sort(), ['new', 'old']);
});

test('forge replace killed while writing leaves every file old or new; the next command rolls it back', async () => {
  const files = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`f${i}.txt`, `value ${i}\n`]));
  for (const at of ['0.3', '0.6', '0.9']) {
    const dir = repoWith(files);
    const killed = await forge(['replace', 'value', 'VALUE'], { cwd: dir, env: { FORGE_TEST_CRASH_AT: at } });
    assert.is(killed.code, -1, `killed at ${at}`);
    await forge(['ls'], { cwd: dir });
    const now = Object.keys(files).map((f) => readFileSync(join(dir, f), 'latin1'));
    const old = Object.values(files);
    const changed = now.map((t, i) => t !== old[i]);
    assert.ok(
      changed.every((c) => c === changed[0]),
      `at ${at}: all old or all new, got ${JSON.stringify(now)}`,
    );
  }
});

test('an interrupted forge undo is finished by the next one, and --redo then puts back the tree from before the first attempt', async () => {
  const dir = tempRepo();
  writeFileSync(join(dir, 'a.txt'), 'a at the checkpoint\n');
  writeFileSync(join(dir, 'b.txt'), 'b at the checkpoint\n');
  assert.is((await forge(['checkpoint', 'task'], { cwd: dir })).code, 0);
  writeFileSync(join(dir, 'a.txt'), 'a later\n');
  writeFileSync(join(dir, 'b.txt'), 'b later\n');
  writeFileSync(join(dir, 'c.txt'), 'made since\n');
  const killed = await forge(['undo', '--yes'], { cwd: dir, env: { FORGE_TEST_CRASH_AT: '0.5' } });
  assert.is(killed.code, -1, 'killed once the replaced tree is saved, before git restored every file');
  // Half restored, as a kill inside git read-tree leaves it: a.txt back, b.txt and c.txt not yet.
  writeFileSync(join(dir, 'a.txt'), 'a at the checkpoint\n');
  writeFileSync(join(dir, 'b.txt'), 'b later\n');
  writeFileSync(join(dir, 'c.txt'), 'made since\n');
  const again = await forge(['undo', '--yes'], { cwd: dir });
  assert.is(again.code, 0, again.stderr);
  assert.match(
    again.stdout,
    /^finished an undo to refs\/forge\/checkpoints\/\S+ that was interrupted: 2 more files\n {2}M b\.txt\n {2}D c\.txt\nthe work tree it replaced is saved as refs\/forge\/checkpoints\/\S+\nthe work tree now matches checkpoint 1 \(.*\): nothing more to do\nNext: git status\nOr: forge undo --redo\n$/,
  );
  assert.equal(
    [
      existsSync(join(dir, 'a.txt')) ? readFileSync(join(dir, 'a.txt'), 'utf8') : null,
      existsSync(join(dir, 'b.txt')) ? readFileSync(join(dir, 'b.txt'), 'utf8') : null,
      existsSync(join(dir, 'c.txt')) ? readFileSync(join(dir, 'c.txt'), 'utf8') : null,
    ],
    ['a at the checkpoint\n', 'b at the checkpoint\n', null],
  );
  const redo = await forge(['undo', '--redo', '--yes'], { cwd: dir });
  assert.is(redo.code, 0, redo.stderr);
  assert.equal(
    [
      existsSync(join(dir, 'a.txt')) ? readFileSync(join(dir, 'a.txt'), 'utf8') : null,
      existsSync(join(dir, 'b.txt')) ? readFileSync(join(dir, 'b.txt'), 'utf8') : null,
      existsSync(join(dir, 'c.txt')) ? readFileSync(join(dir, 'c.txt'), 'utf8') : null,
    ],
    ['a later\n', 'b later\n', 'made since\n'],
    'the tree before the interrupted undo, not the half-restored one',
  );
  assert.not.ok(existsSync(join(dir, '.git', 'forge', 'undo-in-progress.json')));
  assert.equal(
    readdirSync(join(dir, '.git')).filter((f) => f.startsWith('forge-index-')),
    [],
  );
});

test('a process killed between file writes is rolled back by the next forge command, which says so on stderr', async () => {
  const dir = repoWith({ 'a.txt': 'one\n', 'b.txt': 'two\n', 'c.txt': 'three\n' });
  const patch = ['a', 'b', 'c'].map((f, i) => `--- a/${f}.txt\n+++ b/${f}.txt\n@@ @@\n-${['one', 'two', 'three'][i]}\n+changed\n`).join('');
  // Halfway through its steps: a.txt written, b.txt's temp file written but not yet renamed.
  const killed = await forge(['patch'], { cwd: dir, input: patch, env: { FORGE_TEST_CRASH_AT: '0.5' } });
  assert.is(killed.code, -1, 'killed by a signal');
  assert.is(readFileSync(join(dir, 'a.txt')).toString(), 'changed\n', 'half the patch is on disk after the crash');
  assert.is(readFileSync(join(dir, 'b.txt')).toString(), 'two\n');
  assert.equal(readdirSync(dir).filter((f) => f.endsWith('.tmp')).length, 1, "b.txt's temp file is left");
  assert.ok(readdirSync(join(dir, '.git', 'forge', 'journal')).length === 1);
  const next = await forge(['ls', '*.txt'], { cwd: dir });
  assert.is(next.code, 0);
  assert.match(
    next.stderr,
    /^warning: forge process \d+ was killed part-way through a change: rolled it back, its 3 files are as they were before it\n$/,
  );
  assert.equal(
    ['a', 'b', 'c'].map((f) => readFileSync(join(dir, `${f}.txt`)).toString()),
    ['one\n', 'two\n', 'three\n'],
  );
  assert.is(git(dir, 'status', '--porcelain', '--ignored'), '', 'no temp file or other leftover in the work tree');
  assert.not.ok(existsSync(join(dir, '.git', 'forge', 'journal')));
  const again = await forge(['ls', '*.txt'], { cwd: dir });
  assert.equal([again.code, again.stderr], [0, ''], 'recovered once: no warning the next time');
});

test('a journal whose process still runs is left alone by other commands', async () => {
  const dir = repoWith({ 'a.txt': 'original\n' });
  // A live process's journal (this test's own pid stands in for a patch in flight).
  const journal = join(dir, '.git', 'forge', 'journal', `${Date.now()}-${process.pid}-live`);
  mkdirSync(journal, { recursive: true });
  writeFileSync(join(journal, '0.orig'), 'original\n');
  writeFileSync(join(journal, 'manifest.json'), JSON.stringify([{ path: join(dir, 'a.txt'), backup: '0.orig' }]));
  writeFileSync(join(dir, 'a.txt'), 'being patched\n');
  // Another process: in this one, a journal of this pid that no call holds is one abandoned here.
  assert.is((await forge(['ls'], { cwd: dir, spawn: true })).code, 0);
  assert.is(readFileSync(join(dir, 'a.txt')).toString(), 'being patched\n', 'the in-flight change was not rolled back');
  assert.ok(existsSync(journal));
});

test.run();
