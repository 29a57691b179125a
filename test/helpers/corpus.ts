// The patch and edit corpus: real commits (this repository's, node_modules' releases) perturbed as models err, with the exact bytes expected or a refusal.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { anchorOf } from '../../lib/files/anchor';
import { PINNED_ENV, tempDir } from './repo';

type Eol = '\n' | '\r\n' | '';

/** A file as lines and their endings (the last one '' when the file has no final newline). */
export interface Text {
  lines: string[];
  eols: Eol[];
}

interface HunkLine {
  op: ' ' | '-' | '+';
  text: string;
  /** git's `\ No newline at end of file` follows this line. */
  noEol?: boolean;
}

interface Hunk {
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

export interface PatchCase {
  name: string;
  perturbation: string;
  /** Files before the patch, by path. */
  before: Record<string, Buffer>;
  patch: string;
  /** Files after a correct apply; null when a correct tool must refuse and change nothing. */
  after: Record<string, Buffer> | null;
}

/** One `forge edit` call: --old/--new (with --anchor), or --lines A#H..B#H --new. */
export type EditOp = { old: string; new: string; anchor?: string } | { lines: string; new: string };

export interface EditCase {
  name: string;
  perturbation: string;
  path: string;
  before: Buffer;
  /** Applied one after another, each a separate call. */
  edits: EditOp[];
  /** The file after every edit; null when the (single) edit must be refused and change nothing. */
  after: Buffer | null;
}

// ---------------------------------------------------------------------------------------------
// Real history

const MAX_FILE = 256 * 1024;

/** Runs git with the user's and the system's configuration ignored, so diffs look the same everywhere. */
function gitOut(dir: string, args: string[], input?: string): Buffer {
  return execFileSync(
    'git',
    [
      '-c',
      'core.quotePath=true',
      '-c',
      'diff.noprefix=false',
      '-c',
      'diff.mnemonicPrefix=false',
      '-c',
      'diff.suppressBlankEmpty=false',
      ...args,
    ],
    {
      cwd: dir,
      input,
      maxBuffer: 1 << 30,
      env: { ...process.env, ...PINNED_ENV, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  );
}

/** `git diff -U3` as git prints it by default, every option that could vary pinned. */
const DIFF = [
  '-p',
  '-U3',
  '--inter-hunk-context=0',
  '--no-renames',
  '--full-index',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--diff-algorithm=myers',
  '--diff-filter=M',
];

function toText(buf: Buffer): Text {
  const s = buf.toString('utf8');
  if (!s) return { lines: [], eols: [] };
  const lines = s.split('\n');
  const final = lines.at(-1) === '';
  if (final) lines.pop();
  return { lines, eols: lines.map((_, i) => (i < lines.length - 1 || final ? '\n' : '')) };
}

function fromText(t: Text): Buffer {
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

const startOf = (h: Hunk) => (h.oldCount ? h.oldStart - 1 : h.oldStart);
const oldOf = (h: Hunk) => h.lines.filter((l) => l.op !== '+').map((l) => l.text);
const newOf = (h: Hunk) => h.lines.filter((l) => l.op !== '-').map((l) => l.text);

/** Each line of the after-file: the before line it keeps, or the hunk line that adds it. */
type Origin = { kept: number } | { hunk: number; line: number };

function align(beforeLength: number, hunks: Hunk[]): Origin[] {
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
function makeBase(name: string, commit: string, path: string, patch: string, before: Buffer, after: Buffer): Base | null {
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

/**
 * Every non-merge commit's per-file diffs of modified text files in the repository at `dir`, with
 * the file before and after. A shallow clone gives what it has: its oldest commit adds every file,
 * and added files are not cases.
 */
export function historyBases(dir: string, source: string): Base[] {
  let log: string;
  try {
    log = gitOut(dir, ['log', '--no-merges', '--format=%x01%H', ...DIFF]).toString('utf8');
  } catch {
    return [];
  }
  const found: Array<{ commit: string; path: string; patch: string; from: string; to: string }> = [];
  for (const chunk of log.split('\x01').slice(1)) {
    const commit = chunk.slice(0, 40);
    for (const file of chunk.split(/^(?=diff --git )/m).slice(1)) {
      const index = /^index ([0-9a-f]{40})\.\.([0-9a-f]{40})/m.exec(file);
      const path = /^\+\+\+ b\/(.*)$/m.exec(file)?.[1];
      if (!index || !path || path.startsWith('"') || !/^@@ /m.test(file)) continue;
      found.push({ commit, path, patch: file, from: index[1]!, to: index[2]! });
    }
  }
  const blobs = readBlobs(
    dir,
    found.flatMap((f) => [f.from, f.to]),
  );
  return found.flatMap(
    (f) => makeBase(`${source}@${f.commit.slice(0, 8)}:${f.path}`, f.commit, f.path, f.patch, blobs.get(f.from)!, blobs.get(f.to)!) ?? [],
  );
}

/** The blobs' contents, read by one `git cat-file --batch`. */
function readBlobs(dir: string, ids: string[]): Map<string, Buffer> {
  const unique = [...new Set(ids)];
  const out = new Map<string, Buffer>();
  if (!unique.length) return out;
  const raw = gitOut(dir, ['cat-file', '--batch'], unique.join('\n') + '\n');
  let at = 0;
  while (at < raw.length) {
    const nl = raw.indexOf(10, at);
    const [id, , size] = raw.toString('latin1', at, nl).split(' ');
    const n = Number(size);
    out.set(id!, raw.subarray(nl + 1, nl + 1 + n));
    at = nl + 1 + n + 1;
  }
  return out;
}

function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+-]/).map(Number);
  const pb = b.split(/[.+-]/).map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return a.localeCompare(b);
}

function packageFiles(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel)).flatMap((name) => {
    const p = rel ? `${rel}/${name}` : name;
    const st = lstatSync(join(dir, p));
    if (st.isDirectory()) return name === 'node_modules' ? [] : packageFiles(dir, p);
    return st.isFile() && st.size <= MAX_FILE ? [p] : [];
  });
}

/**
 * A second real history, made on this machine without network: every package installed in more
 * than one version under `root` (the lockfile pins which), its releases committed in version order
 * to a temporary repository, whose history is then read like this project's.
 */
export function packageReleaseBases(root = 'node_modules'): Base[] {
  if (!existsSync(root)) return [];
  const versions = new Map<string, Map<string, string>>();
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name.startsWith('.')) continue;
      const pkgDir = join(dir, name);
      if (name.startsWith('@')) {
        for (const sub of readdirSync(pkgDir)) readPackage(join(pkgDir, sub));
        continue;
      }
      readPackage(pkgDir);
    }
  };
  const readPackage = (pkgDir: string) => {
    try {
      if (!lstatSync(pkgDir).isDirectory()) return;
      const { name, version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
      if (typeof name !== 'string' || typeof version !== 'string') return;
      if (!versions.has(name)) versions.set(name, new Map());
      if (!versions.get(name)!.has(version)) versions.get(name)!.set(version, pkgDir);
    } catch {
      return;
    }
    if (existsSync(join(pkgDir, 'node_modules'))) visit(join(pkgDir, 'node_modules'));
  };
  visit(root);
  const multi = [...versions.entries()].filter(([, v]) => v.size > 1).sort(([a], [b]) => a.localeCompare(b));
  if (!multi.length) return [];
  const repo = tempDir('forge-corpus-releases-');
  gitOut(repo, ['init', '-q']);
  const rounds = Math.max(...multi.map(([, v]) => v.size));
  for (let r = 0; r < rounds; r++) {
    for (const [name, byVersion] of multi) {
      const ordered = [...byVersion.keys()].sort(compareVersions);
      if (r >= ordered.length) continue;
      const dest = join(repo, name);
      rmSync(dest, { recursive: true, force: true });
      const src = byVersion.get(ordered[r]!)!;
      for (const f of packageFiles(src)) {
        mkdirSync(dirname(join(dest, f)), { recursive: true });
        writeFileSync(join(dest, f), readFileSync(join(src, f)));
      }
    }
    gitOut(repo, ['add', '-A']);
    gitOut(repo, ['commit', '-q', '--allow-empty', '-m', `releases, round ${r + 1}`]);
  }
  const bases = historyBases(repo, 'node_modules');
  rmSync(repo, { recursive: true, force: true });
  return bases;
}

let cached: Base[] | undefined;

/** This repository's whole history plus the package releases: the corpus's raw material. */
export function corpusBases(): Base[] {
  cached ??= [...historyBases(process.cwd(), 'forge'), ...packageReleaseBases()];
  return cached;
}

// ---------------------------------------------------------------------------------------------
// Deriving a perturbed file and the exact expected result

/** A base with lines inserted into the before-file at `pos` (between hunks), and so into the after-file. */
function insertLines(base: Base, pos: number, lines: string[]): Base {
  if (base.hunks.some((h) => startOf(h) < pos && pos < startOf(h) + h.oldCount)) throw new Error('inserting inside a hunk');
  const ahead = base.hunks.filter((h) => startOf(h) + h.oldCount <= pos);
  const afterPos = pos + ahead.reduce((n, h) => n + h.newCount - h.oldCount, 0);
  const splice = (t: Text, at: number): Text => ({
    lines: [...t.lines.slice(0, at), ...lines, ...t.lines.slice(at)],
    eols: [...t.eols.slice(0, at), ...lines.map(() => '\n' as const), ...t.eols.slice(at)],
  });
  return {
    ...base,
    before: splice(base.before, pos),
    after: splice(base.after, afterPos),
    hunks: base.hunks.map((h) =>
      ahead.includes(h) ? h : { ...h, oldStart: h.oldStart + lines.length, newStart: h.newStart + lines.length },
    ),
  };
}

/** A perturbed change: the file as the tool finds it, the model's hunks, and the exact expected result. */
interface Instance {
  base: Base;
  before: Text;
  after: Text;
  /** The model's hunks: positions in `before`, text as the model wrote it. */
  hunks: Hunk[];
}

interface Derivation {
  /** The file's text of before-line i (default: as committed). */
  fileLine?: (text: string, i: number) => string;
  fileEol?: (i: number) => Eol;
  /** How the model wrote hunk k's context and removed lines, and its added lines. */
  modelOld?: (text: string, k: number) => string;
  modelNew?: (text: string, k: number) => string;
  /** What a correct tool writes for an added line (default: the committed text). */
  written?: (text: string, k: number) => string;
}

/**
 * The perturbed file and its expected result by the shared rules: context keeps the file's bytes and
 * ending; added lines take the ending of the first line they replace, else of the line before them;
 * the final-newline state is kept.
 */
function derive(base: Base, d: Derivation = {}): Instance {
  const before: Text = {
    lines: base.before.lines.map((l, i) => d.fileLine?.(l, i) ?? l),
    eols: base.before.eols.map((e, i) => d.fileEol?.(i) ?? e),
  };
  const dominant: Eol = before.eols.find((e) => e) ?? '\n';
  const addedEol = new Map<string, Eol>();
  base.hunks.forEach((h, k) => {
    let b = startOf(h);
    let block: Eol | null = null;
    h.lines.forEach((l, j) => {
      if (l.op === ' ') (block = null), b++;
      else if (l.op === '-') (block ??= before.eols[b]!), b++;
      else addedEol.set(`${k}:${j}`, (block ?? before.eols[b - 1] ?? before.eols[0]) || dominant);
    });
  });
  const after: Text = { lines: [], eols: [] };
  for (const o of align(base.before.lines.length, base.hunks)) {
    if ('kept' in o) after.lines.push(before.lines[o.kept]!), after.eols.push(before.eols[o.kept]! || dominant);
    else
      after.lines.push(d.written?.(base.hunks[o.hunk]!.lines[o.line]!.text, o.hunk) ?? base.hunks[o.hunk]!.lines[o.line]!.text),
        after.eols.push(addedEol.get(`${o.hunk}:${o.line}`)!);
  }
  if (after.eols.length) after.eols[after.eols.length - 1] = before.eols.at(-1) ? after.eols.at(-1)! : '';
  const hunks = base.hunks.map((h, k) => ({
    ...h,
    lines: h.lines.map((l) => ({ ...l, text: l.op === '+' ? (d.modelNew?.(l.text, k) ?? l.text) : (d.modelOld?.(l.text, k) ?? l.text) })),
  }));
  return { base, before, after, hunks };
}

// ---------------------------------------------------------------------------------------------
// Where a correct tool finds a hunk: the conditions under which the expected bytes are the only answer

const QUOTES: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u00a0': ' ',
};
/** Coarser than any whitespace folding a tool may do: every whitespace character gone, quotes and dashes ASCII. */
const folded = (s: string) => s.replace(/[\u2018\u2019\u201c\u201d\u2013\u2014\u00a0]/g, (c) => QUOTES[c]!).replace(/\s+/g, '');

function occurrences(lines: string[], block: string[]): number[] {
  const hits: number[] = [];
  if (!block.length) return hits;
  for (let i = 0; i + block.length <= lines.length; i++) {
    let j = 0;
    while (j < block.length && lines[i + j] === block[j]) j++;
    if (j === block.length) hits.push(i);
  }
  return hits;
}

interface Locate {
  /** The hunk's stated 0-based start, and the start the previous hunk's drift predicts. */
  stated?: number[];
  /** Fewer trailing than leading context lines: a place ending at end of file wins. */
  endAnchored?: boolean;
}

/**
 * True when the shared rules put `block` at `at` in `lines` and nowhere else: the only exact place;
 * or among several exact places the strictly nearest to every stated line (or the one ending at end
 * of file, for an end-anchored hunk); or, with no exact place, the only place with whitespace folded.
 */
function onlyAt(lines: string[], block: string[], at: number, how: Locate = {}): boolean {
  const exact = occurrences(lines, block);
  if (exact.length) {
    if (!exact.includes(at)) return false;
    if (exact.length === 1) return true;
    if (how.endAnchored) return at + block.length === lines.length;
    if (!how.stated) return false;
    return how.stated.every((s) => exact.every((x) => x === at || Math.abs(x - s) > Math.abs(at - s)));
  }
  const hits = occurrences(lines.map(folded), block.map(folded));
  return hits.length === 1 && hits[0] === at;
}

const context = (h: Hunk) => {
  const lead = h.lines.findIndex((l) => l.op !== ' ');
  let trail = 0;
  while (trail < h.lines.length && h.lines[h.lines.length - 1 - trail]!.op === ' ') trail++;
  return { lead, trail };
};

/** Every hunk of `inst` lands where it belongs, by its line numbers (or without them). */
function locatable(inst: Instance, numbered: boolean, stated?: (k: number) => number): boolean {
  let drift = 0;
  return inst.hunks.every((h, k) => {
    const at = startOf(h);
    const s = stated ? stated(k) : at;
    const { lead, trail } = context(h);
    const ok = onlyAt(inst.before.lines, oldOf(h), at, numbered ? { stated: [s, s + drift], endAnchored: trail < lead } : {});
    drift = at - s;
    return ok;
  });
}

// ---------------------------------------------------------------------------------------------
// Writing a change in each dialect

const header = (h: Hunk) =>
  `@@ -${h.oldStart}${h.oldCount === 1 ? '' : `,${h.oldCount}`} +${h.newStart}${h.newCount === 1 ? '' : `,${h.newCount}`} @@${h.section ? ` ${h.section}` : ''}`;

function unified(inst: Instance, hunkHeader: (h: Hunk, k: number) => string = header): string {
  const out = [...inst.base.head];
  inst.hunks.forEach((h, k) => {
    out.push(hunkHeader(h, k));
    for (const l of h.lines) out.push(l.op + l.text);
  });
  return out.join('\n') + '\n';
}

function envelope(inst: Instance, sections: Record<number, string> = {}): string {
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
function aider(inst: Instance, order: number[], rank: number): string {
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
function cline(inst: Instance): string {
  return [
    inst.base.path,
    ...inst.hunks.flatMap((h) => ['------- SEARCH', ...oldOf(h), '=======', ...newOf(h), '+++++++ REPLACE', '']),
  ].join('\n');
}

/** Roo's apply_diff blocks: `:start_line:` is the block's line in the original file. */
function roo(inst: Instance): string {
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
function blocksLand(inst: Instance, order: number[], pick?: (k: number) => boolean): boolean {
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
const hasMarkerLine = (b: Base) => b.hunks.some((h) => h.lines.some((l) => MARKERS.test(l.text)));

// ---------------------------------------------------------------------------------------------
// Whitespace styles: a line's indentation as levels of a unit plus a remainder of spaces

type Style = 'tab' | number;
interface Indent {
  level: number;
  rem: number;
  body: string;
}

/** The file's indentation unit: tabs, or 2 or 4 spaces; null when nothing is indented. */
function unitOf(lines: string[]): Style | null {
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
function restyled(
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

// ---------------------------------------------------------------------------------------------
// forge edit: each hunk as --old/--new, applied in order

/** A hunk's old and new text for --old/--new: blank context at either edge dropped; null when a blank edge line remains. */
function editTexts(h: Hunk): { old: string[]; new: string[]; lead: number } | null {
  let o = oldOf(h);
  let n = newOf(h);
  let lead = 0;
  while (o.length && n.length && o[0] === '' && n[0] === '' && h.lines[lead]?.op === ' ') (o = o.slice(1)), (n = n.slice(1)), lead++;
  while (o.length && n.length && o.at(-1) === '' && n.at(-1) === '' && h.lines.at(-1)?.op === ' ')
    (o = o.slice(0, -1)), (n = n.slice(0, -1));
  if (!o.length || !n.length || o[0] === '' || n[0] === '' || o.at(-1) === '' || n.at(-1) === '') return null;
  return { old: o, new: n, lead };
}

/** The file after the first `k` hunks of `inst`: what the k+1-th edit is searched in. */
function partway(inst: Instance, k: number): string[] {
  if (!k) return inst.before.lines;
  const h = inst.base.hunks[k - 1]!;
  const oldEnd = startOf(h) + h.oldCount;
  const newEnd = oldEnd + inst.base.hunks.slice(0, k).reduce((n, x) => n + x.newCount - x.oldCount, 0);
  return [...inst.after.lines.slice(0, newEnd), ...inst.before.lines.slice(oldEnd)];
}

/** Every hunk of `inst` as an edit, each found only where it belongs when its turn comes; null otherwise. */
function editsOf(inst: Instance): EditOp[] | null {
  const edits: EditOp[] = [];
  let delta = 0;
  for (const [k, h] of inst.hunks.entries()) {
    const t = editTexts(h);
    if (!t || !onlyAt(partway(inst, k), t.old, startOf(h) + t.lead + delta)) return null;
    edits.push({ old: t.old.join('\n'), new: t.new.join('\n') });
    delta += h.newCount - h.oldCount;
  }
  return edits;
}

// ---------------------------------------------------------------------------------------------
// The perturbations, as data

export interface Perturbation {
  id: string;
  what: string;
  /** A correct tool must refuse every case and change nothing. */
  refuse: boolean;
  patch?: (b: Base, siblings: Base[]) => PatchCase | null;
  edit?: (b: Base) => EditCase | null;
}

const rankOf = (s: string) => createHash('sha1').update(s).digest().readUInt32BE(0);

function patchCase(id: string, inst: Instance, patch: string, refuse = false): PatchCase {
  return {
    name: `${inst.base.name} ${id}`,
    perturbation: id,
    before: { [inst.base.path]: fromText(inst.before) },
    patch,
    after: refuse ? null : { [inst.base.path]: fromText(inst.after) },
  };
}

function editCase(id: string, inst: Instance, edits: EditOp[] | null, refuse = false): EditCase | null {
  if (!edits) return null;
  return {
    name: `${inst.base.name} ${id}`,
    perturbation: id,
    path: inst.base.path,
    before: fromText(inst.before),
    edits,
    after: refuse ? null : fromText(inst.after),
  };
}

/** The first hunk with as much context after its change as before it, and old lines to copy. */
const middleHunk = (b: Base) =>
  b.hunks.findIndex((h) => {
    const { lead, trail } = context(h);
    return lead > 0 && lead === trail;
  });

/** The base with a copy of hunk k's old text inserted right above it (plus `extra` lines between). */
function withCopyAbove(b: Base, k: number, extra: string[] = []): Base {
  return insertLines(b, startOf(b.hunks[k]!), [...oldOf(b.hunks[k]!), ...extra]);
}

/** Exactly two exact places of hunk k's old text: the copy and the real one. */
const twice = (b: Base, k: number) => occurrences(b.before.lines, oldOf(b.hunks[k]!)).length === 2;

/**
 * A line the patch removes, changed locally in its middle (so no substring of it survives as the old
 * text a model gave): the last hunk's last removed line with three characters or more.
 */
function conflicted(b: Base): { base: Base; hunk: number } | null {
  for (let k = b.hunks.length - 1; k >= 0; k--) {
    const h = b.hunks[k]!;
    let j = h.lines.length - 1;
    while (j >= 0 && !(h.lines[j]!.op === '-' && h.lines[j]!.text.trim().length >= 3)) j--;
    if (j < 0) continue;
    const at = startOf(h) + h.lines.slice(0, j).filter((l) => l.op !== '+').length;
    const local = (l: string) => {
      const mid = l.length - l.trimStart().length + Math.floor(l.trim().length / 2);
      return `${l.slice(0, mid)}EDITED_LOCALLY${l.slice(mid)}`;
    };
    const lines = b.before.lines.map((l, i) => (i === at ? local(l) : l));
    // Elsewhere in the file the old text would be a place a correct tool may take: not a conflict.
    if (occurrences(lines.map(folded), oldOf(h).map(folded)).length) return null;
    return { base: { ...b, before: { ...b.before, lines } }, hunk: k };
  }
  return null;
}

const plainAnd = (b: Base, test: (b: Base) => boolean) => b.plain && test(b);

const TAB_SPACE: Array<{ id: string; file: Style; model: Style }> = [
  { id: 'spaces-for-tabs-w2', file: 'tab', model: 2 },
  { id: 'spaces-for-tabs-w4', file: 'tab', model: 4 },
  { id: 'spaces-for-tabs-w8', file: 'tab', model: 8 },
  { id: 'tabs-for-spaces-w2', file: 2, model: 'tab' },
  { id: 'tabs-for-spaces-w4', file: 4, model: 'tab' },
  { id: 'tabs-for-spaces-w8', file: 8, model: 'tab' },
];

/** A whitespace perturbation: the same instance as a patch (numbers right) and as edits. */
function drift(id: string, what: string, make: (b: Base) => Instance | null): Perturbation {
  return {
    id,
    what,
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? make(b) : null;
      return inst && locatable(inst, true) ? patchCase(id, inst, unified(inst)) : null;
    },
    edit: (b) => {
      const inst = b.plain ? make(b) : null;
      return inst && editCase(id, inst, editsOf(inst));
    },
  };
}

/** Which before-lines a line diff of each hunk's old → new keeps for sure: all but each hunk's middle. */
function surelyKept(b: Base): Set<number> {
  const middle = new Set<number>();
  for (const h of b.hunks) {
    const t = editTexts(h);
    const o = oldOf(h);
    const n = newOf(h);
    let p = 0;
    while (p < o.length && p < n.length && o[p] === n[p]) p++;
    let s = 0;
    while (s < o.length - p && s < n.length - p && o[o.length - 1 - s] === n[n.length - 1 - s]) s++;
    for (let i = p; i < o.length - s; i++) middle.add(startOf(h) + i);
    if (!t) for (let i = 0; i < o.length; i++) middle.add(startOf(h) + i);
    // A line the old or the new text has twice may be kept as either (a diff may slide the change past it).
    for (let i = 0; i < o.length; i++)
      if (n.filter((x) => x === o[i]).length > 1 || o.filter((x) => x === o[i]).length > 1) middle.add(startOf(h) + i);
  }
  return new Set(b.before.lines.map((_, i) => i).filter((i) => !middle.has(i)));
}

/** A line aligned as some code is: each space between two words doubled — unless it holds a quote (a string's spaces are its own). */
const respaced = (l: string) => (/['"`]/.test(l) ? l : l.replace(/(\S) (?=\S)/g, '$1  '));
/** The line with the first space inside a string literal doubled (quotes read left to right, escapes skipped); null when it has none. */
function spaceInString(l: string): string | null {
  let quote = '';
  for (let i = 0; i < l.length; i++) {
    const c = l[i]!;
    if (!quote) {
      if (c === '"' || c === "'" || c === '`') quote = c;
    } else if (c === '\\') i++;
    else if (c === quote) quote = '';
    else if (c === ' ') return `${l.slice(0, i)} ${l.slice(i)}`;
  }
  return null;
}
/** The width of a line's leading whitespace. */
const indentWidth = (l: string) => l.length - l.trimStart().length;
/**
 * Some edit's old text is still a substring of the file as the edits before it left it (it ends
 * before a padded line's whitespace, say): an exact match, replaced as a substring as str_replace
 * does — not the rule a drift perturbation tests.
 */
const oldStillExact = (inst: Instance, edits: EditOp[]) => edits.some((e, k) => 'old' in e && partway(inst, k).join('\n').includes(e.old));
/** A hunk whose old lines the file indents at more than one depth. */
const unevenHunk = (h: Hunk) => new Set(h.lines.filter((l) => l.op !== '+' && l.text.trim()).map((l) => indentWidth(l.text))).size > 1;
/** The base as a model writes it with no indentation at all, old and new. */
const flattened = (b: Base) => derive(b, { modelOld: (l) => l.trimStart(), modelNew: (l) => l.trimStart() });
/** The runs of removed and added lines of a hunk, as counts. */
function changeRuns(lines: HunkLine[]): Array<{ removed: number; added: number }> {
  const runs: Array<{ removed: number; added: number }> = [];
  let run = { removed: 0, added: 0 };
  for (const l of [...lines, { op: ' ' as const, text: '' }]) {
    if (l.op === '-') run.removed++;
    else if (l.op === '+') run.added++;
    else if (run.removed + run.added) runs.push(run), (run = { removed: 0, added: 0 });
  }
  return runs;
}
/** Some line the hunks touch was respaced: the case tests the spacing rule. */
const changedLines = (inst: Instance) =>
  inst.hunks.some((h) => {
    let at = startOf(h);
    return h.lines.some((l) => l.op !== '+' && inst.before.lines[at++] !== l.text);
  });

const PADS = ['  ', ' ', '', '\t'];
/** Trailing whitespace on three lines in four (those `pad` allows), which the model's patch does not have. */
function padded(b: Base, pad: (i: number) => boolean): Instance {
  return derive(b, { fileLine: (l, i) => (l.trim() && pad(i) ? l + PADS[i % 4] : l) });
}

/** Mixed endings, uniform around each place an ending is decided (so every reading of the rule agrees). */
function mixed(b: Base, groups: Array<[number, number]>): Instance | null {
  const eols: Eol[] = b.before.lines.map((_, i) => ((i * 7 + 3) % 5 < 2 ? '\r\n' : '\n'));
  for (const [from, to] of groups) {
    const lo = Math.max(0, from);
    const hi = Math.min(eols.length - 1, to);
    for (let i = lo + 1; i <= hi; i++) eols[i] = eols[lo]!;
  }
  if (!eols.includes('\r\n') || !eols.includes('\n')) return null;
  return derive(b, { fileEol: (i) => eols[i]! });
}

/** For a patch: each run of removed and added lines with the line before and after it. */
function changeGroups(b: Base): Array<[number, number]> {
  const groups: Array<[number, number]> = [];
  for (const h of b.hunks) {
    let at = startOf(h);
    let from = -1;
    for (const l of [...h.lines, { op: ' ' as const, text: '' }]) {
      if (l.op === ' ') {
        if (from >= 0) groups.push([from - 1, at]);
        from = -1;
        at++;
      } else {
        if (from < 0) from = at;
        if (l.op === '-') at++;
      }
    }
  }
  return groups;
}

/** For an edit: each hunk's whole old text with the line before and after it. */
const hunkGroups = (b: Base): Array<[number, number]> => b.hunks.map((h) => [startOf(h) - 1, startOf(h) + h.oldCount]);

/** The file without its final newline; null when its last line is blank (without an ending it would be no line at all). */
const noFinalNewline = (b: Base): Instance | null =>
  b.before.lines.at(-1) && b.after.lines.at(-1) ? derive(b, { fileEol: (i) => (i === b.before.lines.length - 1 ? '' : '\n') }) : null;

export const PERTURBATIONS: Perturbation[] = [
  {
    id: 'exact',
    what: "git's own diff of the commit, as committed",
    refuse: false,
    patch: (b) => ({
      name: `${b.name} exact`,
      perturbation: 'exact',
      before: { [b.path]: fromText(b.before) },
      patch: b.patch,
      after: { [b.path]: fromText(b.after) },
    }),
    edit: (b) => (b.plain ? editCase('exact', derive(b), editsOf(derive(b))) : null),
  },
  {
    id: 'stale-numbers',
    what: 'every @@ line off by a few lines (the context is unique or nearest)',
    refuse: false,
    patch: (b) => {
      if (!b.plain) return null;
      const off = [3, -4, 5, -2][rankOf(b.name) % 4]!;
      const inst = derive(b);
      const stated = (k: number) => Math.max(0, startOf(inst.hunks[k]!) + off);
      if (!locatable(inst, true, stated)) return null;
      return patchCase(
        'stale-numbers',
        inst,
        unified(inst, (h, k) => header({ ...h, oldStart: stated(k) + 1, newStart: Math.max(1, h.newStart + off) })),
      );
    },
  },
  {
    id: 'stale-numbers-repeated',
    what: "stale numbers, the hunk's old text also right above it: the nearest to the stated line is the one",
    refuse: false,
    patch: (b) => {
      const k0 = b.plain ? middleHunk(b) : -1;
      if (k0 < 0) return null;
      const copy = withCopyAbove(b, k0);
      if (!twice(copy, k0)) return null;
      const inst = derive(copy);
      const off = 2 + (rankOf(b.name) % 2);
      const stated = (k: number) => startOf(inst.hunks[k]!) + off;
      if (!locatable(inst, true, stated)) return null;
      return patchCase(
        'stale-numbers-repeated',
        inst,
        unified(inst, (h, k) => header({ ...h, oldStart: stated(k) + 1, newStart: h.newStart + off })),
      );
    },
  },
  {
    id: 'stale-numbers-tie',
    what: "the hunk's old text twice, the stated line exactly between them: must refuse",
    refuse: true,
    patch: (b) => {
      const k0 = b.plain ? middleHunk(b) : -1;
      if (k0 < 0) return null;
      const length = b.hunks[k0]!.oldCount;
      const copy = withCopyAbove(b, k0, length % 2 ? [''] : []);
      if (!twice(copy, k0)) return null;
      const inst = derive(copy);
      const middle = startOf(inst.hunks[k0]!) - Math.ceil(length / 2);
      return patchCase(
        'stale-numbers-tie',
        inst,
        unified(inst, (h, k) => (k === k0 ? header({ ...h, oldStart: middle + 1, newStart: middle + 1 }) : header(h))),
        true,
      );
    },
  },
  {
    id: 'bare-hunk-header',
    what: 'no line numbers at all (@@ or @@ @@); every hunk unique',
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? derive(b) : null;
      if (!inst || !locatable(inst, false)) return null;
      const bare = rankOf(b.name) % 2 ? '@@' : '@@ @@';
      return patchCase(
        'bare-hunk-header',
        inst,
        unified(inst, () => bare),
      );
    },
  },
  {
    id: 'wrong-counts',
    what: 'the counts in every @@ line wrong (too many, too few)',
    refuse: false,
    patch: (b) => {
      if (!b.plain) return null;
      const inst = derive(b);
      return patchCase(
        'wrong-counts',
        inst,
        unified(inst, (h, k) =>
          header({
            ...h,
            oldCount: Math.max(1, h.oldCount + [5, -2, 1, -1][k % 4]!),
            newCount: Math.max(1, h.newCount + [-2, 3, -1, 2][k % 4]!),
          }),
        ),
      );
    },
  },
  {
    id: 'wrong-counts-both-sides',
    what: "the counts in every @@ line too high or too low on both sides alike (the last hunk's promise runs past the patch), each hunk ending on context",
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? derive(b) : null;
      if (!inst || inst.hunks.some((h) => h.lines.at(-1)!.op !== ' ')) return null;
      const by = (k: number) => [2, -1, 1, 3][(rankOf(b.name) + k) % 4]!;
      return patchCase(
        'wrong-counts-both-sides',
        inst,
        unified(inst, (h, k) => header({ ...h, oldCount: Math.max(1, h.oldCount + by(k)), newCount: Math.max(1, h.newCount + by(k)) })),
      );
    },
  },
  {
    id: 'wrong-counts-ends-on-change',
    what: 'the last hunk promises more lines than it holds and ends on an added or removed line: a cut there looks the same, refused',
    refuse: true,
    patch: (b) => {
      const inst = b.plain ? derive(b) : null;
      const last = inst?.hunks.at(-1);
      if (!inst || !last || last.lines.at(-1)!.op === ' ') return null;
      const more = 1 + (rankOf(b.name) % 3);
      return patchCase(
        'wrong-counts-ends-on-change',
        inst,
        unified(inst, (h, k) =>
          k === inst.hunks.length - 1 ? header({ ...h, oldCount: h.oldCount + more, newCount: h.newCount + more }) : header(h),
        ),
        true,
      );
    },
  },
  {
    id: 'blank-context-stripped',
    what: 'every blank context line without its leading space (editors strip it), wherever it stands: before a change, before the next @@, at the end',
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? derive(b) : null;
      if (!inst?.hunks.some((h) => h.lines.some((l) => l.op === ' ' && l.text === ''))) return null;
      return patchCase('blank-context-stripped', inst, unified(inst).replace(/^ $/gm, ''));
    },
  },
  {
    id: 'blank-context-stripped-bare',
    what: 'blank context lines without their space under bare @@ headers: a blank run before the next @@ is read as a separator',
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? derive(b) : null;
      if (!inst || !locatable(inst, false) || !inst.hunks.some((h) => h.lines.some((l) => l.op === ' ' && l.text === ''))) return null;
      return patchCase('blank-context-stripped-bare', inst, unified(inst, () => '@@').replace(/^ $/gm, ''));
    },
  },
  {
    id: 'aider-udiff',
    what: "Aider's udiff: '--- path' and '+++ path' without a/ and b/, every hunk headed '@@ ... @@'",
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? derive(b) : null;
      if (!inst || !locatable(inst, false)) return null;
      const body = unified(inst, () => '@@ ... @@')
        .split('\n')
        .slice(inst.base.head.length);
      return patchCase('aider-udiff', inst, [`--- ${b.path}`, `+++ ${b.path}`, ...body].join('\n'));
    },
  },
  ...TAB_SPACE.map(({ id, file, model }) =>
    drift(
      `ws-both-${id}`,
      `the model wrote old and new text with ${model === 'tab' ? 'tabs' : `${model} spaces`} per level; the file is indented with ${file === 'tab' ? 'tabs' : `${file} spaces`}`,
      (b) => restyled(b, file, model),
    ),
  ),
  drift('ws-both-dedent', "the model dropped each hunk's common indentation from old and new text", (b) => {
    const unit = unitOf([...b.before.lines, ...b.after.lines]);
    const lowest = (levels: Indent[]) => Math.min(...levels.filter((i) => i.body).map((i) => i.level), 99);
    return unit ? restyled(b, unit, unit, { shift: (levels) => (lowest(levels) === 99 ? 0 : -lowest(levels)) }) : null;
  }),
  drift('ws-both-over-indent', 'the model indented old and new text one or two levels deeper', (b) => {
    const unit = unitOf([...b.before.lines, ...b.after.lines]);
    return unit ? restyled(b, unit, unit, { shift: () => 1 + (rankOf(b.name) % 2) }) : null;
  }),
  ...TAB_SPACE.map(({ id, file, model }) =>
    drift(
      `ws-old-only-${id}`,
      `context and removed lines with ${model === 'tab' ? 'tabs' : `${model} spaces`} per level, added lines in the file's own ${file === 'tab' ? 'tabs' : `${file} spaces`}`,
      (b) => restyled(b, file, model, { oldOnly: true }),
    ),
  ),
  drift(
    'ws-both-flat',
    'the model wrote old and new text with no indentation at all, against lines the file indents at several depths; each change replaces one line by one',
    (b) => {
      const oneForOne = b.hunks.flatMap((h) => changeRuns(h.lines)).every((r) => r.removed === 1 && r.added === 1);
      return oneForOne && b.hunks.some(unevenHunk) ? flattened(b) : null;
    },
  ),
  {
    id: 'ws-both-flat-restructured',
    what: 'old and new text with no indentation at all, a hunk the file indents at several depths changing several lines at once: the new depths are unknown, refused',
    refuse: true,
    patch: (b) => {
      const restructured = (h: Hunk) =>
        unevenHunk(h) &&
        h.lines.some((l) => l.op === '+' && l.text.trim()) &&
        changeRuns(h.lines).some((r) => r.removed !== 1 || r.added !== 1);
      if (!b.plain || !b.hunks.some(restructured)) return null;
      const inst = flattened(b);
      return locatable(inst, false) ? patchCase('ws-both-flat-restructured', inst, unified(inst), true) : null;
    },
  },
  {
    id: 'trailing-whitespace',
    what: "the file has trailing whitespace the patch's lines lack: context keeps it, added lines are as written",
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? padded(b, () => true) : null;
      return inst && locatable(inst, true) ? patchCase('trailing-whitespace', inst, unified(inst)) : null;
    },
    edit: (b) => {
      if (!b.plain) return null;
      const kept = surelyKept(b);
      const inst = padded(b, (i) => kept.has(i));
      const edits = editsOf(inst);
      if (edits && oldStillExact(inst, edits)) return null;
      return editCase('trailing-whitespace', inst, edits);
    },
  },
  {
    id: 'internal-spacing',
    what: "the file aligns code with runs of spaces between words (no strings on those lines); the model's lines have one space",
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? derive(b, { fileLine: (l) => respaced(l) }) : null;
      return inst && locatable(inst, true) && changedLines(inst) ? patchCase('internal-spacing', inst, unified(inst)) : null;
    },
    edit: (b) => {
      if (!b.plain) return null;
      const kept = surelyKept(b);
      const inst = derive(b, { fileLine: (l, i) => (kept.has(i) ? respaced(l) : l) });
      if (!changedLines(inst)) return null;
      const edits = editsOf(inst);
      if (edits && oldStillExact(inst, edits)) return null;
      return editCase('internal-spacing', inst, edits);
    },
  },
  {
    id: 'spacing-in-string',
    what: "a line the patch removes holds a string whose space the file doubles: a string's spaces are its own, refused",
    refuse: true,
    patch: (b) => {
      if (!b.plain) return null;
      const removed = new Set<number>();
      for (const h of b.hunks) {
        let at = startOf(h);
        for (const l of h.lines) if (l.op !== '+') l.op === '-' && spaceInString(l.text) !== null && removed.add(at), at++;
      }
      if (!removed.size) return null;
      const inst = derive(b, { fileLine: (l, i) => (removed.has(i) ? (spaceInString(l) ?? l) : l) });
      return locatable(inst, true) ? patchCase('spacing-in-string', inst, unified(inst), true) : null;
    },
  },
  {
    id: 'final-newline-drift',
    what: "the file lacks its final newline and has trailing whitespace; the last edit's old text lacks the whitespace and its new text ends with a newline: the newline lands, as in an exact match",
    refuse: false,
    edit: (b) => {
      const last = b.hunks.at(-1);
      if (!b.plain || !last || startOf(last) + last.oldCount !== b.before.lines.length || last.lines.at(-1)!.text === '') return null;
      const kept = surelyKept(b);
      const lastLine = b.before.lines.length - 1;
      const inst = derive(b, {
        fileLine: (l, i) => (l.trim() && kept.has(i) ? l + PADS[i % 4] : l),
        fileEol: (i) => (i === lastLine ? '' : '\n'),
      });
      const edits = editsOf(inst);
      if (!edits || oldStillExact(inst, edits)) return null;
      const final = edits.at(-1)!;
      if (!('old' in final)) return null;
      edits[edits.length - 1] = { ...final, new: `${final.new}\n` };
      inst.after.eols[inst.after.eols.length - 1] = '\n';
      return editCase('final-newline-drift', inst, edits);
    },
  },
  {
    id: 'crlf-file',
    what: 'the file has CRLF endings, the patch LF',
    refuse: false,
    patch: (b) => (b.plain ? patchCase('crlf-file', derive(b, { fileEol: () => '\r\n' }), unified(derive(b))) : null),
    edit: (b) => {
      const inst = b.plain ? derive(b, { fileEol: () => '\r\n' }) : null;
      return inst && editCase('crlf-file', inst, editsOf(inst));
    },
  },
  {
    id: 'mixed-endings',
    what: 'CRLF and LF mixed in the file: a changed line keeps its own ending, added lines that of the line they replace',
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? mixed(b, changeGroups(b)) : null;
      return inst && patchCase('mixed-endings', inst, unified(inst));
    },
    edit: (b) => {
      const inst = b.plain ? mixed(b, hunkGroups(b)) : null;
      return inst && editCase('mixed-endings', inst, editsOf(inst));
    },
  },
  {
    id: 'no-final-newline',
    what: 'the file has no final newline and the patch does not say so: the result has none',
    refuse: false,
    patch: (b) => {
      const inst = b.plain ? noFinalNewline(b) : null;
      return inst && patchCase('no-final-newline', inst, unified(inst));
    },
    edit: (b) => {
      const inst = b.plain ? noFinalNewline(b) : null;
      return inst && editCase('no-final-newline', inst, editsOf(inst));
    },
  },
  {
    id: 'envelope',
    what: '*** Begin Patch envelope, bare @@ hunks, *** End of File at the end',
    refuse: false,
    patch: (b) => {
      const inst = plainAnd(b, (x) => !hasMarkerLine(x)) ? derive(b) : null;
      return inst && locatable(inst, false) ? patchCase('envelope', inst, envelope(inst)) : null;
    },
  },
  {
    id: 'envelope-section',
    what: "envelope whose '@@ <line>' names a line between a copy of the hunk's old text and the real one",
    refuse: false,
    patch: (b) => {
      if (!b.plain || hasMarkerLine(b)) return null;
      const h = b.hunks[0]!;
      const trimmed = b.before.lines.map((l) => l.trim());
      // The nearest line above the hunk that is unique in the file (trimmed), and not a lone brace.
      let seek = -1;
      for (let i = startOf(h) - 1; i >= Math.max(0, startOf(h) - 40) && seek < 0; i--)
        if (trimmed[i]!.length >= 4 && trimmed.filter((t) => t === trimmed[i]).length === 1) seek = i;
      if (seek < 0) return null;
      const inst = derive(insertLines(b, seek, oldOf(h)));
      if (
        occurrences(inst.before.lines, oldOf(h)).length !== 2 ||
        !inst.hunks.slice(1).every((x) => onlyAt(inst.before.lines, oldOf(x), startOf(x)))
      )
        return null;
      return patchCase('envelope-section', inst, envelope(inst, { 0: b.before.lines[seek]! }));
    },
  },
  {
    id: 'envelope-eof',
    what: 'envelope, the last hunk at end of file also right above it: *** End of File says which',
    refuse: false,
    patch: (b) => {
      const k = b.hunks.length - 1;
      const h = b.hunks[k]!;
      if (!b.plain || hasMarkerLine(b) || startOf(h) + h.oldCount !== b.before.lines.length) return null;
      const copy = withCopyAbove(b, k);
      if (!twice(copy, k)) return null;
      const inst = derive(copy);
      if (!inst.hunks.slice(0, k).every((x) => onlyAt(inst.before.lines, oldOf(x), startOf(x)))) return null;
      return patchCase('envelope-eof', inst, envelope(inst));
    },
  },
  {
    id: 'aider-search-replace',
    what: 'Aider SEARCH/REPLACE blocks listed bottom-up, fenced (```, ````, <source>), prose and ... between',
    refuse: false,
    patch: (b) => {
      const inst = plainAnd(b, (x) => !hasMarkerLine(x)) ? derive(b) : null;
      const order = inst ? inst.hunks.map((_, k) => k).reverse() : [];
      return inst && blocksLand(inst, order) ? patchCase('aider-search-replace', inst, aider(inst, order, rankOf(b.name))) : null;
    },
  },
  {
    id: 'cline-search-replace',
    what: 'Cline ------- SEARCH / ======= / +++++++ REPLACE blocks',
    refuse: false,
    patch: (b) => {
      const inst = plainAnd(b, (x) => !hasMarkerLine(x)) ? derive(b) : null;
      return inst &&
        blocksLand(
          inst,
          inst.hunks.map((_, k) => k),
        )
        ? patchCase('cline-search-replace', inst, cline(inst))
        : null;
    },
  },
  {
    id: 'roo-start-line',
    what: "Roo blocks with :start_line:N, the first block's text also right above it: the line picks",
    refuse: false,
    patch: (b) => {
      if (!b.plain || hasMarkerLine(b)) return null;
      const copy = withCopyAbove(b, 0);
      if (!twice(copy, 0)) return null;
      const inst = derive(copy);
      return blocksLand(
        inst,
        inst.hunks.map((_, k) => k),
        (k) => k === 0,
      )
        ? patchCase('roo-start-line', inst, roo(inst))
        : null;
    },
  },
  {
    id: 'conflict',
    what: 'a line the patch removes was changed locally: must refuse',
    refuse: true,
    patch: (b) => {
      const c = b.plain ? conflicted(b) : null;
      return c && patchCase('conflict', derive(c.base), b.patch, true);
    },
    edit: (b) => {
      const c = b.plain ? conflicted(b) : null;
      const t = c && editTexts(c.base.hunks[c.hunk]!);
      return c && t ? editCase('conflict', derive(c.base), [{ old: t.old.join('\n'), new: t.new.join('\n') }], true) : null;
    },
  },
  {
    id: 'ambiguous',
    what: 'the old text twice, no line numbers (a bare @@ hunk; forge edit --old): must refuse',
    refuse: true,
    patch: (b) => {
      if (!b.plain || !twice(withCopyAbove(b, 0), 0)) return null;
      const inst = derive(withCopyAbove(b, 0));
      return patchCase(
        'ambiguous',
        inst,
        unified(inst, () => '@@ @@'),
        true,
      );
    },
    edit: (b) => {
      const t = b.plain ? editTexts(b.hunks[0]!) : null;
      if (!t || !twice(withCopyAbove(b, 0), 0)) return null;
      return editCase('ambiguous', derive(withCopyAbove(b, 0)), [{ old: t.old.join('\n'), new: t.new.join('\n') }], true);
    },
  },
  {
    id: 'ambiguous-envelope',
    what: 'envelope hunk whose old text is in the file twice: must refuse',
    refuse: true,
    patch: (b) => {
      // A first hunk at the end of the file gets *** End of File, which tells the two places apart.
      const h = b.hunks[0]!;
      if (!b.plain || hasMarkerLine(b) || startOf(h) + h.oldCount === b.before.lines.length || !twice(withCopyAbove(b, 0), 0)) return null;
      return patchCase('ambiguous-envelope', derive(withCopyAbove(b, 0)), envelope(derive(withCopyAbove(b, 0))), true);
    },
  },
  {
    id: 'ambiguous-search-replace',
    what: 'a SEARCH block whose text is in the file twice: must refuse',
    refuse: true,
    patch: (b) => {
      if (!b.plain || hasMarkerLine(b) || !twice(withCopyAbove(b, 0), 0)) return null;
      const inst = derive(withCopyAbove(b, 0));
      return patchCase(
        'ambiguous-search-replace',
        inst,
        aider(
          inst,
          inst.hunks.map((_, k) => k),
          rankOf(b.name),
        ),
        true,
      );
    },
  },
  {
    id: 'truncated-envelope',
    what: 'an envelope cut off (mid-line or at a line end) before *** End Patch: must refuse',
    refuse: true,
    patch: (b) => {
      if (!b.plain || hasMarkerLine(b)) return null;
      const inst = derive(b);
      const lines = envelope(inst)
        .split('\n')
        .slice(0, -2)
        .filter((l) => l !== '*** End of File');
      const last = lines.at(-1)!;
      const cut =
        rankOf(b.name) % 2 && last.length > 2
          ? [...lines.slice(0, -1), last.slice(0, Math.ceil(last.length / 2))].join('\n')
          : lines.join('\n') + '\n';
      return patchCase('truncated-envelope', inst, cut, true);
    },
  },
  {
    id: 'truncated-search-replace',
    what: 'SEARCH/REPLACE text cut off inside the last REPLACE: must refuse',
    refuse: true,
    patch: (b) => {
      if (!b.plain || hasMarkerLine(b)) return null;
      const inst = derive(b);
      const text = aider(
        inst,
        inst.hunks.map((_, k) => k),
        rankOf(b.name),
      );
      const end = text.lastIndexOf('\n>>>>>>> REPLACE');
      const start = text.lastIndexOf('\n=======\n', end) + 9;
      return patchCase('truncated-search-replace', inst, text.slice(0, start + Math.ceil((end - start) / 2)), true);
    },
  },
  {
    id: 'multi-file',
    what: "a whole commit's diff over several files",
    refuse: false,
    patch: (b, siblings) => {
      if (siblings.length < 2 || siblings[0] !== b) return null;
      return {
        name: `${b.name.replace(/:.*/, '')} multi-file`,
        perturbation: 'multi-file',
        before: Object.fromEntries(siblings.map((s) => [s.path, fromText(s.before)])),
        patch: siblings.map((s) => s.patch).join(''),
        after: Object.fromEntries(siblings.map((s) => [s.path, fromText(s.after)])),
      };
    },
  },
  {
    id: 'multi-file-conflict',
    what: "a whole commit's diff whose last file conflicts: must refuse and change no file",
    refuse: true,
    patch: (b, siblings) => {
      if (siblings.length < 2 || siblings[0] !== b) return null;
      const last = [...siblings].reverse().find((s) => s.plain && conflicted(s));
      if (!last) return null;
      const order = [...siblings.filter((s) => s !== last), last];
      const broken = conflicted(last)!.base;
      return {
        name: `${b.name.replace(/:.*/, '')} multi-file-conflict`,
        perturbation: 'multi-file-conflict',
        before: Object.fromEntries(order.map((s) => [s.path, fromText(s === last ? broken.before : s.before)])),
        patch: order.map((s) => s.patch).join(''),
        after: null,
      };
    },
  },
  {
    id: 'anchored-lines',
    what: 'forge edit --lines A#H..B#H --new, anchors as forge read prints them',
    refuse: false,
    edit: (b) => {
      const inst = b.plain ? derive(b) : null;
      if (!inst || !editsOf(inst)) return null;
      let delta = 0;
      const edits = inst.hunks.map((h, k) => {
        const t = editTexts(h)!;
        const lines = partway(inst, k);
        const from = startOf(h) + t.lead + delta;
        const to = from + t.old.length - 1;
        delta += h.newCount - h.oldCount;
        return { lines: `${anchorOf(from + 1, lines[from]!)}..${anchorOf(to + 1, lines[to]!)}`, new: t.new.join('\n') };
      });
      return editCase('anchored-lines', inst, edits);
    },
  },
  {
    id: 'stale-anchor',
    what: 'forge edit --anchor read before three lines were added above: must refuse',
    refuse: true,
    edit: (b) => {
      const t = b.plain ? editTexts(b.hunks[0]!) : null;
      if (!t) return null;
      const at = startOf(b.hunks[0]!) + t.lead;
      const moved = insertLines(b, 0, ['// added by someone else 1', '// added by someone else 2', '// added by someone else 3']);
      if (anchorOf(at + 1, moved.before.lines[at]!) === anchorOf(at + 1, b.before.lines[at]!)) return null;
      return editCase(
        'stale-anchor',
        derive(moved),
        [{ old: t.old.join('\n'), new: t.new.join('\n'), anchor: anchorOf(at + 1, b.before.lines[at]!) }],
        true,
      );
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Iterating and sampling

function siblingsOf(bases: Base[]): Map<Base, Base[]> {
  const byCommit = new Map<string, Base[]>();
  for (const b of bases) {
    const key = b.name.replace(/:.*/, '');
    byCommit.set(key, [...(byCommit.get(key) ?? []), b]);
  }
  return new Map(bases.map((b) => [b, byCommit.get(b.name.replace(/:.*/, ''))!]));
}

/** Every patch case of one perturbation, built one at a time (the whole corpus does not fit in memory at once). */
export function* patchCases(p: Perturbation, bases: Base[] = corpusBases()): Generator<PatchCase> {
  if (!p.patch) return;
  const sib = siblingsOf(bases);
  for (const b of bases) {
    const c = p.patch(b, sib.get(b)!);
    if (c) yield c;
  }
}

export function* editCases(p: Perturbation, bases: Base[] = corpusBases()): Generator<EditCase> {
  if (!p.edit) return;
  for (const b of bases) {
    const c = p.edit(b);
    if (c) yield c;
  }
}

/**
 * `n` cases of a perturbation, from the bases ranked by a hash of their names: the same ones on every
 * machine with the same history, built without building the rest.
 */
export function sampleCases(p: Perturbation, n: number, kind: 'patch', bases?: Base[]): PatchCase[];
export function sampleCases(p: Perturbation, n: number, kind: 'edit', bases?: Base[]): EditCase[];
export function sampleCases(
  p: Perturbation,
  n: number,
  kind: 'patch' | 'edit',
  bases: Base[] = corpusBases(),
): Array<PatchCase | EditCase> {
  const sib = siblingsOf(bases);
  const ranked = bases.map((b) => ({ b, r: rankOf(`${b.name} ${p.id}`) })).sort((x, y) => x.r - y.r || x.b.name.localeCompare(y.b.name));
  const out: Array<PatchCase | EditCase> = [];
  for (const { b } of ranked) {
    if (out.length >= n) break;
    const c = kind === 'patch' ? p.patch?.(b, sib.get(b)!) : p.edit?.(b);
    if (c) out.push(c);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Judging a tool's result

/**
 * correct: exactly the expected bytes with exit 0, or refused (exit ≠ 0) with nothing changed where a
 * correct tool refuses; refused: nothing changed where a correct tool applies; false-apply: exit 0
 * where a correct tool refuses; wrong: any other bytes (exit 0 with other bytes, or a failure that
 * changed files).
 */
export type Outcome = 'correct' | 'wrong' | 'false-apply' | 'refused';

export function judge({
  want,
  before,
  exit,
  now,
}: {
  want: Record<string, Buffer> | null;
  before: Record<string, Buffer>;
  exit: number;
  now: (path: string) => Buffer | null;
}): Outcome {
  const unchanged = Object.entries(before).every(([p, b]) => now(p)?.equals(b));
  if (!want) return exit === 0 ? 'false-apply' : unchanged ? 'correct' : 'wrong';
  if (exit === 0) return Object.entries(want).every(([p, b]) => now(p)?.equals(b)) ? 'correct' : 'wrong';
  return unchanged ? 'refused' : 'wrong';
}

/** Where the bytes first differ from what was wanted, as a line of a failure report. */
export function firstDifference(want: Record<string, Buffer>, now: (path: string) => Buffer | null): string {
  for (const [path, w] of Object.entries(want)) {
    const got = now(path);
    if (got?.equals(w)) continue;
    if (!got) return `${path} is missing`;
    const a = got.toString('utf8').split(/(?<=\n)/);
    const b = w.toString('utf8').split(/(?<=\n)/);
    const i = a.findIndex((l, k) => l !== b[k]);
    const at = i < 0 ? a.length : i;
    return `${path} line ${at + 1} is ${JSON.stringify(a[at] ?? '(end of file)')}, want ${JSON.stringify(b[at] ?? '(end of file)')}`;
  }
  return 'the bytes are right';
}

/** One line of a failure report: the case, what happened, the exit, and the first line of the error or of the difference. */
export function failureLine({
  name,
  want,
  outcome,
  exit,
  error,
  now,
}: {
  name: string;
  want: Record<string, Buffer> | null;
  outcome: Outcome;
  exit: number | string;
  error: string;
  now: (path: string) => Buffer | null;
}): string {
  const detail = exit === 0 ? (want ? firstDifference(want, now) : 'applied') : error.split('\n')[0];
  return `${name}: ${outcome}, exit ${exit} (want ${want ? 0 : '1 or 2'}) — ${detail}`;
}

/** forge edit's arguments for one edit, after the path. */
export function editArgs(e: EditOp): string[] {
  return 'lines' in e
    ? ['--lines', e.lines, '--new', e.new]
    : ['--old', e.old, '--new', e.new, ...(e.anchor ? ['--anchor', e.anchor] : [])];
}
