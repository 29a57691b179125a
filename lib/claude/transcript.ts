// The last assistant turn of a Claude Code transcript (JSONL), read robustly while it may still be written.
import { constants, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { RefusedError } from '../errors';
import { shellJoin } from '../quote';

/** Transcripts grow to many MB; the last turn lives in the tail. */
const TAIL_BYTES = 4 * 1024 * 1024;

/** How long reading the transcript may take in all, waits for a line being written included. */
const DEADLINE_MS = 3000;

interface Entry {
  type?: string;
  isSidechain?: boolean;
  isMeta?: boolean;
  message?: { role?: string; content?: unknown };
}

function texts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content
    .filter(
      (b): b is { type: 'text'; text: string } => typeof b === 'object' && b !== null && b.type === 'text' && typeof b.text === 'string',
    )
    .map((b) => b.text);
}

/** A prompt from the person (not a tool result fed back, not a meta or side-chain entry). */
function isUserPrompt(e: Entry): boolean {
  if (e.type !== 'user' || e.isMeta || e.isSidechain) return false;
  const c = e.message?.content;
  if (typeof c === 'string') return true;
  return Array.isArray(c) && !c.some((b) => typeof b === 'object' && b !== null && (b as { type?: string }).type === 'tool_result');
}

function kind(s: Stats): string {
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  if (s.isSocket()) return 'a socket';
  return 'not a regular file';
}

function unreadable(file: string, why: string): RefusedError {
  return new RefusedError('TRANSCRIPT_UNREADABLE', `cannot read the transcript '${file}': ${why}`, { fix: shellJoin(['ls', '-l', file]) });
}

/**
 * The last TAIL_BYTES of a regular file. Anything else — a FIFO, a device, a directory, a symlink to
 * one — is refused before it is opened (opening a FIFO waits for a writer; /dev/zero never ends),
 * and again after: the open is non-blocking and the opened file must be the one checked.
 */
async function readTail(file: string): Promise<string> {
  const before = await stat(file).catch((err: NodeJS.ErrnoException) => {
    throw unreadable(file, err.code === 'ENOENT' ? 'no such file' : err.message);
  });
  if (!before.isFile()) throw unreadable(file, kind(before));
  const fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY).catch((err: NodeJS.ErrnoException) => {
    throw unreadable(file, err.message);
  });
  try {
    const now = await fh.stat();
    if (!now.isFile()) throw unreadable(file, kind(now));
    if (now.ino !== before.ino || now.dev !== before.dev) throw unreadable(file, 'it was replaced while being opened');
    const start = Math.max(0, now.size - TAIL_BYTES);
    const buf = Buffer.alloc(now.size - start);
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, start + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    const text = buf.subarray(0, got).toString('utf8');
    // Starting mid-file, the first line is a fragment.
    return start > 0 ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    await fh.close();
  }
}

/** `work` unless it takes longer than `ms`: then refused, so a hook never waits on a stuck file system. */
function within<T>(ms: number, file: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(unreadable(file, `no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * The text of the last assistant turn: every assistant text block after the last user prompt,
 * so a turn that ended in tool calls still yields the words said before them. Lines that do not
 * parse (a line still being written, a broken line) are skipped; a partial last line is given a
 * few short waits to complete first. A transcript that cannot be read (missing, not a regular file,
 * too slow) is refused as TRANSCRIPT_UNREADABLE.
 */
export async function lastAssistantText({
  file,
  waits = 5,
  waitMs = 60,
  deadlineMs = DEADLINE_MS,
}: {
  file: string;
  waits?: number;
  waitMs?: number;
  deadlineMs?: number;
}): Promise<string> {
  const until = Date.now() + deadlineMs;
  let text = '';
  for (let attempt = 0; ; attempt++) {
    text = await within(Math.max(1, until - Date.now()), file, readTail(file));
    const last = text.trimEnd().split('\n').at(-1) ?? '';
    let complete = true;
    try {
      if (last) JSON.parse(last);
    } catch {
      complete = false;
    }
    if (complete || attempt >= waits || Date.now() + waitMs >= until) break;
    await new Promise((r) => setTimeout(r, waitMs));
  }
  const found: string[] = [];
  for (const line of text.split('\n').reverse()) {
    if (!line.trim()) continue;
    let e: Entry;
    try {
      e = JSON.parse(line) as Entry;
    } catch {
      continue;
    }
    if (typeof e !== 'object' || e === null) continue;
    if (isUserPrompt(e)) break;
    if (e.type === 'assistant' && !e.isSidechain) found.unshift(...texts(e.message?.content));
  }
  return found.join('\n');
}
