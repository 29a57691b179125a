// The corpus's raw material, one file changed by one real commit: its diff read by its counts and checked to rebuild the after-file exactly.

export type Eol = '\n' | '\r\n' | '';

/** A file as lines and their endings (the last one '' when the file has no final newline). */
export interface Text {
  lines: string[];
  eols: Eol[];
}

export interface HunkLine {
  op: ' ' | '-' | '+';
  text: string;
  /** git's `\ No newline at end of file` follows this line. */
  noEol?: boolean;
}

export interface Hunk {
  /** 1-based, as in the header; with oldCount 0 the line the hunk comes after. */
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  section: string;
  lines: HunkLine[];
}

/** One file changed by one real commit. */
export interface Base {
  /** `<source>@<commit>:<path>`. */
  name: string;
  commit: string;
  path: string;
  /** git's own diff of the file, verbatim. */
  patch: string;
  head: string[];
  hunks: Hunk[];
  before: Text;
  after: Text;
  /** No `\ No newline` marker, a non-empty file, and every hunk has old lines: fit for every perturbation. */
  plain: boolean;
}

export const MAX_FILE = 256 * 1024;

function toText(buf: Buffer): Text {
  const s = buf.toString('utf8');
  if (!s) return { lines: [], eols: [] };
  const lines = s.split('\n');
  const final = lines.at(-1) === '';
  if (final) lines.pop();
  return { lines, eols: lines.map((_, i) => (i < lines.length - 1 || final ? '\n' : '')) };
}

export function fromText(t: Text): Buffer {
  return Buffer.from(t.lines.map((l, i) => l + t.eols[i]).join(''), 'utf8');
}

/** Reads git's diff of one file by its counts (a removed line may look like a header). */
function parseFileDiff(patch: string): { head: string[]; hunks: Hunk[] } | null {
  const lines = patch.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let i = 0;
  const head: string[] = [];
  while (i < lines.length && !lines[i]!.startsWith('@@')) head.push(lines[i++]!);
  const hunks: Hunk[] = [];
  while (i < lines.length) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(?: (.*))?$/.exec(lines[i++]!);
    if (!m) return null;
    const h: Hunk = {
      oldStart: +m[1]!,
      oldCount: m[2] === undefined ? 1 : +m[2],
      newStart: +m[3]!,
      newCount: m[4] === undefined ? 1 : +m[4],
      section: m[5] ?? '',
      lines: [],
    };
    let [o, n] = [h.oldCount, h.newCount];
    while (o > 0 || n > 0) {
      const l = lines[i++];
      const op = l?.[0];
      if (op !== ' ' && op !== '-' && op !== '+') return null;
      if (op !== '+') o--;
      if (op !== '-') n--;
      if (o < 0 || n < 0) return null;
      h.lines.push({ op, text: l!.slice(1) });
      if (lines[i]?.startsWith('\\')) (h.lines.at(-1)!.noEol = true), i++;
    }
    hunks.push(h);
  }
  return hunks.length ? { head, hunks } : null;
}

export const startOf = (h: Hunk) => (h.oldCount ? h.oldStart - 1 : h.oldStart);
export const oldOf = (h: Hunk) => h.lines.filter((l) => l.op !== '+').map((l) => l.text);
export const newOf = (h: Hunk) => h.lines.filter((l) => l.op !== '-').map((l) => l.text);

/** Each line of the after-file: the before line it keeps, or the hunk line that adds it. */
type Origin = { kept: number } | { hunk: number; line: number };

export function align(beforeLength: number, hunks: Hunk[]): Origin[] {
  const origin: Origin[] = [];
  let b = 0;
  hunks.forEach((h, k) => {
    while (b < startOf(h)) origin.push({ kept: b++ });
    h.lines.forEach((l, j) => {
      if (l.op === ' ') origin.push({ kept: b++ });
      else if (l.op === '-') b++;
      else origin.push({ hunk: k, line: j });
    });
  });
  while (b < beforeLength) origin.push({ kept: b++ });
  return origin;
}

/** A base whose hunks rebuild the after-file from the before-file exactly; null for anything else. */
export function makeBase(name: string, commit: string, path: string, patch: string, before: Buffer, after: Buffer): Base | null {
  if (
    before.length > MAX_FILE ||
    after.length > MAX_FILE ||
    before.includes(0) ||
    after.includes(0) ||
    before.includes(13) ||
    after.includes(13)
  )
    return null;
  if (!Buffer.from(before.toString('utf8')).equals(before) || !Buffer.from(after.toString('utf8')).equals(after)) return null;
  const parsed = parseFileDiff(patch);
  if (!parsed) return null;
  const b = toText(before);
  const a = toText(after);
  let at = 0;
  for (const h of parsed.hunks) {
    if (startOf(h) < at) return null;
    at = startOf(h);
    for (const l of h.lines) if (l.op !== '+' && b.lines[at++] !== l.text) return null;
  }
  const rebuilt = align(b.lines.length, parsed.hunks).map((o) =>
    'kept' in o ? b.lines[o.kept] : parsed.hunks[o.hunk]!.lines[o.line]!.text,
  );
  if (rebuilt.length !== a.lines.length || rebuilt.some((l, i) => l !== a.lines[i])) return null;
  const plain =
    !parsed.hunks.some((h) => h.lines.some((l) => l.noEol)) &&
    b.lines.length > 0 &&
    b.eols.at(-1) === '\n' &&
    a.eols.at(-1) === '\n' &&
    parsed.hunks.every((h) => h.oldCount > 0);
  return { name, commit, path, patch, ...parsed, before: b, after: a, plain };
}
