// The `*** Begin Patch` envelope dialect (Codex's apply_patch, OpenCode): Update (with Move to), Add and Delete File sections.
import type { InvalidInputError } from '../../errors';
import type { FilePatch, Hunk, HunkLine } from '../patch-types';
import { isDirective, refuseMixed, SECTION } from './markers';
import { addHeader, bad, blankRunEnd, corrupt, hunkHeader, isChange, markNoEol, quoted } from './shared';

/** A line that goes on a hunk: `-`, `+` or ` ` and not an envelope marker indented by one space. */
function isEnvelopeChange(line: string): boolean {
  const t = line.trim();
  return isChange(line) && !isDirective(t) && t !== '*** End of File';
}

/**
 * A line that is not part of an envelope section: refused inside `*** Begin Patch`; without the
 * envelope, prose after the changes — unless hunk lines follow right under it (then it is inside one).
 */
function strayLine(lines: string[], i: number, strict: boolean, what: string): InvalidInputError | undefined {
  if (strict) return bad(`line ${i + 1} of the patch, ${quoted(lines[i]!)}, is not ${what}`);
  return i + 1 < lines.length && isEnvelopeChange(lines[i + 1]!) ? corrupt(lines, i) : undefined;
}

/**
 * Reads an `*** Update File:` section's hunks from `lines[start]` on: `@@` headers (consecutive
 * `@@ <line>` headers nest), ` `/`-`/`+` lines, `*** End of File` after a hunk's last line. `strict`
 * inside `*** Begin Patch`, where any other line is refused; without the envelope, a line that is
 * not a hunk line ends the section (prose), as in a unified diff.
 */
function readEnvelopeHunks(lines: string[], start: number, strict: boolean): { hunks: Hunk[]; next: number } {
  const hunks: Hunk[] = [];
  let hunk: Hunk | undefined;
  let headerAt = 0;
  let i = start;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    const t = line.trim();
    if (isDirective(t)) break;
    const header = hunkHeader(line, i + 1);
    if (header) {
      if (!hunk || hunk.lines.length) [hunk, headerAt] = [{ lines: [] }, i + 1];
      if (hunks.at(-1) !== hunk) hunks.push(hunk);
      addHeader(hunk, header);
      continue;
    }
    if (t === '*** End of File') {
      if (!hunk?.lines.length) throw bad(`'*** End of File' with no hunk lines above it (line ${i + 1})`);
      hunk.atEnd = true;
      continue;
    }
    if (isChange(line)) {
      if (!hunk) hunks.push((hunk = { lines: [] }));
      else if (hunk.atEnd)
        throw bad(`a hunk line after '*** End of File' (line ${i + 1}): ${quoted(line)}; start the next hunk with an '@@' line`);
      hunk.lines.push({ op: line[0] as HunkLine['op'], text: line.slice(1) });
      continue;
    }
    if (line[0] === '\\' && hunk?.lines.length) {
      markNoEol(hunk);
      continue;
    }
    if (line === '') {
      // Blank context lines whose leading space was dropped, if the hunk goes on; else a separator.
      const k = blankRunEnd(lines, i);
      if (hunk?.lines.length && !hunk.atEnd && k < lines.length && isEnvelopeChange(lines[k]!))
        for (; i < k; i++) hunk.lines.push({ op: ' ', text: '' });
      i = k - 1;
      continue;
    }
    const stray = strayLine(
      lines,
      i,
      strict,
      "a hunk line: in a *** Begin Patch hunk every line starts with ' ' (context), '-' (removed) or '+' (added)",
    );
    if (stray) throw stray;
    break;
  }
  if (hunk && !hunk.lines.length) throw bad(`a hunk header with no lines under it (line ${headerAt || start})`);
  return { hunks, next: i };
}

/** An `*** Add File:` section's `+` lines from `lines[start]` on, as one hunk. */
function readAddedLines(lines: string[], start: number, strict: boolean): { hunk: Hunk; next: number } {
  const hunk: Hunk = { lines: [] };
  let i = start;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line[0] === '+' && !isDirective(line.trim())) hunk.lines.push({ op: '+', text: line.slice(1) });
    else if (line[0] === '\\' && hunk.lines.length) hunk.newNoEol = true;
    else if (line === '') {
      // Empty lines whose '+' was dropped, if more added lines follow.
      const k = blankRunEnd(lines, i);
      if (k === lines.length || lines[k]![0] !== '+' || isDirective(lines[k]!.trim())) break;
      for (; i < k; i++) hunk.lines.push({ op: '+', text: '' });
      i = k - 1;
    } else if (isDirective(line.trim())) break;
    else {
      const stray = strayLine(lines, i, strict, "an added line: under '*** Add File:' every line starts with '+'");
      if (stray) throw stray;
      break;
    }
  }
  return { hunk, next: i };
}

function truncatedEnvelope(begin: number): InvalidInputError {
  return bad(
    `the patch is truncated: the '*** Begin Patch' at line ${begin + 1} has no '*** End Patch' after it; send the whole patch again`,
  );
}

/**
 * The `*** Begin Patch` envelope (Codex, OpenCode): Update (with Move to), Add and Delete File
 * sections. Markers may be indented. Without `*** Begin Patch` anywhere, the sections are read
 * as they stand; with it, every section must be inside an envelope that ends with `*** End Patch`
 * (a reply cut short is refused, never applied).
 */
export function parseEnvelope(lines: string[]): FilePatch[] {
  const patches: FilePatch[] = [];
  const enveloped = lines.some((l) => l.trim() === '*** Begin Patch');
  let begin = -1;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const t = line.trim();
    if (t === '*** Begin Patch') {
      if (begin >= 0) throw truncatedEnvelope(begin);
      begin = i++;
      continue;
    }
    if (t === '*** End Patch') {
      begin = -1;
      i++;
      continue;
    }
    const section = SECTION.exec(t);
    if (!section) {
      if (begin >= 0 && t)
        throw bad(
          `line ${i + 1} of the patch, ${quoted(line)}, is not in a file section: inside '*** Begin Patch' each change starts with '*** Update File: <path>', '*** Add File: <path>' or '*** Delete File: <path>'`,
        );
      if (begin < 0 && (hunkHeader(line, i + 1) || t === '*** End of File' || t.startsWith('*** Move to:')))
        throw bad(
          `line ${i + 1} of the patch, ${quoted(line)}, is outside any file section: put it under its '*** Update File: <path>' line`,
        );
      if (begin < 0) refuseMixed(lines, i, 'envelope');
      i++;
      continue;
    }
    if (enveloped && begin < 0)
      throw bad(
        `a file section outside '*** Begin Patch' … '*** End Patch' (line ${i + 1}): ${quoted(line)}; put every section inside the envelope`,
      );
    const [, verb, rest] = section;
    const path = rest!.trim();
    const strict = begin >= 0;
    if (verb === 'Delete') {
      patches.push({ dialect: 'envelope', kind: 'delete', oldPath: path, newPath: null, hunks: [] });
      i++;
    } else if (verb === 'Add') {
      const { hunk, next } = readAddedLines(lines, i + 1, strict);
      patches.push({ dialect: 'envelope', kind: 'create', oldPath: null, newPath: path, hunks: [hunk] });
      i = next;
    } else {
      const move = /^\*\*\* Move to:(.*)$/.exec(lines[i + 1]?.trim() ?? '');
      const newPath = move ? move[1]!.trim() : path;
      const { hunks, next } = readEnvelopeHunks(lines, i + (move ? 2 : 1), strict);
      if (!hunks.length && !move)
        throw bad(
          `'*** Update File: ${path}' (line ${i + 1}) has no hunk: put the lines to change under it, each starting with ' ', '-' or '+', after an '@@' line`,
        );
      patches.push({ dialect: 'envelope', kind: move && newPath !== path ? 'rename' : 'modify', oldPath: path, newPath, hunks });
      i = next;
    }
  }
  if (begin >= 0) throw truncatedEnvelope(begin);
  if (!patches.length) throw bad('the *** Begin Patch envelope holds no file changes');
  return patches;
}
