// forge checkpoint: snapshot the work tree by hand, so forge undo can come back to it.
import { defineCommand } from '../lib/cli/declare';
import { CHECKPOINT_LIMIT, createCheckpoint } from '../lib/git/checkpoint';
import { noWorkTreeError } from '../lib/git/repo';

export default defineCommand({
  name: 'checkpoint',
  summary: 'Save the work tree (uncommitted and untracked files too) as a checkpoint forge undo can restore',
  tool: 'Save the work tree as a checkpoint undo can restore',
  description: `Takes the checkpoint forge agent takes before each task, by hand: every file git would see — committed, staged, unstaged and untracked; not ignored ones — is committed on a new ref, refs/forge/checkpoints/<id>, parented on HEAD, with the subject forge: checkpoint before "MESSAGE". HEAD, the index, branches and files are untouched. It becomes checkpoint 1 of forge undo --list; forge diff shows what changes after it; the newest ${CHECKPOINT_LIMIT} per worktree are kept.`,
  args: {
    message: { type: 'string', tool: '', positional: true, rest: true, placeholder: 'MESSAGE', description: 'What you are about to do.' },
  },
  examples: [
    { command: 'forge checkpoint rename the config loader', description: 'Before a change you may want to take back.' },
    { command: 'forge checkpoint --json', description: 'One without a message, as NDJSON.' },
  ],
  errors: {
    NOT_A_GIT_REPO: 'outside a git repository',
    NO_WORK_TREE: 'in a bare repository or inside the git dir: nothing to snapshot',
    GIT_FAILED: 'git could not snapshot a file (unreadable?)',
  },
  exits: { 0: 'saved', 1: 'git failed', 2: 'invalid input, not a git repository, or no work tree' },
  mutates: true,
  mcp: { title: 'Save a checkpoint', toolset: 'checkpoints', effect: 'additive' },
  async run(args, ctx) {
    const c = await createCheckpoint({ cwd: ctx.cwd, message: args.message, kind: 'manual', now: ctx.now() });
    if (!c) throw await noWorkTreeError({ cwd: ctx.cwd });
    return {
      data: { ...c },
      text: `checkpoint 1: ${c.ref} (${c.files} file${c.files === 1 ? '' : 's'}, ${c.uncommitted} uncommitted) ${c.message}`,
      next: ctx.cmd('diff'),
      or: ctx.cmd('undo', '--list'),
    };
  },
});
