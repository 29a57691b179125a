// Files pinned to every request of a task or session (--attach) and images sent with the task (--image), their paths checked as the file tools check them.
import { readFile, stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { ForgeError, InvalidInputError, RefusedError } from '../errors';
import { isBinary } from '../files/text';
import { locateWorkspace, resolveInside, statTarget, type Workspace } from '../files/workspace';
import type { ContentPart } from './chat-types';
import type { PinnedText } from './context';

/** A pinned file larger than this is refused: it would crowd every request out. */
export const PINNED_FILE_CAP = 64 * 1024;
/** An image larger than this is refused (OpenAI takes 20 MB, local models far less). */
export const IMAGE_CAP = 5 * 1024 * 1024;

/** The image types vision endpoints take, by their first bytes. */
const IMAGE_TYPES: Array<{ mime: string; test: (b: Buffer) => boolean }> = [
  { mime: 'image/png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { mime: 'image/jpeg', test: (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mime: 'image/gif', test: (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')) },
  { mime: 'image/webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
];

/** The image type of a file's bytes, or null. */
export function imageType(bytes: Buffer): string | null {
  return IMAGE_TYPES.find((t) => t.test(bytes))?.mime ?? null;
}

interface Checked {
  abs: string;
  /** Relative to the work tree's top, with '/': what a session keeps and the prompt shows. */
  path: string;
  bytes: number;
}

/** A path given to --attach or --image: inside the work tree, never git's own files, a regular file within `cap`. */
async function checkFile({
  ws,
  path,
  cap,
  flag,
  again,
}: {
  ws: Workspace;
  path: string;
  cap: number;
  flag: '--attach' | '--image';
  again: (without: string) => string;
}): Promise<Checked> {
  // The confinement errors' fix is the command without this path, not the file tools' forge ls.
  const refix = (err: unknown) => {
    if (err instanceof ForgeError) err.fix = again(path);
    return err;
  };
  const resolved = await resolveInside({ ws, path }).catch((err: unknown) => {
    throw refix(err);
  });
  const info = await statTarget(resolved).catch((err: unknown) => {
    throw refix(err);
  });
  if (!info)
    throw new RefusedError('FILE_NOT_FOUND', `${flag} '${path}': no such file`, { fix: again(path), data: { path: resolved.display } });
  if (info.isDirectory())
    throw new InvalidInputError('IS_A_DIRECTORY', `${flag} '${path}' is a directory: attach its files one by one`, { fix: again(path) });
  if (info.size > cap)
    throw new InvalidInputError('ATTACHMENT_TOO_LARGE', `${flag} '${path}' is ${info.size} bytes, over the cap of ${cap}`, {
      fix: again(path),
      data: { path: resolved.display, bytes: info.size, limit: cap },
    });
  return { abs: resolved.abs, path: relative(ws.root, resolved.abs).split(sep).join('/'), bytes: info.size };
}

/** One pinned file as the last call saw it. */
interface Seen {
  version: string;
  text: string;
}

/**
 * The pinned files of a task: their current content goes into the system prompt of every call,
 * where the budget never compresses it; a file is read again when its size or mtime changed.
 */
export class PinnedFiles {
  private readonly seen = new Map<string, Seen>();
  private workspace: Promise<Workspace> | undefined;

  constructor(
    readonly files: ReadonlyArray<{ abs: string; path: string }>,
    /** The flags that pin them again (--attach a.ts …), for the commands in fixes. */
    readonly flags: readonly string[],
    /** The top of the work tree (or of a step's worktree) the paths are in. */
    readonly root: string,
  ) {}

  get paths(): string[] {
    return this.files.map((f) => f.path);
  }

  /** The preamble with every file's current content; '' with no files. */
  async text(): Promise<string> {
    if (!this.files.length) return '';
    const blocks: string[] = [];
    for (const f of this.files) blocks.push(`--- ${f.path} ---\n${await this.current(f)}\n--- end of ${f.path} ---`);
    return `Pinned files (attached by the user; their current content, read again before every call: no need to read them with a tool):\n${blocks.join('\n')}`;
  }

  /** For the budget: the preamble, the files and the flags. */
  async budgetText(): Promise<PinnedText | null> {
    return this.files.length ? { text: await this.text(), paths: this.paths, flags: this.flags } : null;
  }

  private async current(f: { abs: string; path: string }): Promise<string> {
    const info = await stat(f.abs).catch(() => null);
    if (!info?.isFile()) return '[deleted since it was pinned]';
    const version = `${info.size}:${info.mtimeMs}`;
    const known = this.seen.get(f.abs);
    if (known?.version === version) return known.text;
    // A file changed during the task is judged again as the file tools judge a path: one replaced
    // by a symlink to a file outside the work tree (or into git's own files) is not read.
    const refused = await this.refusal(f.path);
    if (refused) return `[no longer pinned: ${refused}]`;
    const bytes = await readFile(f.abs).catch(() => null);
    let text: string;
    if (!bytes) text = '[cannot be read now]';
    else if (isBinary(bytes)) text = '[binary now: not shown]';
    else if (bytes.length > PINNED_FILE_CAP)
      text = `${bytes.subarray(0, PINNED_FILE_CAP).toString('utf8')}\n[${bytes.length} bytes now: the first ${PINNED_FILE_CAP} shown]`;
    else text = bytes.toString('utf8').replace(/\n$/, '');
    this.seen.set(f.abs, { version, text });
    return text;
  }

  /** Why the file tools would refuse the path now, or null. */
  private async refusal(path: string): Promise<string | null> {
    this.workspace ??= locateWorkspace({ cwd: this.root });
    try {
      await statTarget(await resolveInside({ ws: await this.workspace, path }));
      return null;
    } catch (err) {
      if (err instanceof ForgeError) return err.message;
      throw err;
    }
  }
}

/** An image to send with the task. */
export interface AttachedImage {
  path: string;
  mime: string;
  /** A base64 data URL, as the OpenAI chat API and Ollama's take it. */
  url: string;
}

export interface Attachments {
  pinned: PinnedFiles;
  images: AttachedImage[];
  /** Files the session had pinned that can no longer be (gone, or no longer allowed): left out, each said. */
  dropped: string[];
  /** --detach paths that were not pinned: nothing to unpin. */
  notPinned: string[];
}

/**
 * Checks and opens what a task attaches: `attach` and `images` as given (relative to `cwd`), and
 * the files a continued session pinned (`sessionPinned`, relative to the work tree's top). A bad
 * path given now is an error whose fix is `again` without it; one a session kept is left out.
 * `detach` unpins files (of the session, or given now).
 */
export async function openAttachments({
  cwd,
  attach,
  images,
  sessionPinned = [],
  detach = [],
  again,
}: {
  cwd: string;
  attach: readonly string[];
  images: readonly string[];
  sessionPinned?: readonly string[];
  detach?: readonly string[];
  again: (without: string) => string;
}): Promise<Attachments> {
  const ws = await locateWorkspace({ cwd });
  const files = new Map<string, { abs: string; path: string }>();
  const dropped: string[] = [];
  for (const p of sessionPinned) {
    const f = await checkFile({ ws, path: resolve(ws.root, p), cap: PINNED_FILE_CAP, flag: '--attach', again }).catch(() => null);
    if (f) files.set(f.abs, f);
    else dropped.push(p);
  }
  const flags: string[] = [];
  for (const p of attach) {
    const f = await checkFile({ ws, path: p, cap: PINNED_FILE_CAP, flag: '--attach', again });
    const bytes = await readFile(f.abs);
    if (isBinary(bytes) || imageType(bytes))
      throw new RefusedError('BINARY_FILE', `--attach '${p}' is a binary file: pinned files are text (an image goes with --image)`, {
        fix: again(p),
      });
    files.set(f.abs, f);
    flags.push('--attach', p);
  }
  const notPinned = detach.filter((p) => !files.delete(resolve(cwd, p)));
  const loaded: AttachedImage[] = [];
  for (const p of images) {
    const f = await checkFile({ ws, path: p, cap: IMAGE_CAP, flag: '--image', again });
    const bytes = await readFile(f.abs);
    const mime = imageType(bytes);
    if (!mime)
      throw new InvalidInputError('IMAGE_UNSUPPORTED', `--image '${p}' is not a PNG, JPEG, GIF or WebP image (by its bytes)`, {
        fix: again(p),
        data: { path: f.path },
      });
    loaded.push({ path: f.path, mime, url: `data:${mime};base64,${bytes.toString('base64')}` });
  }
  return { pinned: new PinnedFiles([...files.values()], flags, ws.root), images: loaded, dropped, notPinned };
}

/** The task's user message: its text, and each image as an image_url part after it. */
export function taskContent(task: string, images: readonly AttachedImage[]): string | ContentPart[] {
  if (!images.length) return task;
  return [{ type: 'text', text: task }, ...images.map((i): ContentPart => ({ type: 'image_url', image_url: { url: i.url } }))];
}
