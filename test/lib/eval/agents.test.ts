// The agents table of forge eval: each agent pointed at the proxy the way its own docs say, in a home of its own, the model named, never the user's key.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { EVAL_AGENT_NAMES, EVAL_AGENTS } from '../../../lib/eval/agents';
import { tempDir } from '../../helpers/repo';

const URL = 'http://127.0.0.1:4100/v1';

async function prepared(agent: (typeof EVAL_AGENT_NAMES)[number]) {
  const home = tempDir('forge-eval-home-');
  const call = { prompt: 'Rename columns.', model: 'qwen3:14b', url: URL, home, forge: ['/usr/bin/node', '/opt/forge.js'] };
  return { home, ...(await EVAL_AGENTS[agent].prepare(call)) };
}

test('every agent: the task as its prompt, the model named, the proxy as its endpoint, an install command, an API the meter reads', async () => {
  for (const agent of EVAL_AGENT_NAMES) {
    const { argv, env } = await prepared(agent);
    assert.ok(argv.includes('Rename columns.'), `${agent}: the prompt is one argument, never shell text`);
    assert.ok(JSON.stringify({ argv, env }).includes('qwen3:14b') || agent === 'codex', `${agent}: the model`);
    assert.ok(EVAL_AGENTS[agent].install.length > 0);
    assert.ok(['openai-chat', 'openai-responses', 'anthropic', 'gemini'].includes(EVAL_AGENTS[agent].api));
  }
});

test('each agent reads the proxy where its docs say: flags, variables or its config file in the run’s home', async () => {
  const forge = await prepared('forge');
  assert.equal(forge.argv, [
    '/usr/bin/node',
    '/opt/forge.js',
    'agent',
    '--endpoint',
    URL,
    '--model',
    'qwen3:14b',
    '--yes',
    'Rename columns.',
  ]);

  const opencode = await prepared('opencode');
  const config = JSON.parse(readFileSync(join(opencode.home, '.config/opencode/opencode.json'), 'utf8'));
  assert.equal(config.provider['forge-eval'].options.baseURL, URL);
  assert.equal([config.model, opencode.env.XDG_CONFIG_HOME], ['forge-eval/qwen3:14b', join(opencode.home, '.config')]);

  const codex = await prepared('codex');
  const toml = readFileSync(join(codex.home, '.codex/config.toml'), 'utf8');
  assert.match(toml, /^model = "qwen3:14b"$/m);
  assert.match(toml, /^base_url = "http:\/\/127\.0\.0\.1:4100\/v1"$/m);
  assert.match(toml, /^wire_api = "responses"$/m);
  assert.equal([codex.env.CODEX_HOME, codex.argv.slice(0, 2)], [join(codex.home, '.codex'), ['codex', 'exec']]);

  // Claude Code adds /v1/messages to its base itself.
  const claude = await prepared('claude');
  assert.equal([claude.env.ANTHROPIC_BASE_URL, claude.env.CLAUDE_CONFIG_DIR], ['http://127.0.0.1:4100', join(claude.home, '.claude')]);

  const gemini = await prepared('gemini');
  const settings = JSON.parse(readFileSync(join(gemini.home, '.gemini/settings.json'), 'utf8'));
  assert.equal([settings.security.auth.selectedType, settings.security.folderTrust.enabled], ['gemini-api-key', false]);
  assert.equal([gemini.env.GOOGLE_GEMINI_BASE_URL, gemini.env.GEMINI_CLI_HOME], [URL, gemini.home]);

  const aider = await prepared('aider');
  assert.equal([aider.env.OPENAI_API_BASE, aider.argv.at(-1)], [URL, 'Rename columns.']);

  // No agent gets a real key: a placeholder where it insists on one, and the proxy puts the endpoint's in.
  assert.equal(
    [
      config.provider['forge-eval'].options.apiKey,
      codex.env.FORGE_EVAL_KEY,
      claude.env.ANTHROPIC_API_KEY,
      gemini.env.GEMINI_API_KEY,
      aider.env.OPENAI_API_KEY,
    ],
    ['forge-eval', 'forge-eval', 'forge-eval', 'forge-eval', 'forge-eval'],
  );
});

test.run();
