// forge undo: put the work tree back as it was at a checkpoint — HEAD, the index and branches untouched.
import { defineCommand, type RunContext } from '../lib/cli/declare';
import { InvalidInputError, RefusedError } from '../lib/errors';
import { restoreCheckpoint } from '../lib/checkpoints/undo';
import { CHECKPOINT_LIMIT, listCheckpoints, type Checkpoint, type RestoreResult } from '../lib/git/checkpoint';
import { crashAt } from '../lib/process/crash';

const LETTER = { added: 'A', deleted: 'D', modified: 'M', 'type-changed': 'T' } as const;

/** `2026-01-01T10:00:00Z`: the time without milliseconds. */
export function when(c: Checkpoint): string {
  return c.createdAt.replace(/\.\d{3}Z$/, 'Z');
}

function label(c: Checkpoint): string {
  return c.n === null ? `the undo copy ${c.ref}` : `checkpoint ${c.n}`;
}

function describe(c: Checkpoint): string {
  return `${c.message}, ${when(c)}, ${c.uncommitted} uncommitted file${c.uncommitted === 1 ? '' : 's'}`;
}

async function list(ctx: RunContext) {
  const all = await listCheckpoints({ cwd: ctx.cwd });
  for (const c of all) {
    const counts = `${c.files} file${c.files === 1 ? '' : 's'}, ${c.uncommitted} uncommitted`;
    await ctx.emit(
      { type: 'checkpoint', ...c },
      `${String(c.n ?? '-').padStart(3)}  ${when(c)}  ${c.kind.padEnd(6)}  ${counts}  ${c.message}`,
    );
  }
  const numbered = all.filter((c) => c.n !== null).length;
  const copies = all.length - numbered;
  return {
    data: { count: all.length, numbered, undoCopies: copies },
    text: all.length
      ? `${numbered} checkpoint${numbered === 1 ? '' : 's'}${copies ? ` and ${copies} undo cop${copies === 1 ? 'y' : 'ies'} (not numbered)` : ''}, newest first`
      : 'no checkpoints yet',
    next: numbered ? ctx.cmd('diff') : ctx.cmd('checkpoint'),
    ...(numbered ? { or: ctx.cmd('undo') } : {}),
  };
}

function fileLines(changes: RestoreResult['changes']): string[] {
  return changes.map((c) => `  ${LETTER[c.status]} ${c.path}`);
}

function restored(r: RestoreResult, ctx: RunContext) {
  const what = label(r.checkpoint);
  const resumed = r.resumed
    ? [
        `finished an undo to ${r.resumed.target} that was interrupted: ${r.resumed.changes.length} more file${r.resumed.changes.length === 1 ? '' : 's'}`,
        ...fileLines(r.resumed.changes),
        `the work tree it replaced is saved as ${r.resumed.saved}`,
      ]
    : [];
  if (!r.saved) {
    return {
      data: { restored: true, checkpoint: r.checkpoint, saved: null, changes: [], resumed: r.resumed },
      text: [
        ...resumed,
        `the work tree ${r.resumed ? 'now matches' : 'already matches'} ${what} (${describe(r.checkpoint)}): nothing ${r.resumed ? 'more ' : ''}to do`,
      ].join('\n'),
      next: r.resumed ? 'git status' : ctx.cmd('undo', '--list'),
      ...(r.resumed ? { or: ctx.cmd('undo', '--redo') } : {}),
    };
  }
  return {
    data: { restored: true, checkpoint: r.checkpoint, saved: r.saved, changes: r.changes, resumed: r.resumed },
    text: [
      ...resumed,
      `restored the work tree to ${what} (${describe(r.checkpoint)}): ${r.changes.length} file${r.changes.length === 1 ? '' : 's'}`,
      ...fileLines(r.changes),
      `the work tree it replaced is saved as ${r.saved.ref}; forge undo --redo puts it back`,
    ].join('\n'),
    next: 'git status',
    or: ctx.cmd('undo', '--redo'),
  };
}

export default defineCommand({
  name: 'undo',
  summary: 'Restore the work tree to a checkpoint, uncommitted and untracked files too; HEAD and the index stay',
  tool: 'Restore the work tree to a checkpoint',
  description: [
    'Makes the work tree equal to checkpoint N (default 1, the newest). forge agent takes a checkpoint before each task and each plan step; forge checkpoint takes one by hand. Every file comes back as it was then — committed, staged, unstaged and untracked alike; files created since are removed; ignored files are left alone. Only the files that differ are written. HEAD, the index and every branch are untouched, so afterwards git status shows the restored files against HEAD just as it did then (against the new HEAD, if commits were made since).',
    `Nothing is lost: before any file is written, the work tree being replaced is saved as a checkpoint of its own (kind undo), and the output names it; forge undo --redo puts it back. When the work tree already matches the checkpoint nothing is written and nothing is saved.`,
    'Numbering: checkpoints are numbered newest first, 1 being the newest, and the copies undo saves are not numbered, so undoing never shifts the numbers. forge undo run twice therefore restores checkpoint 1 twice: the second finds it already there and does nothing. Go further back with forge undo 2; take an undo back with forge undo --redo, which restores the newest undo copy (saving the tree it replaces as another one, so --redo twice toggles). forge undo --list shows them all, undo copies with - for a number; forge diff shows what forge undo would take back.',
    'An undo that was interrupted (killed, or a file git could not write) leaves a marker in the git dir; the next forge undo or forge undo --redo finishes it first — restoring the rest of its files without saving the half-restored tree — and says so, so the copy saved before the interrupted attempt stays the one --redo puts back.',
    'On a terminal (stdin and stderr both), undo asks "Restore the work tree to checkpoint N (…)? [y/N]" first, and --yes skips the question. Off a terminal — a script, an agent, NDJSON on stdin, MCP — it proceeds without asking, as git restore and git reset --hard do: nothing can be lost, since the replaced tree is saved first.',
    `Checkpoints are commits on refs/forge/checkpoints/<id> (a linked worktree's on refs/forge/checkpoints/worktrees/<name>/<id>, so each worktree undoes only its own), parented on the HEAD of their moment; the newest ${CHECKPOINT_LIMIT} per worktree are kept. Plain git reads them: git for-each-ref refs/forge/checkpoints, git diff <ref>. A submodule is captured as its commit, not its files.`,
  ].join('\n\n'),
  args: {
    checkpoint: {
      type: 'integer',
      tool: '1 = newest',
      positional: true,
      min: 1,
      placeholder: 'N',
      description: 'The checkpoint to restore, as --list numbers them: 1 is the newest (default).',
    },
    list: { type: 'boolean', tool: 'List instead', description: 'List the checkpoints, newest first, instead of restoring one.' },
    redo: { type: 'boolean', tool: 'Undo the last undo', description: 'Put back the work tree the last undo replaced.' },
    yes: { type: 'boolean', tool: '', alias: 'y', description: 'Do not ask first (undo only asks on a terminal).' },
  },
  examples: [
    { command: 'forge undo --list', description: 'The checkpoints, newest first, with their numbers.' },
    { command: 'forge undo --yes', description: 'Back to the newest checkpoint without being asked.' },
    { command: 'forge undo 2 --yes --json', description: 'Back to the one before it, as NDJSON.' },
    { command: 'forge undo --redo --yes', description: 'Take the last undo back.' },
  ],
  errors: {
    NO_CHECKPOINT: 'there is no checkpoint to restore yet',
    NO_SUCH_CHECKPOINT: 'N is larger than the number of checkpoints',
    NOTHING_TO_REDO: '--redo without an earlier undo',
    RESTORE_FAILED: 'git could not write the files (the replaced tree is saved; the next forge undo finishes the restore)',
    UNDO_IN_PROGRESS: 'another forge undo is restoring this work tree now',
    INVALID_ARGUMENT: 'N is not a positive integer, or N given with --redo',
    NOT_A_GIT_REPO: 'outside a git work tree',
    NO_WORK_TREE: 'in a bare repository or inside the git dir',
  },
  env: {
    FORGE_TEST_CRASH_AT:
      'Tests only: a fraction F (0 < F ≤ 1), or SIGINT@F (SIGTERM, SIGHUP) to send that signal instead, once; the process kills itself (SIGKILL) after that fraction of the steps of a restore (replaced tree saved, marked in progress, files restored, mark removed), to prove that an interrupted undo is finished by the next one.',
  },
  exits: {
    0: 'restored, already there, or listed',
    1: 'nothing to restore, the question answered no, another undo under way, or git failed',
    2: 'invalid input, no such checkpoint, or not a git repository',
  },
  mutates: true,
  mcp: { title: 'Restore a checkpoint', toolset: 'checkpoints', effect: 'destructive' },
  async run(args, ctx) {
    if (args.list) return list(ctx);
    if (args.redo && args.checkpoint !== undefined)
      throw new InvalidInputError('INVALID_ARGUMENT', 'give N or --redo, not both', { fix: ctx.cmd('undo', '--redo') });
    const all = await listCheckpoints({ cwd: ctx.cwd });
    let ref: string | undefined;
    let question: string;
    if (args.redo) {
      const copy = all.find((c) => c.kind === 'undo');
      if (!copy)
        throw new RefusedError('NOTHING_TO_REDO', 'no undo to take back: undo saves the tree it replaces, and none is saved', {
          fix: ctx.cmd('undo', '--list'),
        });
      ref = copy.ref;
      question = `Put back the work tree the last undo replaced (saved ${when(copy)})?`;
    } else {
      const n = args.checkpoint ?? 1;
      const target = all.filter((c) => c.n !== null)[n - 1];
      question = target ? `Restore the work tree to checkpoint ${n} (${describe(target)})?` : '';
    }
    // The lib reports a missing checkpoint itself; ask only about one that exists.
    if (question && !args.yes) {
      const yes = await ctx.confirm(question);
      if (yes === false) {
        return { data: { restored: false }, text: 'not restored: the work tree is unchanged', next: ctx.cmd('diff'), exitCode: 1 as const };
      }
    }
    return restored(
      await restoreCheckpoint({
        cwd: ctx.cwd,
        ...(ref ? { ref } : { n: args.checkpoint ?? 1 }),
        onStep: crashAt(ctx.env.FORGE_TEST_CRASH_AT),
      }),
      ctx,
    );
  },
});
