// runGitWhole: git's whole answer without pipes' streams; its failures as exit codes, and output past its limit stopped.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { runGitWhole } from '../../../lib/git/exec';
import { tempRepo } from '../../helpers/repo';

test('the whole output and exit code; a git that fails or sends past maxBytes answers with a failing code, not a throw', async () => {
  const dir = tempRepo();
  for (let i = 0; i < 50; i++) writeFileSync(join(dir, `untracked-${i}.txt`), `${i}\n`);
  const all = await runGitWhole({ cwd: dir, args: ['ls-files', '-z', '--others'] });
  assert.is(all.code, 0, all.stderr);
  assert.is(all.stdout.toString('utf8').split('\0').filter(Boolean).length, 50);
  const failed = await runGitWhole({ cwd: dir, args: ['ls-files', '--no-such-option'] });
  assert.ok(failed.code !== 0);
  assert.match(failed.stderr, /no-such-option/);
  const cut = await runGitWhole({ cwd: dir, args: ['ls-files', '-z', '--others'], maxBytes: 100 });
  assert.ok(cut.code !== 0, 'more than maxBytes is a failure, never a listing cut short');
});

test.run();
