// The stagnation, velocity and oscillation rules that decide between RETRY and ESCALATE.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { isOscillating, isStagnant, oscillatesWith, sameAsPrev, velocity, type Attempt } from '../../../lib/iter/iter';

const a = (status: Attempt['status'], score: number | null, issues: string[] = []): Attempt => ({ timestamp: 't', status, score, issues });

test('no attempts, one attempt, or a pass is never stagnant', () => {
  assert.not.ok(isStagnant([]));
  assert.not.ok(isStagnant([a('failed', 0.2, ['x'])]));
  assert.not.ok(isStagnant([a('failed', 0.2, ['x']), a('failed', 0.2, ['x']), a('passed', 1)]));
});

test('the same failure set twice in a row is stagnant, in any order', () => {
  assert.ok(isStagnant([a('failed', 0.2, ['x', 'y']), a('failed', 0.6, ['y', 'x'])]));
  assert.not.ok(isStagnant([a('failed', 0.2, ['x']), a('failed', 0.4, ['y'])]));
  assert.not.ok(isStagnant([a('failed', null, []), a('failed', null, [])]));
});

test('no score rise over the last three scored attempts is stagnant', () => {
  assert.ok(isStagnant([a('failed', 0.5, ['a']), a('failed', 0.7, ['b']), a('failed', 0.5, ['c'])]));
  assert.ok(isStagnant([a('failed', 0.5, ['a']), a('failed', 0.5, ['b']), a('failed', 0.5, ['c'])]));
  assert.not.ok(isStagnant([a('failed', 0.2, ['a']), a('failed', 0.3, ['b']), a('failed', 0.5, ['c'])]));
  assert.not.ok(isStagnant([a('failed', 0.5, ['a']), a('failed', 0.4, ['b'])]));
});

test('velocity is the mean score change per attempt over the last three scores; null before two', () => {
  assert.is(velocity([]), null);
  assert.is(velocity([a('failed', 0.2, ['x'])]), null);
  const near = (v: number | null, expected: number) => assert.ok(v !== null && Math.abs(v - expected) < 1e-9, `${v} ≠ ${expected}`);
  near(velocity([a('failed', 0.2, ['x']), a('failed', 0.5, ['y'])]), 0.3);
  near(velocity([a('failed', 0, ['w']), a('failed', 0.2, ['x']), a('failed', 0.4, ['y']), a('failed', 0.3, ['z'])]), 0.05);
  near(velocity([a('failed', 0.5, ['x']), a('error', null, ['y']), a('failed', 0.4, ['z'])]), -0.1);
});

test('sameAsPrev needs two failures with the same non-empty issues, in any order', () => {
  assert.ok(sameAsPrev([a('failed', 0.5, ['x', 'y']), a('failed', 0.5, ['y', 'x'])]));
  assert.not.ok(sameAsPrev([a('failed', 0.5, ['x'])]));
  assert.not.ok(sameAsPrev([a('failed', 0.5, ['x']), a('failed', 0.5, ['x', 'y'])]));
  assert.not.ok(sameAsPrev([a('passed', 1), a('passed', 1)]));
});

test('oscillating: the failures of an attempt before the previous one, within the last four, come back', () => {
  const x = a('failed', 0.5, ['x']);
  const y = a('failed', 0.5, ['y']);
  const z = a('failed', 0.5, ['z']);
  assert.is(oscillatesWith([x, y, x]), 1);
  assert.ok(isOscillating([x, y, z, x]));
  assert.is(oscillatesWith([x, y, x, y, x]), 3, 'the most recent match');
  assert.is(oscillatesWith([x, y, z, z, z, x]), null, 'five attempts back is outside the window');
  assert.is(oscillatesWith([x, y, z, a('failed', 0.5, ['w']), x]), 1, 'four back is inside the window');
  assert.not.ok(isOscillating([y, x, x]), 'the previous attempt is sameAsPrev, not oscillation');
  assert.not.ok(isOscillating([x, y, a('passed', 1)]));
  assert.not.ok(isOscillating([a('failed', null, []), y, a('failed', null, [])]));
});

test.run();
