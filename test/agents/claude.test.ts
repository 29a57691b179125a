// forge's plan gate inside the real Claude Code (the pinned release of scripts/agents/agents.ts, run with Node 22 first on PATH), driven by a scripted Messages API on loopback.
import { test } from '../helpers/harness';
import { operator, requireAgent, runAgent } from './run';
import { type Adapter, agentScenarios, stuckLoop, ungatedFromSubdir } from './scenarios';
import { startAnthropicServer } from './servers/anthropic';

const claude: Adapter = {
  agent: 'claude',
  node22: true,
  moves: {
    read: (file_path) => ({ name: 'Read', args: { file_path } }),
    edit: (file_path, old_string, new_string) => ({ name: 'Edit', args: { file_path, old_string, new_string } }),
    write: (file_path, content) => ({ name: 'Write', args: { file_path, content } }),
    shell: (command) => ({ name: 'Bash', args: { command, description: 'scripted command' } }),
  },
  startServer: startAnthropicServer,
  mcp: {
    // README: `claude mcp add forge -- forge mcp`; for the user, so it holds wherever Claude Code starts.
    async add({ dir, env }) {
      const added = await runAgent({
        argv: [requireAgent('claude'), 'mcp', 'add', '--scope', 'user', 'forge', '--', 'forge', 'mcp'],
        cwd: dir,
        env,
      });
      if (added.code !== 0) throw new Error(`claude mcp add exited ${added.code}: ${added.stderr}`);
    },
    name: (tool) => `mcp__forge__${tool}`,
  },
  async install({ dir, env, scope }) {
    await operator(['plan', 'install-hook', 'claude', ...(scope === 'user' ? ['--user'] : [])], dir, env);
  },
  // The repository's .claude/settings.json is read only when Claude Code starts at the top (README).
  scopeFor: (start) => (start === 'root' ? 'project' : 'user'),
  blockedWithoutForge: /forge: (command )?not found/,
  run: ({ cwd, env, server, prompt }) =>
    runAgent({
      argv: [requireAgent('claude'), '--print', prompt, '--dangerously-skip-permissions'],
      cwd,
      env: {
        ...env,
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'scripted-key',
        // Claude Code refuses to skip its permission prompts as root outside a sandbox; this machine's CI runs as root in one.
        IS_SANDBOX: '1',
        // No telemetry, update check or error reports: nothing leaves the machine.
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      },
    }),
};

agentScenarios(claude);
stuckLoop(claude);
ungatedFromSubdir(claude);

test.run();
