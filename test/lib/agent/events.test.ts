// How a run's events are told: each kind of fit named as it is.
import * as assert from 'uvu/assert';
import { describeEvent } from '../../../lib/agent/events';
import { test } from '../../helpers/harness';

test('a fit says what it did: the latest result cut is not called an older one compressed', () => {
  const fit = (counts: { compressed?: number; shortened?: number; cut?: number; dropped?: number; images?: number }) =>
    describeEvent({
      type: 'compressed',
      compressed: 0,
      shortened: 0,
      cut: 0,
      dropped: 0,
      ...counts,
      results: (counts.compressed ?? 0) + (counts.shortened ?? 0) + (counts.cut ?? 0) + (counts.dropped ?? 0),
      before: 3000,
      after: 2000,
    })!.text;
  assert.is(fit({ cut: 1 }), '  (context 3000 → 2000 tokens: 1 latest result cut)');
  assert.is(fit({ compressed: 2 }), '  (context 3000 → 2000 tokens: 2 older results compressed)');
  assert.is(
    fit({ compressed: 1, shortened: 2, cut: 2, dropped: 1, images: 1 }),
    '  (context 3000 → 2000 tokens: 1 attached image left out, 1 older result compressed, 2 earlier arguments shortened, 2 latest results cut, 1 oldest turn dropped)',
  );
});

test.run();
