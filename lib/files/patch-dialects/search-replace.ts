// The SEARCH/REPLACE dialect: Aider's blocks under a file name, Cline's `------- SEARCH` / `+++++++ REPLACE`, Roo's `:start_line:` hints.
import type { InvalidInputError } from '../../errors';
import type { FilePatch, Hunk } from '../patch-types';
import { DIVIDER, REPLACE_END, refuseMixed, SEARCH_START } from './markers';
import { bad, quoted } from './shared';

/** `s` without the characters of `left` at its start and of `right` at its end — loops: `/[…]+$/` costs quadratic time on a long line. */
function stripEnds(s: string, left: string, right: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && left.includes(s[start]!)) start++;
  while (end > start && right.includes(s[end - 1]!)) end--;
  return s.slice(start, end);
}

const FENCE = /^(?:`{3,}|~{3,}|<\/?(?:source|code|pre|codeblock|sourcecode)>)(.*)$/i;

/**
 * A fence line around a block — Markdown's ``` and ~~~, and the `<source>python … </source>` pairs
 * Aider uses with some models; its info string is a file name when it is one word with a `.` or `/`
 * in it (```src/app.py), as Aider reads it. Undefined for a line that is not a fence.
 */
function fenceName(trimmed: string): { name?: string } | undefined {
  const fence = FENCE.exec(trimmed);
  if (!fence) return undefined;
  const info = fence[1]!.trim();
  return info && !/\s/.test(info) && /[./]/.test(info) ? { name: info } : {};
}

/**
 * The file name a line gives, as models write one above a block: `src/app.py`, `### src/app.py`,
 * `**src/app.py**`, `` `src/app.py`: ``. Undefined for prose (words with spaces, a sentence's end,
 * a lone word after `#` or before `:` — a heading or a label) and for `...` between blocks.
 */
function fileName(trimmed: string): string | undefined {
  if (trimmed === '...' || trimmed === '…') return undefined;
  const heading = trimmed.startsWith('#');
  const core = stripEnds(trimmed, '#* \t', '*: \t');
  const label = core.length < stripEnds(trimmed, '#* \t', '* \t').length;
  const inner =
    core.length > 2 && core.startsWith('`') && core.endsWith('`') && !core.slice(1, -1).includes('`')
      ? core.slice(1, -1).trim()
      : undefined;
  const name = inner ?? stripEnds(core, '`', '`');
  if (!name || (inner === undefined && /\s/.test(name)) || /[.,;!?]$/.test(name)) return undefined;
  return (heading || label) && !/[./]/.test(name) ? undefined : name;
}

/**
 * The file a block at `lines[i]` changes: the nearest line above it, past blank lines and fences
 * (and not above the previous block), when that line is a file name.
 */
function fileNameAbove(lines: string[], i: number, floor: number): string | undefined {
  for (let j = i - 1; j >= floor; j--) {
    const t = lines[j]!.trim();
    if (!t) continue;
    const fence = fenceName(t);
    if (!fence) return fileName(t);
    if (fence.name) return fence.name;
  }
  return undefined;
}

/** Roo's escaped marker lines (`\=======`, `\:start_line:`) are content: the backslash goes. */
function unescapeMarker(line: string): string {
  return /^\\(?:<{7}|={7}|>{7}|-{7}|:start_line:|:end_line:)/.test(line) ? line.slice(1) : line;
}

const ROO_SEPARATOR = '-------';

function truncatedBlock(start: number, missing: string): InvalidInputError {
  return bad(`the patch is truncated: the SEARCH block at line ${start + 1} has no ${missing} after it; send the whole block again`);
}

/** Roo's hints at the top of a SEARCH part from line `j`: `:start_line:N`, `:end_line:N`, then `-------`; where the old lines start. */
function rooHints({ lines, j }: { lines: string[]; j: number }): { oldStart: number | undefined; hinted: boolean; j: number } {
  let oldStart: number | undefined;
  let hinted = false;
  for (; j < lines.length; j++) {
    const meta = lines[j]!.trim();
    const start = /^:start_line:\s*(\d+)$/.exec(meta);
    if (start) oldStart = Number(start[1]);
    else if (!/^:end_line:\s*\d+$/.test(meta)) break;
    hinted = true;
  }
  if (hinted && lines[j]?.trim() === ROO_SEPARATOR) j++;
  return { oldStart, hinted, j };
}

/** The old lines of the block at line `i`, from line `j` to its `=======` (the line returned); a marker before it is refused. */
function searchPart({ lines, i, j }: { lines: string[]; i: number; j: number }): { search: string[]; j: number } {
  const search: string[] = [];
  for (; ; j++) {
    if (j >= lines.length) throw truncatedBlock(i, "'=======' and '>>>>>>> REPLACE'");
    const m = lines[j]!.trim();
    if (DIVIDER.test(m)) return { search, j };
    if (SEARCH_START.test(m) || REPLACE_END.test(m))
      throw bad(
        `${quoted(m)} (line ${j + 1}) before the '=======' of the SEARCH block at line ${i + 1}: each block is '<<<<<<< SEARCH', the old lines, '=======', the new lines, '>>>>>>> REPLACE'`,
      );
    search.push(unescapeMarker(lines[j]!));
  }
}

/** The new lines of the block at line `i`, after its `=======` at `j` up to its `>>>>>>> REPLACE` (the line returned). */
function replacePart({ lines, i, j }: { lines: string[]; i: number; j: number }): { replace: string[]; j: number } {
  const replace: string[] = [];
  for (j++; ; j++) {
    if (j >= lines.length) throw truncatedBlock(i, "'>>>>>>> REPLACE'");
    const m = lines[j]!.trim();
    if (REPLACE_END.test(m)) return { replace, j };
    if (DIVIDER.test(m))
      throw bad(
        `a second '=======' (line ${j + 1}) in the SEARCH block at line ${i + 1}: a block has one, between the old and the new lines; escape a '=======' line of the file as '\\======='`,
      );
    if (SEARCH_START.test(m))
      throw bad(`${quoted(m)} (line ${j + 1}) inside the SEARCH block at line ${i + 1}: close each block with '>>>>>>> REPLACE'`);
    if (/^:(?:start|end)_line:/.test(m))
      throw bad(`${quoted(m)} (line ${j + 1}) in the REPLACE part of the block at line ${i + 1}: it belongs right under '<<<<<<< SEARCH'`);
    replace.push(unescapeMarker(lines[j]!));
  }
}

/** The block whose `<<<<<<< SEARCH` is line `i`, as one hunk, and the line of its `>>>>>>> REPLACE`. */
function searchReplaceBlock({ lines, i }: { lines: string[]; i: number }): { hunk: Hunk; end: number } {
  const hints = rooHints({ lines, j: i + 1 });
  const { search, j: divider } = searchPart({ lines, i, j: hints.j });
  const { replace, j: end } = replacePart({ lines, i, j: divider });
  // Roo's separator without its hints is one only when the new lines do not start with the same line.
  if (!hints.hinted && search[0]?.trim() === ROO_SEPARATOR && replace[0]?.trim() !== ROO_SEPARATOR) search.shift();
  return {
    hunk: {
      ...(hints.oldStart !== undefined ? { oldStart: hints.oldStart } : {}),
      lines: [...search.map((text) => ({ op: '-' as const, text })), ...replace.map((text) => ({ op: '+' as const, text }))],
    },
    end,
  };
}

/**
 * SEARCH/REPLACE blocks: Aider's `<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE` under a file name
 * (alone on the line above, or above the opening fence), Cline's `------- SEARCH` / `=======` /
 * `+++++++ REPLACE`, Roo's `:start_line:N` and `-------` at the top of the SEARCH part (→ oldStart).
 * A block with no name above it changes the previous block's file.
 */
export function parseSearchReplace(lines: string[]): FilePatch[] {
  const byPath = new Map<string, FilePatch>();
  const order: FilePatch[] = [];
  let floor = 0;
  let previous: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!.trim();
    if (!SEARCH_START.test(t)) {
      if (REPLACE_END.test(t))
        throw bad(
          `${quoted(t)} without a SEARCH block above it (line ${i + 1}): each block is '<<<<<<< SEARCH', the old lines, '=======', the new lines, '>>>>>>> REPLACE'`,
        );
      refuseMixed(lines, i, 'search-replace');
      continue;
    }
    const path = fileNameAbove(lines, i, floor) ?? previous;
    if (!path)
      throw bad(
        `a SEARCH block without a file name (line ${i + 1}): put the file's path alone on the line above it, or above its opening fence`,
      );
    const { hunk, end } = searchReplaceBlock({ lines, i });
    i = end;
    floor = end + 1;
    previous = path;
    let fp = byPath.get(path);
    if (!fp) {
      fp = { dialect: 'search-replace', kind: 'modify', oldPath: path, newPath: path, hunks: [] };
      byPath.set(path, fp);
      order.push(fp);
    }
    // An empty SEARCH creates the file (or appends, handled when applying).
    if (!hunk.lines.some((l) => l.op === '-') && !fp.hunks.length) fp.kind = 'create';
    fp.hunks.push(hunk);
  }
  for (const fp of order) if (fp.kind === 'create') fp.oldPath = null;
  return order;
}
