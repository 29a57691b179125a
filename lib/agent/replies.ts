// What a model's reply really says: reasoning kept out of history, arguments repaired — or why not (calls written as text: lib/agent/dialects.ts).
import { jsonrepair } from 'jsonrepair';

/** Reasoning blocks some models (Qwen3, DeepSeek-R1) put in the content: shown, never sent back. */
const THINKING = /<(think|thinking|reasoning)>([\s\S]*?)(?:<\/\1>|$)/g;

export function splitThinking(text: string): { visible: string; thinking: string } {
  const thoughts: string[] = [];
  const visible = text.replace(THINKING, (_, _tag: string, inner: string) => {
    thoughts.push(inner.trim());
    return '';
  });
  return { visible: visible.trim(), thinking: thoughts.filter(Boolean).join('\n') };
}

/**
 * Whether jsonrepair's `repaired` only closes what was open at the end of `text`: that finishes a
 * cut-off call by guesswork (a file's content cut short written as if whole), so it is refused.
 */
export function closesOnly(text: string, repaired: string): boolean {
  return repaired.trim().startsWith(text.trim().replace(/[\s,]+$/, ''));
}

export type ParsedArguments = { ok: true; value: Record<string, unknown>; repaired: boolean } | { ok: false; reason: string };

/**
 * A tool call's arguments as an object: JSON as sent, else repaired by jsonrepair (trailing commas,
 * single quotes, comments, unquoted keys); a cut-off object, or what no repair makes an object, is
 * refused with the parser's own position.
 */
export function parseArguments(raw: string): ParsedArguments {
  const text = raw.trim() || '{}';
  const asObject = (v: unknown) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
  let firstError = '';
  try {
    const parsed: unknown = JSON.parse(text);
    const value = asObject(parsed);
    if (value) return { ok: true, value, repaired: false };
    // Encoded twice: a JSON string holding the object.
    if (typeof parsed === 'string') {
      const inner = parseArguments(parsed);
      if (inner.ok) return { ...inner, repaired: true };
    }
    return { ok: false, reason: 'they are JSON but not an object' };
  } catch (err) {
    firstError = err instanceof Error ? err.message : String(err);
  }
  try {
    const repaired = jsonrepair(text);
    if (closesOnly(text, repaired))
      return { ok: false, reason: `they stop before the object closes (cut off after ${text.length} characters)` };
    const value = asObject(JSON.parse(repaired));
    if (value) return { ok: true, value, repaired: true };
  } catch {
    // fall through: the parser's own message says where it broke
  }
  return { ok: false, reason: firstError };
}

const OPENING = ['<think>', '<thinking>', '<reasoning>'];

/**
 * Streamed text as a person should see it live: reasoning blocks dropped, a tag cut across two
 * deltas held back until it is whole.
 */
export class VisibleStream {
  private held = '';
  private closing: string | null = null;

  feed(piece: string): string {
    let buffer = this.held + piece;
    let out = '';
    for (;;) {
      if (this.closing) {
        const end = buffer.indexOf(this.closing);
        if (end < 0) {
          this.held = tailThatStarts(buffer, [this.closing]);
          return out;
        }
        buffer = buffer.slice(end + this.closing.length);
        this.closing = null;
        continue;
      }
      const hits = OPENING.map((t) => ({ t, at: buffer.indexOf(t) }))
        .filter((h) => h.at >= 0)
        .sort((a, b) => a.at - b.at);
      if (!hits.length) {
        this.held = tailThatStarts(buffer, OPENING);
        return out + buffer.slice(0, buffer.length - this.held.length);
      }
      out += buffer.slice(0, hits[0]!.at);
      buffer = buffer.slice(hits[0]!.at + hits[0]!.t.length);
      this.closing = `</${hits[0]!.t.slice(1)}`;
    }
  }
}

/** The end of `text` that could be the start of one of `tags` (to hold back until the next delta). */
function tailThatStarts(text: string, tags: string[]): string {
  for (let i = Math.max(0, text.length - Math.max(...tags.map((t) => t.length)) + 1); i < text.length; i++) {
    const tail = text.slice(i);
    if (tags.some((t) => t.startsWith(tail))) return tail;
  }
  return '';
}
