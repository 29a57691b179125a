// The object reader: loose objects and refs read without a git process give exactly what git cat-file gives; everything else still goes to git.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { ObjectReader, parseTree } from '../../../lib/git/objects';
import { openRepo } from '../../../lib/git/repo';
import { sha1Hex } from '../../../lib/sha1';
import { STATE_REF, StateStore } from '../../../lib/git/state';
import { git, rawTree, tempDir, tempRepo, treeBytes } from '../../helpers/repo';
import { write } from '../../helpers/walk-fixture';

/** Runs body with a `git` first on PATH that logs its calls: how many git processes the reads started. */
async function countingGit(body: () => Promise<void>): Promise<string[]> {
  const dir = tempDir();
  const log = join(dir, 'calls');
  mkdirSync(join(dir, 'bin'));
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(join(dir, 'bin', 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(dir, 'bin', 'git'), 0o755);
  const path = process.env.PATH;
  process.env.PATH = `${join(dir, 'bin')}:${path}`;
  try {
    await body();
  } finally {
    process.env.PATH = path;
  }
  try {
    return readFileSync(log, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** What `git cat-file --batch` answers for a spec, parsed as the reader answers. */
function catFile(dir: string, spec: string): { oid: string; type: string; content: string } | null {
  const type = (() => {
    try {
      return git(dir, 'cat-file', '-t', spec);
    } catch {
      return null;
    }
  })();
  if (type === null) return null;
  return { oid: git(dir, 'rev-parse', spec), type, content: git(dir, 'cat-file', type, spec) };
}

const shown = (o: { oid: string; type: string; content: Buffer } | null) =>
  o && { oid: o.oid, type: o.type, content: o.content.toString('utf8').trimEnd() };

async function seeded(dir: string): Promise<StateStore> {
  const store = new StateStore(await openRepo({ cwd: dir }));
  await store.update({ message: 'seed', apply: async (tx) => tx.write('.forge/memory/project.jsonl', '{"a":1}\n') });
  await store.update({ message: 'more', apply: async (tx) => tx.write('.forge/plans/active.json', '{"plan_id":"p"}\n') });
  return store;
}

const SPECS = (head: string) => [
  STATE_REF,
  `${STATE_REF}:.forge/memory/project.jsonl`,
  `${head}:.forge/plans`,
  `${head}:.forge`,
  head,
  `${head}:`,
  `${STATE_REF}:.forge/none.json`,
  `${STATE_REF}:.forge/memory/project.jsonl/x`,
  'refs/forge/none',
];

test('a state ref (loose or packed), its commits, trees and blobs by oid, ref and ref:path: what git cat-file gives, without a git process', async () => {
  const dir = tempRepo();
  const store = await seeded(dir);
  const head = git(dir, 'rev-parse', STATE_REF);
  const reader = new ObjectReader(dir);
  const got: unknown[] = [];
  const calls = await countingGit(async () => {
    for (const spec of SPECS(head)) got.push(shown(await reader.read(spec)));
  });
  reader.close();
  assert.equal(
    got,
    SPECS(head).map((s) => catFile(dir, s)),
  );
  assert.equal(calls, []);

  // Refs moved into packed-refs (objects still loose): read from there.
  git(dir, 'pack-refs', '--all');
  const packedRefs = new ObjectReader(dir);
  const again: unknown[] = [];
  const callsAgain = await countingGit(async () => {
    for (const spec of SPECS(head)) again.push(shown(await packedRefs.read(spec)));
  });
  packedRefs.close();
  store.close();
  assert.equal(again, got);
  assert.equal(callsAgain, []);
});

test('loose objects git wrote compressed, small and big, more than JavaScript inflates before zlib takes over: what git cat-file gives, without a git process', async () => {
  const dir = tempRepo();
  const oids: string[] = [];
  for (let i = 0; i < 50; i++) {
    // Text that compresses, from 30 bytes to 400 kB.
    const content = Array.from({ length: Math.floor(1.2 ** i) }, (_, n) => `line ${n} of object ${i}: ${'x'.repeat(n % 37)}`).join('\n');
    oids.push(execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: dir, input: content, encoding: 'utf8' }).trim());
  }
  const reader = new ObjectReader(dir);
  const got: Array<Buffer | undefined> = [];
  const calls = await countingGit(async () => {
    for (const oid of oids) got.push((await reader.read(oid))?.content);
  });
  reader.close();
  assert.equal(calls, []);
  oids.forEach((oid, i) =>
    assert.ok(got[i]?.equals(execFileSync('git', ['cat-file', 'blob', oid], { cwd: dir, maxBuffer: 1 << 26 })), `object ${i}`),
  );
});

test('packed refs and objects (git gc), HEAD and replace refs go to git, with the same answers', async () => {
  const dir = tempRepo();
  const store = await seeded(dir);
  const head = git(dir, 'rev-parse', STATE_REF);
  git(dir, 'gc', '-q', '--prune=now');
  const packed = new ObjectReader(dir);
  const got: unknown[] = [];
  const calls = await countingGit(async () => {
    for (const spec of [...SPECS(head), 'HEAD', 'HEAD:README.md', '0'.repeat(40)]) got.push(shown(await packed.read(spec)));
  });
  packed.close();
  assert.equal(
    got,
    [...SPECS(head), 'HEAD', 'HEAD:README.md', '0'.repeat(40)].map((s) => catFile(dir, s)),
  );
  assert.equal(calls, ['cat-file --batch']);

  // A replace ref changes what an oid reads as: git's answer, not the loose object's.
  const blob = git(dir, 'rev-parse', `${STATE_REF}:.forge/memory/project.jsonl`);
  const other = git(dir, 'rev-parse', `${STATE_REF}:.forge/plans/active.json`);
  git(dir, 'replace', blob, other);
  const replaced = new ObjectReader(dir);
  assert.is((await replaced.read(blob))!.content.toString(), '{"plan_id":"p"}\n');
  replaced.close();
  store.close();
});

test('parseTree: the trees git writes, entry for entry as git ls-tree lists them', () => {
  const dir = tempRepo();
  for (const [path, text] of [
    ['a.txt', 'a'],
    ['a/x.txt', 'x'],
    ['a0', '0'],
    ['b c.txt', 'space'],
    ['ünï.txt', 'u'],
  ])
    write(dir, path!, text!);
  write(dir, 'run.sh', '#!/bin/sh\n');
  chmodSync(join(dir, 'run.sh'), 0o755);
  symlinkSync('a.txt', join(dir, 'link'));
  git(dir, 'add', '-A');
  git(dir, 'update-index', '--add', '--cacheinfo', `160000,${git(dir, 'rev-parse', 'HEAD')},sub`);
  git(dir, 'commit', '-q', '-m', 'every kind');
  for (const tree of ['HEAD^{tree}', 'HEAD:a']) {
    const listed = git(dir, '-c', 'core.quotePath=false', 'ls-tree', tree)
      .split('\n')
      .map((line) => {
        const [meta, name] = line.split('\t') as [string, string];
        const [mode, , oid] = meta.split(' ') as [string, string, string];
        return { mode: mode.replace(/^0/, ''), name, oid };
      });
    const content = execFileSync('git', ['cat-file', 'tree', tree], { cwd: dir });
    assert.equal(parseTree(content, 20), listed, tree);
  }
  assert.equal(parseTree(Buffer.alloc(0), 20), [], 'the empty tree');
});

test("parseTree refuses a tree git's fsck calls broken, and what would take a path out of its directory", () => {
  const a = 'a'.repeat(40);
  const good = treeBytes([
    ['100644', 'a', a],
    ['100644', 'a.txt', a],
    ['40000', 'b', a],
  ]);
  assert.is(parseTree(good, 20)?.length, 3);
  const refused: Array<[Buffer, string]> = [
    [good.subarray(0, good.length - 1), 'an entry cut short'],
    [Buffer.from('100644'), 'no space'],
    [Buffer.from('100644 a'), 'no NUL'],
    [treeBytes([['10064x', 'a', a]]), 'a mode not in octal'],
    [treeBytes([['', 'a', a]]), 'no mode'],
    ...['', '.', '..', '.git', '.GIT', 'a/b'].map((name): [Buffer, string] => [treeBytes([['100644', name, a]]), `the name '${name}'`]),
    [
      treeBytes([
        ['100644', 'b', a],
        ['100644', 'a', a],
      ]),
      'out of order',
    ],
    [
      treeBytes([
        ['100644', 'a', a],
        ['100644', 'a', a],
      ]),
      'a name twice',
    ],
    [
      treeBytes([
        ['100644', 'a', a],
        ['100644', 'a.txt', a],
        ['40000', 'a', a],
      ]),
      'a file and a directory of one name',
    ],
  ];
  for (const [bytes, why] of refused) assert.is(parseTree(bytes, 20), null, why);
});

test('a damaged tree (seeded): ref:path reads answer as git cat-file does, git answering for what parseTree refuses', async () => {
  const dir = tempRepo();
  for (const name of ['a.txt', 'b.txt', 'c/d.txt', 'e.txt']) write(dir, name, `${name}\n`);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'tree');
  const good = execFileSync('git', ['cat-file', 'tree', 'HEAD^{tree}'], { cwd: dir });
  let seed = 11;
  const random = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const tally = { parsed: 0, refused: 0 };
  for (let k = 0; k < 120; k++) {
    const bytes = Buffer.from(good);
    for (let n = 1 + random(2); n > 0; n--) {
      const at = random(bytes.length);
      const how = random(5);
      // A NUL, a space, a slash, a dot or a flipped bit.
      bytes[at] = how < 4 ? [0x00, 0x20, 0x2f, 0x2e][how]! : bytes[at]! ^ (1 << random(8));
    }
    const tree = rawTree(dir, bytes);
    if (parseTree(bytes, 20)) tally.parsed++;
    else tally.refused++;
    for (const spec of ['a.txt', 'c/d.txt', 'e.txt', 'c'].map((path) => `${tree}:${path}`)) {
      const answer = spawnSync('git', ['cat-file', '--batch-check'], { cwd: dir, input: `${spec}\n`, encoding: 'utf8' });
      const theirs = answer.status === 0 ? answer.stdout : 'ERROR'; // git dies on a tree it cannot parse
      const reader = new ObjectReader(dir);
      const ours = await reader.read(spec).then(
        (o) => (o ? `${o.oid} ${o.type} ${o.content.length}\n` : `${spec} missing\n`),
        () => 'ERROR',
      );
      reader.close();
      assert.is(ours, theirs, `case ${k}, ${spec}`);
    }
  }
  assert.ok(tally.parsed > 20 && tally.refused > 20, JSON.stringify(tally));
});

test('loose objects whose header git cannot parse (a size with a leading zero, a sign, two spaces) are answered as git answers them', async () => {
  const dir = tempRepo();
  const oids = ['blob 5', 'blob 05', 'blob +5', 'blob  5'].map((header) => {
    const raw = Buffer.from(`${header}\0hello`);
    const oid = sha1Hex(raw);
    mkdirSync(join(dir, '.git', 'objects', oid.slice(0, 2)), { recursive: true });
    writeFileSync(join(dir, '.git', 'objects', oid.slice(0, 2), oid.slice(2)), deflateSync(raw));
    return oid;
  });
  const reader = new ObjectReader(dir);
  for (const oid of oids) {
    const theirs = spawnSync('git', ['cat-file', '--batch-check'], { cwd: dir, input: `${oid}\n`, encoding: 'utf8' }).stdout;
    const ours = await reader.read(oid);
    assert.is(ours ? `${ours.oid} ${ours.type} ${ours.content.length}\n` : `${oid} missing\n`, theirs, oid);
  }
  reader.close();
});

test.run();
