// forge hooks install: put `forge plan check` in front of every git push.
import { realpathSync } from 'node:fs';
import { relative } from 'node:path';
import { defineCommand } from '../../lib/cli/declare';
import { installPrePush } from '../../lib/git/hooks';

export default defineCommand({
  name: 'hooks install',
  summary: 'Install the git pre-push hook that refuses pushes whose plans fail forge plan check',
  description:
    "Writes a pre-push hook into the repository's hooks directory (core.hooksPath respected) that runs forge plan check and refuses the push when it fails. Installing twice changes nothing. A pre-push hook that was already there is kept: it moves to pre-push.local and runs first, with the same arguments and input. The hook runs the forge on PATH, or else the forge that installed it. It is a gate and fails closed: a forge that cannot be found or run, or that crashes, refuses the push like a failed check. Skip it once with git push --no-verify.",
  args: {
    hook: { type: 'string', positional: true, required: true, choices: ['pre-push'], description: 'Which hook.' },
  },
  examples: [{ command: 'forge hooks install pre-push', description: 'Check plans before every push.' }],
  errors: { NOT_A_GIT_REPO: 'outside a git repository', HOOK_CONFLICT: 'a foreign pre-push hook and a pre-push.local both exist' },
  exits: { 0: 'installed, or already installed', 1: 'refused: a hook conflict', 2: 'invalid input or not a git repository' },
  mutates: true,
  mcp: { title: 'Install the pre-push hook', toolset: 'install', effect: 'additive', idempotent: true },
  async run(_args, ctx) {
    const r = await installPrePush({ cwd: ctx.cwd, forgeBin: realpathSync(ctx.program) });
    const path = relative(ctx.cwd, r.path);
    return {
      data: { ...r, path },
      text: !r.installed
        ? `${path} is already forge's pre-push hook`
        : `installed ${path}${r.chained ? ` (the hook that was there runs first, as ${relative(ctx.cwd, r.chained)})` : ''}`,
      next: ctx.cmd('plan', 'check'),
    };
  },
});
