// Mechanical mode's grammar: what it reads as a replacement, and what it leaves to a model.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { parseMechanical } from '../../../lib/agent/mechanical';

test('replace/rename/change OLD with/to NEW [in places]: words or quoted texts, paths and one glob', () => {
  assert.equal(parseMechanical('replace foo with bar in src/'), { old: 'foo', replacement: 'bar', paths: ['src/'] });
  assert.equal(parseMechanical('Rename formatPrice to formatAmount'), { old: 'formatPrice', replacement: 'formatAmount', paths: [] });
  assert.equal(parseMechanical(`change "console.log(" to 'logger.debug(' in src/, lib and test.`), {
    old: 'console.log(',
    replacement: 'logger.debug(',
    paths: ['src/', 'lib', 'test'],
  });
  assert.equal(parseMechanical('replace all `var ` with `let ` in *.js'), { old: 'var ', replacement: 'let ', paths: [], glob: '*.js' });
  assert.equal(parseMechanical('replace x with "" everywhere'), { old: 'x', replacement: '', paths: [] });
  assert.equal(parseMechanical('replace x with "" in the repository'), { old: 'x', replacement: '', paths: [] });
});

test('anything else is a task for a model', () => {
  for (const task of [
    'remove all console.log calls from src/',
    'replace the parser with a faster one that streams',
    'fix the failing test',
    'replace "" with x',
    'replace a with b in *.ts and *.js',
  ]) {
    assert.is(parseMechanical(task), null, task);
  }
});

test.run();
