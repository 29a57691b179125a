// Throwaway linked worktrees for plan steps that run at once: made from a checkpoint, their changes taken as one patch, applied to the work tree in step order, then removed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ForgeError } from '../errors';
import { processAlive } from '../process/alive';
import { gitEnv, runGit } from './exec';

/** Starts the lock reason of every worktree forge makes; the pid after it tells a live run's worktree from a crashed one's. */
const LOCK_REASON = 'forge agent plan step, pid ';

/** What a worktree holds after a step: its changes against the base as a binary patch, and the paths it touched. */
export interface WorktreeChanges {
  patch: Buffer;
  files: string[];
}

async function must(cwd: string, args: string[], input?: Buffer): Promise<Buffer> {
  const r = await runGit({ cwd, args, ...(input === undefined ? {} : { input }) });
  if (r.code !== 0)
    throw new ForgeError('GIT_FAILED', `git ${args[0]} failed: ${r.stderr.trim() || `exit ${r.code}`}`, { fix: 'git worktree list' });
  return r.stdout;
}

/**
 * A detached worktree of `base` (a checkpoint commit: the work tree as it was, untracked files
 * included) in a new temporary directory, locked with this process's id so a later run can tell
 * it was left behind.
 */
export async function addWorktree({ cwd, base, pid }: { cwd: string; base: string; pid: number }): Promise<string> {
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), 'forge-step-'));
  } catch (err) {
    throw new ForgeError('GIT_FAILED', `cannot make a directory for a worktree in '${tmpdir()}': ${(err as Error).message}`, {
      fix: 'git worktree list',
    });
  }
  await must(cwd, ['worktree', 'add', '--quiet', '--detach', '--lock', '--reason', `${LOCK_REASON}${pid}`, dir, base]);
  return dir;
}

/**
 * Links the work tree's ignored top-level entries (node_modules, target, .venv, .env…) into the
 * worktree, so a step's checks find what they find in the work tree; returns their names, which
 * worktreeChanges leaves out. A tool call cannot write through them: file tools refuse symlinks
 * that lead outside the worktree.
 */
export async function linkIgnored({ root, dir }: { root: string; dir: string }): Promise<string[]> {
  const r = await runGit({ cwd: root, args: ['ls-files', '--others', '--ignored', '--exclude-standard', '--directory', '-z'] });
  if (r.code !== 0) return [];
  const names = [
    ...new Set(
      r.stdout
        .toString('utf8')
        .split('\0')
        .map((p) => p.replace(/\/$/, ''))
        .filter((p) => p && !p.includes('/')),
    ),
  ];
  const linked: string[] = [];
  for (const name of names) {
    if (existsSync(join(dir, name))) continue;
    symlinkSync(join(root, name), join(dir, name));
    linked.push(name);
  }
  return linked;
}

/** The worktree's changes since `base` (untracked files included, ignored ones and the `linked` entries not), without touching the main index. */
export async function worktreeChanges({
  dir,
  base,
  linked = [],
}: {
  dir: string;
  base: string;
  linked?: string[];
}): Promise<WorktreeChanges> {
  await must(dir, ['add', '-A', '--', '.', ...linked.map((name) => `:(top,exclude,literal)${name}`)]);
  const names = (await must(dir, ['diff', '--cached', '--name-only', '-z', '--no-renames', base])).toString('utf8');
  const files = names.split('\0').filter(Boolean);
  const patch = files.length ? await must(dir, ['diff', '--cached', '--binary', '--full-index', '--no-renames', base]) : Buffer.alloc(0);
  return { patch, files };
}

/**
 * Applies a worktree's patch to the work tree at `root` (not the index): all of it or, when it does
 * not apply (another step changed the same lines), none of it, with git's reason.
 */
export async function applyChanges({
  root,
  patch,
}: {
  root: string;
  patch: Buffer;
}): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (!patch.length) return { ok: true };
  const r = await runGit({ cwd: root, args: ['apply', '--binary', '--whitespace=nowarn', '-'], input: patch });
  return r.code === 0
    ? { ok: true }
    : { ok: false, reason: r.stderr.trim().split('\n').slice(0, 3).join('; ') || `git apply exited ${r.code}` };
}

/** Removes a worktree forge made (its directory and git's record of it); a missing one is already gone. */
export async function removeWorktree({ cwd, dir }: { cwd: string; dir: string }): Promise<void> {
  await runGit({ cwd, args: ['worktree', 'remove', '--force', '--force', dir] });
  await rm(dir, { recursive: true, force: true });
  await runGit({ cwd, args: ['worktree', 'prune'] });
}

/** The same, synchronously: what a signal handler can still do before the process ends. */
function removeWorktreesNow(cwd: string, dirs: string[]): void {
  for (const dir of dirs) {
    try {
      execFileSync('git', ['worktree', 'remove', '--force', '--force', dir], { cwd, env: gitEnv(), stdio: 'ignore' });
    } catch {
      // Removed below or already gone.
    }
  }
  try {
    execFileSync('git', ['worktree', 'prune'], { cwd, env: gitEnv(), stdio: 'ignore' });
  } catch {
    // Nothing more can be done on the way out; the next run prunes what is left.
  }
}

/**
 * Removes the worktrees if the process is interrupted (Ctrl-C, SIGTERM, SIGHUP) while they exist, then
 * lets the signal end the process as it would have; the returned function stops watching.
 */
export function removeOnSignal({ cwd, dirs }: { cwd: string; dirs: () => string[] }): () => void {
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const handler = (signal: NodeJS.Signals) => {
    stop();
    removeWorktreesNow(cwd, dirs());
    process.kill(process.pid, signal);
  };
  const stop = () => {
    for (const s of signals) process.off(s, handler);
  };
  for (const s of signals) process.once(s, handler);
  return stop;
}

/** Removes worktrees an earlier forge left behind (killed before it could): locked by forge, by a process that no longer runs. */
export async function pruneStaleWorktrees({ cwd }: { cwd: string }): Promise<string[]> {
  const list = (await runGit({ cwd, args: ['worktree', 'list', '--porcelain', '-z'] })).stdout.toString('utf8');
  const stale: string[] = [];
  for (const entry of list.split('\0\0')) {
    const fields = entry.split('\0');
    const dir = fields.find((f) => f.startsWith('worktree '))?.slice('worktree '.length);
    const lock = fields.find((f) => f.startsWith(`locked ${LOCK_REASON}`));
    const pid = lock ? Number(lock.slice(`locked ${LOCK_REASON}`.length)) : Number.NaN;
    if (dir && Number.isInteger(pid) && pid > 0 && !processAlive(pid)) stale.push(dir);
  }
  for (const dir of stale) await removeWorktree({ cwd, dir });
  return stale;
}
