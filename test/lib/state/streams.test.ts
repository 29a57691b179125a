// Segmented append-only stores on real repositories: bounded segments, exact conversion of an earlier forge's file, hostile trees.
import { execFileSync } from 'node:child_process';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { streamBlobLines } from '../../../lib/git/objects';
import { openRepo } from '../../../lib/git/repo';
import { STATE_REF, StateStore } from '../../../lib/git/state';
import { appendLines, readStream, streamLines, tailLines } from '../../../lib/state/streams';
import { git, storeLines, tempRepo } from '../../helpers/repo';

/** Closes what a test opened even when it fails: an open store's cat-file would keep the runner alive. */
const opened: StateStore[] = [];
test.after.each(() => {
  for (const s of opened.splice(0)) s.close();
});

async function store(dir: string): Promise<StateStore> {
  const s = new StateStore(await openRepo({ cwd: dir }));
  opened.push(s);
  return s;
}

const line = (i: number) => JSON.stringify({ id: `ev-${i}`, n: i, pad: 'x'.repeat(40) });
/** Segment names and sizes under a store's directory on the ref. */
function segments(dir: string, store: string): Array<[string, number, string]> {
  return git(dir, 'ls-tree', '-l', `${STATE_REF}:${store}`)
    .split('\n')
    .map((l) => /^\d+ blob ([0-9a-f]+) +(\d+)\t(.+)$/.exec(l)!)
    .map((m) => [m[3]!, Number(m[2]), m[1]!]);
}

/** Writes a file straight into the state tree, as an earlier forge (or another tool) left it. */
function plant(dir: string, path: string, content: string | Buffer): void {
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: dir, input: content, encoding: 'utf8' }).trim();
  const index = `${dir}/.git/plant-index`;
  const env = { ...process.env, GIT_INDEX_FILE: index };
  const head = (() => {
    try {
      return git(dir, 'rev-parse', STATE_REF);
    } catch {
      return null;
    }
  })();
  execFileSync('git', ['read-tree', ...(head ? [head] : ['--empty'])], { cwd: dir, env });
  execFileSync('git', ['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`], { cwd: dir, env });
  const tree = execFileSync('git', ['write-tree'], { cwd: dir, env, encoding: 'utf8' }).trim();
  git(dir, 'update-ref', STATE_REF, git(dir, 'commit-tree', tree, ...(head ? ['-p', head] : []), '-m', `plant ${path}`));
}

test('appends fill a segment up to the bound and then open the next; a closed segment is never rewritten', async () => {
  const dir = tempRepo();
  const s = await store(dir);
  const bound = 600;
  const closed = new Map<string, string>();
  for (let batch = 0; batch < 12; batch++) {
    await s.update({
      message: `append ${batch}`,
      apply: (tx) => appendLines({ tx, dir: '.forge/logs/r', lines: [0, 1, 2].map((k) => line(batch * 3 + k)), segmentBytes: bound }),
    });
    const now = segments(dir, '.forge/logs/r');
    // Every segment but the last keeps the blob it had when the next one was opened.
    for (const [name, , oid] of now.slice(0, -1)) {
      if (closed.has(name)) assert.is(oid, closed.get(name), `${name} was rewritten after it closed`);
      closed.set(name, oid);
    }
  }
  const all = segments(dir, '.forge/logs/r');
  assert.ok(all.length >= 4, `${all.length} segments`);
  assert.equal(
    all.map(([name]) => name),
    all.map((_, i) => `${String(i).padStart(6, '0')}.jsonl`),
  );
  for (const [name, size] of all) assert.ok(size <= bound, `${name} holds ${size} bytes`);
  const expected = Array.from({ length: 36 }, (_, i) => line(i));
  assert.equal(storeLines(dir, '.forge/logs/r'), expected, 'plain git reads the lines in order');
  const read: string[] = [];
  for await (const l of streamLines({ store: s, dir: '.forge/logs/r' })) read.push(l);
  assert.equal(read, expected);
});

test('a line longer than a segment gets a segment of its own', async () => {
  const dir = tempRepo();
  const s = await store(dir);
  const long = JSON.stringify({ id: 'long', pad: 'y'.repeat(500) });
  await s.update({
    message: 'a',
    apply: (tx) => appendLines({ tx, dir: '.forge/logs/r', lines: [line(1), long, line(2)], segmentBytes: 200 }),
  });
  assert.equal(
    segments(dir, '.forge/logs/r').map(([name, size]) => [name, size]),
    [
      ['000000.jsonl', line(1).length + 1],
      ['000001.jsonl', long.length + 1],
      ['000002.jsonl', line(2).length + 1],
    ],
  );
});

test("an earlier forge's single file is read, then converted by the next append: every line kept byte for byte, in order, the file removed", async () => {
  const dir = tempRepo();
  // A corrupt line, a line with bytes that are not UTF-8, and no final newline: all must survive.
  const old = Buffer.concat([
    Buffer.from(`${line(1)}\n{not json\n`),
    Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]),
    Buffer.from(`${line(2)}\n${line(3)}`),
  ]);
  plant(dir, '.forge/logs/r.jsonl', old);
  const s = await store(dir);
  assert.is(await readStream({ store: s, dir: '.forge/logs/r' }), `${old.toString('utf8')}\n`, 'read before any write');
  await s.update({ message: 'append', apply: (tx) => appendLines({ tx, dir: '.forge/logs/r', lines: [line(4)], segmentBytes: 64 }) });
  assert.is(git(dir, 'ls-tree', '-r', '--name-only', STATE_REF).split('\n').includes('.forge/logs/r.jsonl'), false, 'the old file is gone');
  const blobs = segments(dir, '.forge/logs/r').map(([name]) =>
    execFileSync('git', ['cat-file', 'blob', `${STATE_REF}:.forge/logs/r/${name}`], { cwd: dir }),
  );
  assert.ok(blobs.length > 2, 'carried into several segments');
  assert.equal(Buffer.concat(blobs), Buffer.concat([old, Buffer.from(`\n${line(4)}\n`)]), 'the same bytes, then the new line');
});

test('converting beside segments a sync brought carries only the lines they lack; names that are not segments are ignored', async () => {
  const dir = tempRepo();
  plant(dir, '.forge/logs/r/000000.jsonl', `${line(1)}\n${line(2)}\n`);
  plant(dir, '.forge/logs/r/notes.txt', 'not a segment\n');
  plant(dir, '.forge/logs/r/7.jsonl', `${line(99)}\n`);
  // The same event written with its keys in another order is the same event.
  plant(dir, '.forge/logs/r.jsonl', `${line(1)}\n${JSON.stringify({ n: 2, id: 'ev-2', pad: 'x'.repeat(40) })}\n${line(3)}\n`);
  const s = await store(dir);
  assert.equal(
    (await readStream({ store: s, dir: '.forge/logs/r' }))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).n),
    [1, 2, 3, 1, 2],
  );
  await s.update({ message: 'append', apply: (tx) => appendLines({ tx, dir: '.forge/logs/r', lines: [line(4)] }) });
  assert.equal(
    (await readStream({ store: s, dir: '.forge/logs/r' }))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).n),
    [1, 2, 3, 4],
  );
  assert.is(git(dir, 'show', `${STATE_REF}:.forge/logs/r/notes.txt`), 'not a segment', 'left as it was');
});

test('a segment without a final newline (a hand edit) gets one before the next line; its bytes are extended, not re-encoded', async () => {
  const dir = tempRepo();
  const edited = Buffer.concat([Buffer.from(`${line(1)}\n`), Buffer.from([0xc3, 0x28]), Buffer.from(' hand edit')]);
  plant(dir, '.forge/logs/r/000000.jsonl', edited);
  const s = await store(dir);
  await s.update({ message: 'append', apply: (tx) => appendLines({ tx, dir: '.forge/logs/r', lines: [line(2)] }) });
  assert.equal(
    execFileSync('git', ['cat-file', 'blob', `${STATE_REF}:.forge/logs/r/000000.jsonl`], { cwd: dir }),
    Buffer.concat([edited, Buffer.from(`\n${line(2)}\n`)]),
  );
});

test("a store whose directory name is another store's old file (run x.jsonl beside run x's x.jsonl) converts that one first: neither loses a line", async () => {
  const dir = tempRepo();
  plant(dir, '.forge/logs/x.jsonl', `${line(1)}\n${line(2)}\n`);
  const s = await store(dir);
  await s.update({ message: 'append', apply: (tx) => appendLines({ tx, dir: '.forge/logs/x.jsonl', lines: [line(3)] }) });
  assert.equal(git(dir, 'ls-tree', '-r', '--name-only', STATE_REF).split('\n'), [
    '.forge/logs/x.jsonl/000000.jsonl',
    '.forge/logs/x/000000.jsonl',
  ]);
  assert.equal(storeLines(dir, '.forge/logs/x/'), [line(1), line(2)]);
  assert.equal(storeLines(dir, '.forge/logs/x.jsonl/'), [line(3)]);
  assert.is(git(dir, 'fsck', '--strict', '--no-dangling'), '');
});

test('the tail reaches back over as many segments as it needs, and into the old file when they are too few', async () => {
  const dir = tempRepo();
  plant(dir, '.forge/logs/r.jsonl', `${line(0)}\n`);
  const s = await store(dir);
  await s.update({
    message: 'a',
    apply: (tx) => appendLines({ tx, dir: '.forge/logs/r', lines: [1, 2, 3, 4, 5].map(line), segmentBytes: 150 }),
  });
  plant(dir, '.forge/logs/r.jsonl', `${line(0)}\n`); // a sync brought it back
  const tail = async (count: number) => {
    let got: string[] = [];
    await s.update({ message: 'read', apply: async (tx) => void (got = await tailLines({ tx, dir: '.forge/logs/r', count })) });
    return got.map((l) => JSON.parse(l).n);
  };
  // Two lines a segment: [0 1] [2 3] [4 5] (the old file's line carried first), and the old file again.
  assert.equal(await tail(1), [4, 5]);
  assert.equal(await tail(3), [2, 3, 4, 5]);
  assert.equal(await tail(6), [0, 1, 2, 3, 4, 5]);
  assert.equal(await tail(7), [0, 0, 1, 2, 3, 4, 5]);
});

test('streamed blob lines: a blob without a final newline never joins the next; a missing blob yields nothing', async () => {
  const dir = tempRepo();
  const a = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: dir, input: 'a1\na2', encoding: 'utf8' }).trim();
  const b = execFileSync('git', ['hash-object', '-w', '--stdin'], {
    cwd: dir,
    input: `b1\n${'é'.repeat(70_000)}\n\nb3\n`,
    encoding: 'utf8',
  }).trim();
  const lines: string[] = [];
  for await (const l of streamBlobLines({ cwd: dir, specs: [a, `${STATE_REF}:nothing`, b, 'HEAD'] })) lines.push(l);
  assert.equal(lines, ['a1', 'a2', 'b1', 'é'.repeat(70_000), '', 'b3']);
});

test.run();
