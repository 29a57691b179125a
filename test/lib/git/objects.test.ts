// The object reader: loose objects and refs read without a git process give exactly what git cat-file gives; everything else still goes to git.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ObjectReader } from '../../../lib/git/objects';
import { openRepo } from '../../../lib/git/repo';
import { STATE_REF, StateStore } from '../../../lib/git/state';
import { git, tempDir, tempRepo } from '../../helpers/repo';

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

test.run();
