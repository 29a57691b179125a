// forge's plan gate inside the real Gemini CLI (the pinned release of scripts/agents/agents.ts), driven by a scripted Gemini API on loopback.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import { operator, requireAgent, runAgent } from './run';
import { type Adapter, agentScenarios, stuckLoop, ungatedFromSubdir } from './scenarios';
import { startGeminiServer } from './servers/gemini';

/**
 * The user's own Gemini CLI setup, as a person would have it: an API key as the auth (Gemini CLI
 * refuses the gateway auth GOOGLE_GEMINI_BASE_URL alone would pick), no auto-update or usage
 * statistics (nothing leaves the machine), and the repository a trusted folder — in an untrusted
 * folder Gemini CLI runs no hook at all.
 */
function userSetup(home: string, dir: string): void {
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(
    join(home, '.gemini/settings.json'),
    `${JSON.stringify(
      {
        security: { auth: { selectedType: 'gemini-api-key' } },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
        privacy: { usageStatisticsEnabled: false },
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(join(home, '.gemini/trustedFolders.json'), `${JSON.stringify({ [dir]: 'TRUST_FOLDER' })}\n`);
}

const gemini: Adapter = {
  agent: 'gemini',
  moves: {
    read: (path) => ({ name: 'read_file', args: { file_path: path } }),
    edit: (path, oldText, newText) => ({
      name: 'replace',
      args: { file_path: path, instruction: 'change the constant', old_string: oldText, new_string: newText },
    }),
    write: (path, content) => ({ name: 'write_file', args: { file_path: path, content } }),
    shell: (command) => ({ name: 'run_shell_command', args: { command, description: 'scripted command' } }),
  },
  startServer: startGeminiServer,
  mcp: {
    async add({ dir, env }) {
      const added = await runAgent({
        argv: [process.execPath, requireAgent('gemini'), 'mcp', 'add', '--scope', 'user', '--trust', 'forge', 'forge', 'mcp'],
        cwd: dir,
        env,
      });
      if (added.code !== 0) throw new Error(`gemini mcp add exited ${added.code}: ${added.stderr}`);
    },
    name: (tool) => `mcp_forge_${tool}`,
  },
  async install({ dir, home, env, scope }) {
    userSetup(home, dir);
    await operator(['plan', 'install-hook', 'gemini', ...(scope === 'user' ? ['--user'] : [])], dir, env);
  },
  // Gemini CLI's file tools stay inside the directory it started in, and never write under .git/
  // (nor through a link that leads there): those calls fail before any hook runs, so forge is never asked.
  refusesItself: (key, start) =>
    ({ 'git-config': 1, symlink: 2, 'docs-write': start === 'subdir' ? 1 : 0, sync: start === 'subdir' ? 1 : 0 })[key as string] ?? 0,
  ownRefusal: /Path not in workspace/,
  // The hook's `|| exit 2`: Gemini CLI blocks the call and hands the model the hook's stderr.
  blockedWithoutForge: /Tool execution blocked: .*forge: command not found/,
  // The repository's .gemini/settings.json is read only when Gemini CLI starts at the top (README).
  scopeFor: (start) => (start === 'root' ? 'project' : 'user'),
  run: ({ cwd, env, server, prompt }) =>
    runAgent({
      // A named model: "auto" would first ask a classifier which model to route to.
      argv: [process.execPath, requireAgent('gemini'), '--prompt', prompt, '--model', 'gemini-2.5-flash', '--approval-mode', 'yolo'],
      cwd,
      env: { ...env, GOOGLE_GEMINI_BASE_URL: server.url, GEMINI_API_KEY: 'scripted-key' },
    }),
};

agentScenarios(gemini);
stuckLoop(gemini);
ungatedFromSubdir(gemini);

test.run();
