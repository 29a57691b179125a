// Converts gitleaks' config/gitleaks.toml into lib/redact-rules.gen.ts: each rule's Go (RE2) regex as JavaScript, its secret group, keywords, entropy and allowlists.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'smol-toml';

export const RULES_PATH = 'lib/redact-rules.gen.ts';
export const FIXTURE_PATH = 'test/fixtures/secrets/gitleaks.toml';

const USAGE = `usage: node --import tsx scripts/gen-secret-rules.ts <gitleaks.toml> [--commit SHA] [--out ${RULES_PATH}]

Writes ${RULES_PATH} from gitleaks' config/gitleaks.toml. The commit it came from is --commit, or
the first word of gitleaks.commit beside the TOML (${FIXTURE_PATH} has one, so CI re-runs offline).`;

/** A Go regex as JavaScript: `flags` never holds g or d (the redactor adds them). */
export interface JsRegex {
  source: string;
  flags: string;
}

interface GoFlags {
  i: boolean;
  s: boolean;
}

/** What a piece of converted regex says about letters: matched case-sensitively, case-insensitively, or both. */
interface CaseUse {
  sensitive: boolean;
  insensitive: boolean;
}

/** One piece of the regex written twice: as is (for a JS `i` flag over all of it) and with case spelled out (`[aA]`). */
interface Piece {
  plain: string;
  spelled: string;
}

const isLetter = (c: string) => /^[A-Za-z]$/.test(c);
const swapCase = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());

/** RE2's POSIX classes ([[:alnum:]]) as the members of a JS class. */
const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7f',
  blank: '\\t ',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-/:-@[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

/** An escape outside or inside a class: its JS text and the letter it stands for, if any. Throws on what JS has no match for. */
function escapeAt(src: string, at: number): { text: string; end: number; letter?: string } {
  const c = src[at + 1];
  if (c === undefined) throw new Error('trailing backslash');
  if (c === 'z') return { text: '$', end: at + 2 };
  if (c === 'A') return { text: '^', end: at + 2 };
  // Go's \a is the bell; JS reads \a as the letter a.
  if (c === 'a') return { text: '\\x07', end: at + 2 };
  if (c === 'x') {
    const braced = /^\\x\{([0-9A-Fa-f]{1,6})\}/.exec(src.slice(at));
    const plain = /^\\x([0-9A-Fa-f]{2})/.exec(src.slice(at));
    const hex = braced?.[1] ?? plain?.[1];
    if (!hex || Number.parseInt(hex, 16) > 0xffff) throw new Error(`unsupported escape ${src.slice(at, at + 6)}`);
    const ch = String.fromCharCode(Number.parseInt(hex, 16));
    const end = at + (braced ?? plain)![0].length;
    const text = hex.length <= 2 ? `\\x${hex.padStart(2, '0')}` : `\\u${hex.padStart(4, '0')}`;
    return { text, end, letter: isLetter(ch) ? ch : undefined };
  }
  if ('pPQECe'.includes(c) || /[1-9]/.test(c)) throw new Error(`unsupported escape \\${c}`);
  if (/[A-Za-z0-9]/.test(c) && !'dDwWsSbBnrtfv0'.includes(c)) throw new Error(`unknown escape \\${c}`);
  return { text: `\\${c}`, end: at + 2 };
}

/** A class member written for a JS class: `]`, `\`, `^`, `-` and `[` escaped. */
const classChar = (c: string) => (/[\]\\^\-[]/.test(c) ? `\\${c}` : c);

/** The letters in lo..hi, by code. */
function lettersIn(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let c = Math.max(lo, 65); c <= Math.min(hi, 122); c++) if (isLetter(String.fromCharCode(c))) out.push(c);
  return out;
}

/** Letters as JS class members, runs written as ranges (A-F). */
function classLetters(codes: readonly number[]): string {
  const sorted = [...codes].sort((a, b) => a - b);
  let out = '';
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    const [a, z] = [String.fromCharCode(sorted[i]!), String.fromCharCode(sorted[j]!)];
    out += j === i ? a : j === i + 1 ? `${a}${z}` : `${a}-${z}`;
    i = j + 1;
  }
  return out;
}

/** A Go character class from `at` (its `[`): both spellings, where it ends, and whether it holds letters. */
function classAt(src: string, at: number, flags: GoFlags): Piece & { end: number; letters: boolean } {
  let i = at + 1;
  let head = '[';
  if (src[i] === '^') {
    head += '^';
    i++;
  }
  let body = '';
  const covered = new Set<number>();
  let first = true;
  while (i < src.length && (src[i] !== ']' || first)) {
    first = false;
    const posix = /^\[:(\^?)([a-z]+):\]/.exec(src.slice(i));
    if (posix) {
      if (posix[1] || !POSIX[posix[2]!]) throw new Error(`unsupported class ${posix[0]}`);
      const members = POSIX[posix[2]!]!;
      body += members;
      for (const [, a, z] of members.matchAll(/([A-Za-z])-([A-Za-z])/g))
        for (const c of lettersIn(a!.charCodeAt(0), z!.charCodeAt(0))) covered.add(c);
      i += posix[0].length;
      continue;
    }
    let lo: { text: string; code: number; end: number };
    if (src[i] === '\\') {
      const e = escapeAt(src, i);
      lo = { text: e.text, code: e.letter ? e.letter.charCodeAt(0) : -1, end: e.end };
    } else lo = { text: classChar(src[i]!), code: src.charCodeAt(i), end: i + 1 };
    let hi = lo;
    if (src[lo.end] === '-' && src[lo.end + 1] !== undefined && src[lo.end + 1] !== ']') {
      const j = lo.end + 1;
      if (src[j] === '\\') {
        const e = escapeAt(src, j);
        hi = { text: e.text, code: e.letter ? e.letter.charCodeAt(0) : -1, end: e.end };
      } else hi = { text: classChar(src[j]!), code: src.charCodeAt(j), end: j + 1 };
      if (lo.code < 0 || hi.code < 0) throw new Error('class range with an escape');
      body += `${lo.text}-${hi.text}`;
    } else body += lo.text;
    if (lo.code >= 0) for (const c of lettersIn(lo.code, hi.code)) covered.add(c);
    i = hi.end;
  }
  if (src[i] !== ']') throw new Error('unterminated class');
  // Under (?i) the class also holds the other case of each letter it holds.
  const swapped = flags.i ? [...covered].map((c) => swapCase(String.fromCharCode(c)).charCodeAt(0)).filter((c) => !covered.has(c)) : [];
  return { plain: `${head}${body}]`, spelled: `${head}${body}${classLetters(swapped)}]`, end: i + 1, letters: covered.size > 0 };
}

/** A group's opening at `at`: the JS text, where it ends, whether it captures, and the flags inside (null: a bare flag setting like (?i)). */
function groupAt(src: string, at: number, flags: GoFlags): { text: string | null; end: number; inner: GoFlags } {
  if (src[at + 1] !== '?') return { text: '(', end: at + 1, inner: flags };
  // A named group captures like a plain one; the number is what counts.
  const named = /^\(\?P?<[A-Za-z_]\w*>/.exec(src.slice(at));
  if (named) return { text: '(', end: at + named[0].length, inner: flags };
  const set = /^\(\?([A-Za-z]*)(?:-([A-Za-z]*))?([:)])/.exec(src.slice(at));
  if (!set) throw new Error(`unsupported group ${src.slice(at, at + 4)}`);
  const inner = { ...flags };
  for (const [letters, on] of [
    [set[1] ?? '', true],
    [set[2] ?? '', false],
  ] as const) {
    for (const f of letters) {
      if (f !== 'i' && f !== 's') throw new Error(`unsupported flag (?${f})`);
      inner[f] = on;
    }
  }
  return { text: set[3] === ':' ? '(?:' : null, end: at + set[0].length, inner };
}

/**
 * A Go (RE2) regex as JavaScript. Case-insensitivity that covers the whole regex becomes the `i`
 * flag; where it is switched on or off for a part ((?i:…), (?-i:…), a (?i) after the start), the
 * letters it covers are spelled out ([aA]), as Node 20 has no regex modifiers. `.` is `[^\n]`, or
 * `[\s\S]` under (?s), as in Go; \z is `$`; named groups are numbered groups. Throws on what has no
 * JS equivalent (\Q…\E, \p{…}, (?m), (?U)).
 */
export function goRegexToJs(src: string): JsRegex {
  const pieces: Piece[] = [];
  const use: CaseUse = { sensitive: false, insensitive: false };
  const stack: GoFlags[] = [];
  let flags: GoFlags = { i: false, s: false };
  const add = (plain: string, spelled = plain) => {
    pieces.push({ plain, spelled });
  };
  const letters = (had: boolean) => {
    if (had) use[flags.i ? 'insensitive' : 'sensitive'] = true;
  };
  for (let at = 0; at < src.length; ) {
    const c = src[at]!;
    if (c === '\\') {
      const e = escapeAt(src, at);
      letters(e.letter !== undefined);
      add(e.text, e.letter && flags.i ? `[${e.letter}${swapCase(e.letter)}]` : e.text);
      at = e.end;
    } else if (c === '[') {
      const cls = classAt(src, at, flags);
      letters(cls.letters);
      add(cls.plain, cls.spelled);
      at = cls.end;
    } else if (c === '(') {
      const g = groupAt(src, at, flags);
      if (g.text === null) flags = g.inner;
      else {
        stack.push(flags);
        flags = g.inner;
        add(g.text);
      }
      at = g.end;
    } else if (c === ')') {
      const outer = stack.pop();
      if (!outer) throw new Error('unbalanced )');
      flags = outer;
      add(')');
      at++;
    } else {
      letters(isLetter(c));
      if (c === '.') add(flags.s ? '[\\s\\S]' : '[^\\n]');
      else add(c, isLetter(c) && flags.i ? `[${c}${swapCase(c)}]` : c);
      at++;
    }
  }
  if (stack.length) throw new Error('unbalanced (');
  const whole = use.insensitive && !use.sensitive;
  const source = pieces.map((p) => (whole || !use.insensitive ? p.plain : p.spelled)).join('');
  const out = { source, flags: whole ? 'i' : '' };
  // Compiled here, as the redactor will: what Node cannot compile throws, and the rule is skipped with the reason.
  new RegExp(out.source, `${out.flags}gd`);
  return out;
}

/** An allowlist as the redactor applies it: what its regexes look at, its regexes as JS, its stopwords, and whether both must hold. */
export interface Allowlist {
  target: 'secret' | 'match' | 'line';
  regexes: JsRegex[];
  stopwords: string[];
  and: boolean;
}

interface TomlAllowlist {
  description?: string;
  condition?: string;
  regexTarget?: string;
  regexes?: string[];
  stopwords?: string[];
  paths?: string[];
  commits?: string[];
}

interface TomlRule {
  id: string;
  regex?: string;
  path?: string;
  secretGroup?: number;
  entropy?: number;
  keywords?: string[];
  allowlists?: TomlAllowlist[];
  allowlist?: TomlAllowlist;
  required?: unknown;
  skipReport?: boolean;
}

/** An allowlist as JS; null when it can never apply to text without a file path or commit (an AND with paths or commits). `notes` gets what was left out. */
function convertAllowlist(a: TomlAllowlist, where: string, notes: string[]): Allowlist | null {
  const and = a.condition?.toUpperCase() === 'AND';
  if (and && (a.paths?.length || a.commits?.length)) {
    notes.push(`${where}: an AND allowlist with paths or commits never applies to text (dropped)`);
    return null;
  }
  const regexes: JsRegex[] = [];
  for (const r of a.regexes ?? []) {
    try {
      regexes.push(goRegexToJs(r));
    } catch (e) {
      notes.push(`${where}: allowlist regex ${JSON.stringify(r)} dropped (${(e as Error).message})`);
    }
  }
  const stopwords = (a.stopwords ?? []).map((w) => w.toLowerCase());
  if (!regexes.length && !stopwords.length) return null;
  const target = a.regexTarget === 'match' || a.regexTarget === 'line' ? a.regexTarget : 'secret';
  return { target, regexes, stopwords, and };
}

/** One converted rule: what lib/redact.ts runs. */
export interface ConvertedRule {
  id: string;
  /** The regex, its leading `[\w.-]{0,50}?` taken off (`prefix` says how many such characters the match may start before it). */
  regex: JsRegex;
  prefix: number;
  secretGroup: number;
  keywords: string[];
  entropy: number;
  allowlists: Allowlist[];
}

/**
 * The leading `[\w.-]{0,50}?` of gitleaks' keyword rules only moves where the match starts (it
 * holds no group), yet tried lazily at every position it makes the regex ~10x slower on code; the
 * redactor finds the same secrets without it and puts the start back when an allowlist reads the match.
 */
const LEADING_PREFIX = /^\[\\w\.\\?-\]\{0,(\d+)\}\?/;

/** A rule as JS, or why it cannot be run on text. `notes` gets allowlist regexes left out. */
function convertRule(r: TomlRule, notes: string[]): ConvertedRule | { skip: string } {
  if (!r.regex) return { skip: r.path ? 'path-only rule: matches file names, and redacted text has none' : 'no regex' };
  if (r.path) return { skip: `applies only to files whose path matches ${r.path}; redacted text has no path` };
  if (r.required) return { skip: 'composite rule (required rules nearby); not supported' };
  if (r.skipReport) return { skip: 'skipReport: only an auxiliary of a composite rule' };
  let regex: JsRegex;
  try {
    regex = goRegexToJs(r.regex);
  } catch (e) {
    return { skip: `regex not convertible: ${(e as Error).message}` };
  }
  let prefix = 0;
  const lead = LEADING_PREFIX.exec(regex.source);
  if (lead) {
    prefix = Number(lead[1]);
    regex = { source: regex.source.slice(lead[0].length), flags: regex.flags };
  }
  const allowlists = [...(r.allowlists ?? []), ...(r.allowlist ? [r.allowlist] : [])]
    .map((a) => convertAllowlist(a, r.id, notes))
    .filter((a): a is Allowlist => a !== null);
  return {
    id: r.id,
    regex,
    prefix,
    secretGroup: r.secretGroup ?? 0,
    keywords: [...new Set((r.keywords ?? []).map((k) => k.toLowerCase()))],
    entropy: r.entropy ?? 0,
    allowlists,
  };
}

/** Every rule of the config converted or skipped, the global allowlist, and notes on what was left out. */
export function convertConfig(toml: string): {
  rules: ConvertedRule[];
  skipped: Array<{ id: string; reason: string }>;
  global: Allowlist[];
  notes: string[];
  total: number;
} {
  const config = parse(toml) as { rules?: TomlRule[]; allowlist?: TomlAllowlist; allowlists?: TomlAllowlist[] };
  const notes: string[] = [];
  const rules: ConvertedRule[] = [];
  const skipped: Array<{ id: string; reason: string }> = [];
  for (const r of config.rules ?? []) {
    const c = convertRule(r, notes);
    if ('skip' in c) skipped.push({ id: r.id, reason: c.skip });
    else rules.push(c);
  }
  const global = [...(config.allowlist ? [config.allowlist] : []), ...(config.allowlists ?? [])]
    .map((a) => convertAllowlist(a, 'global allowlist', notes))
    .filter((a): a is Allowlist => a !== null);
  return { rules, skipped, global, notes, total: (config.rules ?? []).length };
}

const str = (s: string) => JSON.stringify(s);
const strs = (list: readonly string[]) => `[${list.map(str).join(', ')}]`;
const regexText = (r: JsRegex) => `{ source: ${str(r.source)}, flags: ${str(r.flags)} }`;

function allowlistText(a: Allowlist, indent: string): string {
  return [
    `${indent}{`,
    `${indent}  target: ${str(a.target)},`,
    `${indent}  and: ${a.and},`,
    `${indent}  regexes: [${a.regexes.map(regexText).join(', ')}],`,
    `${indent}  stopwords: ${strs(a.stopwords)},`,
    `${indent}},`,
  ].join('\n');
}

function ruleText(r: ConvertedRule): string {
  return [
    '  {',
    `    id: ${str(r.id)},`,
    `    regex: ${regexText(r.regex)},`,
    `    prefix: ${r.prefix},`,
    `    secretGroup: ${r.secretGroup},`,
    `    keywords: ${strs(r.keywords)},`,
    `    entropy: ${r.entropy},`,
    r.allowlists.length
      ? `    allowlists: [\n${r.allowlists.map((a) => allowlistText(a, '      ')).join('\n')}\n    ],`
      : '    allowlists: [],',
    '  },',
  ].join('\n');
}

/** The header: where the rules came from, their license, and what was not converted and why. */
function headerText(commit: string, c: ReturnType<typeof convertConfig>): string {
  // A reason quotes a regex, which may hold the comment's end.
  const line = (text: string) => ` *   - ${text.replaceAll('*/', '*\\/')}`;
  const skipped = c.skipped.map((s) => line(`${s.id}: ${s.reason}`));
  const notes = c.notes.map(line);
  return [
    `// Secret rules converted from gitleaks' config/gitleaks.toml by scripts/gen-secret-rules.ts: do not edit; re-run it.`,
    '/*',
    ` * Source: https://github.com/gitleaks/gitleaks/blob/${commit}/config/gitleaks.toml`,
    ` * (gitleaks commit ${commit}; a copy is ${FIXTURE_PATH}).`,
    ` * Regenerate: node --import tsx scripts/gen-secret-rules.ts ${FIXTURE_PATH}`,
    ' *',
    " * The rules are gitleaks', MIT License, Copyright (c) 2019 Zachary Rice: permission is granted, free of",
    ' * charge, to deal in the Software without restriction, provided this notice is included in all',
    ' * copies or substantial portions of the Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF',
    ' * ANY KIND. Full text: test/fixtures/secrets/gitleaks.LICENSE.',
    ' *',
    ' * Go (RE2) to JS: a (?i) over the whole regex is the i flag; (?i:…), (?-i:…) or a later (?i) spell',
    ' * out the letters they cover ([aA]); `.` is [^\\n] ([\\s\\S] under (?s)); \\z is $; named groups are',
    ' * numbered ones; a leading lazy [\\w.-]{0,N}? is taken off (prefix: N) and put back when an allowlist',
    ' * reads the match. A path-scoped rule is skipped: redacted text has no file path.',
    ' *',
    ` * Converted ${c.rules.length} of ${c.total} rules; skipped ${c.skipped.length}:`,
    ...skipped,
    ...(notes.length ? [' * Left out of allowlists:', ...notes] : []),
    ' */',
  ].join('\n');
}

/** The generated module's text. */
export function secretRulesSource(toml: string, commit: string): string {
  const c = convertConfig(toml);
  return [
    headerText(commit, c),
    '',
    `import type { GitleaksAllowlist, GitleaksRule } from './redact-rule';`,
    '',
    `export const GITLEAKS_COMMIT = ${str(commit)};`,
    '',
    `export type GitleaksRuleId =\n${c.rules.map((r) => `  | ${str(r.id)}`).join('\n')};`,
    '',
    `export const GITLEAKS_SKIPPED: ReadonlyArray<{ id: string; reason: string }> = [\n${c.skipped
      .map((s) => `  { id: ${str(s.id)}, reason: ${str(s.reason)} },`)
      .join('\n')}\n];`,
    '',
    `export const GITLEAKS_GLOBAL_ALLOWLISTS: readonly GitleaksAllowlist[] = [\n${c.global.map((a) => allowlistText(a, '  ')).join('\n')}\n];`,
    '',
    'let rules: ReadonlyArray<GitleaksRule<GitleaksRuleId>> | undefined;',
    '',
    '/** The rules, made on the first call: evaluated at import, they would cost every forge command, most of which redact nothing. */',
    'export function gitleaksRules(): ReadonlyArray<GitleaksRule<GitleaksRuleId>> {',
    // Rows hold no line break (strings are JSON-escaped), so indenting each line is safe.
    `  rules ??= [\n${c.rules.map(ruleText).join('\n').replace(/^/gm, '  ')}\n  ];`,
    '  return rules;',
    '}',
    '',
  ].join('\n');
}

/** The commit the TOML came from: --commit, or the first word of gitleaks.commit beside it. */
function commitOf(tomlPath: string, given: string | undefined): string {
  if (given) return given;
  try {
    return readFileSync(join(dirname(tomlPath), 'gitleaks.commit'), 'utf8')
      .trim()
      .split(/\s+/)[0]!;
  } catch {
    return 'unknown';
  }
}

function main(argv: string[]): void {
  const args = [...argv];
  const take = (flag: string) => {
    const at = args.indexOf(flag);
    return at < 0 ? undefined : args.splice(at, 2)[1];
  };
  const commit = take('--commit');
  const out = take('--out') ?? RULES_PATH;
  if (args.length !== 1 || args[0]!.startsWith('-')) {
    console.error(USAGE);
    process.exit(2);
  }
  const toml = readFileSync(args[0]!, 'utf8');
  const source = secretRulesSource(toml, commitOf(args[0]!, commit));
  writeFileSync(out, source);
  const c = convertConfig(toml);
  console.log(`${out}: ${c.rules.length} of ${c.total} rules converted, ${c.skipped.length} skipped`);
  for (const s of c.skipped) console.log(`  skipped ${s.id}: ${s.reason}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main(process.argv.slice(2));
