// forge edit over the real-history corpus through the built binary: each hunk as an edit, exact bytes or a refusal that changes nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { editArgs, failureLine, judge, PERTURBATIONS, sampleCases } from '../helpers/corpus';
import { forge } from '../helpers/forge';
import { repoWith } from '../helpers/repo';

// Two cases a perturbation (each a call per hunk); test/lib/files/corpus-edit.test.ts runs more in-process.
for (const p of PERTURBATIONS.filter((x) => x.edit)) {
  test(`real-history corpus through forge edit, ${p.id}: ${p.what}`, async () => {
    const failures: string[] = [];
    for (const c of sampleCases(p, 2, 'edit')) {
      const dir = repoWith({ [c.path]: c.before });
      let r = { code: 0, stderr: '' };
      for (const e of c.edits) {
        r = await forge(['edit', c.path, ...editArgs(e)], { cwd: dir });
        if (r.code !== 0) break;
      }
      const bytes = readFileSync(join(dir, c.path));
      const want = c.after && { [c.path]: c.after };
      const outcome = judge({ want, before: { [c.path]: c.before }, exit: r.code, now: () => bytes });
      if (outcome !== 'correct' || r.stderr.startsWith('Error: internal error'))
        failures.push(failureLine({ name: c.name, want, outcome, exit: r.code, error: r.stderr, now: () => bytes }));
    }
    assert.equal(failures, []);
  });
}

test.run();
