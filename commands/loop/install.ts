// forge loop install claude: let Claude Code's Stop hook drive forge loops.
import { defineCommand } from '../../lib/cli/declare';
import { installProjectHook } from '../../lib/claude/settings';

export const STOP_HOOK = 'forge loop hook claude';

export default defineCommand({
  name: 'loop install',
  summary: 'Install the loop driver as a Claude Code Stop hook (.claude/settings.json)',
  description: [
    'Merges {"hooks": [{"type": "command", "command": "forge loop hook claude", "timeout": 1800}]} into hooks.Stop of the project\'s .claude/settings.json (or --settings), keeping every other setting, event and hook; the timeout (seconds) gives a slow --done-when check room (Claude Code\'s default is ten minutes); running it again changes nothing; a settings file that is not valid JSON is refused untouched. With no loop active the hook lets every session stop, so it is safe to leave installed.',
    'The loop driver fails open: no "onFailure": "block" on its entry (and re-running the install removes one found there), so when the hook cannot start, times out or crashes, Claude Code treats it as a non-blocking error and the session stops; forge loop hook itself answers "stop" on every failure of its own. Claude Code (2.1.143 or later) also ends a turn after 8 consecutive Stop-hook blocks, whatever the hook says; for a loop of more iterations, start Claude Code with CLAUDE_CODE_STOP_HOOK_BLOCK_CAP at least --max-iterations, or the turn ends there (the loop stays active and goes on the next time the session stops).',
  ].join('\n\n'),
  args: {
    agent: { type: 'string', tool: '', positional: true, required: true, choices: ['claude'], description: 'The agent whose hook to install.' },
    settings: { type: 'string', tool: 'Settings file', placeholder: 'FILE', description: 'The settings file (default: .claude/settings.json at the top of the repository).' },
  },
  examples: [{ command: 'forge loop install claude', description: "Drive loops from this project's Claude Code sessions." }],
  errors: { SETTINGS_INVALID: 'the settings file is not a JSON object with a hooks map', PATH_IN_GIT_DIR: "--settings names a file in git's own files" },
  exits: { 0: 'installed, upgraded, or already there', 1: "refused: the settings file is malformed, or in git's own files", 2: 'invalid input' },
  mutates: true,
  async run(args, ctx) {
    const r = await installProjectHook({ cwd: ctx.cwd, settings: args.settings, event: 'Stop', timeout: 1800, command: STOP_HOOK, failure: 'open' });
    return {
      ...r,
      next: ctx.cmd('loop', 'status'),
    };
  },
});
