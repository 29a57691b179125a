// forge's plan gate inside the real OpenCode (the pinned release of scripts/agents/agents.ts), driven by a scripted chat completions API on loopback.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import { operator, requireAgent, runAgent } from './run';
import { type Adapter, agentScenarios } from './scenarios';
import { startChatServer } from './servers/openai-chat';

/**
 * The user's ~/.config/opencode/opencode.json as a person would have it: one openai-compatible
 * provider at the scripted server (OpenCode ships that SDK: nothing is fetched), its model the
 * default and the small model (the session title asks it too), no auto-update, no sharing.
 */
function userConfig(configHome: string, url: string): void {
  mkdirSync(join(configHome, 'opencode'), { recursive: true });
  const config = {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      scripted: {
        npm: '@ai-sdk/openai-compatible',
        name: 'scripted',
        options: { baseURL: url, apiKey: 'scripted-key' },
        models: { 'test-model': { name: 'test model', tool_call: true } },
      },
    },
    model: 'scripted/test-model',
    small_model: 'scripted/test-model',
    autoupdate: false,
    share: 'disabled',
  };
  writeFileSync(join(configHome, 'opencode/opencode.json'), `${JSON.stringify(config, null, 2)}\n`);
}

const opencode: Adapter = {
  agent: 'opencode',
  moves: {
    read: (filePath) => ({ name: 'read', args: { filePath } }),
    edit: (filePath, oldString, newString) => ({ name: 'edit', args: { filePath, oldString, newString } }),
    write: (filePath, content) => ({ name: 'write', args: { filePath, content } }),
    shell: (command) => ({ name: 'bash', args: { command, description: 'scripted command' } }),
  },
  startServer: startChatServer,
  mcp: {
    // `opencode mcp add` asks its questions on a terminal: the user's config file takes the same entry.
    add({ env }) {
      const file = join(env.XDG_CONFIG_HOME!, 'opencode/opencode.json');
      const config = JSON.parse(readFileSync(file, 'utf8'));
      config.mcp = { forge: { type: 'local', command: ['forge', 'mcp'], enabled: true } };
      writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
      return Promise.resolve();
    },
    name: (tool) => `forge_${tool}`,
  },
  async install({ dir, env, server }) {
    userConfig(env.XDG_CONFIG_HOME!, server.url);
    await operator(['plan', 'install-hook', 'opencode'], dir, env);
  },
  // OpenCode finds the repository's .opencode/plugins/ from any subdirectory (README).
  scopeFor: () => 'project',
  blockedWithoutForge: /forge plan gate: this call is refused because forge could not check it/,
  run: ({ cwd, env, prompt }) =>
    runAgent({
      argv: [requireAgent('opencode'), 'run', '--model', 'scripted/test-model', prompt],
      cwd,
      // Nothing fetched at start: no models.dev catalogue, no update check, no language servers.
      env: { ...env, OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_LSP_DOWNLOAD: '1' },
    }),
};

agentScenarios(opencode);

test.run();
