// forge plan install-hook claude|codex|gemini|opencode: gate every tool call of that agent through forge plan preflight.
import { activationCommand } from '../../lib/plans/contract';
import { defineCommand } from '../../lib/cli/declare';
import { HOOK_AGENTS, type HookAgent } from '../../lib/plans/tools';
import { ON_FAILURE_SINCE, installProjectHook } from '../../lib/claude/settings';
import { CODEX_HOOKS_SINCE, installCodexProjectHook } from '../../lib/codex/config';
import { installGeminiProjectHook } from '../../lib/gemini/settings';
import { installOpenCodePlugin, OPENCODE_PREFLIGHT } from '../../lib/opencode/plugin';

export const PREFLIGHT_HOOK = 'forge plan preflight --hook claude';

/** Codex runs a hook through the shell and blocks on exit 2 only: `|| exit 2` turns "forge cannot run or crashed" into a block. */
export const CODEX_PREFLIGHT_HOOK = 'forge plan preflight --hook codex || exit 2';

/** Gemini CLI blocks on exit 2 (other failures are warnings that let the call run): the same `|| exit 2`. */
export const GEMINI_PREFLIGHT_HOOK = 'forge plan preflight --hook gemini || exit 2';

export default defineCommand({
  name: 'plan install-hook',
  summary: 'Install the plan gate as a Claude Code, Codex CLI or Gemini CLI pre-tool hook, or an OpenCode plugin',
  tool: "Install the plan gate as an agent's PreToolUse hook",
  description: [
    `Merges {"matcher": "*", "hooks": [{"type": "command", "command": "forge plan preflight --hook claude", "onFailure": "block"}]} into hooks.PreToolUse of the project's .claude/settings.json (or --settings), keeping every other setting, event and hook as it was; running it again changes nothing, except that an entry installed before onFailure existed gets "onFailure": "block" added in place (its timeout and other keys stay). A settings file that is not valid JSON is refused and left untouched. From then on every tool call of a Claude Code session in this project passes forge plan preflight while a plan contract is active, and is a no-op otherwise. Claude Code runs the hook through the shell, so forge must be on its PATH.`,
    `The gate fails closed. "onFailure": "block" makes Claude Code (${ON_FAILURE_SINCE} or later) refuse the tool call when the hook cannot start (forge not on PATH), times out, or exits with a code other than 0 or 2 (a crash). Earlier Claude Code releases drop the key unread: there a hook that cannot run is a non-blocking error and the call goes ahead, so keep Claude Code up to date where the plan matters. forge's own answers do not depend on the key: with a plan active, a payload it cannot read or a contract it cannot check is denied with the reason.`,
    `codex: appends [[hooks.PreToolUse]] with one [[hooks.PreToolUse.hooks]] handler {type = "command", command = "${CODEX_PREFLIGHT_HOOK}"} (no matcher: every tool Codex reports — Bash for its shell and exec_command calls, apply_patch, MCP tools) to the project's .codex/config.toml (or --settings, e.g. ~/.codex/config.toml for every project). The tables are added as text at the end, so the file's comments, order and other settings stay exactly as they were; running it again changes nothing; a file that is not valid TOML, or whose hooks are not tables Codex reads, is refused and left untouched. Codex ${CODEX_HOOKS_SINCE} or later runs hooks from config.toml by default, and reads a project's .codex/ layer only once the project is trusted. The gate fails closed as far as Codex allows: Codex blocks a call when a hook exits 2 (showing its stderr), so "|| exit 2" blocks the call when forge is not on PATH or crashes; a hook that times out (600 seconds by default) lets the call through.`,
    `gemini: merges {"hooks": [{"type": "command", "command": "${GEMINI_PREFLIGHT_HOOK}", "name": "forge-plan-gate"}]} (no matcher: every tool) into hooks.BeforeTool of the project's .gemini/settings.json (or --settings, e.g. ~/.gemini/settings.json), by edits at that place only: the file's comments, which Gemini CLI allows, and every other key stay as they were; running it again changes nothing; a file that is not JSON (with comments) is refused untouched. Gemini CLI runs a project's hooks only in a trusted folder, and asks before running one it has not seen. It blocks a call when a hook exits 2, so "|| exit 2" blocks the call when forge is not on PATH or crashes; a hook that times out (60 seconds by default) lets the call through.`,
    `opencode: writes forge's plugin to the project's .opencode/plugins/forge-plan-gate.js (or --settings, e.g. ~/.config/opencode/plugins/forge-plan-gate.js), which OpenCode loads at startup. Its tool.execute.before hook pipes each call — {tool, sessionID, callID, args, directory} — into ${OPENCODE_PREFLIGHT.join(' ')} and throws forge's reason when the call is refused, which OpenCode gives the model as the tool's error. It fails closed: when forge cannot start, exits with an error, or does not answer within 60 seconds, the call is refused. Running it again changes nothing; an older forge plugin there is replaced; a file there that is not forge's is refused untouched.`,
  ].join('\n\n'),
  args: {
    agent: {
      type: 'string',
      positional: true,
      required: true,
      choices: [...HOOK_AGENTS],
      tool: '',
      description: 'The agent whose hook to install.',
    },
    settings: {
      type: 'string',
      placeholder: 'FILE',
      tool: "Config file (default: the agent's)",
      description:
        "The agent's file (default, at the top of the repository: .claude/settings.json, .codex/config.toml, .gemini/settings.json, or the plugin .opencode/plugins/forge-plan-gate.js).",
    },
  },
  examples: [
    { command: 'forge plan install-hook claude', description: "Gate this project's Claude Code sessions." },
    {
      command: 'forge plan install-hook claude --settings .claude/settings.local.json --json',
      description: 'Only for you, not committed.',
    },
    { command: 'forge plan install-hook codex', description: "Gate this project's Codex CLI sessions (.codex/config.toml)." },
    { command: 'forge plan install-hook gemini', description: "Gate this project's Gemini CLI sessions (.gemini/settings.json)." },
    { command: 'forge plan install-hook opencode', description: "Gate this project's OpenCode sessions (a plugin in .opencode/plugins/)." },
  ],
  errors: {
    SETTINGS_INVALID:
      "the settings file is not a JSON object with a hooks map (for codex: not valid TOML, or its hooks are not tables; for opencode: a file there that is not forge's plugin), or it is a directory or a FIFO",
    PATH_IN_GIT_DIR: "--settings names a file in git's own files",
    PATH_OUTSIDE_REPO: '--settings names a file outside the repository',
    INVALID_PATH: 'an empty --settings, or one with a NUL byte',
    NOT_A_DIRECTORY: "a file is where the settings file's directory must be",
  },
  exits: {
    0: 'installed, upgraded, or already there',
    1: "refused: the settings file is malformed, or in git's own files",
    2: 'invalid input, or --settings outside the repository',
  },
  mutates: true,
  mcp: { toolset: 'install', effect: 'additive', idempotent: true },
  async run(args, ctx) {
    const install = {
      claude: () =>
        installProjectHook({
          cwd: ctx.cwd,
          searchPath: ctx.env.PATH ?? '',
          settings: args.settings,
          event: 'PreToolUse',
          matcher: '*',
          command: PREFLIGHT_HOOK,
          failure: 'closed',
        }),
      codex: () =>
        installCodexProjectHook({
          cwd: ctx.cwd,
          searchPath: ctx.env.PATH ?? '',
          config: args.settings,
          event: 'PreToolUse',
          command: CODEX_PREFLIGHT_HOOK,
        }),
      gemini: () =>
        installGeminiProjectHook({
          cwd: ctx.cwd,
          searchPath: ctx.env.PATH ?? '',
          settings: args.settings,
          event: 'BeforeTool',
          command: GEMINI_PREFLIGHT_HOOK,
          name: 'forge-plan-gate',
          failure: 'closed',
        }),
      opencode: () => installOpenCodePlugin({ cwd: ctx.cwd, searchPath: ctx.env.PATH ?? '', file: args.settings }),
    } satisfies Record<HookAgent, unknown>;
    const r = await install[args.agent as HookAgent]();
    return {
      ...r,
      next: ctx.cmd('plan', 'status'),
      or: await activationCommand({ cwd: ctx.cwd }),
    };
  },
});
