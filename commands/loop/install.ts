// forge loop install claude|codex|gemini: let the agent's Stop (or AfterAgent) hook drive forge loops.
import { defineCommand } from '../../lib/cli/declare';
import { installProjectHook } from '../../lib/claude/settings';
import { installCodexProjectHook } from '../../lib/codex/config';
import { installGeminiProjectHook } from '../../lib/gemini/settings';
import { RefusedError } from '../../lib/errors';
import { STOP_AGENTS } from '../../lib/loop/stop-hooks';

export const STOP_HOOK = 'forge loop hook claude';

export default defineCommand({
  name: 'loop install',
  summary: "Install the loop driver as the agent's Stop hook (Claude Code, Codex CLI) or AfterAgent hook (Gemini CLI)",
  tool: "Install the loop driver as the agent's Stop hook",
  description: [
    'Merges {"hooks": [{"type": "command", "command": "forge loop hook claude", "timeout": 1800}]} into hooks.Stop of the project\'s .claude/settings.json (or --settings), keeping every other setting, event and hook; the timeout (seconds) gives a slow --done-when check room (Claude Code\'s default is ten minutes); running it again changes nothing; a settings file that is not valid JSON is refused untouched. With no loop active the hook lets every session stop, so it is safe to leave installed.',
    'The loop driver fails open: no "onFailure": "block" on its entry (and re-running the install removes one found there), so when the hook cannot start, times out or crashes, Claude Code treats it as a non-blocking error and the session stops; forge loop hook itself answers "stop" on every failure of its own. Claude Code (2.1.143 or later) also ends a turn after 8 consecutive Stop-hook blocks, whatever the hook says; for a loop of more iterations, start Claude Code with CLAUDE_CODE_STOP_HOOK_BLOCK_CAP at least --max-iterations, or the turn ends there (the loop stays active and goes on the next time the session stops).',
    'codex: appends [[hooks.Stop]] with the handler {type = "command", command = "forge loop hook codex"} to the project\'s .codex/config.toml (or --settings), as forge plan install-hook codex does, and fails open the same way (Codex CLI lets the turn end when a Stop hook fails; its default hook timeout is 600 seconds). gemini: merges {"hooks": [{"type": "command", "command": "forge loop hook gemini", "name": "forge-loop", "timeout": 1800000}]} (milliseconds) into hooks.AfterAgent of .gemini/settings.json (or --settings), keeping its comments. opencode is refused (NO_STOP_HOOK): OpenCode has no hook that can keep a session going, so forge loop run drives it instead, a fresh opencode run per iteration with the prompt on its stdin: forge loop run --prompt \'<task>\' -- opencode run.',
  ].join('\n\n'),
  args: {
    agent: {
      type: 'string',
      tool: '',
      positional: true,
      required: true,
      choices: [...STOP_AGENTS, 'opencode'],
      description: 'The agent whose hook to install.',
    },
    settings: {
      type: 'string',
      tool: 'Settings file',
      placeholder: 'FILE',
      description:
        "The agent's settings file (default, at the top of the repository: .claude/settings.json, .codex/config.toml or .gemini/settings.json).",
    },
  },
  examples: [
    { command: 'forge loop install claude', description: "Drive loops from this project's Claude Code sessions." },
    { command: 'forge loop install gemini', description: "Drive loops from this project's Gemini CLI sessions." },
  ],
  errors: {
    NO_STOP_HOOK: 'the agent has no stop-like hook (OpenCode): use forge loop run',
    SETTINGS_INVALID:
      'the settings file is not a JSON object with a hooks map (for codex: not valid TOML, or its hooks are not tables), or it is a directory or a FIFO',
    PATH_IN_GIT_DIR: "--settings names a file in git's own files",
    PATH_OUTSIDE_REPO: '--settings names a file outside the repository',
    INVALID_PATH: 'an empty --settings, or one with a NUL byte',
    NOT_A_DIRECTORY: "a file is where the settings file's directory must be",
  },
  exits: {
    0: 'installed, upgraded, or already there',
    1: "refused: the settings file is malformed, or in git's own files, or the agent has no stop hook",
    2: 'invalid input, or --settings outside the repository',
  },
  mutates: true,
  mcp: { title: 'Install the loop driver', toolset: 'install', effect: 'additive', idempotent: true },
  async run(args, ctx) {
    const install = {
      claude: () =>
        installProjectHook({
          cwd: ctx.cwd,
          searchPath: ctx.env.PATH ?? '',
          settings: args.settings,
          event: 'Stop',
          timeout: 1800,
          command: STOP_HOOK,
          failure: 'open',
        }),
      codex: () =>
        installCodexProjectHook({
          cwd: ctx.cwd,
          searchPath: ctx.env.PATH ?? '',
          config: args.settings,
          event: 'Stop',
          command: 'forge loop hook codex',
          failure: 'open',
          // Codex skips a hook it has not trusted: the trust is recorded as for the plan gate.
          env: ctx.env,
        }),
      gemini: () =>
        installGeminiProjectHook({
          cwd: ctx.cwd,
          searchPath: ctx.env.PATH ?? '',
          settings: args.settings,
          event: 'AfterAgent',
          command: 'forge loop hook gemini',
          name: 'forge-loop',
          timeoutMs: 1_800_000,
          failure: 'open',
        }),
    };
    if (args.agent === 'opencode')
      throw new RefusedError(
        'NO_STOP_HOOK',
        'OpenCode has no hook that can keep a session going, so forge cannot drive its loop from inside a session',
        { fix: 'forge loop run --help' },
      );
    const r = await install[args.agent as keyof typeof install]();
    return { ...r, next: ctx.cmd('loop', 'status') };
  },
});
