// Reads the patch formats models write — git/unified diffs (sloppy counts and all), the
// `*** Begin Patch` envelope, SEARCH/REPLACE blocks — into one list of file changes.
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
  /** Paths are from the top of the repository: a git diff (`diff --git` header, or both headers with a/ b/ prefixes). */
  rooted?: boolean;
}

const FIX = 'forge patch --help';

function bad(message: string): InvalidInputError {
  return new InvalidInputError('INVALID_PATCH', message, { fix: FIX });
}

const C_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * Git's C-quoted path (`"a/\303\251 \"x\".txt"`, as git writes names with non-ASCII bytes,
 * quotes or control characters) → its text; INVALID_PATCH when the quoting or UTF-8 is broken.
 */
function unquote(quoted: string, line: number): string {
  // Escapes are ASCII, so they are undone on the UTF-8 bytes, and the bytes decoded once.
  const src = Buffer.from(quoted.slice(1, -1), 'utf8');
  const bytes: number[] = [];
  for (let i = 0; i < src.length; i++) {
    if (src[i] !== 0x5c) {
      bytes.push(src[i]!);
      continue;
    }
    const octal = /^[0-3][0-7]{2}/.exec(src.toString('latin1', i + 1, i + 4))?.[0];
    const code = octal ? parseInt(octal, 8) : C_ESCAPES[String.fromCharCode(src[i + 1] ?? 0)];
    if (code === undefined) throw bad(`a quoted path with a bad escape (line ${line}): ${quoted}`);
    bytes.push(code);
    i += octal ? 3 : 1;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    throw bad(`a quoted path that is not UTF-8 (line ${line}): ${quoted}`);
  }
}

/** A path as a header writes it: a trailing tab and timestamp (GNU diff) dropped, git's quoting undone. */
function headerPath(raw: string, line: number): string {
  const p = raw.replace(/\t.*$/, '').trim();
  return p.length > 1 && p.startsWith('"') && p.endsWith('"') ? unquote(p, line) : p;
}

/**
 * The old and new paths of a `diff --git a/x b/y` line, either of them quoted; undefined when they
 * cannot be told apart. Split by scanning, not a backtracking regex: a long line costs its length.
 */
function gitHeaderPaths(rest: string, line: number): [string, string] | undefined {
  const quoted = /^"(?:[^"\\]|\\.)*"(?= )/.exec(rest)?.[0];
  const split = quoted ? quoted.length : rest.search(/ "?b\//);
  if (split > 0) return [headerPath(rest.slice(0, split), line).replace(/^a\//, ''), headerPath(rest.slice(split + 1), line).replace(/^b\//, '')];
  const words = rest.split(' ');
  return words.length === 2 && words[0] && words[1] ? [words[0], words[1]] : undefined;
}

/** `a/src/x.ts` → `src/x.ts` when `strip`; `/dev/null` → null; a header that names no file is INVALID_PATCH. */
function diffPath(path: string, strip: boolean, line: number): string | null {
  if (path === '/dev/null') return null;
  const p = strip && /^[ab]\//.test(path) ? path.slice(2) : path;
  if (!p) throw bad(`a file header without a path (line ${line}): write '--- a/<path>' and '+++ b/<path>', or /dev/null for a new or deleted file`);
  return p;
}

/** Detects the format and parses it. */
export function parsePatch(text: string): FilePatch[] {
  const src = text.replace(/\r\n/g, '\n');
  if (/^\*\*\* Begin Patch\s*$/m.test(src)) return checkPaths(parseEnvelope(src));
  if (/^<{5,9} SEARCH\s*$/m.test(src)) return checkPaths(parseSearchReplace(src));
  if (/^(---|\+\+\+|@@|diff --git) /m.test(src) || /^@@\s*$/m.test(src)) return checkPaths(parseUnified(src));
  throw bad('not a patch: expected a unified or git diff, a *** Begin Patch envelope, or <<<<<<< SEARCH blocks');
}

/** Every change names the paths its kind needs: a new file its new path, a deleted one its old, others both. */
function checkPaths(patches: FilePatch[]): FilePatch[] {
  for (const p of patches) {
    const needed = p.kind === 'create' ? [p.newPath] : p.kind === 'delete' ? [p.oldPath] : [p.oldPath, p.newPath];
    const named = p.newPath ?? p.oldPath;
    if (needed.some((path) => !path?.trim())) {
      throw bad(named ? `the change to '${named}' does not name both its old and its new path` : 'a file change that names no file: give each file a header (--- a/<path> and +++ b/<path>)');
    }
  }
  return patches;
}

/** Reads hunk bodies from `lines[i]` on; returns the hunks and the index after them. */
function readHunks(lines: string[], start: number, stopAt: (index: number) => boolean): { hunks: Hunk[]; next: number } {
  const hunks: Hunk[] = [];
  let i = start;
  let current: Hunk | null = null;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    const header = /^@@\s*(?:-(\d+)(?:,\d+)?\s+\+\d+(?:,\d+)?\s*)?@@(.*)$/.exec(line) ?? (/^@@\s*$/.test(line) ? [line, undefined] : null);
    if (header) {
      current = { lines: [], ...(header[1] ? { oldStart: Number(header[1]) } : {}) };
      hunks.push(current);
      continue;
    }
    if (stopAt(i)) break;
    if (!current) {
      // Envelope hunks may start without an @@ line.
      if (/^[ +-]/.test(line)) {
        current = { lines: [] };
        hunks.push(current);
      } else continue;
    }
    if (line.startsWith('\\')) {
      // "\ No newline at end of file" belongs to the line before it.
      const prev = current.lines[current.lines.length - 1];
      if (prev?.op === '-' || prev?.op === ' ') current.oldNoEol = true;
      if (prev?.op === '+' || prev?.op === ' ') current.newNoEol = true;
      continue;
    }
    const op = line[0];
    if (op === ' ' || op === '-' || op === '+') current.lines.push({ op, text: line.slice(1) });
    else if (line === '') {
      // Blank context lines whose leading space an editor or model dropped — if the hunk goes on.
      // The whole run of blanks is decided at once, so a long run costs its length, not its square.
      let k = i + 1;
      while (k < lines.length && lines[k] === '') k++;
      if (k < lines.length && /^[-+ \\]/.test(lines[k]!) && !stopAt(k)) for (let b = i; b < k; b++) current.lines.push({ op: ' ', text: '' });
      i = k - 1;
    } else break;
  }
  return { hunks: hunks.filter((h) => h.lines.length), next: i };
}

function parseUnified(src: string): FilePatch[] {
  const lines = src.split('\n');
  const patches: FilePatch[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    let oldPath: string | null | undefined;
    let newPath: string | null | undefined;
    let kind: FilePatch['kind'] = 'modify';
    let rooted = line.startsWith('diff --git ');
    if (line.startsWith('diff --git ')) {
      [oldPath, newPath] = gitHeaderPaths(line.slice(11), i + 1) ?? [undefined, undefined];
      i++;
      for (; i < lines.length && !/^(---|\+\+\+|@@|diff --git) /.test(lines[i]!) && !/^@@\s*$/.test(lines[i]!); i++) {
        const ext = lines[i]!;
        if (ext.startsWith('new file mode')) kind = 'create';
        else if (ext.startsWith('deleted file mode')) kind = 'delete';
        else if (ext.startsWith('rename from ')) (kind = 'rename'), (oldPath = headerPath(ext.slice(12), i + 1));
        else if (ext.startsWith('rename to ')) (kind = 'rename'), (newPath = headerPath(ext.slice(10), i + 1));
        else if (ext.startsWith('copy from ') || ext.startsWith('copy to ') || ext.startsWith('GIT binary patch') || ext.startsWith('Binary files ')) {
          throw bad(`binary or copy patches are not supported (${ext})`);
        }
      }
      if (kind === 'create') oldPath = null;
      if (kind === 'delete') newPath = null;
    }
    if (lines[i]?.startsWith('--- ')) {
      const fromText = headerPath(lines[i]!.slice(4), i + 1);
      i++;
      if (!lines[i]?.startsWith('+++ ')) throw bad(`a '---' line without a '+++' line (line ${i})`);
      const toText = headerPath(lines[i]!.slice(4), i + 1);
      const strip = /^[ab]\//.test(fromText) && toText.startsWith('b/');
      rooted ||= strip;
      const from = diffPath(fromText, strip || fromText.startsWith('a/'), i);
      const to = diffPath(toText, strip || toText.startsWith('b/'), i + 1);
      i++;
      oldPath = from;
      newPath = to;
      if (from === null) kind = 'create';
      else if (to === null) kind = 'delete';
      else if (from !== to && kind === 'modify') kind = 'rename';
    }
    if (oldPath === undefined && newPath === undefined) {
      if (/^@@/.test(line)) throw bad(`a hunk before any file header (line ${i + 1}): start the diff with '--- a/<path>' and '+++ b/<path>'`);
      i++;
      continue;
    }
    const { hunks, next } = readHunks(lines, i, (k) => lines[k]!.startsWith('diff --git ') || (lines[k]!.startsWith('--- ') && (lines[k + 1] ?? '').startsWith('+++ ')));
    i = next;
    patches.push({ dialect: 'unified', kind, oldPath: oldPath ?? null, newPath: newPath ?? null, hunks, ...(rooted ? { rooted } : {}) });
  }
  if (!patches.length) throw bad('no file changes found in the diff');
  return patches;
}

function parseEnvelope(src: string): FilePatch[] {
  const lines = src.split('\n');
  const start = lines.findIndex((l) => /^\*\*\* Begin Patch\s*$/.test(l));
  const patches: FilePatch[] = [];
  let i = start + 1;
  const isDirective = (l: string) => /^\*\*\* (Update|Add|Delete) File: |^\*\*\* End Patch\s*$|^\*\*\* Move to: /.test(l);
  while (i < lines.length) {
    const line = lines[i]!;
    if (/^\*\*\* End Patch\s*$/.test(line)) break;
    const m = /^\*\*\* (Update|Add|Delete) File: (.+)$/.exec(line);
    if (!m) {
      i++;
      continue;
    }
    const path = m[2]!.trim();
    i++;
    if (m[1] === 'Delete') {
      patches.push({ dialect: 'envelope', kind: 'delete', oldPath: path, newPath: null, hunks: [] });
      continue;
    }
    if (m[1] === 'Add') {
      const body: HunkLine[] = [];
      for (; i < lines.length && !isDirective(lines[i]!); i++) if (lines[i]!.startsWith('+')) body.push({ op: '+', text: lines[i]!.slice(1) });
      patches.push({ dialect: 'envelope', kind: 'create', oldPath: null, newPath: path, hunks: [{ lines: body }] });
      continue;
    }
    let newPath = path;
    if (lines[i]?.startsWith('*** Move to: ')) {
      newPath = lines[i]!.slice(13).trim();
      i++;
    }
    const { hunks, next } = readHunks(lines, i, (k) => isDirective(lines[k]!));
    i = next;
    // The envelope's end-of-file marker.
    for (const h of hunks) h.lines = h.lines.filter((l) => !(l.op === ' ' && l.text === '** End of File'));
    patches.push({ dialect: 'envelope', kind: newPath === path ? 'modify' : 'rename', oldPath: path, newPath, hunks });
  }
  if (!patches.length) throw bad('the *** Begin Patch envelope holds no file changes');
  return patches;
}

/** `s` without the trailing characters `char` matches — a loop: `/[…]+$/` costs quadratic time on a long line. */
function trimEnd(s: string, char: RegExp): string {
  let end = s.length;
  while (end > 0 && char.test(s[end - 1]!)) end--;
  return s.slice(0, end);
}

function parseSearchReplace(src: string): FilePatch[] {
  const lines = src.split('\n');
  const byPath = new Map<string, FilePatch>();
  const order: FilePatch[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^<{5,9} SEARCH\s*$/.test(lines[i]!)) continue;
    // The file name is the nearest non-fence, non-empty line above the block.
    let path: string | undefined;
    for (let j = i - 1; j >= 0; j--) {
      const l = lines[j]!.trim();
      if (!l || /^`{3,}/.test(l) || /^>{5,9} REPLACE$/.test(l)) {
        if (/^>{5,9} REPLACE$/.test(l)) break;
        continue;
      }
      path = trimEnd(l.replace(/^[#*`\s]+/, ''), /[*`:\s]/);
      break;
    }
    if (!path) path = order.at(-1)?.newPath ?? undefined;
    if (!path) throw bad(`a SEARCH block without a file name above it (line ${i + 1})`);
    const search: string[] = [];
    const replace: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^={5,9}\s*$/.test(lines[j]!); j++) search.push(lines[j]!);
    if (j >= lines.length) throw bad(`a SEARCH block without '=======' (line ${i + 1})`);
    for (j++; j < lines.length && !/^>{5,9} REPLACE\s*$/.test(lines[j]!); j++) replace.push(lines[j]!);
    if (j >= lines.length) throw bad(`a SEARCH block without '>>>>>>> REPLACE' (line ${i + 1})`);
    i = j;
    let fp = byPath.get(path);
    if (!fp) {
      fp = { dialect: 'search-replace', kind: 'modify', oldPath: path, newPath: path, hunks: [] };
      byPath.set(path, fp);
      order.push(fp);
    }
    // An empty SEARCH creates the file (or appends, handled when applying).
    if (!search.length && !fp.hunks.length) fp.kind = 'create';
    fp.hunks.push({ lines: [...search.map((text) => ({ op: '-' as const, text })), ...replace.map((text) => ({ op: '+' as const, text }))] });
  }
  for (const fp of order) if (fp.kind === 'create') fp.oldPath = null;
  return order;
}

/** The same changes the other way round (`forge patch --reverse`). */
export function reversePatch(patches: FilePatch[]): FilePatch[] {
  const flip: Record<HunkLine['op'], HunkLine['op']> = { ' ': ' ', '-': '+', '+': '-' };
  return patches.map((p) => ({
    dialect: p.dialect,
    kind: p.kind === 'create' ? 'delete' : p.kind === 'delete' ? 'create' : p.kind,
    oldPath: p.newPath,
    newPath: p.oldPath,
    hunks: p.hunks.map((h) => ({
      ...(h.oldStart !== undefined ? { oldStart: h.oldStart } : {}),
      lines: h.lines.map((l) => ({ op: flip[l.op], text: l.text })),
      ...(h.newNoEol ? { oldNoEol: true } : {}),
      ...(h.oldNoEol ? { newNoEol: true } : {}),
    })),
  }));
}
