// forge plan install-hook claude: gate every Claude Code tool call through forge plan preflight.
import { join, resolve } from 'node:path';
import { defineCommand } from '../../lib/cli/declare';
import { installClaudeHook } from '../../lib/claude/settings';
import { workTreeRoot } from '../../lib/git/repo';
import { onPath } from '../../lib/plans/modules';

export const PREFLIGHT_HOOK = 'forge plan preflight --hook claude';

export default defineCommand({
  name: 'plan install-hook',
  summary: 'Install the plan gate as a Claude Code PreToolUse hook (.claude/settings.json)',
  description:
    'Merges {"matcher": "*", "hooks": [{"type": "command", "command": "forge plan preflight --hook claude"}]} into hooks.PreToolUse of the project\'s .claude/settings.json (or --settings), keeping every other setting, event and hook as it was; running it again changes nothing. A settings file that is not valid JSON is refused and left untouched. From then on every tool call of a Claude Code session in this project passes forge plan preflight while a plan contract is active, and is a no-op otherwise. Claude Code runs the hook through the shell, so forge must be on its PATH.',
  args: {
    agent: { type: 'string', positional: true, required: true, choices: ['claude'], description: 'The agent whose hook to install.' },
    settings: { type: 'string', placeholder: 'FILE', description: 'The settings file (default: .claude/settings.json at the top of the repository).' },
  },
  examples: [
    { command: 'forge plan install-hook claude', description: 'Gate this project\'s Claude Code sessions.' },
    { command: 'forge plan install-hook claude --settings .claude/settings.local.json --json', description: 'Only for you, not committed.' },
  ],
  errors: { SETTINGS_INVALID: 'the settings file is not a JSON object with a hooks map' },
  exits: { 0: 'installed, or already there', 1: 'refused: the settings file is malformed', 2: 'invalid input' },
  mutates: true,
  async run(args, ctx) {
    const root = (await workTreeRoot({ cwd: ctx.cwd }))?.root ?? ctx.cwd;
    const file = args.settings === undefined ? join(root, '.claude', 'settings.json') : resolve(ctx.cwd, args.settings);
    const r = await installClaudeHook({ file, event: 'PreToolUse', matcher: '*', command: PREFLIGHT_HOOK });
    const reachable = await onPath({ program: 'forge', cwd: ctx.cwd, path: process.env.PATH ?? '' });
    const warning = reachable ? '' : '\nwarning: forge is not on PATH here; Claude Code will not find the hook command until it is (npm install -g .)';
    return {
      data: { file: r.file, added: r.added, event: 'PreToolUse', command: PREFLIGHT_HOOK, forgeOnPath: reachable },
      text: `${r.added ? 'installed' : 'already installed'}: PreToolUse → ${PREFLIGHT_HOOK} in ${r.file}${warning}`,
      next: ctx.cmd('plan', 'status'),
      or: ctx.cmd('plan', 'activate', '--path', 'docs/plans/<plan>.md'),
    };
  },
});
