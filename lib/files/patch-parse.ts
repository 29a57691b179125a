// Reads the patch formats models write — git/unified diffs (sloppy counts and all), the
// `*** Begin Patch` envelope, SEARCH/REPLACE blocks — into one list of file changes.
import { InvalidInputError } from '../errors';

export interface HunkLine {
  op: ' ' | '-' | '+';
  text: string;
}

export interface Hunk {
  /** The old-side start line from the header, when there is one: a hint, never trusted. */
  oldStart?: number;
  lines: HunkLine[];
  /** The old side ends without a newline at end of file (`\ No newline at end of file`). */
  oldNoEol?: boolean;
  newNoEol?: boolean;
}

export interface FilePatch {
  kind: 'modify' | 'create' | 'delete' | 'rename';
  /** Path before (null for a new file). */
  oldPath: string | null;
  /** Path after (null for a deleted file). */
  newPath: string | null;
  hunks: Hunk[];
}

const FIX = 'forge patch --help';

function bad(message: string): InvalidInputError {
  return new InvalidInputError('INVALID_PATCH', message, { fix: FIX });
}

/** `a/src/x.ts` → `src/x.ts`; `/dev/null` → null; a trailing tab and timestamp (GNU diff) dropped. */
function diffPath(raw: string, strip: boolean): string | null {
  let p = raw.replace(/\t.*$/, '').trim();
  if (p.startsWith('"') && p.endsWith('"')) p = JSON.parse(p) as string;
  if (p === '/dev/null') return null;
  return strip && /^[ab]\//.test(p) ? p.slice(2) : p;
}

/** Detects the format and parses it. */
export function parsePatch(text: string): FilePatch[] {
  const src = text.replace(/\r\n/g, '\n');
  if (/^\*\*\* Begin Patch\s*$/m.test(src)) return parseEnvelope(src);
  if (/^<{5,9} SEARCH\s*$/m.test(src)) return parseSearchReplace(src);
  if (/^(---|\+\+\+|@@|diff --git) /m.test(src) || /^@@\s*$/m.test(src)) return parseUnified(src);
  throw bad('not a patch: expected a unified or git diff, a *** Begin Patch envelope, or <<<<<<< SEARCH blocks');
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
      // A blank context line whose leading space an editor or model dropped — if the hunk goes on.
      let k = i + 1;
      while (k < lines.length && lines[k] === '') k++;
      if (k < lines.length && /^[-+ \\]/.test(lines[k]!) && !stopAt(k)) current.lines.push({ op: ' ', text: '' });
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
    if (line.startsWith('diff --git ')) {
      const m = /^diff --git (?:"?a\/(.+?)"? "?b\/(.+?)"?|(\S+) (\S+))$/.exec(line);
      oldPath = m ? (m[1] ?? m[3]!) : undefined;
      newPath = m ? (m[2] ?? m[4]!) : undefined;
      i++;
      for (; i < lines.length && !/^(---|\+\+\+|@@|diff --git) /.test(lines[i]!) && !/^@@\s*$/.test(lines[i]!); i++) {
        const ext = lines[i]!;
        if (ext.startsWith('new file mode')) kind = 'create';
        else if (ext.startsWith('deleted file mode')) kind = 'delete';
        else if (ext.startsWith('rename from ')) (kind = 'rename'), (oldPath = ext.slice(12));
        else if (ext.startsWith('rename to ')) (kind = 'rename'), (newPath = ext.slice(10));
        else if (ext.startsWith('copy from ') || ext.startsWith('copy to ') || ext.startsWith('GIT binary patch') || ext.startsWith('Binary files ')) {
          throw bad(`binary or copy patches are not supported (${ext})`);
        }
      }
      if (kind === 'create') oldPath = null;
      if (kind === 'delete') newPath = null;
    }
    if (lines[i]?.startsWith('--- ')) {
      const strip = /^--- [ab]\//.test(lines[i]!) && (lines[i + 1] ?? '').startsWith('+++ b/');
      const from = diffPath(lines[i]!.slice(4), strip || /^--- a\//.test(lines[i]!));
      i++;
      if (!lines[i]?.startsWith('+++ ')) throw bad(`a '---' line without a '+++' line (line ${i})`);
      const to = diffPath(lines[i]!.slice(4), strip || /^\+\+\+ b\//.test(lines[i]!));
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
    patches.push({ kind, oldPath: oldPath ?? null, newPath: newPath ?? null, hunks });
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
      patches.push({ kind: 'delete', oldPath: path, newPath: null, hunks: [] });
      continue;
    }
    if (m[1] === 'Add') {
      const body: HunkLine[] = [];
      for (; i < lines.length && !isDirective(lines[i]!); i++) if (lines[i]!.startsWith('+')) body.push({ op: '+', text: lines[i]!.slice(1) });
      patches.push({ kind: 'create', oldPath: null, newPath: path, hunks: [{ lines: body }] });
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
    patches.push({ kind: newPath === path ? 'modify' : 'rename', oldPath: path, newPath, hunks });
  }
  if (!patches.length) throw bad('the *** Begin Patch envelope holds no file changes');
  return patches;
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
      path = l.replace(/^[#*`\s]+|[*`:\s]+$/g, '');
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
      fp = { kind: 'modify', oldPath: path, newPath: path, hunks: [] };
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
