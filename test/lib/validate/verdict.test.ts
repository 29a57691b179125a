// The recommendation rules: PROCEED, RETRY or ESCALATE, and the reason each gives.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import type { Attempt } from '../../../lib/iter/iter';
import { recommend } from '../../../lib/validate/verdict';

const failed = (score: number, ...issues: string[]): Attempt => ({ timestamp: 't', status: 'failed', score, issues });
const passed: Attempt = { timestamp: 't', status: 'passed', score: 1, issues: [] };
const decide = (attempts: Attempt[], maxAttempts = 5, cwdMissing = false) => recommend({ attempts, cwdMissing, maxAttempts });

test('a pass proceeds, whatever came before', () => {
  const v = decide([failed(0.5, 'x'), failed(0.5, 'x'), passed]);
  assert.equal([v.recommendation, v.reason, v.stagnant, v.sameAsPrev], ['PROCEED', 'every check passed', false, false]);
});

test('a first failure retries', () => {
  assert.equal(decide([failed(0.5, 'command npm test')]), {
    recommendation: 'RETRY',
    reason: '1 check failed; attempt 1 of at most 5',
    stagnant: false,
    oscillating: false,
    sameAsPrev: false,
    velocity: null,
  });
});

test('the same failures again escalate as stagnant', () => {
  const v = decide([failed(0.5, 'x', 'y'), failed(0.6, 'y', 'x')]);
  assert.equal(
    [v.recommendation, v.reason, v.sameAsPrev, v.stagnant],
    ['ESCALATE', 'stagnant: the same checks failed as in attempt 1', true, true],
  );
});

test('a score that stops rising over three attempts escalates as stagnant', () => {
  const v = decide([failed(0.5, 'a'), failed(0.75, 'b'), failed(0.5, 'c')]);
  assert.equal(
    [v.recommendation, v.reason, v.velocity],
    ['ESCALATE', 'stagnant: the score has not risen over the last 3 scored attempts', 0],
  );
  assert.is(decide([failed(0.25, 'a'), failed(0.5, 'b'), failed(0.75, 'c')]).recommendation, 'RETRY');
});

test('failures that come back from two attempts ago escalate as oscillating', () => {
  const v = decide([failed(0.2, 'x'), failed(0.4, 'y'), failed(0.6, 'x')]);
  assert.equal(
    [v.recommendation, v.reason, v.oscillating, v.stagnant],
    ['ESCALATE', 'oscillating: the same checks failed as in attempt 1', true, false],
  );
});

test('the attempt limit escalates; a missing working directory escalates at once', () => {
  assert.equal(decide([failed(0.2, 'a'), failed(0.4, 'b')], 2).reason, 'attempt 2 of at most 2');
  assert.is(decide([failed(0.2, 'a')], 2).recommendation, 'RETRY');
  const missing = decide([{ timestamp: 't', status: 'error', score: 0, issues: ['cwd_check /gone'] }], 5, true);
  assert.equal(
    [missing.recommendation, missing.reason],
    ['ESCALATE', 'the working directory does not exist: nothing can be checked until it does'],
  );
});

test.run();
