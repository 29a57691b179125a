// The control lines an agent ends a loop iteration with, matched only as whole lines.
import type { Control } from './loop';

/** C0 controls and DEL, except tab and newlines: terminals' noise, not text. */
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|\u001b\[[0-9;?]*[A-Za-z]/g;

export function cleanText(text: string): string {
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(CONTROL_CHARS, '');
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * FORGE_PAUSE (or RALPH_PAUSE) wins over completion: an agent that asks to stop is heard. Then
 * FORGE_COMPLETE (or RALPH_COMPLETE), then `<promise>TEXT</promise>` with the loop's promise. Each
 * must be a line of its own; a message that merely equals the promise text ends nothing. Lines end
 * at \n or \r\n only: a bare \r is a carriage return within a line (a progress bar overwritten on
 * a terminal), so `working…\r FORGE_COMPLETE` is one line and ends nothing.
 */
export function findControl(text: string, promise: string | null): Control | null {
  const lines = cleanText(text)
    .split(/\r?\n/)
    .map((l) => l.trim());
  if (lines.some((l) => l === 'FORGE_PAUSE' || l === 'RALPH_PAUSE')) return 'pause';
  if (lines.some((l) => l === 'FORGE_COMPLETE' || l === 'RALPH_COMPLETE')) return 'complete';
  if (promise !== null) {
    const wanted = norm(promise);
    for (const l of lines) {
      const m = /^<promise>([\s\S]*)<\/promise>$/.exec(l);
      if (m && norm(m[1]!) === wanted) return 'promise';
    }
  }
  return null;
}
