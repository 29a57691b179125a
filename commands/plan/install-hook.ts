// forge plan install-hook claude|codex|gemini|opencode: gate every tool call of that agent through forge plan preflight.
import { join } from 'node:path';
import { activationCommand } from '../../lib/plans/contract';
import { defineCommand } from '../../lib/cli/declare';
import { InvalidInputError, RefusedError } from '../../lib/errors';
import { HOOK_AGENTS, type HookAgent } from '../../lib/plans/tools';
import { claudeUserSettings, ON_FAILURE_SINCE, installProjectHook } from '../../lib/claude/settings';
import { CODEX_HOOKS_SINCE, installCodexProjectHook } from '../../lib/codex/config';
import { codexUserConfig } from '../../lib/codex/trust';
import { geminiUserSettings, installGeminiProjectHook } from '../../lib/gemini/settings';
import { installOpenCodePlugin, OPENCODE_PREFLIGHT, opencodeUserDirs, PLUGIN_NAME } from '../../lib/opencode/plugin';
import { type GateReport, gateReport } from '../../lib/plans/liveness';

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
    `Merges {"matcher": "*", "hooks": [{"type": "command", "command": "forge plan preflight --hook claude", "onFailure": "block"}]} into hooks.PreToolUse of the project's .claude/settings.json (or --settings, or with --user the user's ~/.claude/settings.json), keeping every other setting, event and hook as it was; running it again changes nothing, except that an entry installed before onFailure existed gets "onFailure": "block" added in place (its timeout and other keys stay). A settings file that is not valid JSON is refused and left untouched. From then on every tool call of a Claude Code session that reads the file passes forge plan preflight while a plan contract is active, and is a no-op otherwise. Claude Code reads a project's .claude/settings.json only when it starts in that very directory — started in a subdirectory of the repository it runs without the hook — and the user's ~/.claude/settings.json ($CLAUDE_CONFIG_DIR/settings.json) wherever it starts: --user gates a session wherever it starts, and the hook lets everything through outside a repository with an active plan. Claude Code runs the hook through the shell, so forge must be on its PATH.`,
    `The gate fails closed. "onFailure": "block" makes Claude Code (${ON_FAILURE_SINCE} or later) refuse the tool call when the hook cannot start (forge not on PATH), times out, or exits with a code other than 0 or 2 (a crash). Earlier Claude Code releases drop the key unread: there a hook that cannot run is a non-blocking error and the call goes ahead. install-hook runs claude --version and warns when it is older (npm on Node 20 installs 2.1.197 at most: later releases need Node 22). forge's own answers do not depend on the key: with a plan active, a payload it cannot read or a contract it cannot check is denied with the reason.`,
    `codex: appends [[hooks.PreToolUse]] with one [[hooks.PreToolUse.hooks]] handler {type = "command", command = "${CODEX_PREFLIGHT_HOOK}"} (no matcher: every tool Codex reports — Bash for its shell and exec_command calls, apply_patch, MCP tools) to the project's .codex/config.toml (or --settings, or with --user the user's config.toml). The tables are added as text at the end, so the file's comments, order and other settings stay exactly as they were; running it again changes nothing; a file that is not valid TOML, or whose hooks are not tables Codex reads, is refused and left untouched. Codex ${CODEX_HOOKS_SINCE} or later runs hooks from config.toml, but only hooks whose trust is recorded in the user's config.toml ($CODEX_HOME/config.toml, else ~/.codex/config.toml): [hooks.state."<file>:pre_tool_use:<entry>:<handler>"] trusted_hash, the hash of the hook as it is — what approving it in Codex's /hooks writes. A hook without it, or changed since by one character, is skipped without a word, codex exec included; install-hook records it for the hook it installed, and leaves a hook the user disabled disabled. Codex reads a project's .codex/config.toml only in a project it trusts ([projects."<dir>"] trust_level = "trusted", written when the user trusts the folder as Codex asks), which forge does not grant: --user needs no project trust. When Codex will still not run the gate — the project not trusted, the hook or hooks turned off, codex --version older than ${CODEX_HOOKS_SINCE} — install-hook exits 1 (GATE_NOT_LIVE) with the step that makes it run. The gate fails closed as far as Codex allows: Codex blocks a call when a hook exits 2 (showing its stderr), so "|| exit 2" blocks the call when forge is not on PATH or crashes; a hook that times out (600 seconds by default) lets the call through.`,
    `gemini: merges {"hooks": [{"type": "command", "command": "${GEMINI_PREFLIGHT_HOOK}", "name": "forge-plan-gate"}]} (no matcher: every tool) into hooks.BeforeTool of the project's .gemini/settings.json (or --settings, or with --user the user's ~/.gemini/settings.json, under $GEMINI_CLI_HOME when set), by edits at that place only: the file's comments, which Gemini CLI allows, and every other key stay as they were; running it again changes nothing; a file that is not JSON (with comments) is refused untouched. Gemini CLI reads a project's .gemini/settings.json only when it starts in that very directory, the user's wherever it starts; it runs no hooks at all, the user's included, in a folder it does not trust (~/.gemini/trustedFolders.json; trust is on unless security.folderTrust.enabled is false or GEMINI_CLI_TRUST_WORKSPACE says otherwise), and install-hook says which it is. It blocks a call when a hook exits 2, so "|| exit 2" blocks the call when forge is not on PATH or crashes; a hook that times out (60 seconds by default) lets the call through.`,
    `opencode: writes forge's plugin to the project's .opencode/plugins/forge-plan-gate.js (or --settings, or with --user ~/.config/opencode/plugins/forge-plan-gate.js), which OpenCode loads at startup anywhere in the repository. Its tool.execute.before hook pipes each call — {tool, sessionID, callID, args, directory} — into ${OPENCODE_PREFLIGHT.join(' ')} and throws forge's reason when the call is refused, which OpenCode gives the model as the tool's error. It fails closed: when forge cannot start, exits with an error, or does not answer within 60 seconds, the call is refused. Running it again changes nothing; an older forge plugin there is replaced; a file there that is not forge's is refused untouched.`,
    'The last lines say whether the gate is live — loaded where the agent will read it, trusted, run by a release that blocks a call forge cannot answer — and if not, the command that makes it so; --json carries it as the record gate {agent, live, state, file, scope, startAt, version, reason, fix}, as forge plan status does for every gate installed.',
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
        "The agent's file (default, at the top of the repository: .claude/settings.json, .codex/config.toml, .gemini/settings.json, or the plugin .opencode/plugins/forge-plan-gate.js). It may be outside the repository (a settings file of your own), never in git's own files.",
    },
    user: {
      type: 'boolean',
      personOnly: true,
      description:
        "Install into the user's own file, which the agent reads wherever it starts and in every project: ~/.claude/settings.json, ~/.codex/config.toml, ~/.gemini/settings.json or ~/.config/opencode/plugins/forge-plan-gate.js (under $CLAUDE_CONFIG_DIR, $CODEX_HOME, $GEMINI_CLI_HOME or $XDG_CONFIG_HOME when set).",
    },
  },
  examples: [
    { command: 'forge plan install-hook claude', description: "Gate this project's Claude Code sessions." },
    {
      command: 'forge plan install-hook claude --settings .claude/settings.local.json --json',
      description: 'Only for you, not committed.',
    },
    { command: 'forge plan install-hook claude --user', description: 'Gate Claude Code wherever it starts, in every project.' },
    {
      command: 'forge plan install-hook codex',
      description: "Gate this project's Codex CLI sessions (.codex/config.toml), the hook's trust recorded.",
    },
    { command: 'forge plan install-hook gemini', description: "Gate this project's Gemini CLI sessions (.gemini/settings.json)." },
    { command: 'forge plan install-hook opencode', description: "Gate this project's OpenCode sessions (a plugin in .opencode/plugins/)." },
  ],
  errors: {
    GATE_NOT_LIVE:
      'codex: installed, but Codex will not run it — the project is not trusted, the hook or hooks are off, or Codex is too old',
    CONFLICTING_ARGUMENTS: '--user with --settings',
    INVALID_ARGUMENT: "--user without HOME (or the agent's own home variable) to find the user's file in",
    SETTINGS_INVALID:
      "the settings file is not a JSON object with a hooks map (for codex: not valid TOML, or its hooks are not tables; for opencode: a file there that is not forge's plugin), or it is a directory or a FIFO",
    PATH_IN_GIT_DIR: "--settings names a file in git's own files",
    INVALID_PATH: 'an empty --settings, or one with a NUL byte',
    NOT_A_DIRECTORY: "a file is where the settings file's directory must be",
  },
  exits: {
    0: 'installed, upgraded, or already there (a gate that runs but fails open is a warning)',
    1: "refused: the settings file is malformed, or in git's own files; or Codex will not run the gate installed",
    2: 'invalid input',
  },
  mutates: true,
  mcp: { title: 'Install the plan gate', toolset: 'install', effect: 'additive', idempotent: true },
  async run(args, ctx) {
    const agent = args.agent as HookAgent;
    if (args.user && args.settings !== undefined)
      throw new InvalidInputError('CONFLICTING_ARGUMENTS', "--user installs into the user's own file: give it or --settings, not both", {
        fix: ctx.cmd('plan', 'install-hook', agent, '--user'),
      });
    const settings = args.user ? await userFile({ agent, env: ctx.env }) : args.settings;
    const install = {
      claude: () =>
        installProjectHook({
          cwd: ctx.cwd,
          searchPath: ctx.env.PATH ?? '',
          settings,
          event: 'PreToolUse',
          matcher: '*',
          command: PREFLIGHT_HOOK,
          failure: 'closed',
          env: ctx.env,
        }),
      codex: () =>
        installCodexProjectHook({
          cwd: ctx.cwd,
          searchPath: ctx.env.PATH ?? '',
          config: settings,
          event: 'PreToolUse',
          command: CODEX_PREFLIGHT_HOOK,
          env: ctx.env,
        }),
      gemini: () =>
        installGeminiProjectHook({
          cwd: ctx.cwd,
          searchPath: ctx.env.PATH ?? '',
          settings,
          event: 'BeforeTool',
          command: GEMINI_PREFLIGHT_HOOK,
          name: 'forge-plan-gate',
          failure: 'closed',
          env: ctx.env,
        }),
      opencode: () => installOpenCodePlugin({ cwd: ctx.cwd, searchPath: ctx.env.PATH ?? '', file: settings }),
    } satisfies Record<HookAgent, unknown>;
    const r = await install[agent]();
    const gate = await gateReport({ agent, file: String(r.data.file), cwd: ctx.cwd, env: ctx.env });
    // A Codex hook that Codex skips is no gate: the install does not pass for a success.
    if (agent === 'codex' && !gate.live)
      throw new RefusedError('GATE_NOT_LIVE', `installed in ${gate.file}, but Codex will not run it: ${gate.reason}`, {
        fix: gate.fix ?? undefined,
        data: { file: gate.file, state: gate.state, reason: gate.reason },
      });
    return {
      data: { ...r.data, gate },
      text: [r.text, ...verdict(gate)].join('\n'),
      next: ctx.cmd('plan', 'status'),
      or: await activationCommand({ cwd: ctx.cwd }),
    };
  },
});

/**
 * What the installer's own lines leave unsaid about the gate: why it is not live when that is news
 * (an old Claude Code, hooks turned off, a plugin OpenCode never loads), and the command that makes
 * it live or live anywhere.
 */
function verdict(gate: GateReport): string[] {
  // The Claude Code and Gemini CLI installers say where the file is read and whether the folder is trusted.
  const said = gate.live || (gate.agent !== 'opencode' && (gate.state === 'untrusted' || gate.state === 'not-loaded'));
  return [
    ...(said ? [] : [`warning: the ${gate.agent} gate is not live (${gate.state}): ${gate.reason}`]),
    ...(gate.fix ? [`${gate.live ? `gate ${gate.agent} wherever it starts` : 'to make it live'}: ${gate.fix}`] : []),
  ];
}

/** The agent's own file, read wherever it starts: the one --user installs into. */
async function userFile({ agent, env }: { agent: HookAgent; env: Record<string, string | undefined> }): Promise<string> {
  const files = {
    claude: () => claudeUserSettings({ env }),
    codex: async () => (await codexUserConfig({ env }))?.file ?? null,
    gemini: () => geminiUserSettings({ env }),
    opencode: () => {
      const dir = opencodeUserDirs({ env })[0];
      return dir ? join(dir, 'plugins', PLUGIN_NAME) : null;
    },
  } satisfies Record<HookAgent, unknown>;
  const file = await files[agent]();
  if (!file)
    throw new InvalidInputError('INVALID_ARGUMENT', `--user: HOME is not set, so the user's file for ${agent} cannot be found`, {
      fix: `HOME=~ forge plan install-hook ${agent} --user`,
      data: { field: 'user' },
    });
  return file;
}
