// auto_quick's reading of a task, the model a category routes to, MCP scope, and the module plan's category field.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { resolveModelConfig } from '../../../lib/agent/config-resolve';
import type { ModelConfig } from '../../../lib/agent/config-types';
import { inScope, quickDecision, routedModel, stepCategory } from '../../../lib/agent/routes';
import { checkModulePlan } from '../../../lib/plans/modules';
import { tempDir } from '../../helpers/repo';

/** An env whose config.json holds one profile. */
function withProfile(profile: Record<string, unknown>): Record<string, string> {
  const home = tempDir('forge-config-');
  mkdirSync(join(home, 'forge'));
  writeFileSync(join(home, 'forge', 'config.json'), JSON.stringify({ profiles: { p: profile } }));
  return { XDG_CONFIG_HOME: home };
}

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

test('the planner: --planner-model, else planner_model, else the deep route, else the model; a profile with routes and no model runs on standard', async () => {
  const endpoint = 'http://127.0.0.1:9/v1';
  const routes = { deep: 'd', standard: 's', quick: 'q' };
  const routed = await resolveModelConfig({ env: withProfile({ endpoint, model_routes: routes }) });
  assert.equal([routed.model.value, routed.plannerModel.value], ['s', 'd']);
  assert.match(routed.plannerModel.source.kind === 'config' ? routed.plannerModel.source.key : '', /model_routes$/);
  const planned = await resolveModelConfig({ env: withProfile({ endpoint, model: 'm', planner_model: 'pm', model_routes: routes }) });
  assert.is(planned.plannerModel.value, 'pm');
  const flagged = await resolveModelConfig({
    flags: { plannerModel: 'fm' },
    env: withProfile({ endpoint, model: 'm', planner_model: 'pm', model_routes: routes }),
  });
  assert.is(flagged.plannerModel.value, 'fm');
  // --model names one model for every call: no routes, the planner is that model too.
  const one = await resolveModelConfig({ flags: { model: 'only' }, env: withProfile({ endpoint, model: 'm', model_routes: routes }) });
  assert.equal([one.model.value, one.plannerModel.value, one.routes.value], ['only', null, {}]);
  const fromEnv = await resolveModelConfig({ env: { ...withProfile({ endpoint, model_routes: routes }), FORGE_MODEL: 'env-model' } });
  assert.equal(fromEnv.routes.value, {});
});

test.run();
