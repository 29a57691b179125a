// forge plan install-hook claude: gate every Claude Code tool call through forge plan preflight.
import { defineCommand } from '../../lib/cli/declare';
import { ON_FAILURE_SINCE, installProjectHook } from '../../lib/claude/settings';

export const PREFLIGHT_HOOK = 'forge plan preflight --hook claude';

export default defineCommand({
  name: 'plan install-hook',
  summary: 'Install the plan gate as a Claude Code PreToolUse hook (.claude/settings.json)',
  description: [
    `Merges {"matcher": "*", "hooks": [{"type": "command", "command": "forge plan preflight --hook claude", "onFailure": "block"}]} into hooks.PreToolUse of the project's .claude/settings.json (or --settings), keeping every other setting, event and hook as it was; running it again changes nothing, except that an entry installed before onFailure existed gets "onFailure": "block" added in place (its timeout and other keys stay). A settings file that is not valid JSON is refused and left untouched. From then on every tool call of a Claude Code session in this project passes forge plan preflight while a plan contract is active, and is a no-op otherwise. Claude Code runs the hook through the shell, so forge must be on its PATH.`,
    `The gate fails closed. "onFailure": "block" makes Claude Code (${ON_FAILURE_SINCE} or later) refuse the tool call when the hook cannot start (forge not on PATH), times out, or exits with a code other than 0 or 2 (a crash). Earlier Claude Code releases drop the key unread: there a hook that cannot run is a non-blocking error and the call goes ahead, so keep Claude Code up to date where the plan matters. forge's own answers do not depend on the key: with a plan active, a payload it cannot read or a contract it cannot check is denied with the reason.`,
  ].join('\n\n'),
  args: {
    agent: { type: 'string', positional: true, required: true, choices: ['claude'], description: 'The agent whose hook to install.' },
    settings: { type: 'string', placeholder: 'FILE', description: 'The settings file (default: .claude/settings.json at the top of the repository).' },
  },
  examples: [
    { command: 'forge plan install-hook claude', description: 'Gate this project\'s Claude Code sessions.' },
    { command: 'forge plan install-hook claude --settings .claude/settings.local.json --json', description: 'Only for you, not committed.' },
  ],
  errors: { SETTINGS_INVALID: 'the settings file is not a JSON object with a hooks map', PATH_IN_GIT_DIR: "--settings names a file in git's own files" },
  exits: { 0: 'installed, upgraded, or already there', 1: "refused: the settings file is malformed, or in git's own files", 2: 'invalid input' },
  mutates: true,
  async run(args, ctx) {
    const r = await installProjectHook({ cwd: ctx.cwd, settings: args.settings, event: 'PreToolUse', matcher: '*', command: PREFLIGHT_HOOK, failure: 'closed' });
    return {
      ...r,
      next: ctx.cmd('plan', 'status'),
      or: ctx.cmd('plan', 'activate', '--path', 'docs/plans/<plan>.md'),
    };
  },
});
