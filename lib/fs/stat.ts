// Small questions about paths that must not throw: is this a regular file?
import { stat } from 'node:fs/promises';

/** True when anything is at the path (following symlinks). */
export async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** True for a regular file (following symlinks); false for anything else, or nothing there. */
export async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}
