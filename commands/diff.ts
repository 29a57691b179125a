// forge diff: what changed in the work tree since a checkpoint — what forge undo would take back.
import { defineCommand } from '../lib/cli/declare';
import { diffSinceCheckpoint } from '../lib/git/checkpoint';

/** git's patch cut at each `diff --git` header: a content line always starts with ' ', '+', '-' or '\'. */
function perFile(patch: string): string[] {
  return patch.split(/^(?=diff --git )/m).filter((p) => p.startsWith('diff --git '));
}

export default defineCommand({
  name: 'diff',
  summary: 'Show the changes of the work tree since the newest checkpoint (untracked files included)',
  tool: 'Changes since the newest checkpoint',
  description: [
    "Compares the work tree — tracked, staged and untracked files alike, ignored ones left out — with checkpoint N (default 1, the newest, numbered as forge undo --list numbers them): exactly what forge undo N would take back. The text is git's own diff (or with --stat its summary) with renames shown as a deletion and an addition, as undo sees them; the hint goes to stderr, so forge diff | git apply -R works. Nothing is written but git objects for the snapshot: HEAD, the index, branches and files are untouched.",
    'With --json each changed file is a record {"type":"file", path, status (added, deleted, modified, type-changed), insertions, deletions (null for a binary file), patch (its part of the diff; left out with --stat)}, then a summary with the checkpoint and the totals.',
  ].join('\n\n'),
  args: {
    checkpoint: {
      type: 'integer',
      tool: '1 = newest',
      positional: true,
      min: 1,
      placeholder: 'N',
      description: 'Compare with checkpoint N: 1 is the newest (default).',
    },
    stat: { type: 'boolean', tool: '--stat summary', description: "git's --stat summary instead of the patch." },
  },
  examples: [
    { command: 'forge diff', description: 'The patch since the newest checkpoint.' },
    { command: 'forge diff --stat', description: 'Which files changed, and how much.' },
    { command: 'forge diff --json | jq -r \'select(.type=="file") | .path\'', description: 'The changed paths.' },
  ],
  errors: {
    NO_CHECKPOINT: 'there is no checkpoint yet',
    NO_SUCH_CHECKPOINT: 'N is larger than the number of checkpoints',
    NOT_A_GIT_REPO: 'outside a git repository',
    NO_WORK_TREE: 'in a bare repository or inside the git dir',
  },
  exits: {
    0: 'shown (changes or none)',
    1: 'no checkpoint yet',
    2: 'invalid input, no such checkpoint, not a git repository, or no work tree',
  },
  mutates: false,
  mcp: { title: 'Diff since a checkpoint', toolset: 'checkpoints', effect: 'read' },
  pager: true,
  async run(args, ctx) {
    const n = args.checkpoint ?? 1;
    const d = await diffSinceCheckpoint({ cwd: ctx.cwd, stat: args.stat, n });
    const patches = args.stat ? [] : perFile(d.text);
    for (const [i, f] of d.files.entries()) {
      // Patches and numstat come in the same order; a mismatch (a header inside a file name) drops them rather than misplace them.
      const patch = patches.length === d.files.length ? { patch: patches[i] } : {};
      await ctx.emit({ type: 'file', ...f, ...patch }, '');
    }
    const c = d.checkpoint;
    const checkpoint = { n: c.n, ref: c.ref, oid: c.oid, message: c.message, createdAt: c.createdAt };
    const data = { checkpoint, files: d.files.length, insertions: d.insertions, deletions: d.deletions };
    const undo = n === 1 ? ctx.cmd('undo') : ctx.cmd('undo', n);
    if (!d.files.length) return { data, text: `no changes since checkpoint ${n} (${c.message})`, next: ctx.cmd('undo', '--list') };
    return { data, text: d.text, next: undo, or: ctx.cmd('checkpoint'), hintOnStderr: true };
  },
});
