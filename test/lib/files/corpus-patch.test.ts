// The real-history corpus through the code forge patch runs, in-process: every perturbation, exact bytes or a refusal.
import { execFileSync } from 'node:child_process';
import * as assert from 'uvu/assert';
import { corpusBases, editCases, PERTURBATIONS, patchCases, sampleCases } from '../../helpers/corpus';
import { CorpusBench, failureReport } from '../../helpers/corpus-run';
import { test } from '../../helpers/harness';

const bench = new CorpusBench();

test("the corpus holds this project's whole history and a second real history", () => {
  const bases = corpusBases();
  // A shallow clone (CI may make one) has no history to read; a full one must give it.
  const shallow = execFileSync('git', ['rev-parse', '--is-shallow-repository'], { encoding: 'utf8' }).trim() === 'true';
  if (!shallow)
    assert.ok(
      bases.some((b) => b.name.startsWith('forge@')),
      'commits of this repository',
    );
  assert.ok(
    bases.some((b) => b.name.startsWith('node_modules@')),
    'package releases',
  );
  for (const p of PERTURBATIONS) {
    const first = (p.patch ? patchCases(p) : editCases(p)).next();
    assert.ok(!first.done, `no case for ${p.id}`);
  }
});

// The corpus grows with every commit of this repository (tens of thousands of patch cases): the
// suite takes a sample of each perturbation fixed by a hash of the cases' names; FORGE_CORPUS_SAMPLE=all
// takes the whole of it, as bench/files.ts does.
const SAMPLE = process.env.FORGE_CORPUS_SAMPLE === 'all' ? null : Number(process.env.FORGE_CORPUS_SAMPLE) || 300;

for (const p of PERTURBATIONS.filter((x) => x.patch)) {
  test(`forge patch, ${p.id} (${SAMPLE ?? 'all'} cases): ${p.what}`, async () => {
    const failures: string[] = [];
    let total = 0;
    for (const c of SAMPLE === null ? patchCases(p) : sampleCases(p, SAMPLE, 'patch')) {
      total++;
      const f = await bench.patchFailure(c);
      if (f) failures.push(f);
    }
    assert.ok(failures.length === 0, failureReport(failures, total));
  });
}

test.run();
