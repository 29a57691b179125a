// What forge agent's plan gate hands preflight for each tool: the paths a call reads or writes, as the call will.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { preflightArgs } from '../../../lib/plans/calls';

test("listings, searches and replacements are checked by the directory they read: their paths, else their glob's literal directory", () => {
  assert.equal(preflightArgs('ls', { glob: 'src/**' }), { tool: 'ls', path: ['src'] });
  assert.equal(preflightArgs('search', { pattern: 'x', glob: 'src/lib/*.ts' }), { tool: 'search', path: ['src/lib'] });
  assert.equal(preflightArgs('search', { pattern: 'x', paths: ['docs'], glob: 'src/**' }), { tool: 'search', path: ['docs'] });
  assert.equal(preflightArgs('replace', { old: 'a', new: 'b', paths: ['src', 'test'] }), { tool: 'replace', path: ['src', 'test'] });
  // A glob with no directory matches names anywhere: the whole directory the call runs in.
  assert.equal(preflightArgs('replace', { old: 'a', new: 'b', glob: '*.ts' }), { tool: 'replace', path: ['.'] });
  assert.equal(preflightArgs('ls', {}), { tool: 'ls', path: [] });
  assert.equal(preflightArgs('edit', { path: 'src/a.ts', old: 'a', new: 'b' }), { tool: 'edit', path: ['src/a.ts'] });
});

test.run();
