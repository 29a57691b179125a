// A derived change written in each dialect a model sends: unified diff, the *** Begin Patch envelope, Aider's, Cline's and Roo's blocks.
import { extname } from 'node:path';
import { type Base, type Hunk, newOf, oldOf, startOf } from './bases';
import type { Instance } from './derive';
import { occurrences } from './locate';

export const header = (h: Hunk) =>
  `@@ -${h.oldStart}${h.oldCount === 1 ? '' : `,${h.oldCount}`} +${h.newStart}${h.newCount === 1 ? '' : `,${h.newCount}`} @@${h.section ? ` ${h.section}` : ''}`;

export function unified(inst: Instance, hunkHeader: (h: Hunk, k: number) => string = header): string {
  const out = [...inst.base.head];
  inst.hunks.forEach((h, k) => {
    out.push(hunkHeader(h, k));
    for (const l of h.lines) out.push(l.op + l.text);
  });
  return out.join('\n') + '\n';
}

export function envelope(inst: Instance, sections: Record<number, string> = {}): string {
  const out = ['*** Begin Patch', `*** Update File: ${inst.base.path}`];
  inst.hunks.forEach((h, k) => {
    out.push(sections[k] !== undefined ? `@@ ${sections[k]}` : '@@');
    for (const l of h.lines) out.push(l.op + l.text);
    if (startOf(h) + h.oldCount === inst.before.lines.length) out.push('*** End of File');
  });
  out.push('*** End Patch');
  return out.join('\n') + '\n';
}

const FENCES = [
  ['```', '```'],
  ['````', '````'],
  ['<source>', '</source>'],
] as const;

/** Aider's blocks: the path above each fenced block, prose around them, in the order given. */
export function aider(inst: Instance, order: number[], rank: number): string {
  const lang = extname(inst.base.path).slice(1) || 'text';
  const [open, close] = FENCES[rank % FENCES.length]!;
  const out = [`Here are the changes to ${inst.base.path}:`, ''];
  order.forEach((k, n) => {
    if (n) out.push(n % 2 ? '...' : 'And further up the file:', '');
    out.push(
      inst.base.path,
      open + lang,
      '<<<<<<< SEARCH',
      ...oldOf(inst.hunks[k]!),
      '=======',
      ...newOf(inst.hunks[k]!),
      '>>>>>>> REPLACE',
      close,
      '',
    );
  });
  return out.join('\n');
}

/** Cline's replace_in_file blocks (path on the line above, as a model names it for forge patch). */
export function cline(inst: Instance): string {
  return [
    inst.base.path,
    ...inst.hunks.flatMap((h) => ['------- SEARCH', ...oldOf(h), '=======', ...newOf(h), '+++++++ REPLACE', '']),
  ].join('\n');
}

/** Roo's apply_diff blocks: `:start_line:` is the block's line in the original file. */
export function roo(inst: Instance): string {
  return [
    inst.base.path,
    ...inst.hunks.flatMap((h) => [
      '<<<<<<< SEARCH',
      `:start_line:${startOf(h) + 1}`,
      '-------',
      ...oldOf(h),
      '=======',
      ...newOf(h),
      '>>>>>>> REPLACE',
      '',
    ]),
  ].join('\n');
}

/**
 * SEARCH/REPLACE blocks applied one after another in `order`, each searched in the whole file as the
 * blocks before left it: true when each is found exactly once (or, with `pick`, where the pick says)
 * and the result is the expected file.
 */
export function blocksLand(inst: Instance, order: number[], pick?: (k: number) => boolean): boolean {
  let lines = [...inst.before.lines];
  const applied: number[] = [];
  for (const k of order) {
    const h = inst.hunks[k]!;
    const at =
      startOf(h) +
      applied
        .filter((j) => startOf(inst.hunks[j]!) < startOf(h))
        .reduce((n, j) => n + inst.hunks[j]!.newCount - inst.hunks[j]!.oldCount, 0);
    const hits = occurrences(lines, oldOf(h));
    if (!hits.includes(at) || (hits.length > 1 && !pick?.(k))) return false;
    lines = [...lines.slice(0, at), ...newOf(h), ...lines.slice(at + h.oldCount)];
    applied.push(k);
  }
  return lines.length === inst.after.lines.length && lines.every((l, i) => l === inst.after.lines[i]);
}

const MARKERS = /^\s*(<{5,9}|={5,9}|>{5,9}|-{5,9}|\+{5,9}|:start_line:|```|<\/?source>|\*\*\*|@@)/;
export const hasMarkerLine = (b: Base) => b.hunks.some((h) => h.lines.some((l) => MARKERS.test(l.text)));
