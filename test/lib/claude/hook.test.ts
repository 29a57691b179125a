// The refusal text every agent's hook answer carries: one period between sentences, none at the end.
import * as assert from 'uvu/assert';
import { denyReason } from '../../../lib/claude/hook';
import { test } from '../../helpers/harness';

test('denyReason joins sentences with one period and leaves none at the end, whatever each sentence ends with', () => {
  const advice = 'A hard refusal: no acknowledgement applies. Stay within the plan (`forge plan status`).';
  assert.is(
    denyReason('plan p is paused (kill switch): reviewing the diff.', advice),
    'plan p is paused (kill switch): reviewing the diff. A hard refusal: no acknowledgement applies. Stay within the plan (`forge plan status`)',
  );
  assert.is(
    denyReason("plan breach: tools — 'Grep' is not allowed in U1 (allowed: read)", advice),
    "plan breach: tools — 'Grep' is not allowed in U1 (allowed: read). A hard refusal: no acknowledgement applies. Stay within the plan (`forge plan status`)",
  );
  assert.is(denyReason('is this the plan? ', ' yes.'), 'is this the plan? yes');
  assert.is(denyReason('waiting for review…', 'Wait.'), 'waiting for review… Wait');
  assert.is(denyReason('see below...'), 'see below...', 'an ellipsis is no period to take off');
  assert.is(denyReason('one.', '', 'two.'), 'one. two');
});

test.run();
