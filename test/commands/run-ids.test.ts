// Ids are checked before anything uses them: an invalid run id is never spooled, logged or committed, and the flush removes what it cannot trust.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { git, stateCommits, storeLines, tempDir, tempRepo } from '../helpers/repo';

/** Every path under dir with a hash of its content (or its link target), to compare before and after. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p);
      const rel = relative(dir, p);
      if (st.isSymbolicLink()) out.push(`${rel} -> ${readlinkSync(p)}`);
      else if (st.isDirectory()) {
        out.push(`${rel}/`);
        walk(p);
      } else out.push(`${rel} ${createHash('sha256').update(readFileSync(p)).digest('hex')}`);
    }
  };
  walk(dir);
  return out;
}

const pendingDir = (repo: string) => join(repo, '.git', 'forge', 'pending');

/** A repository two levels down in its own temp dir, so '../../../../x' from its spool lands in that dir. */
function nestedRepo(): { outer: string; repo: string } {
  const outer = tempDir();
  const repo = join(outer, 'work', 'repo');
  mkdirSync(repo, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  return { outer, repo };
}

test('FORGE_RUN_ID=../../../../x forge memory save y: INVALID_ID, and nothing is created inside or outside the repository', async () => {
  const { outer, repo } = nestedRepo();
  const before = snapshot(outer);
  const r = await forge(['memory', 'save', 'y'], { cwd: repo, env: { FORGE_RUN_ID: '../../../../x' } });
  assert.is(r.code, 2, r.stderr);
  assert.match(r.stderr, /invalid run id '\.\.\/\.\.\/\.\.\/\.\.\/x'/);
  assert.equal(snapshot(outer), before, 'no file or directory appeared anywhere, spool included');
  assert.is(stateCommits(repo), 0);
});

test('a run id with a newline, a slash or .. is refused from the flag, the environment and an NDJSON request, and never spooled', async () => {
  const dir = tempRepo();
  for (const id of ['a\nb', 'a/b', '..', '../up', 'x\n']) {
    const runs = [
      await forge(['memory', 'save', 'lesson', '--run-id', id, '--json'], { cwd: dir }),
      await forge(['memory', 'save', 'lesson', '--json'], { cwd: dir, env: { FORGE_RUN_ID: id } }),
      await forge(['memory', 'save'], { cwd: dir, input: `${JSON.stringify({ pattern: 'lesson', 'run-id': id })}\n` }),
    ];
    for (const r of runs) {
      assert.is(r.code, 2, `${JSON.stringify(id)}: ${r.stdout}${r.stderr}`);
      assert.is(r.records.at(-1)!.error.code, 'INVALID_ID', JSON.stringify(id));
    }
  }
  assert.not.ok(existsSync(pendingDir(dir)), 'no spool directory was made');
  assert.is(stateCommits(dir), 0, 'nothing was committed');
  // A valid id still logs, and only under its own name.
  await forge(['memory', 'recall', 'x', '--run-id', 'ok-1'], { cwd: dir });
  await forge(['state', 'log'], { cwd: dir });
  assert.equal(git(dir, 'ls-tree', '--name-only', 'refs/forge/state:.forge/logs').split('\n'), ['ok-1']);
});

test('the flush commits only valid spool entries and removes the rest: invalid run names, stray files, links, stale temp files', async () => {
  const dir = tempRepo();
  // One real event, spooled by forge itself.
  await forge(['memory', 'recall', 'x', '--run-id', 'good'], { cwd: dir });
  const pending = pendingDir(dir);
  const [spooled] = readdirSync(join(pending, 'good'));
  const event = readFileSync(join(pending, 'good', spooled!), 'utf8');
  const name = '000001700000000-0123456789abcdef.jsonl';
  // What an older forge (or anyone) may have left: directories named by invalid ids…
  for (const bad of ['bad\nname', 'a b', '..x\n']) {
    mkdirSync(join(pending, bad), { recursive: true });
    writeFileSync(join(pending, bad, name), event.replace('"runId":"good"', `"runId":${JSON.stringify(bad)}`));
  }
  // …a stray file at the top, odd files beside the good one, a killed writer's temp file…
  writeFileSync(join(pending, 'stray.jsonl'), event);
  writeFileSync(join(pending, 'good', 'notes.txt'), 'x');
  mkdirSync(join(pending, 'good', 'sub.jsonl'));
  writeFileSync(join(pending, 'good', '.000001700000000-0123456789abcdef.tmp'), event);
  // …and a link to a directory outside, whose files must survive.
  const outside = tempDir();
  writeFileSync(join(outside, name), event);
  symlinkSync(outside, join(pending, 'linked'));
  const outsideBefore = snapshot(outside);

  const r = await forge(['state', 'log', '--json'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  assert.equal(
    git(dir, 'ls-tree', '--name-only', 'refs/forge/state:.forge/logs').split('\n'),
    ['good'],
    'only the valid run was committed',
  );
  assert.is(storeLines(dir, '.forge/logs/good').length, 1);
  assert.equal(readdirSync(pending).sort(), ['good'], 'everything else is gone from the spool');
  assert.equal(readdirSync(join(pending, 'good')), []);
  assert.equal(snapshot(outside), outsideBefore, 'the link was removed, not what it points to');
  assert.not.match(git(dir, 'log', '--format=%B', 'refs/forge/state'), /bad|a b|linked|stray/);
});

test('forge mcp with an invalid FORGE_RUN_ID does not start, and spools nothing', async () => {
  const { outer, repo } = nestedRepo();
  const before = snapshot(outer);
  const refused = await forge(['mcp'], { cwd: repo, env: { FORGE_RUN_ID: '../../../../x' } });
  assert.is(refused.code, 2);
  assert.match(refused.stderr, /invalid run id/);
  assert.equal(snapshot(outer), before, 'nothing was created, spool included');
});

test.run();
