// forge patch on text that is not quite a patch: malformed headers are INVALID_PATCH (exit 2), git's quoting is read, long lines cost their length.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { git, repoWith } from '../helpers/repo';

test('a header without a path, /dev/null on both sides, a rename without its source, bad quoting: INVALID_PATCH, nothing written', async () => {
  const dir = repoWith({ x: 'one\n' });
  const patches = [
    '--- a/x\n+++ \n',
    '--- a/x\n+++ b/\n@@ @@\n-one\n+two\n',
    '--- /dev/null\n+++ /dev/null\n@@ @@\n+x\n',
    'diff --git nonsense\nrename to y\n',
    '--- "a/\\q"\n+++ b/x\n@@ @@\n-one\n+two\n',
    '--- "a/\\377"\n+++ b/x\n@@ @@\n-one\n+two\n',
    '*** Begin Patch\n*** Update File: x\n*** Move to:  \n@@\n-one\n+two\n*** End Patch\n',
    '*** Begin Patch\n*** Add File:  \n+x\n*** End Patch\n',
  ];
  for (const patch of patches) {
    const r = await forge(['patch', '--json'], { cwd: dir, input: patch });
    assert.equal([r.code, r.records[0]?.error?.code], [2, 'INVALID_PATCH'], JSON.stringify(patch));
  }
  const text = await forge(['patch'], { cwd: dir, input: '--- a/x\n+++ \n' });
  assert.is(
    text.stderr,
    "Error: a file header without a path (line 2): write '--- a/<path>' and '+++ b/<path>', or /dev/null for a new or deleted file\nFix: forge patch --help\n",
  );
  assert.is(git(dir, 'status', '--porcelain'), '');
});

test("git's quoted paths: octal-escaped UTF-8, quotes and spaces name the real file, in an edit and in a rename", async () => {
  const dir = repoWith({ 'é t"x.txt': 'a\n' });
  writeFileSync(join(dir, 'é t"x.txt'), 'b\n');
  const edit = git(dir, 'diff');
  assert.match(edit, /^--- "a\/\\303\\251 t\\"x\.txt"/m, 'git quotes the name');
  git(dir, 'checkout', '--', '.');
  assert.is((await forge(['patch'], { cwd: dir, input: `${edit}\n` })).code, 0);
  assert.is(readFileSync(join(dir, 'é t"x.txt'), 'utf8'), 'b\n');
  git(dir, 'commit', '-qam', 'b');
  git(dir, 'mv', 'é t"x.txt', 'ü.txt');
  const rename = git(dir, 'diff', '--cached', '-M');
  git(dir, 'reset', '-q', '--hard');
  const r = await forge(['patch', '--json'], { cwd: dir, input: `${rename}\n` });
  assert.equal([r.code, r.records[0]!.files], [0, [{ path: 'ü.txt', kind: 'rename', hunks: 0, strategies: [], from: 'é t"x.txt' }]]);
});

test('a patch or content on stdin that is not UTF-8 is refused (exit 2), not written with U+FFFD', async () => {
  const dir = repoWith({ 'a.txt': 'one\n' });
  const latin1 = Buffer.from('--- a/a.txt\n+++ b/a.txt\n@@ @@\n-one\n+caf\xe9\n', 'latin1');
  const patch = await forge(['patch', '--json'], { cwd: dir, input: latin1 });
  assert.equal(
    [patch.code, patch.records[0]!.error.message],
    [2, "'diff' is not UTF-8 text: line 5 holds a byte that is not UTF-8, or half of a surrogate pair (a lone \\ud800-\\udfff escape)"],
  );
  const write = await forge(['write', 'b.txt'], { cwd: dir, input: Buffer.from([0x89, 0x50, 0x4e, 0x47]) });
  assert.is(write.code, 2);
  const ndjson = await forge(['write'], {
    cwd: dir,
    input: Buffer.concat([Buffer.from('{"path":"caf'), Buffer.from([0xe9]), Buffer.from('.txt","content":"x"}\n')]),
  });
  assert.equal([ndjson.code, ndjson.records[0]!.error.code], [2, 'INVALID_ARGUMENT']);
  assert.is(git(dir, 'status', '--porcelain'), '');
});

test('long runs of spaces, blank lines, fences, quotes and " b/" cost their length, not its square, in every dialect', async () => {
  const dir = repoWith({ 'a.txt': 'one\n' });
  const patches = [
    `a${' '.repeat(300_000)}b.txt\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n`,
    `diff --git a/${' b/'.repeat(300_000)}\r\n--- a/a.txt\n+++ b/a.txt\n@@ @@\n-one\n+two\n`,
    `--- a/a.txt\n+++ b/a.txt\n@@ @@\n-one\n${'\n'.repeat(300_000)}trailing prose\n`,
    `${'```\n'.repeat(100_000)}<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n`,
    `a.txt\n${'<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n'.repeat(50_000)}`,
    `*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n${'\n'.repeat(300_000)}+two\n*** End Patch\n`,
    `*** Begin Patch\n*** Add File: b.txt\n+x${'\n'.repeat(300_000)}*** End Patch\n`,
    `diff --git "a/${'\\\\'.repeat(100_000)}" "b/x"\n--- a/a.txt\n+++ b/a.txt\n@@ @@\n-one\n+two\n`,
    `diff --git a/x ${'"'.repeat(300_000)}\n`,
    `diff --git a/${' b/x'.repeat(100_000)}\n--- a/a.txt\n+++ b/a.txt\n@@ @@\n-one\n+two\n`,
    `--- a/a.txt\n+++ b/a.txt\n@@ -1${' '.repeat(300_000)}x\n`,
    `#${' *'.repeat(150_000)}a${' :'.repeat(150_000)}b\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n`,
  ];
  for (const patch of patches) {
    // The quadratic parser took minutes on these (the test's time limit ends it); a linear one takes milliseconds.
    const r = await forge(['patch', '--check', '--json'], { cwd: dir, input: patch });
    assert.ok([0, 1, 2].includes(r.code), r.stdout);
    assert.not.match(r.stdout, /INTERNAL/);
  }
});

test.run();
