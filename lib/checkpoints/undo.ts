// Restoring a checkpoint (forge undo): the work tree made equal to it through git's checkout machinery, with a marker that lets a killed undo be finished by the next one.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ForgeError, RefusedError } from '../errors';
import {
  type Checkpoint,
  commitCheckpoint,
  type FileChange,
  gitIn,
  pickCheckpoint,
  type RestoreResult,
  type ResumedUndo,
  snapshotTree,
  trackInTheWay,
  treeChanges,
  withTempIndex,
  type WorkTree,
  workTreeOf,
} from '../git/checkpoint';
import { processAlive } from '../process/alive';
import { checkJson } from '../state/read';
import * as validators from '../state/validators.gen';

export type { Checkpoint, RestoreResult };

/**
 * An undo under way, in this worktree's git dir: written once the tree it replaces is saved and
 * before the first file is restored, removed once the last one is. Found by a later restore, it
 * means the work tree is half restored: that restore finishes it first, without saving the half
 * tree (the copy saved before the interrupted attempt stays the one --redo puts back).
 */
export interface UndoMarker {
  pid: number;
  /** The checkpoint being restored, and its tree. */
  target: string;
  tree: string;
  /** The undo copy of the tree it replaces. */
  saved: string;
}

function markerPath(wt: WorkTree): string {
  return join(wt.gitDir, 'forge', 'undo-in-progress.json');
}

/** Makes the work tree `tree` from the snapshot `current` in the temp index: git's own checkout machinery, only differing files written. */
async function checkout(
  wt: WorkTree,
  env: Record<string, string>,
  current: string,
  tree: string,
  what: string,
  saved: string,
): Promise<Array<Pick<FileChange, 'path' | 'status'>>> {
  const changes = await treeChanges(wt, current, tree);
  const r = await gitIn(wt.root, ['read-tree', '-m', '-u', current, tree], env);
  if (r.code !== 0) {
    throw new ForgeError('RESTORE_FAILED', `could not restore ${what}: ${r.stderr.trim()}; the work tree before it is saved as ${saved}`, {
      fix: `git diff --stat ${saved}`,
      data: { saved },
    });
  }
  return changes;
}

/** Finishes an undo a killed process left half done (see UndoMarker); null when there is none. */
async function finishInterruptedUndo(wt: WorkTree): Promise<ResumedUndo | null> {
  const file = markerPath(wt);
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (text === null) return null;
  const checked = checkJson({ text, file: validators.undoMarker });
  if (!checked.ok) {
    // Cut short while being written, so before the first file was restored: there is nothing to finish.
    // Or not forge's: its tree and refs would become git's arguments.
    await rm(file, { force: true });
    return null;
  }
  const marker = checked.value;
  if (marker.pid !== process.pid && processAlive(marker.pid)) {
    throw new RefusedError(
      'UNDO_IN_PROGRESS',
      `another forge undo (process ${marker.pid}) is restoring the work tree to '${marker.target}'`,
      { fix: 'forge undo --list', data: { pid: marker.pid } },
    );
  }
  const changes = await withTempIndex(wt, async (env) => {
    const current = await trackInTheWay(wt, env, await snapshotTree(wt, env), marker.tree);
    return current === marker.tree ? [] : checkout(wt, env, current, marker.tree, `'${marker.target}'`, marker.saved);
  });
  await rm(file, { force: true });
  return { target: marker.target, saved: marker.saved, changes };
}

/**
 * Makes the work tree equal to checkpoint n (1 = newest numbered) or to the checkpoint on `ref`:
 * its tracked and untracked files as they were, files made since removed, ignored files left
 * alone. The tree it replaces is first saved as a checkpoint of kind 'undo' (returned as `saved`),
 * so a restore loses nothing; an ignored file the checkpoint would overwrite goes into that copy
 * too. Through a temporary index and `git read-tree -m -u` — git's own checkout machinery — so
 * only the files that differ are written, and HEAD, the index and branches are untouched. An undo
 * a killed process left half done is finished first (returned as `resumed`). `onStep(n, total)`
 * runs after each step (saved, marked, restored, unmarked): the test crash hook kills there.
 */
export async function restoreCheckpoint({
  cwd,
  n,
  ref,
  now = new Date(),
  onStep,
}: {
  cwd: string;
  n?: number;
  ref?: string;
  now?: Date;
  onStep?: (step: number, total: number) => void;
}): Promise<RestoreResult> {
  const wt = await workTreeOf(cwd);
  const target = await pickCheckpoint(wt, { n, ref });
  const resumed = await finishInterruptedUndo(wt);
  return withTempIndex(wt, async (env) => {
    let current = await snapshotTree(wt, env);
    if (current === target.tree) return { checkpoint: target, saved: null, changes: [], resumed };
    current = await trackInTheWay(wt, env, current, target.tree);
    // Ids, not numbers, name the target: numbers move on as checkpoints are made, ids never do.
    const id = target.ref.slice(wt.prefix.length);
    const label = target.n === null ? `undo copy ${id}` : `checkpoint ${target.n}`;
    const subject =
      target.n === null ? `forge: work tree before redo to undo copy ${id}` : `forge: work tree before undo to checkpoint ${id}`;
    const saved = await commitCheckpoint({ wt, env, tree: current, kind: 'undo', subject, now });
    onStep?.(1, 4);
    const marker: UndoMarker = { pid: process.pid, target: target.ref, tree: target.tree, saved: saved.ref };
    await mkdir(dirname(markerPath(wt)), { recursive: true });
    await writeFile(markerPath(wt), JSON.stringify(marker));
    onStep?.(2, 4);
    // A failure leaves the marker: the next restore finishes this one rather than saving a half-restored tree.
    const changes = await checkout(wt, env, current, target.tree, label, saved.ref);
    onStep?.(3, 4);
    await rm(markerPath(wt), { force: true });
    onStep?.(4, 4);
    return { checkpoint: target, saved, changes, resumed };
  });
}

// The undo marker is a state file of this module's, registered with the state layer's kinds (lib/state/read.ts).
declare module '../state/read' {
  interface StateKinds {
    undoMarker: UndoMarker;
  }
}
