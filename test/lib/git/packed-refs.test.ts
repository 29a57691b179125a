// packed-refs read as git reads it or not at all: what git pack-refs writes, what is refused, and damaged files through the direct reader and the direct ref update, held to git's own reading.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { ObjectReader } from '../../../lib/git/objects';
import { parsePackedRefs } from '../../../lib/git/packed-refs';
import { updateRefDirectly } from '../../../lib/git/refs';
import { STATE_REF } from '../../../lib/git/state';
import { git, tempRepo } from '../../helpers/repo';
import { write } from '../../helpers/walk-fixture';

/** A repository whose refs — branches, a nested name, a light and an annotated tag (peeled), the state ref — are all packed. */
function packedRepo(): { dir: string; head: string } {
  const dir = tempRepo();
  write(dir, 'a.txt', 'a\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'a');
  const head = git(dir, 'rev-parse', 'HEAD');
  for (const ref of [STATE_REF, 'refs/forge/stat', 'refs/forge/statf', 'refs/heads/feature/x-1', 'refs/tags/v1'])
    git(dir, 'update-ref', ref, head);
  git(dir, 'tag', '-a', '-m', 'annotated', 'v2');
  git(dir, 'pack-refs', '--all');
  return { dir, head };
}

/** What git makes of a ref: its oid, null when missing, 'ERROR' when it cannot read the refs. */
function gitReads(dir: string, ref: string): string | null {
  const r = spawnSync('git', ['cat-file', '--batch-check'], { cwd: dir, input: `${ref}\n`, encoding: 'utf8' });
  if (r.status !== 0) return 'ERROR';
  return r.stdout.endsWith(' missing\n') ? null : r.stdout.split(' ')[0]!;
}

test("what git pack-refs writes: every ref, in git's order", () => {
  const { dir } = packedRepo();
  const text = readFileSync(join(dir, '.git', 'packed-refs'), 'utf8');
  assert.ok(text.startsWith('# pack-refs with: ') && text.includes('\n^'), 'a header and a peeled line');
  const refs = parsePackedRefs(text, 40);
  const listed = git(dir, 'for-each-ref', '--format=%(refname) %(objectname)').split('\n');
  assert.equal(
    refs?.map((r) => `${r.name} ${r.oid}`),
    listed,
  );
  assert.equal(parsePackedRefs('', 40), [], 'no refs');
  assert.equal(parsePackedRefs('# pack-refs with: peeled fully-peeled sorted \n', 40), [], 'a header only');
  const long = `${'a'.repeat(64)} refs/heads/main\n`;
  assert.equal(parsePackedRefs(long, 64), [{ name: 'refs/heads/main', oid: 'a'.repeat(64) }], 'sha256');
  assert.is(parsePackedRefs(long, 40), null, 'an oid of the other length');
});

test('refused: anything git would read otherwise, or die on', () => {
  const a = 'a'.repeat(40);
  const b = 'b'.repeat(40);
  const good = `# pack-refs with: peeled fully-peeled sorted \n${a} refs/heads/main\n${b} refs/tags/v1\n^${a}\n`;
  assert.is(parsePackedRefs(good, 40)?.length, 2);
  const refused: Array<[string, string]> = [
    [good.slice(0, -1), 'the last line not ended'],
    [good.replace('main\n', 'main\n\n'), 'an empty line'],
    [good.replaceAll('\n', '\r\n'), 'CRLF'],
    [`# a comment\n${a} refs/heads/main\n`, 'a # line that is not the header'],
    [`${a} refs/heads/main\n# pack-refs with: sorted\n`, 'the header not first'],
    ['# pack-refs with: sorted', 'a header not ended'],
    [`^${a}\n${a} refs/heads/main\n`, 'a peeled line before any ref'],
    [`${a} refs/heads/main\n^${a}\n^${b}\n`, 'two peeled lines'],
    [`${b} refs/tags/v1\n${a} refs/heads/main\n`, 'out of order'],
    [`${a} refs/heads/main\n${b} refs/heads/main\n`, 'a name twice'],
    [`${a.toUpperCase()} refs/heads/main\n`, 'uppercase hex'],
    [`${a}  refs/heads/main\n`, 'two spaces'],
    [`${a} HEAD\n`, 'a name outside refs/'],
    ...[
      'refs/heads/a..b',
      'refs/heads/.x',
      'refs/heads/x.lock',
      'refs/heads/a b',
      'refs/heads/a~1',
      'refs/heads//x',
      'refs/heads/x/',
      'refs/heads/x.',
      'refs/heads/@{u}',
      'refs/heads/é',
    ].map((name): [string, string] => [`${a} ${name}\n`, `the name ${name}`]),
  ];
  for (const [text, why] of refused) assert.is(parsePackedRefs(text, 40), null, why);
});

test('a damaged packed-refs (seeded): the reader and the direct ref update answer as git reads the file, or leave it to git', async () => {
  const { dir, head } = packedRepo();
  const next = git(dir, 'commit-tree', '-p', head, '-m', 'next', `${head}^{tree}`);
  const file = join(dir, '.git', 'packed-refs');
  const loose = join(dir, '.git', STATE_REF);
  const good = readFileSync(file);
  let seed = 7;
  const random = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const tally = { parsed: 0, refused: 0, updated: 0 };
  for (let k = 0; k < 150; k++) {
    const bytes = Buffer.from(good);
    // A line end, a space, a CR, a flipped bit, or another hex digit (a value both then read alike).
    for (let n = 1 + random(2); n > 0; n--) {
      const at = random(bytes.length);
      const how = random(6);
      bytes[at] =
        how < 3 ? [0x0a, 0x20, 0x0d][how]! : how === 3 ? bytes[at]! ^ (1 << random(7)) : '0123456789abcdef'.charCodeAt(random(16));
    }
    writeFileSync(file, bytes);
    if (parsePackedRefs(bytes.toString('utf8'), 40)) tally.parsed++;
    else tally.refused++;
    for (const ref of [STATE_REF, 'refs/forge/stat']) {
      const theirs = gitReads(dir, ref);
      const reader = new ObjectReader(dir);
      const ours = await reader.read(ref).then(
        (o) => o?.oid ?? null,
        () => 'ERROR',
      );
      reader.close();
      assert.is(ours, theirs, `case ${k}, ${ref}: ${JSON.stringify(bytes.toString('utf8'))}`);
    }
    // The update compares against the value git reads: moved only from it, never past a file git cannot read.
    const theirs = gitReads(dir, STATE_REF);
    const done = updateRefDirectly({ cwd: dir, ref: STATE_REF, next, expected: head });
    if (done === 'updated') {
      assert.is(theirs, head, `case ${k}: updated from what git does not read as ${head}`);
      tally.updated++;
    } else if (done === 'moved') assert.ok(theirs !== head && theirs !== 'ERROR', `case ${k}: 'moved' where git reads ${theirs}`);
    else assert.is(done, undefined);
    if (existsSync(loose)) unlinkSync(loose);
  }
  assert.ok(tally.parsed > 30 && tally.refused > 30 && tally.updated > 10, JSON.stringify(tally));
});

test.run();
