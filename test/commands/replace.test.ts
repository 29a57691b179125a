// forge replace: exact bytes across files, encodings and line endings kept, all files or none, confinement.
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { git, repoWith, tempDir } from '../helpers/repo';

const bytes = (dir: string, path: string) => readFileSync(join(dir, path));
const text = (dir: string, path: string) => bytes(dir, path).toString('latin1');

test('replaces a literal in every file, keeping CRLF, BOM, Latin-1, UTF-16 and the final newline; skips binary and ignored files', async () => {
  const dir = repoWith({
    'src/a.ts': 'a\nconsole.log(1);\nb',
    'src/crlf.ts': 'x\r\nconsole.log(2);\r\ny\r\n',
    'src/bom.ts': '\ufeffconsole.log("é");\n',
    'src/latin.txt': Buffer.from('caf\xe9 console.log\n', 'latin1'),
    'src/wide.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('console.log\n', 'utf16le')]),
    'src/img.bin': Buffer.from([0, 1, 2, ...Buffer.from('console.log')]),
    '.gitignore': 'dist/\n',
  });
  writeFileSync(join(dir, 'dist.ts'), 'console.log\n');
  writeFileSync(join(dir, '.gitignore'), 'dist.ts\n');
  const r = await forge(['replace', 'console.log', 'logger.info'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  assert.is(text(dir, 'src/a.ts'), 'a\nlogger.info(1);\nb');
  assert.is(text(dir, 'src/crlf.ts'), 'x\r\nlogger.info(2);\r\ny\r\n');
  assert.equal(bytes(dir, 'src/bom.ts'), Buffer.from('\ufefflogger.info("é");\n'));
  assert.equal(bytes(dir, 'src/latin.txt'), Buffer.from('caf\xe9 logger.info\n', 'latin1'));
  assert.equal(bytes(dir, 'src/wide.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('logger.info\n', 'utf16le')]));
  assert.equal(bytes(dir, 'src/img.bin'), Buffer.from([0, 1, 2, ...Buffer.from('console.log')]), 'binary file untouched');
  assert.is(text(dir, 'dist.ts'), 'console.log\n', 'ignored file untouched');
  assert.is(
    r.stdout,
    [
      'src/a.ts: 1 replacement',
      '  -2#ebd6: console.log(1);',
      '  +2#35ff: logger.info(1);',
      'src/bom.ts: 1 replacement',
      '  -1#6b82: console.log("é");',
      '  +1#1f6c: logger.info("é");',
      'src/crlf.ts: 1 replacement',
      '  -2#9730: console.log(2);',
      '  +2#43ce: logger.info(2);',
      'src/latin.txt: 1 replacement',
      '  -1#71f7: café console.log',
      '  +1#897e: café logger.info',
      'src/wide.txt: 1 replacement',
      '  -1#bd4d: console.log',
      '  +1#a318: logger.info',
      // searched counts img.bin too: every file under the paths is looked at, a binary one skipped by its head.
      'replaced 5 occurrences in 5 files (8 searched)',
      'Next: git diff --stat',
      '',
    ].join('\n'),
  );
});

test("a multi-line literal matches a CRLF file; NEW's line breaks are written as the file's", async () => {
  const dir = repoWith({ 'a.txt': 'one\r\ntwo\r\nthree\r\n' });
  const r = await forge(['replace', 'one\ntwo\n', 'uno\ndos\n'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  assert.is(text(dir, 'a.txt'), 'uno\r\ndos\r\nthree\r\n');
});

test('--regex with groups, paths and --glob; --check previews with anchors and writes nothing', async () => {
  const dir = repoWith({ 'src/a.ts': 'keep\n  console.log(a);\nend\n', 'src/b.js': 'console.log(b);\n', 'lib/c.ts': 'console.log(c);\n' });
  const args = ['replace', '--regex', '^\\s*console\\.log\\((\\w)\\);\\n', '', 'src', '--glob', '*.ts'];
  const check = await forge([...args, '--check', '--json'], { cwd: dir });
  assert.is(check.code, 0, check.stderr);
  assert.equal(check.records[0]!.files, [
    { path: 'src/a.ts', replacements: 1, hunks: [{ old: [{ n: 2, hash: '360d', text: '  console.log(a);' }], new: [] }], cut: 0 },
  ]);
  assert.is(check.records[0]!._next_action, "forge replace '^\\s*console\\.log\\((\\w)\\);\\n' '' src --glob '*.ts' --regex");
  assert.is(git(dir, 'status', '--porcelain'), '', '--check wrote nothing');
  assert.is((await forge(args, { cwd: dir })).code, 0);
  assert.equal(
    [text(dir, 'src/a.ts'), text(dir, 'src/b.js'), text(dir, 'lib/c.ts')],
    ['keep\nend\n', 'console.log(b);\n', 'console.log(c);\n'],
  );
  const groups = await forge(['replace', '-E', 'console\\.log\\((?<v>\\w)\\)', 'print($<v>, $1, $$)', 'lib'], { cwd: dir });
  assert.is(groups.code, 0, groups.stderr);
  assert.is(text(dir, 'lib/c.ts'), 'print(c, c, $);\n');
});

test('NDJSON in and out: keys are the long flag names', async () => {
  const dir = repoWith({ 'a.md': 'old text\n' });
  const r = await forge(['replace'], { cwd: dir, input: '{"old":"old","new":"new","id":7}\n' });
  assert.is(r.code, 0, r.stderr);
  assert.equal([r.records[0]!.id, r.records[0]!.replacements, r.records[0]!._next_action], [7, 1, 'git diff --stat']);
  assert.is(text(dir, 'a.md'), 'new text\n');
});

test('no match anywhere is refused with exit 1 and a search to run; an invalid regex is exit 2', async () => {
  const dir = repoWith({ 'a.txt': 'alpha\n' });
  const r = await forge(['replace', 'beta', 'gamma', '--glob', '*.txt'], { cwd: dir });
  assert.is(r.code, 1);
  assert.is(
    r.stderr,
    "Error: no match for 'beta' in 1 file matching '*.txt' (.gitignored and binary files are not searched); nothing was changed\nFix: forge search beta --glob '*.txt' --literal\n",
  );
  const bad = await forge(['replace', '--regex', '(', 'x', '--json'], { cwd: dir });
  assert.equal([bad.code, bad.records[0]!.error.code], [2, 'INVALID_REGEX']);
  assert.is(git(dir, 'status', '--porcelain'), '');
});

test('all files or none: a match that would split a CRLF line ending in one file refuses every file', async () => {
  const dir = repoWith({ 'a.ts': 'x\n  console.log(1);\n', 'b.ts': 'y\r\n  console.log(2);\r\n' });
  const r = await forge(['replace', '--regex', '^\\s*console\\.log\\(\\d\\);', '', '--json'], { cwd: dir });
  assert.equal([r.code, r.records[0]!.error.code], [1, 'SPLIT_LINE_ENDING']);
  assert.is(git(dir, 'status', '--porcelain'), '', 'a.ts, which would have applied, is untouched');
});

test("paths are confined: outside the repository (exit 2), git's own files (exit 1), a symlink out is never followed", async () => {
  const dir = repoWith({ 'a.txt': 'secret\n' });
  const outside = tempDir();
  writeFileSync(join(outside, 'o.txt'), 'secret\n');
  symlinkSync(join(outside, 'o.txt'), join(dir, 'link.txt'));
  const up = await forge(['replace', 'secret', 'x', '../', '--json'], { cwd: dir });
  assert.equal([up.code, up.records[0]!.error.code], [2, 'PATH_OUTSIDE_REPO']);
  const gitDir = await forge(['replace', 'secret', 'x', '.git', '--json'], { cwd: dir });
  assert.equal([gitDir.code, gitDir.records[0]!.error.code], [1, 'PATH_IN_GIT_DIR']);
  const all = await forge(['replace', 'secret', 'public'], { cwd: dir });
  assert.is(all.code, 0, all.stderr);
  assert.equal([text(dir, 'a.txt'), text(outside, 'o.txt')], ['public\n', 'secret\n']);
});

test.run();
