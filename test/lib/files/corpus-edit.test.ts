// The real-history corpus through the code forge edit runs, in-process: a sample of every perturbation, exact bytes or a refusal.
import * as assert from 'uvu/assert';
import { PERTURBATIONS, sampleCases } from '../../helpers/corpus';
import { CorpusBench, failureReport } from '../../helpers/corpus-run';
import { test } from '../../helpers/harness';

const bench = new CorpusBench();

// An edit is a journaled write per hunk (about 5 ms a case): a sample fixed by a hash of the cases'
// names keeps this file short; bench/files.ts takes the whole history.
const SAMPLE = 100;

for (const p of PERTURBATIONS.filter((x) => x.edit)) {
  test(`forge edit, ${p.id} (${SAMPLE} cases): ${p.what}`, async () => {
    const failures: string[] = [];
    let total = 0;
    for (const c of sampleCases(p, SAMPLE, 'edit')) {
      total++;
      const f = await bench.editFailure(c);
      if (f) failures.push(f);
    }
    assert.ok(failures.length === 0, failureReport(failures, total));
  });
}

test.run();
