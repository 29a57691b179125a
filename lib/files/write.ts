// Atomic file writes (temp file + rename, keeping the old mode) and the `forge write` rules.
import { chmod, mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { InvalidInputError, RefusedError } from '../errors';
import { shellJoin } from '../quote';
import { randomHex } from '../random';
import { resolveInside, statTarget, type Workspace } from './workspace';

/** Replaces `abs` in one rename, so readers see the old file or the new one, never half of one. */
export async function atomicWrite(abs: string, data: Buffer | string): Promise<void> {
  await mkdir(dirname(abs), { recursive: true });
  const mode = await stat(abs).then((s) => s.mode & 0o7777, () => null);
  const tmp = join(dirname(abs), `.${basename(abs)}.forge-${randomHex()}.tmp`);
  try {
    await writeFile(tmp, data);
    if (mode !== null) await chmod(tmp, mode);
    await rename(tmp, abs);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
}

export interface WriteResult {
  path: string;
  created: boolean;
  bytes: number;
  lines: number;
}

export async function writeWhole({ ws, path, content, overwrite }: { ws: Workspace; path: string; content: string | undefined; overwrite: boolean }): Promise<WriteResult> {
  const { abs, display } = await resolveInside({ ws, path });
  if (content === undefined) {
    throw new InvalidInputError('MISSING_ARGUMENT', 'no content: pass --content TEXT or pipe the content on stdin', { fix: shellJoin(['forge', 'write', '--help']) });
  }
  const existing = await statTarget({ abs, display });
  if (existing?.isDirectory()) throw new InvalidInputError('IS_A_DIRECTORY', `'${display}' is a directory`, { fix: shellJoin(['forge', 'ls', `${display}/**`]) });
  if (existing && !overwrite) {
    throw new RefusedError('FILE_EXISTS', `'${display}' exists; pass --overwrite to replace it, or edit it instead`, { fix: shellJoin(['forge', 'read', display]), data: { path: display } });
  }
  await atomicWrite(abs, content);
  const lines = content === '' ? 0 : content.split(/\r\n|\n|\r/).length - (/(\r\n|\n|\r)$/.test(content) ? 1 : 0);
  return { path: display, created: !existing, bytes: Buffer.byteLength(content), lines };
}
