// Whitespace styles: a line's indentation as levels of a unit plus a remainder of spaces, and a base restyled as a model rewrites it.
import type { Base } from './bases';
import { derive, type Instance } from './derive';

export type Style = 'tab' | number;
export interface Indent {
  level: number;
  rem: number;
  body: string;
}

/** The file's indentation unit: tabs, or 2 or 4 spaces; null when nothing is indented. */
export function unitOf(lines: string[]): Style | null {
  if (lines.some((l) => l.startsWith('\t'))) {
    // Tabs and lines indented a level with spaces alone, as when a commit re-indents: no one style.
    return lines.some((l) => l.startsWith('  ') && l.trim()) ? null : 'tab';
  }
  const widths = lines
    .filter((l) => l.trim())
    .map((l) => /^ */.exec(l)![0].length)
    .filter((w) => w > 0);
  if (!widths.length) return null;
  return widths.every((w) => w % 4 <= 1) && widths.some((w) => w >= 4 && w % 4 === 0) ? 4 : 2;
}

/** A line's indentation in the file's unit; null for what no style maps back (whitespace-only, spaces before tabs). */
function indentOf(line: string, unit: Style): Indent | null {
  const ws = /^[ \t]*/.exec(line)![0];
  const body = line.slice(ws.length);
  if (!body) return ws ? null : { level: 0, rem: 0, body };
  if (unit === 'tab') {
    const m = /^(\t*)( *)$/.exec(ws);
    return m ? { level: m[1]!.length, rem: m[2]!.length, body } : null;
  }
  return ws.includes('\t') ? null : { level: Math.floor(ws.length / unit), rem: ws.length % unit, body };
}

function indent({ level, rem, body }: Indent, style: Style): string {
  if (!body) return '';
  return (style === 'tab' ? '\t'.repeat(level) : ' '.repeat(style * level)) + ' '.repeat(rem) + body;
}

/** Renders in `style` only when the result maps back to the same levels (a remainder narrower than the width). */
const fits = (i: Indent, style: Style) => style === 'tab' || i.rem < style;

/**
 * The base restyled to `file` (every line's levels kept) and its hunks written by a model in `model`
 * style (for old lines only, or all), with `shift` levels added per hunk: null when a line cannot be
 * mapped both ways, or a hunk's added lines change while its old lines do not (a tool then matches
 * exactly and writes the model's lines as they are).
 */
export function restyled(
  base: Base,
  file: Style,
  model: Style,
  { oldOnly = false, shift }: { oldOnly?: boolean; shift?: (levels: Indent[]) => number } = {},
): Instance | null {
  const unit = unitOf([...base.before.lines, ...base.after.lines]);
  if (!unit) return null;
  const parsed = new Map<string, Indent | null>();
  const parse = (l: string) => {
    if (!parsed.has(l)) parsed.set(l, indentOf(l, unit));
    return parsed.get(l)!;
  };
  for (const l of [...base.before.lines, ...base.after.lines]) {
    const i = parse(l);
    if (i && !fits(i, file)) return null;
  }
  const inFile = (l: string) => {
    const i = parse(l);
    return i ? indent(i, file) : l;
  };
  const shifts: number[] = [];
  for (const h of base.hunks) {
    const levels = h.lines.map((l) => parse(l.text));
    if (levels.some((i) => !i || !fits(i, model))) return null;
    // Spaces for tabs: old lines at one depth, every level even and an added line at another depth
    // read as well with a unit twice the model's (4 spaces a level, not 2): no tool can tell, so no case.
    const old = new Set(h.lines.flatMap((l, j) => (l.op !== '+' && levels[j]!.body ? [levels[j]!.level] : [])));
    const movesAway = h.lines.some((l, j) => l.op === '+' && levels[j]!.body && !old.has(levels[j]!.level));
    if (typeof model === 'number' && file === 'tab' && old.size <= 1 && movesAway && levels.every((i) => !i!.body || i!.level % 2 === 0))
      return null;
    shifts.push(shift?.(levels as Indent[]) ?? 0);
  }
  const byModel = (l: string, k: number) => {
    const i = parse(l)!;
    return indent({ ...i, level: i.level + shifts[k]! }, model);
  };
  const inst = derive(base, { fileLine: inFile, modelOld: byModel, modelNew: oldOnly ? inFile : byModel, written: inFile });
  let changed = false;
  for (const [k, h] of inst.hunks.entries()) {
    const oldChanged = h.lines.some((l, j) => l.op !== '+' && l.text !== inFile(base.hunks[k]!.lines[j]!.text));
    const newChanged = h.lines.some((l, j) => l.op === '+' && l.text !== inFile(base.hunks[k]!.lines[j]!.text));
    if (newChanged && !oldChanged) return null;
    changed ||= oldChanged;
  }
  return changed ? inst : null;
}
