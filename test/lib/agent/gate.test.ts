// What forge agent's plan gate hands preflight for each tool: the paths a call reads or writes, and the code it runs, as the call will.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { preflightArgs } from '../../../lib/plans/calls';

const effectsOf = (name: string, args: Record<string, unknown>) => {
  const { reads, writes, code } = preflightArgs(name, args).effects!;
  return { reads, writes, code };
};

test("listings, searches and replacements are checked by the directory they read: their paths, else their glob's literal directory", () => {
  assert.equal(effectsOf('ls', { glob: 'src/**' }), { reads: ['src/'], writes: [], code: [] });
  assert.equal(effectsOf('search', { pattern: 'x', glob: 'src/lib/*.ts' }), { reads: ['src/lib/'], writes: [], code: [] });
  assert.equal(effectsOf('search', { pattern: 'x', paths: ['docs'], glob: 'src/**' }), { reads: ['docs/'], writes: [], code: [] });
  assert.equal(effectsOf('replace', { old: 'a', new: 'b', paths: ['src', 'test'] }), { reads: [], writes: ['src/', 'test/'], code: [] });
  // A glob with no directory matches names anywhere: the whole directory the call runs in.
  assert.equal(effectsOf('replace', { old: 'a', new: 'b', glob: '*.ts' }), { reads: [], writes: ['./'], code: [] });
  assert.equal(effectsOf('ls', {}), { reads: ['./'], writes: [], code: [] });
  assert.equal(effectsOf('edit', { path: 'src/a.ts', old: 'a', new: 'b' }), { reads: [], writes: ['src/a.ts'], code: [] });
  assert.equal(effectsOf('validate', { module: 'm', cmd: ['npm test'] }), { reads: [], writes: [], code: ['npm test'] });
  assert.equal(preflightArgs('bash', { command: 'ls' }), { tool: 'bash', path: [], command: 'ls' });
});

test.run();
