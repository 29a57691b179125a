// All-or-nothing writes across files: originals are journaled before the first write, restored on
// failure, and a crash part-way is rolled back by the next forge file command.
import { mkdir, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomHex } from '../random';
import { atomicWrite } from './write';

export interface FileChange {
  /** Write `data` here (null: nothing to write). */
  abs: string | null;
  data: Buffer | null;
  /** Remove this file (a delete, or the old name of a move). */
  removeAbs?: string;
}

interface ManifestEntry {
  path: string;
  /** The file's original bytes are in this journal file; null: it did not exist. */
  backup: string | null;
}

async function restore(dir: string): Promise<void> {
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as ManifestEntry[];
  for (const e of manifest) {
    if (e.backup) await atomicWrite(e.path, await readFile(join(dir, e.backup)));
    else await unlink(e.path).catch(() => {});
  }
}

/** Whether the process that wrote a journal is still running (then its change is in flight, not crashed). */
function ownerAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Rolls back every change set under `root` whose process died part-way; returns how many. A
 * journal whose owner still runs is another forge command at work and is left alone.
 */
export async function recoverJournals({ root }: { root: string }): Promise<number> {
  const dirs = await readdir(root).catch(() => [] as string[]);
  let n = 0;
  for (const name of dirs) {
    const dir = join(root, name);
    const pid = Number(/^\d+-(\d+)-/.exec(name)?.[1]);
    if (pid && pid !== process.pid && ownerAlive(pid)) continue;
    // Without a manifest nothing was written yet: the journal is just dropped.
    const hasManifest = await readFile(join(dir, 'manifest.json')).then(() => true, () => false);
    if (hasManifest) {
      await restore(dir);
      n++;
    }
    await rm(dir, { recursive: true, force: true });
  }
  return n;
}

/**
 * Applies the changes as one unit: the originals of every touched path are saved first; if any
 * write fails, all are restored and the error rethrown. `afterWrite` runs after each file (tests
 * use it to die part-way).
 */
export async function commitChanges({ root, changes, afterWrite }: { root: string; changes: FileChange[]; afterWrite?: (written: number) => void }): Promise<void> {
  // The owner's pid is in the name, so a concurrent command can tell in-flight from crashed.
  const dir = join(root, `${Date.now()}-${process.pid}-${randomHex()}`);
  await mkdir(dir, { recursive: true });
  const paths = [...new Set(changes.flatMap((c) => [c.abs, c.removeAbs]).filter((p): p is string => !!p))];
  const manifest: ManifestEntry[] = [];
  for (const [i, path] of paths.entries()) {
    const original = await readFile(path).catch(() => null);
    if (original) await writeFile(join(dir, `${i}.orig`), original);
    manifest.push({ path, backup: original ? `${i}.orig` : null });
  }
  await atomicWrite(join(dir, 'manifest.json'), JSON.stringify(manifest));
  let written = 0;
  try {
    for (const c of changes) {
      if (c.abs && c.data) await atomicWrite(c.abs, c.data);
      if (c.removeAbs) await unlink(c.removeAbs);
      afterWrite?.(++written);
    }
  } catch (err) {
    await restore(dir);
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  await rm(dir, { recursive: true, force: true });
}
