// forge search through JavaScript alone (the default) and through git grep: the same matches, anchors, counts and hints on a fixture with every kind of file a walk meets.
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { lineHash } from '../../lib/files/anchor';
import { forge } from '../helpers/forge';
import { git, tempRepo } from '../helpers/repo';
import { gitCallLog, outside, WALK_FIXTURE_FILES, walkFixture, write } from '../helpers/walk-fixture';

const dir = walkFixture();

/** Every git call forge makes, logged by a wrapper ahead of the real git on PATH. */
const gitLog = gitCallLog();

/** The git calls of one search, as the shim logged them. */
async function logged(args: string[], cwd: string, env: Record<string, string>) {
  return gitLog.forge(['search', ...args, '--json'], { cwd, env });
}

async function both(args: string[], cwd = dir) {
  const native = await logged(args, cwd, { FORGE_SEARCH_ENGINE: 'git' });
  const js = await logged(args, cwd, {});
  assert.is(js.code, 0, js.stderr);
  assert.equal(js.records, native.records, `engines differ on ${args.join(' ')}`);
  assert.not.match(js.calls, /(^| )grep /m, 'the default engine runs no git grep');
  return { records: js.records, usedGitGrep: /(^| )grep /m.test(native.calls) };
}

const matched = (records: Array<Record<string, any>>) => records.filter((r) => r.type === 'match').map((r) => `${r.path}:${r.line}`);

test('a literal: every kind of file answered alike, through git grep', async () => {
  const { records, usedGitGrep } = await both(['needle', '--limit', '0']);
  assert.ok(usedGitGrep, 'the native engine ran git grep');
  assert.equal(matched(records), [
    'cr.txt:2',
    'cr.txt:3',
    'dir-now.txt/inside.txt:1',
    'latin1.txt:1',
    'link-in.ts:1',
    'long.txt:1',
    'src/a.ts:1',
    'src/deep/b.ts:1',
    'src/deep/b.ts:2',
    'untracked.txt:1',
    'utf16.txt:1',
    'ünïcode dir/名前 with space.txt:1',
    'ſtate.md:1',
  ]);
  const first = records.find((r) => r.path === 'src/deep/b.ts')!;
  assert.is(first.hash, lineHash('needle();'));
  assert.is(first.text, 'needle();');
  assert.ok(records.find((r) => r.path === 'long.txt')!.text.startsWith('…'), 'a long line is cut around its match');
  // What a walk must never read: ignored files, binary ones, links out or into git, FIFOs, a deleted file, a file through a directory link.
  const summary = records.at(-1)!;
  assert.equal(
    { matches: summary.matches, files: summary.files, cut: summary.cut, searched: summary.searched },
    { matches: 13, files: 11, cut: 0, searched: 14 },
  );
});

test('regexes, case folding, caps, paths and globs answer alike', async () => {
  const cases: string[][] = [
    ['need(?:le)\\b'],
    ['NEEDLE', '-i'],
    ['state of', '-i'],
    ['ſtate', '-i'],
    ['needle|nothing'],
    ['needle', '--limit', '3'],
    ['needle', 'src', 'cr.txt'],
    ['needle', '--glob', '*.ts'],
    ['ne+dle'],
    ['(?<=the )needle'],
    ['caf\\u00e9'],
    ['café', '--literal'],
    ['a needle in UTF'],
    ['^needle', 'src'],
    ['no such text anywhere'],
  ];
  let viaGit = 0;
  for (const args of cases) if ((await both(args)).usedGitGrep) viaGit++;
  assert.ok(viaGit >= 8, `most of these have a literal git grep can look for (${viaGit})`);
  assert.equal(matched((await both(['state of', '-i'])).records), ['ſtate.md:1']);
  assert.equal(matched((await both(['caf\\u00e9'])).records), ['latin1.txt:1']);
  assert.equal(matched((await both(['(?<=the )needle'])).records), ['ſtate.md:1']);
  const capped = (await both(['needle', '--limit', '3'])).records;
  assert.equal({ shown: capped.at(-1)!.shown, cut: capped.at(-1)!.cut }, { shown: 3, cut: 10 });
});

test('--limit 0 shows every match; a negative limit is refused', async () => {
  const all = await forge(['search', 'needle', '--limit', '0'], { cwd: dir });
  assert.match(all.stdout, /13 matches in 11 files \(14 files searched\)/);
  assert.not.match(all.stdout, /cut/);
  const bad = await forge(['search', 'needle', '--limit', '-1'], { cwd: dir });
  assert.is(bad.code, 2);
  assert.match(bad.stderr, /Fix: /);
});

test('forge replace picks the same files through either engine', async () => {
  for (const args of [
    ['needle', 'pin', '--check'],
    ['need(le)', 'pin$1', '--regex', '--check'],
    ['STATE', 'x', '-i', '--check'],
  ]) {
    const native = await forge(['replace', ...args, '--json'], { cwd: dir });
    const js = await forge(['replace', ...args, '--json'], { cwd: dir, env: { FORGE_SEARCH_ENGINE: 'js' } });
    assert.equal(native.records, js.records, args.join(' '));
    assert.is(native.code, 0, native.stderr);
  }
});

test("a repository's grep and colour settings change nothing (coloured names once made every search answer 'no matches')", async () => {
  const repo = tempRepo();
  write(repo, 'sub/a.txt', 'needle\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'a');
  for (const [key, value] of [
    ['color.grep', 'always'],
    ['color.ui', 'always'],
    ['grep.column', 'true'],
    ['grep.fullName', 'true'],
    ['grep.patternType', 'perl'],
    ['submodule.recurse', 'true'],
  ])
    git(repo, 'config', key!, value!);
  const top = await both(['needle'], repo);
  assert.ok(top.usedGitGrep);
  assert.equal(matched(top.records), ['sub/a.txt:1']);
  const inSub = await both(['needle'], join(repo, 'sub'));
  assert.equal(matched(inSub.records), ['a.txt:1']);
});

test('ls lists exactly the files search reads: no deleted, retyped, ignored, linked-out or special file', async () => {
  const all = await forge(['ls', '--json', '--limit', '0'], { cwd: dir });
  assert.is(all.records.at(-1)!.cut, 0);
  assert.equal(
    all.records.filter((x) => x.type === 'file').map((x) => x.path),
    WALK_FIXTURE_FILES,
  );
});

test('encodings, lone CRs, BOMs, late NULs and attributes that make git and a read see a file differently answer alike', async () => {
  const repo = tempRepo();
  write(repo, '.gitattributes', 'forced.dat diff\nnotdiff.txt -diff\n');
  write(repo, 'cr-before.txt', 'a\rb\nneedle after a lone CR\n'); // git's line 2 is a read's line 3
  write(repo, 'cr-start.txt', 'x\rneedle at a line start only for a read\n');
  write(repo, 'crlf.txt', 'x\r\nneedle in CRLF\r\n');
  write(repo, 'forced.dat', Buffer.from('needle\0 text to git by its attribute, binary to forge\n'));
  write(repo, 'notdiff.txt', 'needle in a file git calls binary by its attribute\n');
  write(repo, 'bom.txt', '\ufeffneedle on the BOM line\nneedle two\n');
  write(repo, 'utf8.txt', 'café needle\n'); // as Latin-1 bytes, "cafÃ© needle"
  write(repo, 'latin.txt', Buffer.from('caf\xe9 needle\n', 'latin1'));
  write(repo, 'late-nul.txt', `${'x'.repeat(9000)}\n\0needle past git's binary test\n`);
  write(repo, 'needles.txt', 'needles everywhere\n'); // the literal without a match of needle\b
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'lines');
  const all = [
    'bom.txt:1',
    'bom.txt:2',
    'cr-before.txt:3',
    'cr-start.txt:2',
    'crlf.txt:2',
    'late-nul.txt:2',
    'latin.txt:1',
    'notdiff.txt:1',
    'utf8.txt:1',
  ];
  const cases: Array<[string, string[]]> = [
    ['needle', [...all, 'needles.txt:1'].sort()],
    ['needle\\b', all],
    ['^needle', ['bom.txt:1', 'bom.txt:2', 'cr-before.txt:3', 'cr-start.txt:2', 'crlf.txt:2', 'needles.txt:1', 'notdiff.txt:1']],
    ['caf. needle', ['latin.txt:1', 'utf8.txt:1']],
  ];
  for (const [pattern, expected] of cases) {
    const { records, usedGitGrep } = await both([pattern, '--limit', '0'], repo);
    assert.ok(usedGitGrep, pattern);
    assert.equal(matched(records), expected, pattern);
  }
  const crlf = (await both(['needle\\b'], repo)).records.find((r) => r.path === 'crlf.txt')!;
  assert.is(crlf.hash, lineHash('needle in CRLF'));
});

test('a path holding a newline is found alike', async () => {
  const repo = tempRepo();
  write(repo, 'a\nb.txt', 'needle one\n');
  write(repo, 'b.txt', 'needle two\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'newline');
  for (const pattern of ['needle', 'needle\\b'])
    assert.equal(matched((await both([pattern], repo)).records), ['a\nb.txt:1', 'b.txt:1'], pattern);
});

test('a file git greps in the index, not the work tree (assume-unchanged, skip-worktree), is read where it is: its new text is found, its old is not', async () => {
  const repo = tempRepo();
  for (const name of ['assumed.txt', 'skipped.txt', 'plain.txt']) write(repo, name, 'old text\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'three');
  git(repo, 'update-index', '--assume-unchanged', 'assumed.txt');
  git(repo, 'update-index', '--skip-worktree', 'skipped.txt');
  for (const name of ['assumed.txt', 'skipped.txt']) write(repo, name, 'a fresh needle\n');
  for (const engine of ['git', 'js']) {
    const found = await forge(['search', 'needle', '--json'], { cwd: repo, env: { FORGE_SEARCH_ENGINE: engine } });
    assert.equal(matched(found.records), ['assumed.txt:1', 'skipped.txt:1'], engine);
    const gone = await forge(['search', 'old text', '--json'], { cwd: repo, env: { FORGE_SEARCH_ENGINE: engine } });
    assert.equal(matched(gone.records), ['plain.txt:1'], engine);
  }
  const replaced = await forge(['replace', 'needle', 'pin', '--check', '--json'], { cwd: repo });
  assert.equal(
    replaced.records[0]!.files.map((f: { path: string }) => f.path),
    ['assumed.txt', 'skipped.txt'],
  );
});

test('a tracked file reached through a directory that became a symlink is neither listed nor read', async () => {
  const repo = tempRepo();
  write(repo, 'pkg/inside.txt', 'needle\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'pkg');
  rmSync(join(repo, 'pkg'), { recursive: true });
  mkdirSync(join(outside, 'pkg'), { recursive: true });
  write(outside, 'pkg/inside.txt', 'needle from outside\n');
  symlinkSync(join(outside, 'pkg'), join(repo, 'pkg'));
  for (const engine of ['git', 'js']) {
    const s = await forge(['search', 'needle'], { cwd: repo, env: { FORGE_SEARCH_ENGINE: engine } });
    assert.is(s.stdout, 'no matches for /needle/ in 1 file\nDone.\n', engine);
  }
  assert.equal(
    (await forge(['ls', '--json'], { cwd: repo })).records.filter((x) => x.type === 'file').map((x) => x.path),
    ['README.md'],
  );
});

test.run();
