// Walks the state tree: list every file, show one, or export them all into a directory.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { InvalidInputError, RefusedError } from '../errors';
import type { StateStore } from '../git/state';

export interface StateFile {
  path: string;
  size: number;
}

/** Accepts `memory/project.jsonl`, `.forge/memory/project.jsonl` or `./.forge/…`; refuses escapes. */
export function statePath(input: string): string {
  const clean = input.replace(/^\.\//, '').replace(/\/+$/, '');
  const path = clean === '' || clean === '.forge' ? '.forge' : clean.startsWith('.forge/') ? clean : `.forge/${clean}`;
  if (path.split('/').some((s) => s === '..' || s === '')) {
    throw new InvalidInputError('INVALID_PATH', `invalid state path '${input}'`, { fix: 'forge state show' });
  }
  return path;
}

/** Every file under `dir` in the state at `commit`, depth first, sorted. */
export async function listFiles({ store, commit, dir }: { store: StateStore; commit: string; dir: string }): Promise<StateFile[]> {
  const out: StateFile[] = [];
  const entries = (await store.listAt(commit, dir)).sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const path = `${dir}/${e.name}`;
    if (e.mode === '40000') out.push(...(await listFiles({ store, commit, dir: path })));
    else out.push({ path, size: (await store.readAt(commit, path))?.length ?? 0 });
  }
  return out;
}

/** Writes the whole `.forge/` state tree under `target`; refuses a target that is not empty. */
export async function exportFiles({ store, target }: { store: StateStore; target: string }): Promise<StateFile[]> {
  const existing = await readdir(target).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    if (err.code === 'ENOTDIR')
      throw new RefusedError('EXPORT_TARGET_NOT_EMPTY', `'${target}' is a file, not a directory`, {
        fix: `forge state export ${target}.d`,
      });
    throw err;
  });
  if (existing.length) {
    throw new RefusedError('EXPORT_TARGET_NOT_EMPTY', `'${target}' is not empty; export writes into an empty or new directory`, {
      fix: `forge state export ${join(target, 'forge-state')}`,
    });
  }
  const head = await store.head();
  if (!head) return [];
  const files = await listFiles({ store, commit: head, dir: '.forge' });
  for (const f of files) {
    const dest = join(target, f.path);
    await mkdir(dirname(dest), { recursive: true });
    await writeFile(dest, (await store.readAt(head, f.path))!);
  }
  return files;
}
