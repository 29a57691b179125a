// Model settings: flags > env > config profile > first-run detection (a scripted server stands in for Ollama).
import { CONFIG_VALIDATOR_PATH, configValidatorSource } from '../../../scripts/gen-validators';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { describeModelConfig } from '../../../lib/agent/config-describe';
import { DEFAULT_OPENAI_MODEL, DEFAULT_OPENROUTER_MODEL, OPENAI_ENDPOINT, OPENROUTER_ENDPOINT } from '../../../lib/agent/config-probes';
import { resolveModelConfig } from '../../../lib/agent/config-resolve';
import { resolveAgentSettings } from '../../../lib/agent/config-settings';
import type { AgentFlags } from '../../../lib/agent/config-types';
import { ForgeError } from '../../../lib/errors';
import { closedPort, startOpenAIServer } from '../../helpers/openai-server';
import { tempDir } from '../../helpers/repo';
import { neverExpires } from '../../helpers/clock';

/** resolveModelConfig with look-ups that never time out: a loaded machine must not make a live test server look absent. */
const resolveConfig = (args: Parameters<typeof resolveModelConfig>[0]) => resolveModelConfig({ startTimeout: neverExpires, ...args });

/** A fresh XDG_CONFIG_HOME, optionally holding config.json, and an env where no real Ollama can answer. */
async function setup(config?: unknown): Promise<{ env: Record<string, string>; path: string; home: string }> {
  const home = tempDir('forge-config-');
  const path = join(home, 'xdg', 'forge', 'config.json');
  if (config !== undefined) {
    mkdirSync(join(home, 'xdg', 'forge'), { recursive: true });
    writeFileSync(path, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  }
  return { env: { XDG_CONFIG_HOME: join(home, 'xdg'), FORGE_OLLAMA_URL: `http://127.0.0.1:${await closedPort()}/v1` }, path, home };
}

async function resolveError(args: { flags?: AgentFlags; env: Record<string, string>; homeDir?: string }): Promise<ForgeError> {
  try {
    await resolveConfig(args);
  } catch (err) {
    if (err instanceof ForgeError) return err;
    throw err;
  }
  throw new Error('expected a ForgeError, resolution succeeded');
}

const PROFILES = {
  default: 'local',
  profiles: {
    local: { endpoint: 'http://127.0.0.1:9/v1', model: 'qwen3:14b', planner_model: 'qwen3:32b' },
    claude: {
      endpoint: 'https://openrouter.ai/api/v1',
      model: 'anthropic/claude-sonnet-4',
      api_key_env: 'MY_ROUTER_KEY',
      cost_per_mtok: { input: 3, output: 15 },
    },
  },
};

test('the config validator is what config-schema.ts compiles to', () => {
  assert.is(readFileSync(CONFIG_VALIDATOR_PATH, 'utf8'), configValidatorSource(), `${CONFIG_VALIDATOR_PATH} is stale: run make docs`);
});

test('a flag beats the environment, which beats the profile, and each value says where it came from', async () => {
  const { env, path } = await setup(PROFILES);
  const fromProfile = await resolveConfig({ env });
  assert.is(fromProfile.endpoint.value, 'http://127.0.0.1:9/v1');
  assert.equal(fromProfile.endpoint.source, { kind: 'config', path, key: 'profiles.local.endpoint' });
  assert.equal(fromProfile.profile, { value: 'local', source: { kind: 'config', path, key: 'default' } });
  assert.equal(fromProfile.plannerModel, { value: 'qwen3:32b', source: { kind: 'config', path, key: 'profiles.local.planner_model' } });
  assert.is(fromProfile.apiKeyEnv.value, null);
  assert.is(fromProfile.firstRun, false);

  const fromEnv = await resolveConfig({ env: { ...env, FORGE_MODEL: 'env-model', FORGE_ENDPOINT: 'http://127.0.0.1:8/v1' } });
  assert.equal(fromEnv.model, { value: 'env-model', source: { kind: 'env', name: 'FORGE_MODEL' } });
  assert.equal(fromEnv.endpoint.source, { kind: 'env', name: 'FORGE_ENDPOINT' });

  const fromFlag = await resolveConfig({
    flags: { model: 'flag-model', plannerModel: 'flag-planner' },
    env: { ...env, FORGE_MODEL: 'env-model' },
  });
  assert.equal(fromFlag.model, { value: 'flag-model', source: { kind: 'flag', flag: '--model' } });
  assert.is(fromFlag.plannerModel.value, 'flag-planner');
  assert.is(fromFlag.endpoint.value, 'http://127.0.0.1:9/v1');
});

test('--profile beats FORGE_PROFILE, which beats the default; the profile brings its key and costs', async () => {
  const { env, path } = await setup(PROFILES);
  const keyed = { ...env, MY_ROUTER_KEY: 'sk-or-1' };
  const viaEnv = await resolveConfig({ env: { ...keyed, FORGE_PROFILE: 'claude' } });
  assert.is(viaEnv.model.value, 'anthropic/claude-sonnet-4');
  assert.equal(viaEnv.apiKeyEnv, { value: 'MY_ROUTER_KEY', source: { kind: 'config', path, key: 'profiles.claude.api_key_env' } });
  assert.is(viaEnv.apiKey, 'sk-or-1');
  assert.equal(viaEnv.cost.value, { input: 3, output: 15 });
  assert.equal(viaEnv.profile?.source, { kind: 'env', name: 'FORGE_PROFILE' });
  const viaFlag = await resolveConfig({ flags: { profile: 'local' }, env: { ...keyed, FORGE_PROFILE: 'claude' } });
  assert.is(viaFlag.model.value, 'qwen3:14b');
  assert.is(viaFlag.cost.value, null);
});

test("a profile's API key is not sent to an endpoint chosen elsewhere", async () => {
  const { env } = await setup(PROFILES);
  const config = await resolveConfig({
    flags: { profile: 'claude', endpoint: 'http://127.0.0.1:7/v1' },
    env: { ...env, MY_ROUTER_KEY: 'sk-or-1' },
  });
  assert.is(config.apiKey, undefined);
  assert.is(config.apiKeyEnv.value, null);
  assert.is(config.model.value, 'anthropic/claude-sonnet-4');
  assert.is(config.cost.value, null);
  const otherModel = await resolveConfig({
    flags: { profile: 'claude', model: 'openai/gpt-5' },
    env: { ...env, MY_ROUTER_KEY: 'sk-or-1' },
  });
  assert.is(otherModel.apiKey, 'sk-or-1');
  assert.is(otherModel.cost.value, null);
});

test('--api-key-env refuses something that is not a variable name, without echoing it', async () => {
  const { env } = await setup();
  const err = await resolveError({ flags: { endpoint: 'http://127.0.0.1:4/v1', model: 'm', apiKeyEnv: 'sk-secret-123' }, env });
  assert.is(err.code, 'INVALID_API_KEY_ENV');
  assert.not.match(err.message, /sk-secret/);
});

test('a key variable that is not set is an error naming it', async () => {
  const { env } = await setup(PROFILES);
  const err = await resolveError({ flags: { profile: 'claude' }, env });
  assert.is(err.code, 'API_KEY_MISSING');
  assert.match(err.message, /'MY_ROUTER_KEY' \(from profiles\.claude\.api_key_env in .*config\.json\) is not set/);
  assert.is(err.fix, 'read -rs MY_ROUTER_KEY && export MY_ROUTER_KEY', 'reads the key without echoing it: a command, not a placeholder');
});

test('a malformed config file is a clear error with a fix that opens it', async () => {
  const broken = await setup('{"profiles": {"local": {"endpoint": "http://x/v1",}}}');
  const err = await resolveError({ env: broken.env });
  assert.is(err.code, 'CONFIG_INVALID');
  assert.match(err.message, new RegExp(`invalid config '${broken.path}': not JSON`));
  assert.is(err.fix, `"\${EDITOR:-vi}" ${broken.path}`);
  assert.is(err.exitCode, 2);

  const cases: Array<[unknown, RegExp]> = [
    [[], /the top level must be an object/],
    [{ profiles: { a: { cost_per_mtok: { input: '3', output: 15 } } } }, /profiles\.a\.cost_per_mtok must be/],
    [{ profiles: { a: { endpoint: 'localhost:11434' } } }, /profiles\.a\.endpoint 'localhost:11434' is not an http\(s\) URL/],
    [{ profiles: { a: { api_key_env: 'sk-live-123' } } }, /profiles\.a\.api_key_env must name an environment variable/],
    [{ default: 'gone', profiles: { a: {} } }, /"default" names 'gone', which is not among the profiles/],
  ];
  for (const [config, message] of cases) {
    const { env } = await setup(config);
    const e = await resolveError({ env });
    assert.is(e.code, 'CONFIG_INVALID');
    assert.match(e.message, message);
  }
});

test('an unknown profile names the ones there are', async () => {
  const { env } = await setup(PROFILES);
  const err = await resolveError({ flags: { profile: 'gpt' }, env });
  assert.is(err.code, 'PROFILE_NOT_FOUND');
  assert.match(err.message, /no profile 'gpt' in .*; it has 'local', 'claude'/);
  assert.is(err.fix, 'forge agent --profile local');
});

test('several profiles and no default is an error unless flags choose the endpoint', async () => {
  const { env } = await setup({ profiles: PROFILES.profiles });
  const err = await resolveError({ env });
  assert.is(err.code, 'PROFILE_NOT_CHOSEN');
  assert.is(err.fix, 'forge agent --profile local');
  const config = await resolveConfig({ flags: { endpoint: 'http://127.0.0.1:6/v1', model: 'm' }, env });
  assert.is(config.profile, null);
});

test('reads ~/.config/forge/config.json when XDG_CONFIG_HOME is unset, and its only profile without a default', async () => {
  const { env: probeEnv, home } = await setup();
  mkdirSync(join(home, '.config', 'forge'), { recursive: true });
  writeFileSync(
    join(home, '.config', 'forge', 'config.json'),
    JSON.stringify({ profiles: { solo: { endpoint: 'http://127.0.0.1:5/v1', model: 'solo-model' } } }),
  );
  const config = await resolveConfig({ env: { FORGE_OLLAMA_URL: probeEnv.FORGE_OLLAMA_URL! }, homeDir: home });
  assert.is(config.model.value, 'solo-model');
  assert.is(config.profile?.value, 'solo');
  assert.is(config.configPath, join(home, '.config', 'forge', 'config.json'));
  // A relative XDG_CONFIG_HOME is invalid (the XDG spec): ignored, wherever forge is started.
  const relative = await resolveConfig({ env: { FORGE_OLLAMA_URL: probeEnv.FORGE_OLLAMA_URL!, XDG_CONFIG_HOME: 'conf' }, homeDir: home });
  assert.equal([relative.configPath, relative.model.value], [join(home, '.config', 'forge', 'config.json'), 'solo-model']);
});

test('a first run finds Ollama, takes its first model, and says how to change both', async () => {
  const ollama = await startOpenAIServer({ models: ['qwen3:8b', 'llama3.2:3b'] });
  try {
    const { env, path } = await setup();
    const config = await resolveConfig({ env: { ...env, FORGE_OLLAMA_URL: ollama.url, OPENAI_API_KEY: 'sk-ignored' } });
    assert.equal(config.endpoint, { value: ollama.url, source: { kind: 'detected', detail: `Ollama answered at ${ollama.url}` } });
    assert.equal(config.model, { value: 'qwen3:8b', source: { kind: 'detected', detail: 'the first of the 2 models Ollama lists' } });
    assert.is(config.apiKey, undefined);
    assert.is(config.firstRun, true);
    assert.equal(describeModelConfig(config), [
      `endpoint ${ollama.url} (detected: Ollama answered at ${ollama.url}); change it with --endpoint URL, $FORGE_ENDPOINT or a profile in ${path}`,
      `model qwen3:8b (detected: the first of the 2 models Ollama lists); change it with --model NAME, $FORGE_MODEL or a profile in ${path}`,
    ]);
    const withModel = await resolveConfig({ flags: { model: 'llama3.2:3b' }, env: { ...env, FORGE_OLLAMA_URL: ollama.url } });
    assert.is(withModel.model.value, 'llama3.2:3b');
    assert.equal(
      ollama.requests.map((r) => `${r.method} ${r.path}`),
      ['GET /v1/models', 'GET /v1/models'],
    );
  } finally {
    await ollama.close();
  }
});

test('a first run with Ollama running but no models says which to pull', async () => {
  const ollama = await startOpenAIServer({ models: [] });
  try {
    const { env } = await setup();
    const err = await resolveError({ env: { ...env, FORGE_OLLAMA_URL: ollama.url } });
    assert.is(err.code, 'NO_MODEL');
    assert.is(err.fix, 'ollama pull qwen3:8b');
  } finally {
    await ollama.close();
  }
});

test('a first run with no Ollama uses OPENAI_API_KEY, else OPENROUTER_API_KEY', async () => {
  const { env } = await setup();
  const openai = await resolveConfig({ env: { ...env, OPENAI_API_KEY: 'sk-1', OPENROUTER_API_KEY: 'sk-or' } });
  assert.is(openai.endpoint.value, OPENAI_ENDPOINT);
  assert.match(openai.endpoint.source.kind === 'detected' ? openai.endpoint.source.detail : '', /OPENAI_API_KEY is set/);
  assert.is(openai.model.value, DEFAULT_OPENAI_MODEL);
  assert.is(openai.apiKeyEnv.value, 'OPENAI_API_KEY');
  assert.is(openai.apiKey, 'sk-1');
  assert.ok(describeModelConfig(openai).some((l) => l.startsWith('API key from $OPENAI_API_KEY')));
  const router = await resolveConfig({ env: { ...env, OPENROUTER_API_KEY: 'sk-or' } });
  assert.is(router.endpoint.value, OPENROUTER_ENDPOINT);
  assert.is(router.model.value, DEFAULT_OPENROUTER_MODEL);
  assert.is(router.apiKey, 'sk-or');
});

test('with nothing to talk to, the error says how to configure a model', async () => {
  const { env } = await setup();
  const err = await resolveError({ env });
  assert.is(err.code, 'NO_MODEL_ENDPOINT');
  assert.match(
    err.message,
    /nothing answers at 'http:\/\/127\.0\.0\.1:\d+\/v1' \(start Ollama: ollama serve\), OPENAI_API_KEY and OPENROUTER_API_KEY are unset/,
  );
  assert.is(err.fix, 'forge agent --endpoint http://localhost:11434/v1 --model qwen3:8b');
});

test('an endpoint given without a model gets the host default or the first model it lists', async () => {
  const { env } = await setup();
  const openai = await resolveConfig({ flags: { endpoint: 'https://api.openai.com/v1/' }, env: { ...env, OPENAI_API_KEY: 'sk-1' } });
  assert.is(openai.endpoint.value, OPENAI_ENDPOINT);
  assert.is(openai.model.value, DEFAULT_OPENAI_MODEL);
  assert.equal(openai.apiKeyEnv.value, 'OPENAI_API_KEY');
  const server = await startOpenAIServer({ models: ['served-model'] });
  try {
    const listed = await resolveConfig({ env: { ...env, FORGE_ENDPOINT: server.url } });
    assert.is(listed.model.value, 'served-model');
  } finally {
    await server.close();
  }
  const err = await resolveError({ flags: { endpoint: `http://127.0.0.1:${await closedPort()}/v1` }, env });
  assert.is(err.code, 'NO_MODEL');
  assert.match(err.fix!, /^curl -sS http:\/\/127\.0\.0\.1:\d+\/v1\/models$/);
});

test('an endpoint that is not an http(s) URL names where it was set', async () => {
  const { env } = await setup();
  const err = await resolveError({ env: { ...env, FORGE_ENDPOINT: 'localhost:11434' } });
  assert.is(err.code, 'INVALID_ENDPOINT');
  assert.match(err.message, /'localhost:11434' \(from \$FORGE_ENDPOINT\)/);
  assert.is(err.fix, 'unset FORGE_ENDPOINT');
});

test('hooks, MCP servers and auto-commit of the profile resolve with where each came from', async () => {
  const { env, path } = await setup({
    default: 'local',
    profiles: {
      local: {
        endpoint: 'http://127.0.0.1:9/v1',
        model: 'm',
        hooks: { on_edit: ['tsc --noEmit'], on_task_done: [] },
        hooks_disabled: false,
        mcp_servers: [{ name: 'docs', command: ['node', 'docs.mjs'], env: { TOKEN: 'x' }, cwd: 'tools' }],
        auto_commit: true,
        auto_commit_prefix: 'agent: ',
      },
      bare: { endpoint: 'http://127.0.0.1:8/v1', model: 'm' },
    },
  });
  const config = await resolveConfig({ env });
  const key = (k: string) => ({ kind: 'config', path, key: `profiles.local.${k}` });
  assert.equal(config.hooks, {
    value: { on_edit: ['tsc --noEmit'], on_task_done: [], on_step_done: [], on_session_start: [], on_session_end: [] },
    source: key('hooks'),
  });
  assert.equal(config.hooksDisabled, { value: false, source: key('hooks_disabled') });
  assert.equal(config.mcpServers, {
    value: [{ name: 'docs', command: ['node', 'docs.mjs'], env: { TOKEN: 'x' }, cwd: 'tools' }],
    source: key('mcp_servers'),
  });
  assert.equal(config.autoCommit, { value: 'task', source: key('auto_commit') }, 'true means one commit per task');
  assert.equal(config.autoCommitPrefix, { value: 'agent: ', source: key('auto_commit_prefix') });

  const bare = await resolveAgentSettings({ flags: { profile: 'bare' }, env });
  assert.is(bare.hooks.value, null, 'no hooks key: still to be detected');
  assert.equal(
    [bare.hooksDisabled.value, bare.mcpServers.value, bare.autoCommit.value, bare.autoCommitPrefix.value],
    [false, [], null, 'forge: '],
  );
  assert.is(bare.hooks.source.kind, 'default');
  const plan = await setup({ profiles: { p: { auto_commit: 'plan' }, q: { auto_commit: false } }, default: 'p' });
  assert.is((await resolveAgentSettings({ env: plan.env })).autoCommit.value, 'plan');
  assert.is((await resolveAgentSettings({ env: { ...plan.env, FORGE_PROFILE: 'q' } })).autoCommit.value, null);
});

test('resolving the agent settings needs no model, and asks which profile when there are several', async () => {
  const none = await setup();
  const first = await resolveAgentSettings({ env: none.env });
  assert.equal([first.profile, first.hooks.value, first.configPath], [null, null, none.path]);
  const several = await setup({ profiles: PROFILES.profiles });
  const err = await resolveAgentSettings({ env: several.env, command: 'forge hooks list' }).catch((e: ForgeError) => e);
  assert.instance(err, ForgeError);
  assert.equal([(err as ForgeError).code, (err as ForgeError).fix], ['PROFILE_NOT_CHOSEN', 'forge hooks list --profile local']);
  const unknown = await resolveAgentSettings({ flags: { profile: 'nope' }, env: several.env, command: 'forge hooks list' }).catch(
    (e: ForgeError) => e,
  );
  assert.equal([(unknown as ForgeError).code, (unknown as ForgeError).fix], ['PROFILE_NOT_FOUND', 'forge hooks list --profile local']);
});

test('hooks, hooks_disabled, mcp_servers and auto_commit are checked key by key', async () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [
      { hooks: ['tsc'] },
      /profiles\.a\.hooks must be an object of events \(on_edit, on_task_done, on_step_done, on_session_start, on_session_end\)/,
    ],
    [{ hooks: { on_save: ['tsc'] } }, /profiles\.a\.hooks has an unknown event 'on_save'; the events are on_edit, /],
    [{ hooks: { on_edit: 'tsc --noEmit' } }, /profiles\.a\.hooks\.on_edit must be a list of shell commands/],
    [{ hooks: { on_edit: [''] } }, /profiles\.a\.hooks\.on_edit must be a list of shell commands/],
    [{ hooks_disabled: 'yes' }, /profiles\.a\.hooks_disabled must be true or false/],
    [{ mcp_servers: { docs: {} } }, /profiles\.a\.mcp_servers must be a list of servers/],
    [{ mcp_servers: [{ name: 'my docs', command: ['x'] }] }, /profiles\.a\.mcp_servers\[0\]\.name must be 1 to 32 letters/],
    [{ mcp_servers: [{ name: 'a'.repeat(33), command: ['x'] }] }, /mcp_servers\[0\]\.name must be/],
    [
      { mcp_servers: [{ name: 'docs', command: 'npx docs' }] },
      /profiles\.a\.mcp_servers\[0\]\.command must be a non-empty list: the program and its arguments/,
    ],
    [{ mcp_servers: [{ name: 'docs', command: [] }] }, /mcp_servers\[0\]\.command must be a non-empty list/],
    [
      { mcp_servers: [{ name: 'docs', command: ['npx'], args: ['-y', 'docs'] }] },
      /mcp_servers\[0\] has "args": put the program and its arguments together in "command"/,
    ],
    [{ mcp_servers: [{ name: 'docs', command: ['x'], timeout: 5 }] }, /mcp_servers\[0\] has an unknown key 'timeout'/],
    [
      { mcp_servers: [{ name: 'docs', command: ['x'], env: { TOKEN: 1 } }] },
      /mcp_servers\[0\]\.env must be an object of variable names to string values/,
    ],
    [{ mcp_servers: [{ name: 'docs', command: ['x'], cwd: '' }] }, /mcp_servers\[0\]\.cwd must be a non-empty path/],
    [
      {
        mcp_servers: [
          { name: 'docs', command: ['x'] },
          { name: 'docs', command: ['y'] },
        ],
      },
      /profiles\.a\.mcp_servers\[1\]\.name 'docs' is already the name of another server/,
    ],
    [{ auto_commit: 'step' }, /profiles\.a\.auto_commit must be false, "task" \(one commit per task; true means the same\) or "plan"/],
    [{ auto_commit_prefix: 7 }, /profiles\.a\.auto_commit_prefix must be a string of one line/],
    [{ auto_commit_prefix: 'a\nb' }, /profiles\.a\.auto_commit_prefix must be a string of one line/],
  ];
  for (const [profile, message] of cases) {
    const { env, path } = await setup({ profiles: { a: { endpoint: 'http://127.0.0.1:9/v1', model: 'm', ...profile } } });
    for (const resolve of [() => resolveConfig({ env }), () => resolveAgentSettings({ env })]) {
      const e = await resolve().then(
        () => null,
        (err: ForgeError) => err,
      );
      assert.ok(e, `${JSON.stringify(profile)} was accepted`);
      assert.is(e!.code, 'CONFIG_INVALID');
      assert.match(e!.message, new RegExp(`^invalid config '${path}': `));
      assert.match(e!.message, message);
      assert.is(e!.fix, `"\${EDITOR:-vi}" ${path}`);
    }
  }
});

test('a config file holding only hooks still lets a first run detect the endpoint, and says it is a first run', async () => {
  const ollama = await startOpenAIServer({ models: ['qwen3:8b'] });
  try {
    const { env } = await setup({
      profiles: {
        default: { hooks: { on_edit: ['tsc --noEmit'], on_task_done: [], on_step_done: [], on_session_start: [], on_session_end: [] } },
      },
    });
    const config = await resolveConfig({ env: { ...env, FORGE_OLLAMA_URL: ollama.url } });
    assert.is(config.endpoint.value, ollama.url);
    assert.is(config.endpoint.source.kind, 'detected');
    assert.is(config.model.value, 'qwen3:8b');
    assert.is(config.firstRun, true);
    assert.is(config.profile?.value, 'default');
    assert.equal(config.hooks.value?.on_edit, ['tsc --noEmit']);
    const chosen = await resolveConfig({ flags: { endpoint: ollama.url }, env: { ...env, FORGE_OLLAMA_URL: ollama.url } });
    assert.is(chosen.firstRun, false, 'a flag chose the endpoint');
  } finally {
    await ollama.close();
  }
});

test('a profile name is a name: a default or --profile of toString or __proto__ is no profile, and a profile named __proto__ is kept', async () => {
  const profile = { endpoint: 'http://127.0.0.1:9/v1', model: 'm' };
  for (const name of ['__proto__', 'toString']) {
    const { env } = await setup(`{"default": "${name}", "profiles": {"a": ${JSON.stringify(profile)}}}`);
    const e = await resolveError({ env });
    assert.equal([e.code, e.message.includes(`names '${name}', which is not among the profiles`)], ['CONFIG_INVALID', true]);
    const { env: env2 } = await setup({ profiles: { a: profile, b: profile } });
    assert.is((await resolveError({ env: env2, flags: { profile: name } })).code, 'PROFILE_NOT_FOUND');
  }
  const { env } = await setup(
    `{"default": "__proto__", "profiles": {"__proto__": ${JSON.stringify({ ...profile, model: 'proto-model' })}}}`,
  );
  const config = await resolveConfig({ env });
  assert.equal([config.profile?.value, config.model.value], ['__proto__', 'proto-model']);
});

test.run();
