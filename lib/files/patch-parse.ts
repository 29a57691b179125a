// Reads the patch formats models write — git/unified diffs (sloppy counts and all), the
// `*** Begin Patch` envelope, SEARCH/REPLACE blocks (Aider, Cline, Roo) — into one list of file changes.
import { InvalidInputError } from '../errors';

export interface HunkLine {
  op: ' ' | '-' | '+';
  text: string;
}

export interface Hunk {
  /**
   * The old-side start line from the header (or Roo's `:start_line:N`), when there is one: a hint
   * that chooses among several places, never trusted alone.
   */
  oldStart?: number;
  lines: HunkLine[];
  /** The old side ends without a newline at end of file (`\ No newline at end of file`). */
  oldNoEol?: boolean;
  newNoEol?: boolean;
  /**
   * Lines the hunk comes after, sought in order before it: a `*** Begin Patch` hunk's `@@ <line>`
   * headers (Codex, OpenCode). Each must be in the file.
   */
  seek?: string[];
  /** A unified header's section text (`@@ -n,m +n,m @@ class B:`): a line above the hunk, a soft hint. */
  section?: string;
  /** The hunk's old text ends at the end of the file (`*** End of File`). */
  atEnd?: boolean;
  /** Its header promised more lines than it holds: the file goes on after it (never "at the end"). */
  short?: boolean;
}

/**
 * How a file's hunks are located: `unified` and `envelope` hunks against the original file, in
 * order and without overlapping; `search-replace` blocks one after another, each in the whole file
 * as the blocks before it left it (as Aider, Cline and Roo apply them).
 */
export type Dialect = 'unified' | 'envelope' | 'search-replace';

export interface FilePatch {
  dialect: Dialect;
  kind: 'modify' | 'create' | 'delete' | 'rename';
  /** Path before (null for a new file). */
  oldPath: string | null;
  /** Path after (null for a deleted file). */
  newPath: string | null;
  hunks: Hunk[];
  /**
   * The paths are from the top of the repository: a git diff (a `diff --git` header, or both
   * headers with a/ b/ prefixes), which `git apply` reads from the top wherever it runs.
   */
  rooted?: boolean;
}

const FIX = 'forge patch --help';

function bad(message: string): InvalidInputError {
  return new InvalidInputError('INVALID_PATCH', message, { fix: FIX });
}

/** A line of the patch as a message quotes it, cut short: a megabyte line is named, not echoed. */
function quoted(line: string): string {
  return `'${line.length > 80 ? `${line.slice(0, 80)}…` : line}'`;
}

const C_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * Git's C-quoted path (`"a/\303\251 \"x\".txt"`, as git writes names with non-ASCII bytes,
 * quotes or control characters) → its text; INVALID_PATCH when the quoting or UTF-8 is broken.
 */
function unquote(quotedPath: string, line: number): string {
  // Escapes are ASCII, so they are undone on the UTF-8 bytes, and the bytes decoded once.
  const src = Buffer.from(quotedPath.slice(1, -1), 'utf8');
  const bytes: number[] = [];
  for (let i = 0; i < src.length; i++) {
    if (src[i] !== 0x5c) {
      bytes.push(src[i]!);
      continue;
    }
    const octal = /^[0-3][0-7]{2}/.exec(src.toString('latin1', i + 1, i + 4))?.[0];
    const code = octal ? parseInt(octal, 8) : C_ESCAPES[String.fromCharCode(src[i + 1] ?? 0)];
    if (code === undefined) throw bad(`a quoted path with a bad escape (line ${line}): ${quoted(quotedPath)}`);
    bytes.push(code);
    i += octal ? 3 : 1;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    throw bad(`a quoted path that is not UTF-8 (line ${line}): ${quoted(quotedPath)}`);
  }
}

/** A path as git writes it: quoted when it holds a quote, a backslash, a control or non-ASCII byte. */
function gitPath(p: string, line: number): string {
  return p.length > 1 && p.startsWith('"') && p.endsWith('"') ? unquote(p, line) : p;
}

/**
 * A path as a `---`/`+++`/`rename` line writes it. git ends a name holding a space with a tab, and
 * GNU diff puts a timestamp after one: the name is what comes before the tab, spaces and all.
 */
function headerPath(raw: string, line: number): string {
  const tab = raw.indexOf('\t');
  return gitPath(tab >= 0 ? raw.slice(0, tab).trimStart() : raw.trim(), line);
}

/**
 * The old and new paths of a `diff --git a/x b/y` line, prefixes dropped, split as git splits it: a
 * quoted name ends at its closing quote; two unquoted names holding spaces are the line's equal
 * halves. `sure` is false when the split is a guess (different names with spaces in them): only
 * `rename` or `---`/`+++` lines can then name the files. Scanned, never a backtracking regex.
 */
function gitHeaderPaths(rest: string, line: number): { paths: [string, string]; sure: boolean } | undefined {
  const pair = (a: string, b: string, sure: boolean) => {
    const [from, to] = [gitPath(a, line), gitPath(b, line)];
    return { paths: [from.startsWith('a/') ? from.slice(2) : from, to.startsWith('b/') ? to.slice(2) : to] as [string, string], sure };
  };
  if (rest.startsWith('"')) {
    let end = 1;
    while (end < rest.length && rest[end] !== '"') end += rest[end] === '\\' ? 2 : 1;
    return rest[end + 1] === ' ' ? pair(rest.slice(0, end + 1), rest.slice(end + 2), true) : undefined;
  }
  if (rest.endsWith('"') && rest.length > 1) {
    // Inside a quoted name every quote is escaped: the opening one is the last unescaped quote before the end.
    let open = rest.length - 2;
    for (; open >= 0; open--) {
      if (rest[open] !== '"') continue;
      let slashes = 0;
      while (open - 1 - slashes >= 0 && rest[open - 1 - slashes] === '\\') slashes++;
      if (slashes % 2 === 0) break;
    }
    return open > 0 && rest[open - 1] === ' ' ? pair(rest.slice(0, open - 1), rest.slice(open), true) : undefined;
  }
  const space = rest.indexOf(' ');
  if (space < 0) return undefined;
  if (rest.indexOf(' ', space + 1) < 0) return pair(rest.slice(0, space), rest.slice(space + 1), true);
  const mid = (rest.length - 1) / 2;
  const tail = (p: string) => p.slice(p.indexOf('/') + 1);
  if (Number.isInteger(mid) && rest[mid] === ' ' && tail(rest.slice(0, mid)) === tail(rest.slice(mid + 1)))
    return pair(rest.slice(0, mid), rest.slice(mid + 1), true);
  const split = rest.indexOf(' b/');
  return split > 0 ? pair(rest.slice(0, split), rest.slice(split + 1), false) : undefined;
}

/** `a/src/x.ts` → `src/x.ts` when `strip`; `/dev/null` → null; a header that names no file is INVALID_PATCH. */
function diffPath(path: string, strip: boolean, line: number): string | null {
  if (path === '/dev/null') return null;
  const p = strip && /^[ab]\//.test(path) ? path.slice(2) : path;
  if (!p)
    throw bad(
      `a file header without a path (line ${line}): write '--- a/<path>' and '+++ b/<path>', or /dev/null for a new or deleted file`,
    );
  return p;
}

const SEARCH_START = /^(?:<{5,9}|-{5,9}) SEARCH>?$/;
const DIVIDER = /^={5,9}$/;
const REPLACE_END = /^(?:>{5,9}|\+{5,9}) REPLACE>?$/;
const SECTION = /^\*\*\* (Update|Add|Delete) File:(.*)$/;
const DIALECT_NAMES: Record<Dialect, string> = {
  unified: 'a unified diff',
  envelope: 'a *** Begin Patch envelope',
  'search-replace': 'a SEARCH/REPLACE block',
};

/** `*** Begin Patch`, `*** End Patch` or a file section's first line, with or without leading whitespace. */
function isDirective(trimmed: string): boolean {
  return trimmed === '*** Begin Patch' || trimmed === '*** End Patch' || SECTION.test(trimmed);
}

/** `diff --git`, or a `--- ` line with a `+++ ` line under it: a file's header in a unified diff. */
function fileHeaderAt(lines: string[], i: number): boolean {
  const l = lines[i]!;
  return l.startsWith('diff --git ') || (l.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ '));
}

/** The dialect line `i` unmistakably starts (a file header, an envelope marker, a SEARCH marker), if any. */
function startsDialect(lines: string[], i: number): Dialect | undefined {
  const t = lines[i]!.trim();
  if (isDirective(t)) return 'envelope';
  if (SEARCH_START.test(t)) return 'search-replace';
  return fileHeaderAt(lines, i) ? 'unified' : undefined;
}

/** A line read as prose must not start another dialect: its changes would be dropped without a word. */
function refuseMixed(lines: string[], i: number, dialect: Dialect): void {
  const other = startsDialect(lines, i);
  if (other && other !== dialect)
    throw bad(
      `the patch mixes formats: line ${i + 1}, ${quoted(lines[i]!)}, starts ${DIALECT_NAMES[other]} after ${DIALECT_NAMES[dialect]}; send one format per patch`,
    );
}

/** Detects the format by its first marker line and parses it. */
export function parsePatch(text: string): FilePatch[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const dialect = startsDialect(lines, i) ?? (/^(?:---|\+\+\+) |^@@(?:\s|$)/.test(line) ? 'unified' : undefined);
    if (dialect === 'envelope') return checkPaths(parseEnvelope(lines));
    if (dialect === 'search-replace') return checkPaths(parseSearchReplace(lines));
    if (dialect === 'unified') return checkPaths(parseUnified(lines));
  }
  throw bad('not a patch: expected a unified or git diff, a *** Begin Patch envelope, or <<<<<<< SEARCH blocks');
}

/** Every change names the paths its kind needs: a new file its new path, a deleted one its old, others both. */
function checkPaths(patches: FilePatch[]): FilePatch[] {
  for (const p of patches) {
    const needed = p.kind === 'create' ? [p.newPath] : p.kind === 'delete' ? [p.oldPath] : [p.oldPath, p.newPath];
    const named = p.newPath ?? p.oldPath;
    if (needed.some((path) => !path?.trim())) {
      throw bad(
        named
          ? `the change to '${named}' does not name both its old and its new path`
          : 'a file change that names no file: give each file a header (--- a/<path> and +++ b/<path>)',
      );
    }
  }
  return patches;
}

interface HunkHeader {
  oldStart?: number;
  /** The counts a numbered header promises (a missing count is 1, as in git). */
  oldCount?: number;
  newCount?: number;
  section?: string;
  seek?: string;
}

const NUMBERED_HEADER = /^@@\s*-(\d+)(?:,(\d+))?\s+\+\d+(?:,(\d+))?\s*(?:@@(.*))?$/;

/**
 * A hunk header: `@@ -n,m +n,m @@ section`, a bare `@@` (or `@@ @@`), or `@@ <line>` naming a line
 * to seek first; undefined for a line that is not one. A numbered header with a typo is INVALID_PATCH.
 */
function hunkHeader(line: string, at: number): HunkHeader | undefined {
  if (!line.startsWith('@@')) return undefined;
  const numbered = NUMBERED_HEADER.exec(line);
  if (numbered) {
    const section = numbered[4]?.trim();
    return {
      oldStart: Number(numbered[1]),
      oldCount: numbered[2] === undefined ? 1 : Number(numbered[2]),
      newCount: numbered[3] === undefined ? 1 : Number(numbered[3]),
      ...(section ? { section } : {}),
    };
  }
  let rest = line.slice(2);
  if (/^@?\s*-\d/.test(rest))
    throw bad(`a malformed hunk header (line ${at}): ${quoted(line)}; write '@@ -<line>,<count> +<line>,<count> @@', or a bare '@@'`);
  if (rest.trimStart().startsWith('@@')) {
    const section = rest.trimStart().slice(2).trim();
    return section ? { section } : {};
  }
  if (rest.startsWith(' ')) rest = rest.slice(1);
  if (rest.endsWith(' @@')) rest = rest.slice(0, -3);
  // Aider's udiff header `@@ ... @@` (and its `…`) says where nothing: a bare '@@', not an anchor line '...'.
  if (/^\s*(\.\.\.|…)\s*$/.test(rest)) return {};
  return rest.trim() ? { seek: rest } : {};
}

/** Adds a header's hints to a hunk: consecutive `@@ <line>` headers nest, in order. */
function addHeader(hunk: Hunk, header: HunkHeader): void {
  if (header.oldStart !== undefined) hunk.oldStart = header.oldStart;
  if (header.section !== undefined) hunk.section = header.section;
  if (header.seek !== undefined) hunk.seek = [...(hunk.seek ?? []), header.seek];
}

/** `\ No newline at end of file` belongs to the line above it. */
function markNoEol(hunk: Hunk): void {
  const prev = hunk.lines[hunk.lines.length - 1];
  if (prev?.op === '-' || prev?.op === ' ') hunk.oldNoEol = true;
  if (prev?.op === '+' || prev?.op === ' ') hunk.newNoEol = true;
}

const isChange = (line: string): boolean => line[0] === ' ' || line[0] === '-' || line[0] === '+';

function corrupt(lines: string[], i: number): InvalidInputError {
  return bad(
    `corrupt patch at line ${i + 1}: ${quoted(lines[i]!)} is inside a hunk, where every line starts with ' ' (context), '-' (removed) or '+' (added)`,
  );
}

/**
 * Reads a file's hunks from `lines[start]` on, forgiving what models get wrong: counts that are
 * off (hunk lines go on past them), bare `@@`, blank context lines whose space was dropped. A hunk
 * ends at the next file's header, or at a line that is not a hunk line — where a diff meets prose.
 * Such a line with hunk lines right under it is inside the hunk: corrupt, as git says. (git would
 * take it as the end when the header's counts are all read; models' counts are too often wrong for
 * that to be safe, and a hunk cut short is a wrong file with exit 0.)
 */
function readUnifiedHunks(lines: string[], start: number): { hunks: Hunk[]; next: number } {
  const hunks: Hunk[] = [];
  let hunk: Hunk | undefined;
  let unread: { old: number; new: number } | undefined;
  let headerLine = 0;
  const take = (op: HunkLine['op'], text: string) => {
    hunk!.lines.push({ op, text });
    if (unread && op !== '+') unread.old--;
    if (unread && op !== '-') unread.new--;
  };
  let i = start;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (fileHeaderAt(lines, i)) break;
    const header = hunkHeader(line, i + 1);
    if (header) {
      if (!hunk || hunk.lines.length || (header.oldStart !== undefined && hunk.oldStart !== undefined)) hunks.push((hunk = { lines: [] }));
      addHeader(hunk, header);
      headerLine = i + 1;
      unread = header.oldCount === undefined ? undefined : { old: header.oldCount, new: header.newCount! };
      continue;
    }
    if (!hunk) {
      if (line === '') continue;
      // Hunk lines right under the file header: a hunk without its @@ line.
      if (!isChange(line)) break;
      hunks.push((hunk = { lines: [] }));
    }
    if (line[0] === '\\') markNoEol(hunk);
    else if (line === '-- ' && unread?.old === 0 && unread.new === 0)
      break; // git format-patch's signature under the last hunk
    else if (isChange(line)) take(line[0] as HunkLine['op'], line.slice(1));
    else if (line === '') {
      // Blank context lines whose leading space was dropped — if the hunk goes on after them. The
      // whole run is decided at once, so a long run costs its length, not its square.
      const k = blankRunEnd(lines, i);
      if (k < lines.length && (isChange(lines[k]!) || lines[k]![0] === '\\') && !fileHeaderAt(lines, k)) {
        for (; i < k; i++) take(' ', '');
        i = k - 1;
        continue;
      }
      // Before the next hunk's header, as many as the header's counts still owe (git reads an empty
      // line inside a hunk as context); the rest, or all of them under a bare @@, separate hunks.
      if (k < lines.length && hunkHeader(lines[k]!, k + 1)) {
        const owed = unread && unread.old > 0 && unread.old === unread.new ? Math.min(unread.old, k - i) : 0;
        for (let n = 0; n < owed; n++) take(' ', '');
        i = k - 1;
        continue;
      }
      break;
    } else if (i + 1 < lines.length && isChange(lines[i + 1]!) && !fileHeaderAt(lines, i + 1)) throw corrupt(lines, i);
    else break;
  }
  // Counts already exceeded on one side are wrong, and no sign of a cut.
  const owes = unread && unread.old >= 0 && unread.new >= 0 && unread.old + unread.new > 0;
  if (hunk && owes && lines.slice(i).every((l) => l === '')) endShort(hunk, unread!, { lines, i, headerLine }, take);
  return { hunks: hunks.filter((h) => h.lines.length), next: i };
}

/**
 * The input ends inside the last hunk's promise. Blank context lines an editor
 * stripped of their space make it up when there are as many (the final newline's empty piece
 * aside). Else the evidence decides, not the counts: a hunk that ends on a context line is whole
 * and its counts wrong (the context is checked against the file, as `git apply --recount` reads
 * it); one that ends on a change may have been cut inside it, and a change cut short would be a
 * wrong file with exit 0.
 */
function endShort(
  hunk: Hunk,
  unread: { old: number; new: number },
  { lines, i, headerLine }: { lines: string[]; i: number; headerLine: number },
  take: (op: HunkLine['op'], text: string) => void,
): void {
  const blanks = lines.length - i - (lines.at(-1) === '' ? 1 : 0);
  if (unread.old === unread.new && unread.old > 0 && unread.old <= blanks) {
    while (unread.old > 0) take(' ', '');
    return;
  }
  const last = hunk.lines.at(-1);
  if (last?.op === ' ') {
    hunk.short = true;
    return;
  }
  const owed = [...(unread.old ? [`${unread.old} more old`] : []), ...(unread.new ? [`${unread.new} more new`] : [])].join(' and ');
  throw bad(
    `the patch looks cut off: its last hunk (line ${headerLine}) ends on a '${last?.op ?? '@@'}' line though its header promises ${owed} line${unread.old + unread.new === 1 ? '' : 's'}; if the hunk is whole, correct its counts or give it a bare '@@' header, else send the rest of the hunk`,
  );
}

/** git's extended header lines that need nothing from forge (file modes are not written). */
const GIT_EXTENDED = /^(?:old mode|new mode|similarity index|dissimilarity index|index) /;

function parseUnified(lines: string[]): FilePatch[] {
  const patches: FilePatch[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const at = i + 1;
    let oldPath: string | null | undefined;
    let newPath: string | null | undefined;
    let kind: FilePatch['kind'] = 'modify';
    let rooted = false;
    let guessed = false;
    let renamed = false;
    let modeChanged = false;
    if (line.startsWith('diff --git ')) {
      rooted = true;
      const header = gitHeaderPaths(line.slice(11), at);
      if (header) [[oldPath, newPath], guessed] = [header.paths, !header.sure];
      for (i++; i < lines.length; i++) {
        const ext = lines[i]!;
        if (ext.startsWith('new file mode')) kind = 'create';
        else if (ext.startsWith('deleted file mode')) kind = 'delete';
        else if (ext.startsWith('rename from ')) [kind, oldPath, renamed] = ['rename', headerPath(ext.slice(12), i + 1), true];
        else if (ext.startsWith('rename to ')) [kind, newPath, renamed] = ['rename', headerPath(ext.slice(10), i + 1), true];
        else if (/^(?:copy from |copy to |GIT binary patch|Binary files )/.test(ext))
          throw bad(`binary or copy patches are not supported (line ${i + 1}): ${quoted(ext)}`);
        else if (GIT_EXTENDED.test(ext)) modeChanged ||= ext.startsWith('new mode');
        else break;
      }
      if (oldPath === undefined && newPath === undefined) throw bad(`a 'diff --git' line without two paths (line ${at}): ${quoted(line)}`);
      if (kind === 'create') oldPath = null;
      if (kind === 'delete') newPath = null;
    }
    const headed = lines[i]?.startsWith('--- ') ?? false;
    if (headed) {
      const fromText = headerPath(lines[i]!.slice(4), i + 1);
      i++;
      if (!lines[i]?.startsWith('+++ ')) throw bad(`a '---' line without a '+++' line (line ${i})`);
      const toText = headerPath(lines[i]!.slice(4), i + 1);
      const strip = /^[ab]\//.test(fromText) && toText.startsWith('b/');
      rooted ||= strip;
      const from = diffPath(fromText, strip || fromText.startsWith('a/'), i);
      const to = diffPath(toText, strip || toText.startsWith('b/'), i + 1);
      i++;
      rooted ||= (from === null || fromText.startsWith('a/')) && (to === null || toText.startsWith('b/'));
      oldPath = from;
      newPath = to;
      if (from === null) kind = 'create';
      else if (to === null) kind = 'delete';
      else if (from !== to && kind === 'modify') kind = 'rename';
    }
    if (oldPath === undefined && newPath === undefined) {
      if (hunkHeader(line, at)) throw bad(`a hunk without a file header (line ${at}): put '--- a/<path>' and '+++ b/<path>' above it`);
      refuseMixed(lines, i, 'unified');
      i++;
      continue;
    }
    if (guessed && !renamed && !headed)
      throw bad(
        `the 'diff --git' line at line ${at} does not say where its first path ends: ${quoted(line)}; put '--- a/<path>' and '+++ b/<path>' lines under it`,
      );
    const { hunks, next } = readUnifiedHunks(lines, i);
    const named = newPath ?? oldPath;
    if (!hunks.length && (headed || (kind === 'modify' && !modeChanged)))
      throw bad(
        `the change to '${named}' (line ${at}) has no hunk: put its '@@' hunks, lines starting with ' ', '-' or '+', under its header`,
      );
    i = next;
    patches.push({ dialect: 'unified', kind, oldPath: oldPath ?? null, newPath: newPath ?? null, hunks, ...(rooted ? { rooted } : {}) });
  }
  if (!patches.length) throw bad('no file changes found in the diff');
  return patches;
}

/** A line that goes on a hunk: `-`, `+` or ` ` and not an envelope marker indented by one space. */
function isEnvelopeChange(line: string): boolean {
  const t = line.trim();
  return isChange(line) && !isDirective(t) && t !== '*** End of File';
}

/** The end of the run of empty lines that starts at `i`. */
function blankRunEnd(lines: string[], i: number): number {
  let k = i;
  while (k < lines.length && lines[k] === '') k++;
  return k;
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
function parseEnvelope(lines: string[]): FilePatch[] {
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
function parseSearchReplace(lines: string[]): FilePatch[] {
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

/** The same changes the other way round (`forge patch --reverse`). */
export function reversePatch(patches: FilePatch[]): FilePatch[] {
  const flip: Record<HunkLine['op'], HunkLine['op']> = { ' ': ' ', '-': '+', '+': '-' };
  return patches.map((p) => {
    // A hunk's new side starts where its old side did, moved by what the hunks above it added and
    // removed; an empty side's number is the line before it, as git writes `-5,0` / `+5,0`.
    let drift = 0;
    const hunks = p.hunks.map((h) => {
      const oldLen = h.lines.filter((l) => l.op !== '+').length;
      const newLen = h.lines.length - h.lines.filter((l) => l.op === '-').length;
      const newStart = h.oldStart === undefined ? undefined : h.oldStart + drift + (oldLen ? 0 : 1) - (newLen ? 0 : 1);
      drift += newLen - oldLen;
      return {
        ...(newStart !== undefined ? { oldStart: Math.max(newStart, 0) } : {}),
        lines: h.lines.map((l) => ({ op: flip[l.op], text: l.text })),
        ...(h.newNoEol ? { oldNoEol: true } : {}),
        ...(h.oldNoEol ? { newNoEol: true } : {}),
        ...(h.seek ? { seek: h.seek } : {}),
        ...(h.section !== undefined ? { section: h.section } : {}),
        ...(h.atEnd ? { atEnd: true } : {}),
      };
    });
    return {
      dialect: p.dialect,
      kind: p.kind === 'create' ? 'delete' : p.kind === 'delete' ? 'create' : p.kind,
      oldPath: p.newPath,
      newPath: p.oldPath,
      hunks,
      ...(p.rooted ? { rooted: true } : {}),
    };
  });
}
