// Which plan steps may run at once (stepGroups) and which files history suggests for a step (suggestCoChanges, changeHistory on a real repository).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { stepGroups } from '../../../lib/agent/parallel';
import { newPlan } from '../../../lib/agent/plan';
import { changeHistory, suggestCoChanges } from '../../../lib/git/cochange';
import { git, repoWith } from '../../helpers/repo';

const planOf = (steps: Array<{ id: string; files: string[]; dependsOn?: string[] }>) =>
  newPlan({
    task: 't',
    modules: steps.map((s) => ({ ...s, title: s.id, objective: 'o', verify: ['true'], doneWhen: 'd' })) as any,
    model: 'm',
    planner: 'm',
    plannerTokens: { input: 0, output: 0 },
    now: new Date(0),
  });
const ids = (groups: Array<Array<{ id: string }>>) => groups.map((g) => g.map((s) => s.id));

test('steps with no shared file and no dependency run together, up to the limit', () => {
  const plan = planOf([
    { id: 'M1', files: ['src/a.ts'] },
    { id: 'M2', files: ['src/b.ts'] },
    { id: 'M3', files: ['src/c.ts'] },
    { id: 'M4', files: ['src/d.ts'], dependsOn: ['M3'] },
  ]);
  assert.equal(ids(stepGroups(plan, 1)), [['M1'], ['M2'], ['M3'], ['M4']]);
  assert.equal(ids(stepGroups(plan, 2)), [['M1', 'M2'], ['M3'], ['M4']]);
  assert.equal(ids(stepGroups(plan, 8)), [['M1', 'M2', 'M3'], ['M4']], 'M4 depends on M3');
});

test("a shared file, a directory holding another step's file, or no files at all keeps a step apart; done steps are left out", () => {
  const plan = planOf([
    { id: 'M1', files: ['./src/a.ts'] },
    { id: 'M2', files: ['src/a.ts'] },
    { id: 'M3', files: ['src/'] },
    { id: 'M4', files: [] },
    { id: 'M5', files: ['lib/x.ts'] },
    { id: 'M6', files: ['lib/y.ts'] },
  ]);
  assert.equal(ids(stepGroups(plan, 4)), [['M1'], ['M2'], ['M3'], ['M4'], ['M5', 'M6']]);
  plan.steps[0]!.status = 'done';
  plan.steps[4]!.status = 'done';
  assert.equal(ids(stepGroups(plan, 4)), [['M2'], ['M3'], ['M4'], ['M6']]);
});

test('co-change: a file in at least 60% of the commits that changed a step file, of two or more, strongest first', () => {
  const history = [
    ['a.ts', 'b.ts'],
    ['a.ts', 'b.ts', 'c.ts'],
    ['a.ts', 'c.ts'],
    ['a.ts', 'b.ts'],
    ['d.ts', 'e.ts'],
  ];
  assert.equal(suggestCoChanges({ history, files: ['a.ts'] }), [{ file: 'b.ts', with: 'a.ts', together: 3, of: 4 }]);
  assert.equal(
    suggestCoChanges({ history, files: ['a.ts'], share: 0.5 }).map((c) => c.file),
    ['b.ts', 'c.ts'],
  );
  assert.equal(suggestCoChanges({ history, files: ['d.ts'] }), [], 'one commit says nothing');
  assert.equal(
    suggestCoChanges({ history, files: ['a.ts', 'b.ts'] }).map((c) => c.file),
    [],
    "the step's own files are not suggested",
  );
});

test('changeHistory reads the files of each commit in one git log, names with spaces and all', () => {
  const dir = repoWith({ 'one.ts': '1\n' });
  writeFileSync(join(dir, 'a b.ts'), 'x\n');
  writeFileSync(join(dir, 'one.ts'), '2\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'two files');
  const history = changeHistory({ cwd: dir });
  return history.then((h) => assert.equal(h.slice(0, 2), [['a b.ts', 'one.ts'], ['one.ts']], 'newest first'));
});

test.run();
