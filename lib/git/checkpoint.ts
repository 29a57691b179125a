// Checkpoints: snapshots of the whole work tree (uncommitted and untracked files too) on refs/forge/checkpoints/…, restored without touching HEAD, the index or a branch.
import { copyFile, lstat, readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ForgeError, InvalidInputError, RefusedError } from '../errors';
import { processAlive } from '../process/alive';
import { randomHex } from '../random';
import { runGit, type GitResult } from './exec';
import { noWorkTreeError, UnsafeRepositoryError } from './repo';

/**
 * The main worktree keeps its checkpoints at refs/forge/checkpoints/<id>, a linked one at
 * refs/forge/checkpoints/worktrees/<name>/<id> (git's own .git/worktrees/<name> layout): refs are
 * shared by every worktree, and undo in one must never restore another's tree.
 */
export const CHECKPOINT_PREFIX = 'refs/forge/checkpoints';

/** Checkpoints kept per worktree; older ones are pruned when a new one is made. */
export const CHECKPOINT_LIMIT = 50;

/**
 * Why a checkpoint was taken: before an agent's task, before a plan step, by hand (`forge
 * checkpoint`), or by undo itself — the tree an undo replaced, so that nothing is ever lost.
 */
export type CheckpointKind = 'task' | 'step' | 'manual' | 'undo';
const KINDS: readonly CheckpointKind[] = ['task', 'step', 'manual', 'undo'];

export interface Checkpoint {
  /**
   * Its number for `forge undo N`: 1 is the newest. The safety copies undo makes (kind 'undo')
   * are not numbered (null), so undoing never shifts the numbers of the others.
   */
  n: number | null;
  ref: string;
  /** The checkpoint commit: its tree is the work tree, its parent the HEAD of that moment. */
  oid: string;
  tree: string;
  /** HEAD when it was taken; null on an unborn branch. */
  head: string | null;
  kind: CheckpointKind;
  /** The commit's subject, e.g. `forge: checkpoint before "fix the login form"`. */
  message: string;
  createdAt: string;
  /** Files in the snapshot. */
  files: number;
  /** Of those, files that differ from HEAD: what HEAD alone would not give back. */
  uncommitted: number;
}

export interface FileChange {
  path: string;
  status: 'added' | 'deleted' | 'modified' | 'type-changed';
  /** Lines; null for a binary file. */
  insertions: number | null;
  deletions: number | null;
}

export interface RestoreResult {
  checkpoint: Checkpoint;
  /** The tree that was replaced, saved as an undo checkpoint; null when nothing changed. */
  saved: Checkpoint | null;
  /** What the restore did, seen from the work tree: added = brought back, deleted = removed. */
  changes: Array<Pick<FileChange, 'path' | 'status'>>;
  /** An undo a killed process left half done, finished before this one. */
  resumed: ResumedUndo | null;
}

export interface ResumedUndo {
  /** The ref it restored. */
  target: string;
  /** The undo copy saved before it began: still the one --redo puts back. */
  saved: string;
  /** What finishing it changed. */
  changes: Array<Pick<FileChange, 'path' | 'status'>>;
}

export interface DiffResult {
  checkpoint: Checkpoint;
  files: FileChange[];
  insertions: number;
  deletions: number;
  /** git's own output: the patch, or with `stat` its --stat summary; '' when nothing changed. */
  text: string;
}

/** The work tree holding cwd, as git sees it. */
interface WorkTree {
  root: string;
  gitDir: string;
  /** The real index (GIT_INDEX_FILE respected), only ever copied. */
  index: string;
  /** The ref namespace of this worktree's checkpoints, ending in '/'. */
  prefix: string;
  head: string | null;
}

const ID = /^\d{8}-\d{6}-\d{3}$/;
/** Locks are not needed on the real index for anything forge runs: no opportunistic refresh writes. */
const QUIET = { GIT_OPTIONAL_LOCKS: '0' };
/** Checkpoints are forge's bookkeeping, committed under its name: a repository without user.name still gets them. */
const IDENTITY = {
  GIT_AUTHOR_NAME: 'forge',
  GIT_AUTHOR_EMAIL: 'forge@localhost',
  GIT_COMMITTER_NAME: 'forge',
  GIT_COMMITTER_EMAIL: 'forge@localhost',
};

async function run(cwd: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<GitResult> {
  return runGit({ cwd, args, env: { ...QUIET, ...env }, ...(input === undefined ? {} : { input }) });
}

/** Like run, but a failure is a GIT_FAILED error naming the command. */
async function must(cwd: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<string> {
  const r = await run(cwd, args, env, input);
  if (r.code !== 0)
    throw new ForgeError('GIT_FAILED', `git ${args[0]} failed: ${r.stderr.trim() || `exit ${r.code}`}`, { fix: 'git status' });
  return r.stdout.toString('utf8');
}

/** The work tree holding cwd; null outside one (no repository, or a bare one). */
async function locate(cwd: string): Promise<WorkTree | null> {
  // One process: on an unborn branch --verify prints the paths and fails quietly on HEAD alone.
  const r = await run(cwd, [
    'rev-parse',
    '--path-format=absolute',
    '--show-toplevel',
    '--git-dir',
    '--git-common-dir',
    '--git-path',
    'index',
    '--verify',
    '-q',
    'HEAD^{commit}',
  ]);
  if (/dubious ownership/i.test(r.stderr)) throw new UnsafeRepositoryError(cwd);
  const [root, gitDir, commonDir, index, head] = r.stdout.toString('utf8').trim().split('\n');
  if (!root || !gitDir || !commonDir || !index) return null;
  const prefix = gitDir === commonDir ? `${CHECKPOINT_PREFIX}/` : `${CHECKPOINT_PREFIX}/worktrees/${basename(gitDir)}/`;
  return { root, gitDir, index, prefix, head: r.code === 0 && head ? head : null };
}

async function need(cwd: string): Promise<WorkTree> {
  const wt = await locate(cwd);
  if (!wt) throw await noWorkTreeError({ cwd });
  return wt;
}

/** Temp indexes: `forge-index-<pid>-<hex>`, so one left by a killed process can be told from one in use. */
const TEMP_INDEX = /^forge-index-(\d+)-[0-9a-f]+(\.lock)?$/;
/** The name before the pid was in it: removed once older than any checkpoint takes. */
const OLD_TEMP_INDEX = /^forge-index-[0-9a-f]{12}(\.lock)?$/;
const OLD_TEMP_INDEX_MS = 60 * 60 * 1000;

/** Removes the temp indexes (and their locks) of forge processes that died holding one. */
async function removeDeadIndexes(gitDir: string): Promise<void> {
  const names = await readdir(gitDir).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const m = TEMP_INDEX.exec(name);
      const dead = m
        ? Number(m[1]) !== process.pid && !processAlive(Number(m[1]))
        : OLD_TEMP_INDEX.test(name) &&
          (await lstat(join(gitDir, name)).then(
            (s) => Date.now() - s.mtimeMs > OLD_TEMP_INDEX_MS,
            () => false,
          ));
      if (dead) await rm(join(gitDir, name), { force: true });
    }),
  );
}

/**
 * Runs fn with a throwaway index in the git dir (removed after, and by the next call if this
 * process is killed first). It starts as a copy of the real index — its stat cache lets `git add
 * -A` hash only the files that changed, and it keeps what the user force-added or marked
 * skip-worktree — or as HEAD's tree when there is no index yet. The real index is only read.
 */
async function withTempIndex<T>(wt: WorkTree, fn: (env: Record<string, string>) => Promise<T>): Promise<T> {
  await removeDeadIndexes(wt.gitDir);
  const file = join(wt.gitDir, `forge-index-${process.pid}-${randomHex()}`);
  const env = { GIT_INDEX_FILE: file };
  try {
    try {
      await copyFile(wt.index, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      if (wt.head) await must(wt.root, ['read-tree', wt.head], env);
    }
    return await fn(env);
  } finally {
    await rm(file, { force: true });
    await rm(`${file}.lock`, { force: true });
  }
}

/** The work tree as `git add -A` sees it (untracked included, ignored left out), written as a tree. */
async function snapshot(wt: WorkTree, env: Record<string, string>): Promise<string> {
  await must(wt.root, ['add', '-A'], env);
  return (await must(wt.root, ['write-tree'], env)).trim();
}

function count(nulSeparated: string): number {
  return nulSeparated.split('\0').filter(Boolean).length;
}

/** Sortable, readable ids in UTC: 20260522-101530-123. */
function formatId(ms: number): string {
  const d = new Date(ms).toISOString();
  return `${d.slice(0, 4)}${d.slice(5, 7)}${d.slice(8, 10)}-${d.slice(11, 13)}${d.slice(14, 16)}${d.slice(17, 19)}-${d.slice(20, 23)}`;
}

function parseId(id: string): number {
  return Date.parse(
    `${id.slice(0, 4)}-${id.slice(4, 6)}-${id.slice(6, 8)}T${id.slice(9, 11)}:${id.slice(11, 13)}:${id.slice(13, 15)}.${id.slice(16, 19)}Z`,
  );
}

/** `forge: checkpoint before "…"` — one line, quotes kept readable. */
export function checkpointSubject(summary: string | undefined): string {
  const line = (summary ?? '').replace(/\s+/g, ' ').trim();
  if (!line) return 'forge: checkpoint';
  return `forge: checkpoint before "${line.length > 100 ? `${line.slice(0, 99)}…` : line}"`;
}

/** Commits a snapshot tree held in the temp index as a checkpoint, on a new ref; prunes old ones. */
async function commitCheckpoint({
  wt,
  env,
  tree,
  kind,
  subject,
  now,
}: {
  wt: WorkTree;
  env: Record<string, string>;
  tree: string;
  kind: CheckpointKind;
  subject: string;
  now: Date;
}): Promise<Checkpoint> {
  // Independent reads run side by side: each git process costs ~10 ms to start.
  const [listed, changed, refs] = await Promise.all([
    must(wt.root, ['ls-files', '-z'], env),
    wt.head ? must(wt.root, ['diff-index', '--cached', '--name-only', '--no-renames', '-z', wt.head], env) : null,
    checkpointRefs(wt),
  ]);
  const files = count(listed);
  const uncommitted = changed === null ? files : count(changed);
  const seconds = Math.floor(now.getTime() / 1000);
  const message = `${subject}\n\nForge-Kind: ${kind}\nForge-Files: ${files}\nForge-Uncommitted: ${uncommitted}\n`;
  const date = `@${seconds} +0000`;
  const oid = (
    await must(
      wt.root,
      ['commit-tree', tree, ...(wt.head ? ['-p', wt.head] : []), '-F', '-'],
      { ...IDENTITY, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
      message,
    )
  ).trim();
  // Ids only grow, so name order is creation order even when the clock steps back or two
  // checkpoints share a millisecond; creating with an all-zero old value makes a clash fail, not overwrite.
  let ms = Math.max(now.getTime(), refs[0] ? parseId(refs[0].id) + 1 : 0);
  let ref = '';
  for (let attempt = 0; ; attempt++, ms++) {
    ref = `${wt.prefix}${formatId(ms)}`;
    const r = await run(wt.root, ['update-ref', '-m', subject, ref, oid, '0'.repeat(oid.length)]);
    if (r.code === 0) break;
    if (attempt >= 20)
      throw new ForgeError('GIT_FAILED', `could not create ${ref}: ${r.stderr.trim()}`, {
        fix: `git for-each-ref ${wt.prefix}`,
      });
  }
  // Best effort: a ref another writer moved meanwhile makes the whole deletion fail, and is pruned next time.
  const old = refs.slice(CHECKPOINT_LIMIT - 1);
  if (old.length) await run(wt.root, ['update-ref', '--stdin'], {}, old.map((r) => `delete ${r.ref} ${r.oid}\n`).join(''));
  return {
    n: kind === 'undo' ? null : 1,
    ref,
    oid,
    tree,
    head: wt.head,
    kind,
    message: subject,
    createdAt: new Date(seconds * 1000).toISOString(),
    files,
    uncommitted,
  };
}

/** This worktree's checkpoint refs, newest first. */
async function checkpointRefs(wt: WorkTree): Promise<Array<{ ref: string; id: string; oid: string }>> {
  const out = await must(wt.root, ['for-each-ref', '--sort=-refname', '--format=%(refname) %(objectname)', wt.prefix]);
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [ref, oid] = line.split(' ');
      return { ref: ref!, id: ref!.slice(wt.prefix.length), oid: oid! };
    })
    .filter((r) => ID.test(r.id));
}

/**
 * Snapshots the work tree — staged, unstaged and untracked files; ignored ones left out — as a
 * commit parented on HEAD, on a new ref under refs/forge/checkpoints. HEAD, the index, branches and
 * the work tree are untouched. `message` says what is about to happen (a task's summary); the
 * commit subject is `forge: checkpoint before "<message>"`. Null outside a git work tree: projects
 * without git simply get no checkpoints.
 */
export async function createCheckpoint({
  cwd,
  message,
  kind = 'task',
  now = new Date(),
}: {
  cwd: string;
  message?: string;
  kind?: CheckpointKind;
  now?: Date;
}): Promise<Checkpoint | null> {
  const wt = await locate(cwd);
  if (!wt) return null;
  return withTempIndex(wt, async (env) =>
    commitCheckpoint({ wt, env, tree: await snapshot(wt, env), kind, subject: checkpointSubject(message), now }),
  );
}

/** This worktree's checkpoints, newest first, numbered as `forge undo N` counts them. */
export async function listCheckpoints({ cwd }: { cwd: string }): Promise<Checkpoint[]> {
  const wt = await need(cwd);
  return readCheckpoints(wt);
}

async function readCheckpoints(wt: WorkTree): Promise<Checkpoint[]> {
  const format =
    ['%(refname)', '%(objectname)', '%(tree)', '%(parent)', '%(committerdate:iso-strict)', '%(subject)', '%(contents:body)'].join('%00') +
    '%01';
  const out = await must(wt.root, ['for-each-ref', '--sort=-refname', `--format=${format}`, wt.prefix]);
  const list: Checkpoint[] = [];
  let n = 0;
  for (const record of out.split('\x01')) {
    const [ref, oid, tree, parent, date, subject, body] = record.replace(/^\n/, '').split('\0');
    if (!ref || !oid || !ID.test(ref.slice(wt.prefix.length))) continue;
    const trailer = (key: string) => new RegExp(`^Forge-${key}: *(.+)$`, 'm').exec(body ?? '')?.[1]?.trim();
    const kindText = trailer('Kind') as CheckpointKind | undefined;
    const kind: CheckpointKind = kindText && KINDS.includes(kindText) ? kindText : 'manual';
    list.push({
      n: kind === 'undo' ? null : ++n,
      ref,
      oid,
      tree: tree!,
      head: parent?.split(' ')[0] || null,
      kind,
      message: subject ?? '',
      createdAt: new Date(date!).toISOString(),
      files: Number(trailer('Files') ?? 0),
      uncommitted: Number(trailer('Uncommitted') ?? 0),
    });
  }
  return list;
}

/** Checkpoint n (1 = newest numbered), or the one on `ref`; NO_CHECKPOINT / NO_SUCH_CHECKPOINT otherwise. */
async function pick(wt: WorkTree, { n, ref }: { n?: number; ref?: string }): Promise<Checkpoint> {
  const all = await readCheckpoints(wt);
  if (ref !== undefined) {
    const hit = all.find((c) => c.ref === ref || c.ref === `${wt.prefix}${ref}`);
    if (!hit) throw new InvalidInputError('NO_SUCH_CHECKPOINT', `no checkpoint '${ref}'`, { fix: 'forge undo --list' });
    return hit;
  }
  const numbered = all.filter((c) => c.n !== null);
  if (!numbered.length) throw new RefusedError('NO_CHECKPOINT', 'no checkpoint yet: nothing to go back to', { fix: 'forge checkpoint' });
  const want = n ?? 1;
  if (!Number.isInteger(want) || want < 1)
    throw new InvalidInputError('INVALID_ARGUMENT', `checkpoint numbers start at 1, got ${want}`, { fix: 'forge undo --list' });
  const hit = numbered[want - 1];
  if (!hit)
    throw new InvalidInputError(
      'NO_SUCH_CHECKPOINT',
      `there is no checkpoint ${want}: there ${numbered.length === 1 ? 'is 1' : `are ${numbered.length}`}`,
      { fix: 'forge undo --list' },
    );
  return hit;
}

/** `git diff-tree --name-status` between two trees, as restore sees it. */
async function treeChanges(wt: WorkTree, from: string, to: string, filter?: string): Promise<Array<Pick<FileChange, 'path' | 'status'>>> {
  const out = await must(wt.root, [
    'diff-tree',
    '-r',
    '-z',
    '--no-renames',
    '--name-status',
    ...(filter ? [`--diff-filter=${filter}`] : []),
    from,
    to,
  ]);
  const parts = out.split('\0');
  const changes: Array<Pick<FileChange, 'path' | 'status'>> = [];
  for (let i = 0; i + 1 < parts.length; i += 2) changes.push({ path: parts[i + 1]!, status: STATUS[parts[i]![0]!] ?? 'modified' });
  return changes;
}

const STATUS: Record<string, FileChange['status']> = { A: 'added', D: 'deleted', M: 'modified', T: 'type-changed' };

async function exists(path: string): Promise<boolean> {
  return (await entryKind(path)) !== 'none';
}

async function entryKind(path: string): Promise<'none' | 'dir' | 'other'> {
  try {
    return (await lstat(path)).isDirectory() ? 'dir' : 'other';
  } catch {
    return 'none';
  }
}

/**
 * Adds to the temp index (so to `current`) the ignored files where `tree` puts a file or a
 * directory: read-tree may then overwrite them, and a copy saved from `current` keeps them.
 */
async function trackInTheWay(wt: WorkTree, env: Record<string, string>, current: string, tree: string): Promise<string> {
  const inTheWay = new Set<string>();
  for (const c of await treeChanges(wt, current, tree, 'A')) {
    const parts = c.path.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const path = parts.slice(0, i).join('/');
      const kind = await entryKind(join(wt.root, path));
      if (kind === 'none') break;
      if (i === parts.length || kind === 'other') {
        inTheWay.add(path);
        break;
      }
    }
  }
  if (!inTheWay.size) return current;
  await must(
    wt.root,
    ['add', '-f', '--pathspec-from-file=-', '--pathspec-file-nul'],
    { ...env, GIT_LITERAL_PATHSPECS: '1' },
    [...inTheWay].join('\0'),
  );
  return (await must(wt.root, ['write-tree'], env)).trim();
}

/** Per-file line counts and statuses of two trees (renames off: what undo would do, file by file). */
async function fileChanges(wt: WorkTree, from: string, to: string): Promise<FileChange[]> {
  const statuses = new Map((await treeChanges(wt, from, to)).map((c) => [c.path, c.status]));
  const out = await must(wt.root, ['diff', '--numstat', '-z', '--no-renames', '--no-ext-diff', from, to]);
  const files: FileChange[] = [];
  for (const rec of out.split('\0')) {
    const m = /^(-|\d+)\t(-|\d+)\t([\s\S]+)$/.exec(rec.replace(/^\n/, ''));
    if (!m) continue;
    const path = m[3]!;
    files.push({
      path,
      status: statuses.get(path) ?? 'modified',
      insertions: m[1] === '-' ? null : Number(m[1]),
      deletions: m[2] === '-' ? null : Number(m[2]),
    });
  }
  return files;
}

/**
 * The changes of the work tree (untracked files included) since checkpoint n (1 = newest
 * numbered) — what `forge undo n` would take back — as git's patch or --stat and per file.
 */
export async function diffSinceCheckpoint({ cwd, stat = false, n }: { cwd: string; stat?: boolean; n?: number }): Promise<DiffResult> {
  const wt = await need(cwd);
  const checkpoint = await pick(wt, { n });
  const current = await withTempIndex(wt, (env) => snapshot(wt, env));
  const files = await fileChanges(wt, checkpoint.tree, current);
  const text = files.length
    ? await must(wt.root, [
        'diff',
        '--no-color',
        '--no-ext-diff',
        '--no-renames',
        '--src-prefix=a/',
        '--dst-prefix=b/',
        ...(stat ? ['--stat'] : []),
        checkpoint.tree,
        current,
      ])
    : '';
  return {
    checkpoint,
    files,
    insertions: files.reduce((s, f) => s + (f.insertions ?? 0), 0),
    deletions: files.reduce((s, f) => s + (f.deletions ?? 0), 0),
    text,
  };
}

/**
 * The files that differ between `base` (a checkpoint or any commit) and the work tree, untracked
 * files included; the paths are relative to the top of the work tree, which is returned as root.
 */
export async function workTreeChanges({ cwd, base }: { cwd: string; base: string }): Promise<{ root: string; files: FileChange[] }> {
  const wt = await need(cwd);
  const r = await run(wt.root, ['rev-parse', '-q', '--verify', `${base}^{tree}`]);
  if (r.code !== 0) throw new InvalidInputError('BAD_REVISION', `'${base}' is not a commit or tree`, { fix: 'forge undo --list' });
  const current = await withTempIndex(wt, (env) => snapshot(wt, env));
  return { root: wt.root, files: await fileChanges(wt, r.stdout.toString('utf8').trim(), current) };
}

/** Operations in progress that a commit would interfere with. */
const BUSY = ['MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'rebase-merge', 'rebase-apply', 'BISECT_LOG'];

/**
 * Opt-in: commits everything (`git add -A && git commit`) on the current branch with the user's
 * identity and hooks. Unlike checkpoints this does touch the branch and the index: call it only
 * when the user configured auto-commit. The new commit's oid, or null when there was nothing to
 * commit or no git work tree. Refused (GIT_BUSY) during a merge, rebase, cherry-pick or bisect.
 */
export async function autoCommit({ cwd, message }: { cwd: string; message: string }): Promise<string | null> {
  const wt = await locate(cwd);
  if (!wt) return null;
  const paths = (await must(wt.root, ['rev-parse', '--path-format=absolute', ...BUSY.flatMap((b) => ['--git-path', b])]))
    .trim()
    .split('\n');
  for (const [i, path] of paths.entries()) {
    if (await exists(path))
      throw new RefusedError('GIT_BUSY', `not committing: a git operation is in progress (${BUSY[i]} exists)`, { fix: 'git status' });
  }
  await must(wt.root, ['add', '-A']);
  const staged = await run(wt.root, ['diff', '--cached', '--quiet', '--no-ext-diff']);
  if (staged.code === 0) return null;
  const r = await runGit({ cwd: wt.root, args: ['commit', '-q', '-F', '-'], input: message.endsWith('\n') ? message : `${message}\n` });
  if (r.code !== 0)
    throw new ForgeError('AUTO_COMMIT_FAILED', `git commit failed: ${r.stderr.trim() || r.stdout.toString('utf8').trim()}`, {
      fix: 'git status',
    });
  return (await must(wt.root, ['rev-parse', 'HEAD'])).trim();
}

/** What restoring a checkpoint (lib/checkpoints/undo.ts) builds on: the work tree, its checkpoints, a temp index and git in it. */
export {
  commitCheckpoint,
  need as workTreeOf,
  pick as pickCheckpoint,
  run as gitIn,
  snapshot as snapshotTree,
  trackInTheWay,
  treeChanges,
  withTempIndex,
  type WorkTree,
};
