// A plan step's prompt: its files as windows, the symbols it names resolved through the symbol index (also outside its files), earlier steps as one line each.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { entries } from '../../../commands/index';
import { newPlan } from '../../../lib/agent/plan';
import { stepPrompt, verifyStep } from '../../../lib/agent/steps';
import { openRepo } from '../../../lib/git/repo';
import { StateStore } from '../../../lib/git/state';
import { agentTools } from '../../../lib/cli/agent-tools';
import { git, repoWith } from '../../helpers/repo';

test('a named symbol defined outside the step files comes as its definition only; the step file whole; done steps as their summary', async () => {
  const dir = repoWith({
    'src/util.ts': 'export const before = 0;\nexport function helper(x: number): number {\n  return x + 1;\n}\nexport const after = 2;\n',
    'src/app.ts': "import { helper } from './util';\nexport const y = helper(1);\n",
  });
  const plan = newPlan({
    task: 't',
    model: 'm',
    planner: 'm',
    plannerTokens: { input: 0, output: 0 },
    now: new Date('2026-01-01T00:00:00Z'),
    modules: [
      { id: 'M1', title: 'Earlier', objective: 'o', files: ['src/util.ts'], verify: ['true'], doneWhen: 'd' },
      {
        id: 'M2',
        title: 'Use helper',
        objective: 'Call helper twice.',
        files: ['src/app.ts', 'src/new.ts'],
        symbols: ['helper'],
        verify: ['true'],
        doneWhen: 'y is 3',
      },
    ],
  });
  plan.steps[0]!.status = 'done';
  plan.steps[0]!.summary = 'modified src/util.ts [before, helper, after]';
  const tools = agentTools({ entries, cwd: dir, root: dir, env: process.env });
  const prompt = await stepPrompt({ plan, step: plan.steps[1]!, root: dir, tools });
  assert.match(prompt, /^Step 2 of 2: Use helper\n\nCall helper twice\.\n\nDone when: y is 3\n\nIt will be checked with: true\n\n/);
  assert.match(prompt, /Earlier steps \(done\):\n- M1 Earlier: modified src\/util\.ts \[before, helper, after\]/);
  assert.match(prompt, /helper:\nsrc\/util\.ts: lines 2–4 of 5\n2#\w{4}: export function helper/);
  assert.not.match(prompt, /export const (before|after)/, 'only the definition, not its file');
  assert.match(prompt, /src\/app\.ts: lines 1–2 of 2\n1#\w{4}: import \{ helper \}/);
  assert.match(prompt, /src\/new\.ts: does not exist yet/);
});

test("a step id that would name a path outside its run's directory (a plan synced onto the ref by anyone) fails its check; nothing is written", async () => {
  const dir = repoWith({ 'a.txt': 'a\n' });
  const repo = await openRepo({ cwd: dir });
  const store = new StateStore(repo, { name: 't', email: 't@t' });
  const check = { repo, store, runId: 'plan-1', env: process.env, now: () => new Date('2026-01-01T00:00:00Z') };
  const [hostile, sane] = newPlan({
    task: 't',
    model: 'm',
    planner: 'm',
    plannerTokens: { input: 0, output: 0 },
    now: new Date('2026-01-01T00:00:00Z'),
    modules: [
      { id: 'M1', title: 'a', objective: 'o', files: ['a.txt'], verify: ['true'], doneWhen: 'd' },
      { id: 'M2', title: 'b', objective: 'o', files: ['a.txt'], verify: ['true'], doneWhen: 'd' },
    ],
  }).steps;
  hostile!.id = '../../../escape';
  const refused = await verifyStep({ step: hostile!, root: dir, check });
  assert.is(refused.passed, false);
  assert.match(refused.failure, /^INVALID_ID: invalid module id '\.\.\/\.\.\/\.\.\/escape'/);
  assert.is(git(dir, 'for-each-ref', 'refs/forge/state'), '', 'nothing was written to the state ref');
  const passed = await verifyStep({ step: sane!, root: dir, check });
  assert.is(passed.passed, true, 'the same check with a plain id passes and is recorded');
  assert.match(git(dir, 'ls-tree', '-r', '--name-only', 'refs/forge/state'), /\.forge\/iterations\/plan-1\/M2\.json/);
});

test.run();
