// The agents forge eval runs, as data: each one's non-interactive command line, the API it speaks, how it is pointed at the recording proxy, and how it is installed.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dialect } from './meter';

export const EVAL_AGENT_NAMES = ['forge', 'opencode', 'codex', 'claude', 'gemini', 'aider'] as const;
export type EvalAgentName = (typeof EVAL_AGENT_NAMES)[number];

/** What one agent run needs: the task, the model, the proxy's API base, and a home of its own for the agent's config. */
export interface AgentCall {
  prompt: string;
  model: string;
  /** The recording proxy's base URL, the upstream's path on the proxy's origin (…/v1 for an OpenAI-compatible one). */
  url: string;
  home: string;
  /** The command that runs forge itself (its program and script), for --agent forge. */
  forge: string[];
}

export interface EvalAgent {
  /** The program looked up on PATH (forge runs itself). */
  program: string | null;
  /** The API it speaks to its model: the upstream must speak it too. */
  api: Dialect;
  install: string;
  /** Writes what the agent reads its endpoint from into `home`; returns its command line and environment. */
  prepare(call: AgentCall): Promise<{ argv: string[]; env: Record<string, string> }>;
}

/** A placeholder key for agents that insist on one: the proxy passes the user's own headers on, and a local server ignores it. */
const KEY = 'forge-eval';

export const EVAL_AGENTS: Record<EvalAgentName, EvalAgent> = {
  forge: {
    program: null,
    api: 'openai-chat',
    install: 'npm install -g forge-agent-cli',
    prepare: async ({ prompt, model, url, forge }) => ({
      argv: [...forge, 'agent', '--endpoint', url, '--model', model, '--yes', prompt],
      env: {},
    }),
  },
  opencode: {
    program: 'opencode',
    api: 'openai-chat',
    install: 'npm install -g opencode-ai',
    // One openai-compatible provider at the proxy (OpenCode ships that SDK); nothing fetched at start.
    prepare: async ({ prompt, model, url, home }) => {
      const config = {
        $schema: 'https://opencode.ai/config.json',
        provider: {
          'forge-eval': {
            npm: '@ai-sdk/openai-compatible',
            name: 'forge eval',
            options: { baseURL: url, apiKey: KEY },
            models: { [model]: { name: model, tool_call: true } },
          },
        },
        model: `forge-eval/${model}`,
        small_model: `forge-eval/${model}`,
        autoupdate: false,
        share: 'disabled',
      };
      await mkdir(join(home, '.config', 'opencode'), { recursive: true });
      await writeFile(join(home, '.config', 'opencode', 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`);
      return {
        argv: ['opencode', 'run', '--model', `forge-eval/${model}`, prompt],
        env: {
          XDG_CONFIG_HOME: join(home, '.config'),
          OPENCODE_DISABLE_MODELS_FETCH: '1',
          OPENCODE_DISABLE_AUTOUPDATE: '1',
          OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        },
      };
    },
  },
  codex: {
    program: 'codex',
    api: 'openai-responses',
    install: 'npm install -g @openai/codex',
    prepare: async ({ prompt, model, url, home }) => {
      const codexHome = join(home, '.codex');
      await mkdir(codexHome, { recursive: true });
      const toml = [
        `model = ${JSON.stringify(model)}`,
        'model_provider = "forge-eval"',
        '',
        '[model_providers.forge-eval]',
        'name = "forge eval"',
        `base_url = ${JSON.stringify(url)}`,
        'wire_api = "responses"',
        'env_key = "FORGE_EVAL_KEY"',
        '',
      ].join('\n');
      await writeFile(join(codexHome, 'config.toml'), toml);
      return {
        argv: ['codex', 'exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', prompt],
        env: { CODEX_HOME: codexHome, FORGE_EVAL_KEY: KEY },
      };
    },
  },
  claude: {
    program: 'claude',
    api: 'anthropic',
    install: 'npm install -g @anthropic-ai/claude-code',
    // Claude Code adds /v1/messages to its base itself; as root it skips its permission prompts only
    // when told it runs in a sandbox (the fixture is a throwaway repository).
    prepare: async ({ prompt, model, url, home }) => ({
      argv: ['claude', '--print', prompt, '--model', model, '--dangerously-skip-permissions'],
      env: {
        CLAUDE_CONFIG_DIR: join(home, '.claude'),
        ANTHROPIC_BASE_URL: url.replace(/\/v1\/?$/, ''),
        ANTHROPIC_API_KEY: KEY,
        IS_SANDBOX: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      },
    }),
  },
  gemini: {
    program: 'gemini',
    api: 'gemini',
    install: 'npm install -g @google/gemini-cli',
    // An API key as the auth (the base URL alone picks a gateway auth Gemini CLI refuses), no folder
    // trust to ask for (in a folder it does not trust it runs no shell command unasked), no update
    // check or usage statistics.
    prepare: async ({ prompt, model, url, home }) => {
      await mkdir(join(home, '.gemini'), { recursive: true });
      const settings = {
        security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
        privacy: { usageStatisticsEnabled: false },
      };
      await writeFile(join(home, '.gemini', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
      return {
        argv: ['gemini', '--prompt', prompt, '--model', model, '--approval-mode', 'yolo'],
        env: { GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: KEY, GEMINI_CLI_HOME: home },
      };
    },
  },
  aider: {
    program: 'aider',
    api: 'openai-chat',
    install: 'python3 -m pip install aider-install && aider-install',
    prepare: async ({ prompt, model, url }) => ({
      argv: [
        'aider',
        '--model',
        `openai/${model}`,
        '--yes-always',
        '--no-auto-commits',
        '--no-check-update',
        '--no-show-model-warnings',
        '--message',
        prompt,
      ],
      env: { OPENAI_API_BASE: url, OPENAI_API_KEY: KEY },
    }),
  },
};
