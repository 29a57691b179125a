// The command line as git and gh users type it, through the built binary: `--` ends options.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { git, tempRepo } from '../helpers/repo';

const repo = tempRepo();
writeFileSync(join(repo, '-f.txt'), 'a file named like an option\n');
writeFileSync(join(repo, 'flags.txt'), 'run it with --verbose\n');
git(repo, 'add', '-A');
git(repo, 'commit', '-q', '-m', 'dashes');

test('after -- every word is an argument: a pattern, a path or a query that starts with a dash', async () => {
  const search = await forge(['search', '--json', '--', '--verbose'], { cwd: repo });
  assert.is(search.code, 0, search.stderr);
  assert.equal(search.records.filter((r) => r.type === 'match').map((r) => `${r.path}:${r.line}`), ['flags.txt:1']);
  const read = await forge(['read', '--', '-f.txt'], { cwd: repo });
  assert.is(read.code, 0, read.stderr);
  assert.match(read.stdout, /a file named like an option/);
  await forge(['memory', 'save', '-x marks the spot', '--json'], { cwd: repo });
  const recall = await forge(['memory', 'recall', '--json', '--', '-x'], { cwd: repo });
  assert.is(recall.code, 0, recall.stderr);
  assert.is(recall.records.at(-1)!.query, '-x', 'the query after -- is kept, not dropped');
});

test('an option that takes a value takes one that starts with a dash; -- itself can be searched for after --', async () => {
  writeFileSync(join(repo, 'y.txt'), '-y here\n');
  const edit = await forge(['edit', 'y.txt', '--old', '-y', '--new', 'z'], { cwd: repo });
  assert.is(edit.code, 0, edit.stderr);
  const dashes = await forge(['search', '--json', '--', '--'], { cwd: repo });
  assert.equal(dashes.records.filter((r) => r.type === 'match').map((r) => r.path), ['flags.txt']);
});

test('words after -- still count: one too many is refused as unexpected, exit 2', async () => {
  const r = await forge(['read', '--', '-f.txt', 'x', 'y', 'z'], { cwd: repo });
  assert.is(r.code, 2);
  assert.match(r.stderr, /unexpected argument/);
  assert.match(r.stderr, /Fix: /);
});

test.run();
