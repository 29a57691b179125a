// forge patch: the perturbed real-history corpus byte for byte, every format, and all-or-nothing across files.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { failureLine, judge, PERTURBATIONS, sampleCases } from '../helpers/corpus';
import { forge } from '../helpers/forge';
import { git, repoWith } from '../helpers/repo';

const bytes = (dir: string, path: string) => readFileSync(join(dir, path));

// Two cases a perturbation through the built binary (a sample of the whole history runs in-process in test/lib/files/corpus-patch.test.ts).
for (const p of PERTURBATIONS.filter((x) => x.patch)) {
  test(`real-history corpus through forge patch, ${p.id}: ${p.what}`, async () => {
    const failures: string[] = [];
    for (const c of sampleCases(p, 2, 'patch')) {
      const dir = repoWith(c.before);
      const r = await forge(['patch'], { cwd: dir, input: c.patch });
      const now = (path: string) => (existsSync(join(dir, path)) ? bytes(dir, path) : null);
      const outcome = judge({ want: c.after, before: c.before, exit: r.code, now });
      if (outcome !== 'correct' || r.stderr.startsWith('Error: internal error'))
        failures.push(failureLine({ name: c.name, want: c.after, outcome, exit: r.code, error: r.stderr, now }));
    }
    assert.equal(failures, []);
  });
}

test('git diff with new, deleted and renamed files; a/ b/ prefixes or none', async () => {
  const dir = repoWith({ 'keep.txt': 'a\nb\nc\n', 'gone.txt': 'bye\n', 'old/name.txt': 'x\ny\n' });
  const patch = [
    'diff --git a/new.txt b/new.txt',
    'new file mode 100644',
    '--- /dev/null',
    '+++ b/new.txt',
    '@@ -0,0 +1,2 @@',
    '+hello',
    '+world',
    'diff --git a/gone.txt b/gone.txt',
    'deleted file mode 100644',
    '--- a/gone.txt',
    '+++ /dev/null',
    '@@ -1 +0,0 @@',
    '-bye',
    'diff --git a/old/name.txt b/new/name.txt',
    'similarity index 80%',
    'rename from old/name.txt',
    'rename to new/name.txt',
    '--- a/old/name.txt',
    '+++ b/new/name.txt',
    '@@ -1,2 +1,2 @@',
    ' x',
    '-y',
    '+Y',
    '--- keep.txt',
    '+++ keep.txt',
    '@@ -2 +2 @@',
    '-b',
    '+B',
    '',
  ].join('\n');
  const r = await forge(['patch'], { cwd: dir, input: patch });
  assert.is(
    r.stdout,
    'created new.txt\ndeleted gone.txt\nmoved old/name.txt → new/name.txt (1 hunk)\npatched keep.txt (1 hunk)\nNext: git diff --stat\n',
  );
  assert.equal(
    [
      bytes(dir, 'new.txt').toString(),
      existsSync(join(dir, 'gone.txt')),
      existsSync(join(dir, 'old/name.txt')),
      bytes(dir, 'new/name.txt').toString(),
      bytes(dir, 'keep.txt').toString(),
    ],
    ['hello\nworld\n', false, false, 'x\nY\n', 'a\nB\nc\n'],
  );
  const back = await forge(['patch', '--reverse'], { cwd: dir, input: patch });
  assert.is(back.code, 0, back.stderr);
  assert.is(git(dir, 'status', '--porcelain'), '', 'reverse restores every file');
});

test('*** Begin Patch envelopes and SEARCH/REPLACE blocks', async () => {
  const dir = repoWith({ 'src/app.py': 'def main():\n    print("hi")\n    return 0\n', 'b.txt': 'one\n' });
  const envelope = [
    '*** Begin Patch',
    '*** Update File: src/app.py',
    '@@ def main():',
    '-    print("hi")',
    '+    print("hello")',
    '*** Add File: src/util.py',
    '+X = 1',
    '*** Delete File: b.txt',
    '*** End Patch',
    '',
  ].join('\n');
  assert.is((await forge(['patch'], { cwd: dir, input: envelope })).code, 0);
  assert.is(bytes(dir, 'src/app.py').toString(), 'def main():\n    print("hello")\n    return 0\n');
  assert.equal([bytes(dir, 'src/util.py').toString(), existsSync(join(dir, 'b.txt'))], ['X = 1\n', false]);
  const blocks = [
    'Here is the change:',
    '',
    'src/app.py',
    '```python',
    '<<<<<<< SEARCH',
    '    return 0',
    '=======',
    '    return 1',
    '>>>>>>> REPLACE',
    '```',
    '',
  ].join('\n');
  const r = await forge(['patch', '--json'], { cwd: dir, input: blocks });
  assert.equal(r.records[0]!.files, [{ path: 'src/app.py', kind: 'modify', hunks: 1, strategies: ['exact'] }]);
  assert.is(bytes(dir, 'src/app.py').toString(), 'def main():\n    print("hello")\n    return 1\n');
});

test('--check writes nothing; a non-patch is INVALID_PATCH; paths leaving the repository are refused', async () => {
  const dir = repoWith({ 'a.txt': 'one\ntwo\n' });
  const patch = '--- a/a.txt\n+++ b/a.txt\n@@ @@\n one\n-two\n+TWO\n';
  writeFileSync(join(dir, 'fix.diff'), patch);
  const check = await forge(['patch', '--check', '--file', 'fix.diff'], { cwd: dir });
  assert.is(check.stdout, 'would patch a.txt (1 hunk)\nNext: forge patch --file fix.diff\n');
  assert.is(bytes(dir, 'a.txt').toString(), 'one\ntwo\n');
  const junk = await forge(['patch'], { cwd: dir, input: 'please change two to TWO\n' });
  assert.equal(
    [junk.code, junk.stderr.split('\n')[0]],
    [2, 'Error: not a patch: expected a unified or git diff, a *** Begin Patch envelope, or <<<<<<< SEARCH blocks'],
  );
  const escaped = await forge(['patch', '--json'], { cwd: dir, input: '--- a/../x.txt\n+++ b/../x.txt\n@@ @@\n-a\n+b\n' });
  assert.equal([escaped.code, escaped.records[0]!.error.code], [2, 'PATH_OUTSIDE_REPO']);
});

test('every refusal names its file in data.path; a --file that is not there is FILE_NOT_FOUND (exit 1), a directory IS_A_DIRECTORY', async () => {
  const dir = repoWith({ 'a.txt': 'one\ntwo\n', 'b.txt': 'b\n', 'bin.dat': 'x\0y\n' });
  mkdirSync(join(dir, 'patches'));
  const refusal = async (args: string[], input?: string) => {
    const r = await forge(['patch', ...args, '--json'], { cwd: dir, ...(input === undefined ? {} : { input }) });
    const e = r.records[0]!.error;
    return [r.code, e.code, e.data?.path];
  };
  const twice = '--- a/a.txt\n+++ b/a.txt\n@@ @@\n-one\n+ONE\n--- a/a.txt\n+++ b/a.txt\n@@ @@\n-two\n+TWO\n';
  assert.equal(await refusal([], twice), [1, 'PATCH_CONFLICT', 'a.txt'], 'a file twice in the patch');
  assert.equal(await refusal([], '--- a/bin.dat\n+++ b/bin.dat\n@@ @@\n-x\n+z\n'), [1, 'PATCH_CONFLICT', 'bin.dat'], 'a binary file');
  const onto = 'diff --git a/a.txt b/b.txt\nsimilarity index 100%\nrename from a.txt\nrename to b.txt\n';
  assert.equal(await refusal([], onto), [1, 'PATCH_CONFLICT', 'b.txt'], 'a rename onto a file that exists');
  assert.equal(await refusal(['--file', 'nope.diff']), [1, 'FILE_NOT_FOUND', 'nope.diff']);
  const missing = await forge(['patch', '--file', 'nope.diff'], { cwd: dir });
  assert.is(missing.stderr, "Error: no such file 'nope.diff'\nFix: ls -l nope.diff\n");
  assert.equal(await refusal(['--file', 'patches']), [2, 'IS_A_DIRECTORY', undefined]);
  assert.is(git(dir, 'status', '--porcelain'), '', 'nothing was written');
});

test('a write that fails part-way restores every file already written', async () => {
  const dir = repoWith({ 'a.txt': 'one\n', blocker: 'a file where the patch wants a directory\n' });
  const patch = '--- a/a.txt\n+++ b/a.txt\n@@ @@\n-one\n+ONE\n--- /dev/null\n+++ b/blocker/new.txt\n@@ @@\n+x\n';
  const r = await forge(['patch'], { cwd: dir, input: patch });
  assert.is(r.code, 1, r.stderr);
  assert.is(bytes(dir, 'a.txt').toString(), 'one\n');
  assert.is(git(dir, 'status', '--porcelain'), '');
});

test('a patch applied twice is said to be applied already (as GNU patch says), not that its context is missing; nothing changes', async () => {
  const dir = repoWith({ 'a.txt': 'one\ntwo\nthree\n' });
  const patch = '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n';
  assert.is((await forge(['patch'], { cwd: dir, input: patch })).code, 0);
  const again = await forge(['patch', '--json'], { cwd: dir, input: patch });
  assert.equal([again.code, again.records[0]!.error.code], [1, 'PATCH_CONFLICT']);
  assert.match(again.records[0]!.error.message, /^hunk 1 is already applied to 'a\.txt': the lines it leads to are in the file/);
  assert.is(again.records[0]!._next_action, 'forge read a.txt --start 1 --end 3');
  assert.is(readFileSync(join(dir, 'a.txt'), 'utf8'), 'one\nTWO\nthree\n');
  // A hunk whose lines are simply not there is not called applied.
  const other = await forge(['patch', '--json'], { cwd: dir, input: patch.replace(/two/g, 'zwei').replace(/TWO/g, 'ZWEI') });
  assert.match(other.records[0]!.error.message, /^hunk 1 does not apply to 'a\.txt': its context is not in the file/);
});

test.run();
