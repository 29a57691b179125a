// auto_quick's reading of a task, the model a category routes to, MCP scope, and the module plan's category field.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ModelConfig } from '../../../lib/agent/config';
import { inScope, quickDecision, routedModel, stepCategory } from '../../../lib/agent/routes';
import { checkModulePlan } from '../../../lib/plans/modules';

test('a short question is quick; plan words and several files warn; one file or many words are the normal mode without a warning', () => {
  const cases: Array<[string, boolean, boolean]> = [
    ['what does git rebase do?', true, false],
    ['why is the sky blue', true, false],
    ['refactor src/a.ts and src/b.ts', false, true],
    ['Implement a cache', false, true],
    ['can you plan the release', false, true],
    ['compare a.ts with b.ts', false, true],
    ['what does @src/index.ts export', false, false],
    ['explain README.md', false, false],
    ['/plan the migration', false, true],
    [`${'word '.repeat(20)}?`, false, false],
    // An abbreviation or a version is not a file.
    ['what is new in node 20.1, e.g. fetch?', true, false],
    // "planet" is not "plan".
    ['how far is the nearest planet', true, false],
  ];
  for (const [task, quick, warning] of cases) {
    const d = quickDecision(task);
    assert.equal([d.quick, d.warning], [quick, warning], `${task}: ${d.reason}`);
  }
});

test('a category routes to its model, else to the standard route, else to the model; a missing or unknown category is standard', () => {
  const config = (routes: ModelConfig['routes']['value']) =>
    ({
      model: { value: 'm', source: { kind: 'default', detail: '' } },
      routes: { value: routes, source: { kind: 'default', detail: '' } },
    }) as Pick<ModelConfig, 'model' | 'routes'>;
  assert.is(routedModel(config({ quick: 'q', standard: 's' }), 'quick'), 'q');
  assert.is(routedModel(config({ quick: 'q', standard: 's' }), 'deep'), 's');
  assert.is(routedModel(config({ quick: 'q' }), 'deep'), 'm');
  assert.is(stepCategory(undefined), 'standard');
  assert.is(stepCategory('enormous'), 'standard');
  assert.is(stepCategory('search'), 'search');
  assert.ok(inScope({}, 'deep'));
  assert.ok(inScope({ scope: ['search', 'deep'] }, 'deep'));
  assert.not.ok(inScope({ scope: ['search'] }, 'quick'));
});

test('forge plan check: a module category must be a string; an unknown one is a warning (it runs as standard)', async () => {
  const module = (category: unknown) =>
    JSON.stringify({ modules: [{ id: 'M1', title: 't', objective: 'o', files: [], verify: ['true'], doneWhen: 'd', category }] });
  const unknown = await checkModulePlan({ file: 'p.json', text: module('huge'), cwd: '.' });
  assert.equal(
    unknown.findings.map((f) => [f.code, f.severity]),
    [['UNKNOWN_CATEGORY', 'warning']],
  );
  const number = await checkModulePlan({ file: 'p.json', text: module(3), cwd: '.' });
  assert.equal(
    number.findings.map((f) => [f.code, f.severity]),
    [['INVALID_TYPE', 'error']],
  );
  const fine = await checkModulePlan({ file: 'p.json', text: module('deep'), cwd: '.' });
  assert.equal(fine.findings, []);
});

test.run();
