// forge's plan gate inside the real Codex CLI (the pinned release of scripts/agents/agents.ts), driven by a scripted Responses API on loopback.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import { operator, requireAgent, runAgent } from './run';
import { type Adapter, agentScenarios, stuckLoop } from './scenarios';
import { startCodexServer } from './servers/codex';

/** An apply_patch envelope around one file's hunk (Codex's freeform patch grammar). */
const patch = (body: string) => ({ name: 'apply_patch', args: { input: `*** Begin Patch\n${body}*** End Patch\n` } });

/**
 * The user's ~/.codex/config.toml as a person would have it: a provider that speaks the Responses
 * API at the scripted server (no retries: a broken stream is a failure, not a wait), a model whose
 * metadata Codex ships (so it offers apply_patch), and the repository trusted as Codex asks on
 * first start — without that Codex never reads the project's .codex/config.toml.
 */
function userConfig(codexHome: string, dir: string, url: string): void {
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    `model = "gpt-5.5"
model_provider = "scripted"

[model_providers.scripted]
name = "scripted"
base_url = "${url}"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
`,
  );
  appendFileSync(join(codexHome, 'config.toml'), `\n[projects."${dir}"]\ntrust_level = "trusted"\n`);
}

const codex: Adapter = {
  agent: 'codex',
  moves: {
    // Codex has no read tool: it reads through its shell, which forge reads as a read.
    read: (path) => ({ name: 'exec_command', args: { cmd: `cat ${path}` } }),
    edit: (path, oldText, newText) => patch(`*** Update File: ${path}\n@@\n-${oldText}\n+${newText}\n`),
    write: (path, content) =>
      patch(
        `*** Add File: ${path}\n${content
          .split('\n')
          .slice(0, -1)
          .map((l) => `+${l}\n`)
          .join('')}`,
      ),
    shell: (cmd) => ({ name: 'exec_command', args: { cmd } }),
  },
  startServer: startCodexServer,
  mcp: {
    async add({ dir, env }) {
      const added = await runAgent({
        argv: [process.execPath, requireAgent('codex'), 'mcp', 'add', 'forge', '--', 'forge', 'mcp'],
        cwd: dir,
        env,
      });
      if (added.code !== 0) throw new Error(`codex mcp add exited ${added.code}: ${added.stderr}`);
    },
    name: (tool) => `mcp__forge__${tool}`,
  },
  async install({ dir, env, server }) {
    userConfig(env.CODEX_HOME!, dir, server.url);
    await operator(['plan', 'install-hook', 'codex'], dir, env);
  },
  // Codex finds the project's .codex/config.toml from any directory inside the project (README).
  scopeFor: () => 'project',
  blockedWithoutForge: /forge: (command )?not found/,
  run: ({ cwd, env, prompt }) =>
    runAgent({
      // Approvals and Codex's own sandbox off: the gate under test is forge's, and the sandbox needs kernel features a container may lack.
      argv: [process.execPath, requireAgent('codex'), 'exec', '--dangerously-bypass-approvals-and-sandbox', prompt],
      cwd,
      env,
    }),
};

agentScenarios(codex);
stuckLoop(codex);

test.run();
