// The change-impact sweep after a task: symbols whose signature changed or that went away, and the untouched files that still use them.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { extractSymbols, languageOf, type SymbolEntry } from '../files/symbols';
import { workTreeChanges } from '../git/checkpoint';
import { grepWords } from '../git/grep';
import { ObjectReader } from '../git/objects';

export interface ImpactReference {
  path: string;
  line: number;
}

export interface ImpactWarning {
  /** The name searched for (a constructor is searched for by its class's name). */
  symbol: string;
  kind: string;
  /** The changed file that declared it (its path before the change). */
  file: string;
  change: 'signature' | 'removed';
  /** The declaration's head before and after (whitespace collapsed); after is null when removed. */
  before: string;
  after: string | null;
  /** Where untouched files use it, at most maxReferences. */
  references: ImpactReference[];
  /** References found beyond those listed. */
  more: number;
  /** `⚠ changed signature of validateToken in src/auth.ts — referenced by src/handler.ts:14, src/mw.ts:8` */
  text: string;
}

export interface ImpactResult {
  base: string;
  /** Changed source files whose symbols were compared. */
  examined: number;
  /** Changed source files left out (over maxFiles, or too big). */
  skipped: number;
  warnings: ImpactWarning[];
}

/** Kinds whose whole declaration is their shape: a changed member is a changed signature. */
const SHAPES = new Set(['interface', 'type', 'enum', 'struct', 'trait', 'record', 'union']);
/** Bigger files are skipped: parsing them twice would cost more than the warning is worth. */
const MAX_BYTES = 512 * 1024;
/** Lines of a declaration read for its head (a long parameter list still fits). */
const HEAD_LINES = 40;
const WORD = /^[A-Za-z_$][\w$]*$/;

/**
 * The head of a declaration, from its first line up to its body: up to the `{` (or `;`) outside
 * brackets, or for Python the `:` — parameters and return type included, however many lines they
 * span. A const is its name and type, plus the parameters when its value is a function. Types,
 * interfaces, enums and the like are their whole text.
 */
export function declarationHead({ lines, symbol, language }: { lines: string[]; symbol: SymbolEntry; language: string }): string {
  const text = lines.slice(symbol.line - 1, Math.min(symbol.endLine, symbol.line - 1 + HEAD_LINES)).join('\n');
  if (SHAPES.has(symbol.kind)) return text;
  const stops = language === 'python' ? ':' : '{;';
  if (symbol.kind === 'const') {
    const eq = indexOutside(text, '=', language);
    if (eq < 0) return cutAtBody(text, stops, language);
    const value = text.slice(eq + 1);
    if (!/^\s*(async\b\s*)?(function\b|\(|<|[A-Za-z_$][\w$]*\s*=>)/.test(value)) return text.slice(0, eq);
    const arrow = value.indexOf('=>');
    const body = indexOutside(value, stops, language);
    return (
      text.slice(0, eq + 1) +
      (arrow >= 0 && (body < 0 || arrow < body) ? value.slice(0, arrow + 2) : body < 0 ? value : value.slice(0, body))
    );
  }
  return cutAtBody(text, stops, language);
}

function cutAtBody(text: string, stops: string, language: string): string {
  const i = indexOutside(text, stops, language);
  return i < 0 ? text : text.slice(0, i);
}

/** The first of `chars` outside (), [] and quotes; '=' that is part of =>, ==, <=, >=, != does not count. */
function indexOutside(text: string, chars: string, language: string): number {
  // A Rust lifetime ('a) is not a quote.
  const quotes = language === 'rust' ? '"' : '"\'`';
  let depth = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (quotes.includes(c)) quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0 && chars.includes(c)) {
      if (c === '=' && (/[=<>!]/.test(text[i - 1] ?? '') || /[=>]/.test(text[i + 1] ?? ''))) continue;
      return i;
    }
  }
  return -1;
}

/** Whitespace collapsed, for showing. */
function display(head: string): string {
  return head.replace(/\s+/g, ' ').trim();
}

/** What two heads are compared by: no whitespace at all, no trailing commas — reformatting is not a change. */
function shape(head: string): string {
  return head
    .replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, '')
    .replace(/,([)\]}>])/g, '$1');
}

interface Declared {
  key: string;
  word: string;
  kind: string;
  line: number;
  head: string;
}

async function declarations(path: string, text: string): Promise<Declared[]> {
  const language = languageOf(path)!;
  const index = await extractSymbols({ path, text });
  const lines = text.split('\n');
  const out: Declared[] = [];
  for (const s of index.symbols) {
    if (s.kind === 'impl' || s.kind === 'module' || s.kind === 'namespace') continue;
    const ctor = s.kind === 'constructor' || s.name === 'constructor' || s.name === '__init__';
    const word = ctor && s.container ? s.container : s.name;
    if (!WORD.test(word)) continue;
    out.push({
      key: `${s.container ?? ''}#${s.name}`,
      word,
      kind: s.kind,
      line: s.line,
      head: declarationHead({ lines, symbol: s, language }),
    });
  }
  return out;
}

function group(list: Declared[]): Map<string, Declared[]> {
  const m = new Map<string, Declared[]>();
  for (const d of list) m.set(d.key, [...(m.get(d.key) ?? []), d]);
  return m;
}

export function formatWarning(w: Pick<ImpactWarning, 'symbol' | 'file' | 'change' | 'references' | 'more'>): string {
  const what = w.change === 'removed' ? `removed ${w.symbol} from ${w.file}` : `changed signature of ${w.symbol} in ${w.file}`;
  const refs = w.references.map((r) => `${r.path}:${r.line}`).join(', ');
  return `⚠ ${what} — referenced by ${refs}${w.more ? ` and ${w.more} more` : ''}`;
}

/**
 * Compares the symbols of every source file changed between `base` (a checkpoint's oid, or any
 * commit) and the work tree: a symbol whose declaration head changed (parameters, return type, an
 * interface's members…) or that is gone (removed or renamed, and not re-declared unchanged in
 * another changed file) is looked up, as a whole word, in the files NOT changed since base
 * (untracked ones included). Each one still referenced there is a warning. Deterministic and
 * bounded: at most maxFiles changed files, maxReferences listed per warning. A word match is a
 * heuristic — a same-named local elsewhere is reported too; a reference through an alias is not.
 */
export async function impactSweep({
  cwd,
  base,
  maxFiles = 100,
  maxReferences = 10,
}: {
  cwd: string;
  base: string;
  maxFiles?: number;
  maxReferences?: number;
}): Promise<ImpactResult> {
  const { root, files } = await workTreeChanges({ cwd, base });
  const changed = new Set(files.map((f) => f.path));
  const sources = files.filter((f) => languageOf(f.path) && f.status !== 'added').sort((a, b) => (a.path < b.path ? -1 : 1));
  const added = files.filter((f) => languageOf(f.path) && f.status === 'added');
  const reader = new ObjectReader(root);
  const before = new Map<string, Declared[]>();
  const after = new Map<string, Declared[]>();
  let skipped = 0;
  let examined = 0;
  try {
    for (const f of [...sources, ...added]) {
      if (examined >= maxFiles) {
        skipped++;
        continue;
      }
      const old = f.status === 'added' ? null : await reader.read(`${base}:${f.path}`);
      const now = f.status === 'deleted' ? null : await readFile(join(root, f.path)).catch(() => null);
      if ((old && old.content.length > MAX_BYTES) || (now && now.length > MAX_BYTES)) {
        skipped++;
        continue;
      }
      examined++;
      if (old?.type === 'blob') before.set(f.path, await declarations(f.path, old.content.toString('utf8')));
      if (now) after.set(f.path, await declarations(f.path, now.toString('utf8')));
    }
  } finally {
    reader.close();
  }

  // A declaration unchanged somewhere among the changed files is moved, not gone.
  const everywhere = new Set([...after.values()].flat().map((d) => `${d.word}\0${shape(d.head)}`));
  const found: Array<Omit<ImpactWarning, 'references' | 'more' | 'text'> & { line: number }> = [];
  for (const [file, old] of before) {
    const now = group(after.get(file) ?? []);
    for (const [key, decls] of group(old)) {
      const next = now.get(key) ?? [];
      const shapes = new Set(next.map((d) => shape(d.head)));
      const lost = decls.find((d) => !shapes.has(shape(d.head)));
      if (!lost) continue;
      if (!next.length && everywhere.has(`${lost.word}\0${shape(lost.head)}`)) continue;
      found.push({
        symbol: lost.word,
        kind: lost.kind,
        file,
        line: lost.line,
        change: next.length ? 'signature' : 'removed',
        before: display(lost.head),
        after: next.length ? display(next[0]!.head) : null,
      });
    }
  }

  const { hits } = await grepWords({ root, words: [...new Set(found.map((w) => w.symbol))].sort(), exclude: [...changed] });
  const byWord = new Map<string, ImpactReference[]>();
  for (const h of hits) {
    if (changed.has(h.path)) continue;
    byWord.set(h.word, [...(byWord.get(h.word) ?? []), { path: h.path, line: h.line }]);
  }
  const warnings: ImpactWarning[] = [];
  for (const { line: _line, ...w } of found.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1))) {
    const refs = (byWord.get(w.symbol) ?? []).sort((a, b) => (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1));
    if (!refs.length) continue;
    const shown = refs.slice(0, maxReferences);
    const warning = { ...w, references: shown, more: refs.length - shown.length };
    warnings.push({ ...warning, text: formatWarning(warning) });
  }
  return { base, examined, skipped, warnings };
}
