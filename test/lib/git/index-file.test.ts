// readIndex against git's own reading of the same index: versions 2, 3 and 4, every mode and flag, conflicts, long paths, sha256; and what it must refuse.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { INDEX_FLAG, type IndexEntries, readIndex } from '../../../lib/git/index-file';
import { git, tempDir, tempRepo } from '../../helpers/repo';
import { conflict, write } from '../../helpers/walk-fixture';

/** What git says of each entry: `git ls-files -s -v` (the tag says assume-unchanged or skip-worktree). */
function asGitSees(dir: string): string[] {
  return gitRows(git(dir, 'ls-files', '-z', '-s', '-v'));
}

/** asGitSees, or null when git cannot read the index. */
function asGitSeesOrNull(dir: string): string[] | null {
  const r = spawnSync('git', ['ls-files', '-z', '-s', '-v'], { cwd: dir, encoding: 'utf8' });
  return r.status === 0 ? gitRows(r.stdout) : null;
}

/** `ls-files -z -s -v`'s records as `tag mode stage path`. */
function gitRows(out: string): string[] {
  return out
    .split('\0')
    .filter(Boolean)
    .map((r) => {
      const [head, path] = r.split('\t') as [string, string];
      const [tag, mode, , stage] = head.split(' ');
      return `${tag} ${mode} ${stage} ${path}`;
    });
}

/** The same, from readIndex. */
function asRead(index: IndexEntries): string[] {
  return index.paths
    .split('\0')
    .slice(0, -1)
    .map((path, i) => {
      const f = index.flags[i]!;
      const tag = f & INDEX_FLAG.unmerged ? 'M' : f & INDEX_FLAG.skipWorktree ? 'S' : f & INDEX_FLAG.assumeValid ? 'h' : 'H';
      return `${tag} ${index.modes[i]!.toString(8).padStart(6, '0')} ${f & INDEX_FLAG.unmerged ? 'x' : '0'} ${path}`;
    });
}

/** git's rows with a conflict's stages (1–3) written as x, as asRead writes them. */
const stagesAsX = (rows: string[]) => rows.map((e) => e.replace(/^(\S+ \S+) [123] /, '$1 x '));

/** readIndex's entries and git's, with a conflict's stages (1–3) written as x. */
function compare(dir: string, format: 'sha1' | 'sha256' = 'sha1'): IndexEntries {
  const index = readIndex(join(dir, '.git', 'index'), format);
  assert.ok(index, 'read');
  assert.equal(asRead(index!), stagesAsX(asGitSees(dir)));
  // Each NUL's place, only when every path is ASCII.
  const ascii = /^[\x00-\x7f]*$/.test(index!.paths);
  assert.equal(index!.ends && [...index!.ends], ascii ? [...index!.paths.matchAll(/\0/g)].map((m) => m.index) : null, 'ends');
  return index!;
}

/** A repository with every mode, flags, a conflict and names that test the format's edges. */
function richRepo(format: 'sha1' | 'sha256' = 'sha1'): string {
  const dir = tempRepo();
  if (format === 'sha256') {
    rmSync(join(dir, '.git'), { recursive: true });
    git(dir, 'init', '-q', '-b', 'main', '--object-format=sha256');
  }
  write(dir, 'conflict.txt', 'base\n');
  write(dir, 'run.sh', '#!/bin/sh\n');
  chmodSync(join(dir, 'run.sh'), 0o755);
  symlinkSync('run.sh', join(dir, 'link'));
  write(dir, 'ünïcode dir/名前.txt', 'x\n');
  write(dir, 'a/b/c/d.txt', 'd\n');
  write(dir, 'a/b.txt', 'b\n'); // sorts between a/b/… entries' neighbours: git's byte order
  write(dir, 'a/b0', 'b0\n');
  for (let i = 0; i < 20; i++) write(dir, `many/file${i}.txt`, `${i}\n`);
  write(dir, 'assumed.txt', 'a\n');
  write(dir, 'sparse.txt', 's\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  // A path longer than the 12-bit length field holds, staged without a file (no file system takes it).
  const blob = git(dir, 'hash-object', '-w', 'run.sh');
  const long = `${Array.from({ length: 20 }, (_, i) => `${String(i).padStart(2, '0')}${'x'.repeat(220)}`).join('/')}/end.txt`;
  git(dir, 'update-index', '--add', '--cacheinfo', `100644,${blob},${long}`);
  git(dir, 'update-index', '--add', '--cacheinfo', `160000,${git(dir, 'rev-parse', 'HEAD')},sub`);
  git(dir, 'commit', '-q', '-m', 'long');
  conflict(dir, 'conflict.txt');
  git(dir, 'update-index', '--assume-unchanged', 'assumed.txt');
  git(dir, 'update-index', '--skip-worktree', 'sparse.txt');
  write(dir, 'new.txt', 'n\n');
  git(dir, 'add', '-N', 'new.txt');
  // Many paths under one long directory: version 4 stores each in a few bytes, so they take more room read than in the file.
  const deep = `${'deep/'.repeat(60)}dir`;
  execFileSync('git', ['update-index', '--add', '--index-info'], {
    cwd: dir,
    input: Array.from({ length: 400 }, (_, i) => `100644 ${blob}\t${deep}/f${i}\n`).join(''),
  });
  return dir;
}

test('versions 2, 3 and 4: every entry as git reads it', () => {
  const dir = richRepo();
  // skip-worktree and intent-to-add need version 3's extended flags.
  assert.is(readFileSync(join(dir, '.git', 'index')).readUInt32BE(4), 3);
  const v3 = compare(dir);
  const paths = v3.paths.split('\0');
  assert.ok(
    paths.some((p) => p.length > 0xfff),
    'a path past the 12-bit length',
  );
  assert.ok(v3.flags[paths.indexOf('new.txt')]! & INDEX_FLAG.intentToAdd, 'intent-to-add');
  assert.is(v3.flags[paths.indexOf('run.sh')], 0);
  assert.is(v3.modes[paths.indexOf('run.sh')], 0o100755);
  git(dir, 'update-index', '--index-version', '4');
  assert.is(readFileSync(join(dir, '.git', 'index')).readUInt32BE(4), 4);
  assert.equal(compare(dir), v3, 'version 4 (prefix-compressed paths) reads the same');
  const size = readFileSync(join(dir, '.git', 'index')).length;
  assert.ok(size < Buffer.byteLength(v3.paths), `the paths take more room than the file (${size} vs ${Buffer.byteLength(v3.paths)} bytes)`);
  git(dir, 'update-index', '--no-assume-unchanged', 'assumed.txt');
  git(dir, 'update-index', '--no-skip-worktree', 'sparse.txt');
  git(dir, 'rm', '-q', '--cached', 'new.txt');
  git(dir, 'update-index', '--index-version', '2');
  assert.is(readFileSync(join(dir, '.git', 'index')).readUInt32BE(4), 2);
  assert.is(compare(dir).ends, null, 'a unicode path: no ends');
  git(dir, 'rm', '-q', '--cached', 'ünïcode dir/名前.txt');
  for (const version of ['2', '3', '4']) {
    git(dir, 'update-index', '--index-version', version);
    assert.ok(compare(dir).ends, `every path ASCII: ends, version ${version}`);
  }
});

test('a sha256 repository, an empty index and no index at all', () => {
  compare(richRepo('sha256'), 'sha256');
  const empty = tempRepo();
  git(empty, 'rm', '-q', '--cached', '-r', '.');
  assert.equal(compare(empty).paths, '');
  const fresh = tempDir('forge-fresh-');
  git(fresh, 'init', '-q');
  assert.equal(readIndex(join(fresh, '.git', 'index'), 'sha1'), {
    paths: '',
    ends: new Uint32Array(0),
    modes: new Uint32Array(0),
    flags: new Uint8Array(0),
  });
});

test('refused: what git would refuse or this reader does not take', () => {
  const dir = tempRepo();
  write(dir, 'ab/x.txt', 'x\n');
  write(dir, 'ab/y.txt', 'y\n');
  git(dir, 'add', '-A');
  const file = join(dir, '.git', 'index');
  const good = readFileSync(file);
  assert.ok(readIndex(file, 'sha1'));
  const refused = (bytes: Buffer, why: string) => {
    writeFileSync(file, bytes);
    assert.is(readIndex(file, 'sha1'), null, why);
  };
  const patched = (from: string, to: string) => {
    const b = Buffer.from(good);
    const at = b.indexOf(from);
    assert.ok(at >= 0, from);
    b.write(to, at, 'latin1');
    return b;
  };
  refused(patched('ab/x.txt', '../x.txt'), 'a path above the root');
  refused(patched('ab/x.txt', 'ab//.txt'), 'an empty component');
  refused(patched('ab/x.txt', 'ab/./xt'), 'a dot component');
  refused(patched('ab/x.txt', 'abc/x/..'), 'a last component of ..');
  refused(patched('ab/x.txt', 'ab/x\0txt'), 'a NUL inside the path its length gives');
  const length = good.indexOf('ab/x.txt') - 2; // the flags' 12-bit length, just before the path
  const shorter = Buffer.from(good);
  shorter.writeUInt16BE((good.readUInt16BE(length) & ~0xfff) | 7, length);
  refused(shorter, 'a length that does not end at the NUL');
  refused(patched('ab/y.txt', 'ab/a.txt'), 'paths out of order');
  refused(patched('ab/y.txt', 'ab/x.txt'), 'a path twice, not as stages of a conflict');
  const staged = patched('ab/y.txt', 'ab/x.txt');
  const second = good.indexOf('ab/y.txt') - 2;
  staged.writeUInt16BE(staged.readUInt16BE(second) | 0x1000, second);
  refused(staged, 'a merged path and a stage of it');
  writeFileSync(file, patched('ab/y.txt', 'ab/\x80.txt'));
  assert.is(readIndex(file, 'sha1')?.ends, null, 'a byte that is not UTF-8 decodes to U+FFFD: no ends');
  refused(patched('DIRC', 'DIRD'), 'not an index');
  refused(Buffer.concat([good.subarray(0, 8), Buffer.from([0, 0, 0, 4]), good.subarray(12)]), 'more entries than there are');
  refused(Buffer.concat([good.subarray(0, 8), Buffer.from([0xff, 0xff, 0xff, 0xff]), good.subarray(12)]), 'a count no file holds');
  const v5 = Buffer.from(good);
  v5.writeUInt32BE(5, 4);
  refused(v5, 'a version not known');
  refused(good.subarray(0, 60), 'cut short');
  const tree = good.indexOf('TREE');
  assert.ok(tree > 0, 'the index has a cache tree to rename');
  refused(patched('TREE', 'tree'), 'a required extension not known here');
  const mode = Buffer.from(good);
  mode.writeUInt32BE(0o40000, 12 + 24);
  refused(mode, 'a directory entry (a sparse index)');
  // Version 4: the path is its suffix after the previous one's kept prefix, and the length is the whole path's.
  git(dir, 'update-index', '--index-version', '4');
  const v4 = readFileSync(file);
  assert.ok(readIndex(file, 'sha1'), 'version 4 read');
  const suffix = v4.indexOf('y.txt\0'); // after ab/x.txt, ab/y.txt keeps 'ab/' (a varint 5 before it)
  assert.is(v4[suffix - 1], 5, 'the varint before the suffix');
  const v4Length = Buffer.from(v4);
  v4Length.writeUInt16BE((v4.readUInt16BE(suffix - 3) & ~0xfff) | 7, suffix - 3);
  refused(v4Length, 'version 4: a length other than the path the NUL ends (git would read 7 bytes)');
  rmSync(file);
  execFileSync('mkfifo', [file]);
  assert.is(readIndex(file, 'sha1'), null, 'a FIFO is not waited on');
  rmSync(file);
  writeFileSync(file, good);
  assert.ok(readIndex(file, 'sha1'), 'the same bytes unpatched read');
});

test('a damaged index: what readIndex takes, git reads the same (seeded bit flips and bytes in the entries, the checksum made good)', () => {
  let seed = 17;
  const random = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const tally = { both: 0, refused: 0 };
  for (const version of ['2', '3', '4']) {
    const dir = tempRepo();
    for (let i = 0; i < 24; i++) write(dir, `d${i % 4}/sub${i % 3}/f${i}.txt`, `${i}\n`);
    write(dir, 'a/b.txt', 'b\n');
    write(dir, 'a/b0', 'b0\n');
    write(dir, 'ü/名.txt', 'u\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'base');
    conflict(dir, 'a/b.txt');
    git(dir, 'update-index', '--index-version', version);
    if (version === '3') git(dir, 'update-index', '--skip-worktree', 'd0/sub0/f0.txt');
    const file = join(dir, '.git', 'index');
    const good = readFileSync(file);
    // The entries only: an optional extension's content (the cache tree) is git's, not read here.
    const entriesEnd = good.indexOf('TREE');
    assert.ok(entriesEnd > 12, 'a cache tree after the entries');
    for (let k = 0; k < 150; k++) {
      const body = Buffer.from(good.subarray(0, good.length - 20));
      for (let n = 1 + random(3); n > 0; n--) {
        const at = 12 + random(entriesEnd - 12);
        body[at] = random(4) === 0 ? random(256) : body[at]! ^ (1 << random(8));
      }
      writeFileSync(file, Buffer.concat([body, createHash('sha1').update(body).digest()]));
      const ours = readIndex(file, 'sha1');
      if (!ours) {
        tally.refused++;
        continue;
      }
      const theirs = asGitSeesOrNull(dir);
      assert.ok(theirs, `version ${version}, case ${k}: taken here, but git cannot read it`);
      assert.equal(asRead(ours), stagesAsX(theirs!), `version ${version}, case ${k}`);
      tally.both++;
    }
  }
  // Neither side vacuous: most damage is to stat data and hashes, which both read past.
  assert.ok(tally.both > 150 && tally.refused > 30, JSON.stringify(tally));
});

test.run();
