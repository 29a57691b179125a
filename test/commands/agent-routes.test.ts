// forge agent's model routes, auto_quick and MCP servers scoped by category, against a scripted OpenAI-compatible server on real repositories.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { reply, startOpenAIServer, type ChatRequestBody } from '../helpers/openai-server';
import { repoWith, storeLines, tempDir } from '../helpers/repo';

const usage = { prompt_tokens: 300, completion_tokens: 10 };
const ROUTES = { deep: 'deep-model', quick: 'quick-model', search: 'search-model' };

function configHome(profile: Record<string, unknown>): string {
  const home = tempDir('forge-config-');
  mkdirSync(join(home, 'forge'));
  writeFileSync(join(home, 'forge', 'config.json'), JSON.stringify({ default: 't', profiles: { t: profile } }, null, 2));
  return home;
}

const toolNames = (body: ChatRequestBody) => (body.tools ?? []).map((t: any) => String(t.function.name));
const schemaTokens = (body: ChatRequestBody) => countTokens(JSON.stringify(body.tools ?? []));
const telemetry = (dir: string) => storeLines(dir, '.forge/telemetry').map((l) => JSON.parse(l));

const PLAN = {
  modules: [
    {
      id: 'M1',
      title: 'Look around',
      objective: 'Find where the greeting is defined.',
      files: ['README.md'],
      verify: ['test -f README.md'],
      doneWhen: 'the greeting is found',
      category: 'search',
    },
    {
      id: 'M2',
      title: 'Small fix',
      objective: 'Nothing to change: confirm README.md is there.',
      files: ['README.md'],
      verify: ['test -f README.md'],
      doneWhen: 'README.md exists',
      dependsOn: ['M1'],
      category: 'quick',
    },
    {
      id: 'M3',
      title: 'Wrap up',
      objective: 'Confirm again.',
      files: ['README.md'],
      verify: ['test -f README.md'],
      doneWhen: 'README.md exists',
      dependsOn: ['M2'],
      category: 'enormous',
    },
  ],
};

test('plan steps go to the model of their category, the planner to deep; a scoped MCP server is offered only to steps of its scope; telemetry names each model', async () => {
  const dir = repoWith({ 'README.md': '# routes\n' });
  const fixture = resolve('test/fixtures/mcp/echo-server.mjs');
  const server = await startOpenAIServer({
    script: [
      reply({ text: JSON.stringify(PLAN), usage }),
      reply({ text: 'Found it.', usage }),
      reply({ text: 'Confirmed.', usage }),
      reply({ text: 'Done.', usage }),
    ],
  });
  try {
    const home = configHome({
      endpoint: server.url,
      model: 'std-model',
      model_routes: ROUTES,
      mcp_servers: [
        { name: 'look', command: [process.execPath, fixture], scope: ['search'] },
        { name: 'all', command: [process.execPath, fixture] },
      ],
    });
    const r = await forge(['agent', '--plan', '--yes', '--json', 'find the greeting and confirm'], {
      cwd: dir,
      env: { XDG_CONFIG_HOME: home },
    });
    assert.is(r.code, 0, r.stderr);
    const bodies = server.chatBodies();
    assert.equal(
      bodies.map((b) => b.model),
      ['deep-model', 'search-model', 'quick-model', 'std-model'],
      'planner, then each step by its category (an unknown one is standard)',
    );
    const plan = r.records.find((x) => x.type === 'plan')!;
    assert.equal(
      plan.steps.map((s: any) => [s.category, s.model]),
      [
        ['search', 'search-model'],
        ['quick', 'quick-model'],
        ['standard', 'std-model'],
      ],
    );
    assert.ok(
      r.records.some((x) => x.type === 'plan_warning' && x.code === 'UNKNOWN_CATEGORY' && /'enormous'/.test(x.message)),
      'an unknown category is a warning, not a refusal',
    );
    const [, search, quick, standard] = bodies;
    assert.ok(toolNames(search!).includes('look__echo'), 'the search step gets the server scoped to search');
    assert.not.ok(
      toolNames(quick!).some((n) => n.startsWith('look__')),
      'the quick step does not',
    );
    assert.not.ok(
      toolNames(standard!).some((n) => n.startsWith('look__')),
      'nor the standard step',
    );
    for (const b of [search!, quick!, standard!]) assert.ok(toolNames(b).includes('all__echo'), 'a server without scope serves every step');
    // The measure of scoping: the same step's tool list with and without the scoped server.
    const scoped = schemaTokens(quick!);
    const unscoped = schemaTokens(search!);
    assert.ok(unscoped - scoped > 200, `schemas: ${unscoped} tokens with the scoped server, ${scoped} without`);
    const lines = telemetry(dir);
    assert.equal(
      lines.map((l) => [l.model, l.category]),
      [
        ['deep-model', 'planner'],
        ['search-model', 'search'],
        ['quick-model', 'quick'],
        ['std-model', 'standard'],
      ],
    );
  } finally {
    await server.close();
  }
});

test('auto_quick: a short question goes to the quick route without tools; "refactor src/a.ts and src/b.ts" warns and runs with the standard model and tools', async () => {
  const dir = repoWith({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n' });
  const server = await startOpenAIServer({
    script: [reply({ text: 'It replays commits.', usage }), reply({ text: 'Nothing to do.', usage })],
  });
  try {
    const home = configHome({ endpoint: server.url, model: 'std-model', model_routes: { quick: 'quick-model' }, auto_quick: true });
    const env = { XDG_CONFIG_HOME: home };
    const question = await forge(['agent', '--json', 'what does git rebase do?'], { cwd: dir, env });
    assert.is(question.code, 0, question.stderr);
    const decided = question.records.find((x) => x.type === 'auto_quick')!;
    assert.equal([decided.quick, decided.warning], [true, false]);
    assert.match(decided.reason, /a short question \(5 words/);
    const change = await forge(['agent', '--json', 'refactor src/a.ts and src/b.ts'], { cwd: dir, env });
    assert.is(change.code, 0, change.stderr);
    const declined = change.records.find((x) => x.type === 'auto_quick')!;
    assert.equal([declined.quick, declined.warning], [false, true]);
    assert.match(declined.reason, /'refactor' asks for a change/);
    const [first, second] = server.chatBodies();
    assert.is(first!.model, 'quick-model');
    assert.is(first!.tools, undefined, 'quick mode sends no tools');
    assert.is(second!.model, 'std-model');
    assert.ok(toolNames(second!).includes('edit'), 'the normal mode has tools');
    assert.equal(
      telemetry(dir).map((l) => [l.model, l.category]),
      [
        ['quick-model', 'quick'],
        ['std-model', 'standard'],
      ],
    );
  } finally {
    await server.close();
  }
});

test('--model names one model for every call: the routes are not used, and the text says so', async () => {
  const dir = repoWith({ 'README.md': '# x\n' });
  const server = await startOpenAIServer({ script: [reply({ text: 'Yes.', usage }), reply({ text: 'Yes.', usage })] });
  try {
    const home = configHome({ endpoint: server.url, model: 'std-model', model_routes: ROUTES });
    const r = await forge(['agent', '--quick', '--model', 'flag-model', 'is this a question?'], {
      cwd: dir,
      env: { XDG_CONFIG_HOME: home },
    });
    assert.is(r.code, 0, r.stderr);
    assert.is(server.chatBodies()[0]!.model, 'flag-model');
    assert.match(r.stdout, /^using one model for every call: --model names it, so the profile's model_routes are not used$/m);
    const routed = await forge(['agent', '--quick', 'is this a question?'], { cwd: dir, env: { XDG_CONFIG_HOME: home } });
    assert.is(routed.code, 0, routed.stderr);
    assert.is(server.chatBodies()[1]!.model, 'quick-model');
    assert.match(
      routed.stdout + routed.stderr,
      /using model routes deep deep-model, quick quick-model, search search-model \(from profiles\.t\.model_routes in /,
    );
  } finally {
    await server.close();
  }
});

test('model_routes, scope and auto_quick are checked: each wrong value is CONFIG_INVALID naming its key, with the editor as the fix', async () => {
  const dir = repoWith({ 'README.md': '# x\n' });
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [
      { model_routes: { fast: 'm' } },
      /profiles\.t\.model_routes has an unknown route 'fast'; the routes are deep, standard, quick, search/,
    ],
    [{ model_routes: { deep: 7 } }, /profiles\.t\.model_routes\.deep must be a model name/],
    [{ model_routes: ['deep'] }, /profiles\.t\.model_routes must be an object of categories to model names/],
    [{ auto_quick: 'yes' }, /profiles\.t\.auto_quick must be true/],
    [
      { mcp_servers: [{ name: 's', command: ['x'], scope: ['frontend'] }] },
      /profiles\.t\.mcp_servers\[0\]\.scope\[0\] is "frontend": the scope must be a non-empty list of categories/,
    ],
    [{ mcp_servers: [{ name: 's', command: ['x'], scope: [] }] }, /profiles\.t\.mcp_servers\[0\]\.scope must be a non-empty list/],
  ];
  for (const [profile, says] of cases) {
    const home = configHome({ endpoint: 'http://127.0.0.1:9/v1', model: 'm', ...profile });
    const r = await forge(['agent', '--json', 'hello'], { cwd: dir, env: { XDG_CONFIG_HOME: home } });
    assert.is(r.code, 2, JSON.stringify(profile));
    const error = r.records.at(-1)!;
    assert.is(error.error.code, 'CONFIG_INVALID');
    assert.match(error.error.message, says);
    assert.match(error._next_action, /^"\$\{EDITOR:-vi\}" .*config\.json$/);
  }
});

test.run();
