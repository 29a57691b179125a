// Atomic file writes (temp file + rename, keeping the old mode) and the `forge write` rules.
import { rename, unlink } from 'node:fs/promises';
import { InvalidInputError, RefusedError } from '../errors';
import { shellJoin } from '../quote';
import { countBreaks } from './text';
import { commitChanges, tempPathFor, writeTemp, type FileData, type StepHook } from './journal';
import { resolveInside, statTarget, type Workspace } from './workspace';

/**
 * Replaces `abs` in one rename, so readers see the old file or the new one, never half of one. A
 * process killed meanwhile leaves its temp file: the file tools write through commitChanges, whose
 * journal lets the next command remove it.
 */
export async function atomicWrite(abs: string, data: FileData): Promise<void> {
  const temp = tempPathFor(abs);
  try {
    await writeTemp({ abs, temp, data });
    await rename(temp, abs);
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  }
}

/**
 * Writes a file of the workspace as atomicWrite does, with its temp file named in a journal: a
 * process killed at any instant leaves no temp file once the next forge file command has run.
 */
export async function replaceFile({
  ws,
  abs,
  data,
  onStep,
}: {
  ws: Workspace;
  abs: string;
  data: FileData;
  onStep?: StepHook;
}): Promise<void> {
  await commitChanges({ root: ws.journalRoot, changes: [{ abs, data }], onStep });
}

export interface WriteResult {
  path: string;
  created: boolean;
  bytes: number;
  lines: number;
}

export async function writeWhole({
  ws,
  path,
  content,
  overwrite,
}: {
  ws: Workspace;
  path: string;
  content: string | undefined;
  overwrite: boolean;
}): Promise<WriteResult> {
  const { abs, display } = await resolveInside({ ws, path });
  if (content === undefined) {
    throw new InvalidInputError('MISSING_ARGUMENT', 'no content: pass --content TEXT or pipe the content on stdin', {
      fix: shellJoin(['forge', 'write', '--help']),
    });
  }
  const existing = await statTarget({ abs, display });
  if (existing?.isDirectory())
    throw new InvalidInputError('IS_A_DIRECTORY', `'${display}' is a directory`, { fix: shellJoin(['forge', 'ls', `${display}/**`]) });
  if (existing && !overwrite) {
    throw new RefusedError('FILE_EXISTS', `'${display}' exists; pass --overwrite to replace it, or edit it instead`, {
      fix: shellJoin(['forge', 'read', display]),
      data: { path: display },
    });
  }
  await replaceFile({ ws, abs, data: content });
  const lines = content === '' ? 0 : countBreaks(content) + (/[\r\n]$/.test(content) ? 0 : 1);
  return { path: display, created: !existing, bytes: Buffer.byteLength(content), lines };
}
