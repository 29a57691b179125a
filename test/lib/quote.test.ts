// Shell quoting of hint commands: what is printed must paste back into sh unchanged.
import { execFileSync } from 'node:child_process';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { shellJoin, shellQuote } from '../../lib/quote';

test('leaves safe words bare and quotes the rest', () => {
  assert.is(shellJoin(['forge', 'memory', 'recall', 'use pnpm']), "forge memory recall 'use pnpm'");
  assert.is(shellQuote(''), "''");
  assert.is(shellQuote('a/b.c-d=1'), 'a/b.c-d=1');
});

test('round-trips awkward words through a real shell', () => {
  const words = ["it's", 'a b', '$HOME', '`x`', '"q"', 'back\\slash', 'new\nline', '*', ''];
  const out = execFileSync('sh', ['-c', `printf '%s\\0' ${shellJoin(words)}`], { encoding: 'utf8' });
  assert.equal(out.split('\0').slice(0, -1), words);
});

test.run();
