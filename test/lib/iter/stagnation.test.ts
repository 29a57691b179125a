// The stagnation rules that decide between RETRY and ESCALATE.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isStagnant, type Attempt } from '../../../lib/iter/iter';

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

test.run();
