// forge edit and anchored line edits over the real-diff corpus: exact bytes, or refused with the file untouched.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { anchorOf } from '../../lib/files/anchor';
import { buildEditCorpus, projectSources } from '../helpers/corpus';
import { forge } from '../helpers/forge';
import { tempRepo } from '../helpers/repo';

test('every hunk of the corpus as an edit: drift, whitespace, CRLF and anchored lines land exactly; conflicts, ambiguity and stale anchors change nothing', async () => {
  // Two files give 23 hunks × 8 perturbations: broad enough, and half a minute instead of one.
  const cases = buildEditCorpus(projectSources(['lib/files/match.ts', 'lib/git/state.ts']), anchorOf);
  const dir = tempRepo();
  const failures: string[] = [];
  for (const c of cases) {
    const file = join(dir, 'subject.ts');
    writeFileSync(file, c.before);
    const r = await forge(['edit', 'subject.ts', ...c.args], { cwd: dir });
    const want = c.after ?? c.before;
    const expectedCode = c.after ? 0 : 1;
    if (r.code !== expectedCode || !readFileSync(file).equals(want)) failures.push(`${c.name}: exit ${r.code} (want ${expectedCode})${readFileSync(file).equals(want) ? '' : ', wrong bytes'}\n${r.stderr.split('\n')[0]}`);
  }
  assert.equal(failures, []);
  const kinds = new Set(cases.map((c) => c.perturbation));
  assert.equal([...kinds].sort(), ['ambiguous', 'anchored-lines', 'conflict', 'crlf-file', 'drifted', 'exact', 'stale-anchor', 'whitespace-drift']);
  assert.ok(cases.length >= 60, `${cases.length} cases`);
});

test.run();
