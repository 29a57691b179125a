// The last assistant turn of a Claude Code transcript (JSONL), read robustly while it may still be written.
import { open } from 'node:fs/promises';

/** Transcripts grow to many MB; the last turn lives in the tail. */
const TAIL_BYTES = 4 * 1024 * 1024;

interface Entry {
  type?: string;
  isSidechain?: boolean;
  isMeta?: boolean;
  message?: { role?: string; content?: unknown };
}

function texts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.filter((b): b is { type: 'text'; text: string } => typeof b === 'object' && b !== null && b.type === 'text' && typeof b.text === 'string').map((b) => b.text);
}

/** A prompt from the person (not a tool result fed back, not a meta or side-chain entry). */
function isUserPrompt(e: Entry): boolean {
  if (e.type !== 'user' || e.isMeta || e.isSidechain) return false;
  const c = e.message?.content;
  if (typeof c === 'string') return true;
  return Array.isArray(c) && !c.some((b) => typeof b === 'object' && b !== null && (b as { type?: string }).type === 'tool_result');
}

async function readTail(file: string): Promise<string> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    const start = Math.max(0, size - TAIL_BYTES);
    const buf = Buffer.alloc(size - start);
    await fh.read(buf, 0, buf.length, start);
    const text = buf.toString('utf8');
    // Starting mid-file, the first line is a fragment.
    return start > 0 ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    await fh.close();
  }
}

/**
 * The text of the last assistant turn: every assistant text block after the last user prompt,
 * so a turn that ended in tool calls still yields the words said before them. Lines that do not
 * parse (a line still being written, a broken line) are skipped; a partial last line is given a
 * few short waits to complete first.
 */
export async function lastAssistantText({ file, waits = 5, waitMs = 60 }: { file: string; waits?: number; waitMs?: number }): Promise<string> {
  let text = '';
  for (let attempt = 0; ; attempt++) {
    text = await readTail(file).catch(() => '');
    const last = text.trimEnd().split('\n').at(-1) ?? '';
    let complete = true;
    try {
      if (last) JSON.parse(last);
    } catch {
      complete = false;
    }
    if (complete || attempt >= waits) break;
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
    if (isUserPrompt(e)) break;
    if (e.type === 'assistant' && !e.isSidechain) found.unshift(...texts(e.message?.content));
  }
  return found.join('\n');
}
