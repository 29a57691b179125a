// Secret shapes kept off the shared state ref: gitleaks' rules and a table of our own, each secret replaced by a readable [REDACTED:<kind>] marker.
import type { GitleaksAllowlist, GitleaksRule, RuleRegex } from './redact-rule';
import { GITLEAKS_GLOBAL_ALLOWLISTS, type GitleaksRuleId, gitleaksRules } from './redact-rules.gen';

/** A name that says its value is a secret (*_KEY, *_TOKEN, *SECRET, *PASSWORD), then `=` or `:`. */
const SECRET_NAME = String.raw`(?:[_.-](?:key|token)|secret|password|passwd)["']?[ \t]*[:=][ \t]*`;

/**
 * Our own rows, one per shape. A row's pattern matches the secret, or ends with it as its one
 * capture group (what comes before it, `KEY=` or `Bearer `, stays), so the text around the secret
 * stays as it was. Most shapes come from gitleaks' maintained rules (lib/redact-rules.gen.ts); a
 * row here covers what those miss: shapes gitleaks has no rule for (`*_KEY=`/`*_TOKEN:` values,
 * `Bearer …`, URL passwords, a PEM block cut off before its END line, Azure storage keys, Twilio
 * account SIDs), keys its rules want in their exact published form (its OpenAI and Anthropic rules
 * want the full-length key) or followed by a quote or space, and the kinds forge's records have
 * always named.
 */
export const SECRET_SHAPES = [
  // Through the END line, or to the end of the text when it was cut off before it.
  {
    kind: 'private-key',
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  { kind: 'anthropic-key', pattern: /(?<![\w-])sk-ant-[\w-]{20,}/g },
  // sk-…, sk-proj-…, sk-svcacct-…; a digit and a capital somewhere tell a key from a long kebab-case name (sk-learn-upgrade-to-1-4).
  { kind: 'openai-key', pattern: /(?<![\w-])sk-(?=[\w-]*\d)(?=[\w-]*[A-Z])[\w-]{20,}/g },
  { kind: 'github-token', pattern: /(?<!\w)(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{30,})/g },
  { kind: 'slack-token', pattern: /(?<![\w-])xox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'aws-access-key', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  // gitleaks wants a quote, space or `;` after the key; in a URL (…?key=AIza…&callback=…) an `&` follows.
  { kind: 'gcp-api-key', pattern: /(?<![\w-])AIza[\w-]{35}(?![\w-])/g },
  // No gitleaks rule: an Azure storage connection string's key (64 bytes in base64), a Twilio account SID.
  { kind: 'azure-storage-key', pattern: /\bAccountKey=([A-Za-z0-9+/]{86}==)/g },
  { kind: 'twilio-account-sid', pattern: /(?<![A-Za-z0-9])AC[0-9a-f]{32}(?![A-Za-z0-9])/g },
  { kind: 'bearer-token', pattern: /\bBearer\s+([\w.~+/=-]{8,})/g },
  // The password of scheme://user:password@host (not a marker put there by a row above); the scheme
  // is checked behind the `://`, not before it, as a regex that starts with a literal is found fast.
  { kind: 'url-password', pattern: /:\/\/(?<=\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:"'<>]*:(?!\[REDACTED:)([^\s/@"'<>]+)(?=@)/gi },
  // API_KEY=…, GITHUB_TOKEN: …, client_secret = "…", password: …, ?api-key=…: the value, quoted or bare ($VAR references stay).
  {
    kind: 'assignment',
    pattern: new RegExp(
      `${SECRET_NAME}(?:${[
        `"((?![$]|\\[REDACTED:)[^"\\n]+)(?=")`,
        `'((?![$]|\\[REDACTED:)[^'\\n]+)(?=')`,
        `((?![$=\\s"']|\\[REDACTED:)[^\\s"'\`,;&<>]+)`,
      ].join('|')})`,
      'gi',
    ),
  },
] as const satisfies ReadonlyArray<{ kind: string; pattern: RegExp }>;

export type SecretKind = (typeof SECRET_SHAPES)[number]['kind'];

/** What a marker names: one of our rows, or the gitleaks rule that found the secret. */
export type RedactionKind = SecretKind | GitleaksRuleId;

/** An object key whose value is a secret as a whole: {"password": "…"}, {"api_key": "…"}. */
const SECRET_KEY_NAME = /(?:^|[_.-])(?:key|token)$|secret|password|passwd/i;

export function redactionMarker(kind: RedactionKind): string {
  return `[REDACTED:${kind}]`;
}

/** Every row of ours needs one of these (a dash, an underscore, a colon or equals sign, AKIA/ASIA, AIza, AC, Bearer): text with none skips them cheaply. */
const MAYBE_SECRET = /[-_:=]|A[KS]IA|AIza|AC[0-9a-f]|Bearer/;

/**
 * The order the rows and rules run in, each seeing the markers of those before it, so the first
 * that fits names the secret: our provider rows that forge's records have long named, gitleaks'
 * provider rules, our other rows (shapes gitleaks misses, Bearer, URL password, NAME=value), and
 * last gitleaks' rules that name a context rather than a provider (generic-api-key, curl's -H and -u).
 */
const OWN_FIRST_KINDS: ReadonlySet<SecretKind> = new Set([
  'private-key',
  'anthropic-key',
  'openai-key',
  'github-token',
  'slack-token',
  'aws-access-key',
]);
const OWN_FIRST = SECRET_SHAPES.filter((s) => OWN_FIRST_KINDS.has(s.kind));
const OWN_AFTER = SECRET_SHAPES.filter((s) => !OWN_FIRST_KINDS.has(s.kind));
const GITLEAKS_LAST: ReadonlySet<string> = new Set(['generic-api-key', 'curl-auth-header', 'curl-auth-user']);

function replaceRows(text: string, rows: ReadonlyArray<{ kind: SecretKind; pattern: RegExp }>): string {
  let out = text;
  for (const row of rows) out = replaceRow(out, row);
  return out;
}

/**
 * The row's secrets replaced: each match, or its capture group that ends it (the `KEY=` or `Bearer `
 * before the group stays). After a match with a group the search goes on from where the match
 * began, as a lookbehind would: in KEY=a_TOKEN=b the value of KEY holds the name of another.
 */
function replaceRow(text: string, { kind, pattern }: { kind: SecretKind; pattern: RegExp }): string {
  const parts: string[] = [];
  let at = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    const end = m.index + m[0].length;
    const group = m.findIndex((g, i) => i > 0 && g !== undefined);
    const start = group > 0 ? end - m[group]!.length : m.index;
    if (start >= at) {
      parts.push(text.slice(at, start), redactionMarker(kind));
      at = end;
    }
    if (group > 0) pattern.lastIndex = m.index + 1;
    else if (m[0] === '') pattern.lastIndex++;
  }
  if (!parts.length) return text;
  parts.push(text.slice(at));
  return parts.join('');
}

/** The text with every secret replaced by its marker; the same text when there is none. */
export function redactSecrets(text: string): string {
  const rules = compiledRules();
  const present = keywordsIn(text, rules.index);
  const own = MAYBE_SECRET.test(text);
  if (!own && !present) return text;
  let out = own ? replaceRows(text, OWN_FIRST) : text;
  if (present) out = runRules(out, rules.first, present);
  if (own) out = replaceRows(out, OWN_AFTER);
  if (present) out = runRules(out, rules.last, present);
  return out;
}

/** A rule ready to run: its regex compiled (global, with match indices) and its keywords as numbers of the keyword index. */
interface Compiled {
  rule: GitleaksRule<GitleaksRuleId>;
  keywords: readonly number[];
  regex: RegExp | null;
}

/**
 * Keyword search in one pass (Aho-Corasick, as gitleaks does it): a state per keyword prefix and a
 * table of where each character leads, upper case folded to lower. A text costs one table look-up
 * per character whatever the number of keywords; checking each of the 240 keywords with `includes`
 * on a lowercased copy costs 30 times as much on a text that holds few of them. What the trie does
 * not say (fallbacks, the edges they give, the keywords a state ends) is worked out when a text
 * first needs it: building the index costs the keywords' length, a few hundred microseconds.
 */
interface KeywordIndex {
  /** Column of each UTF-16 code unit: 0 for one in no keyword. */
  columns: Uint8Array;
  width: number;
  /** By state (its row's offset: number × width) and column, the next state; -1 while not known. */
  next: Int32Array;
  /** By state number: its parent's offset and the column that leads from it, which find its fallback. */
  parent: Int32Array;
  via: Uint8Array;
  /** By state number: the offset of the longest proper suffix of its prefix that is in the trie; -1 while not known. */
  fallback: Int32Array;
  /** By state offset: 0 where no keyword ends, 1 where one does, 2 while not known. */
  hit: Uint8Array;
  /** By state number: the keywords it ends itself, then (once known) those of its fallbacks too. */
  ends: number[][];
  resolved: Uint8Array;
  count: number;
}

let compiled: { first: Compiled[]; last: Compiled[]; index: KeywordIndex } | undefined;

/** The generated rules, compiled once on first use: a forge command that stores nothing never pays for them. */
function compiledRules(): NonNullable<typeof compiled> {
  if (compiled) return compiled;
  const words = new Map<string, number>();
  const number = (w: string) => {
    if (!words.has(w)) words.set(w, words.size);
    return words.get(w)!;
  };
  const all: Compiled[] = gitleaksRules().map((rule) => ({ rule, keywords: rule.keywords.map(number), regex: null }));
  compiled = {
    first: all.filter((c) => !GITLEAKS_LAST.has(c.rule.id)),
    last: all.filter((c) => GITLEAKS_LAST.has(c.rule.id)),
    index: keywordIndex([...words.keys()]),
  };
  return compiled;
}

function keywordIndex(words: readonly string[]): KeywordIndex {
  const columns = new Uint8Array(65536);
  let width = 1;
  for (const w of words) for (let i = 0; i < w.length; i++) columns[w.charCodeAt(i)] ||= width++;
  for (let c = 65; c <= 90; c++) columns[c] = columns[c + 32]!;
  const most = words.reduce((n, w) => n + w.length, 0) + 1;
  // The trie, in a table sized for the most states the words can make; the root goes to itself.
  const index: KeywordIndex = {
    columns,
    width,
    next: new Int32Array(most * width).fill(-1).fill(0, 0, width),
    parent: new Int32Array(most),
    via: new Uint8Array(most),
    fallback: new Int32Array(most).fill(-1),
    hit: new Uint8Array(most * width).fill(2),
    ends: [[]],
    resolved: new Uint8Array(most),
    count: words.length,
  };
  index.fallback[0] = 0;
  for (let k = 0; k < words.length; k++) {
    let s = 0;
    for (let i = 0; i < words[k]!.length; i++) {
      const col = columns[words[k]!.charCodeAt(i)]!;
      if (index.next[s + col]! <= 0) {
        const n = index.ends.length;
        index.next[s + col] = n * width;
        index.parent[n] = s;
        index.via[n] = col;
        index.ends.push([]);
      }
      s = index.next[s + col]!;
    }
    index.ends[s / width]!.push(k);
  }
  return index;
}

/** Where state `s` goes on `col`, learnt from its fallback when not yet known. */
function step(index: KeywordIndex, s: number, col: number): number {
  const t = index.next[s + col]!;
  if (t >= 0) return t;
  const learnt = step(index, fallbackOf(index, s), col);
  index.next[s + col] = learnt;
  return learnt;
}

/** The fallback of state `s`: where its parent's fallback goes on the column that leads to it (the root, for the root and its children). */
function fallbackOf(index: KeywordIndex, s: number): number {
  const n = s / index.width;
  if (index.fallback[n]! < 0) {
    const parent = index.parent[n]!;
    index.fallback[n] = parent === 0 ? 0 : step(index, fallbackOf(index, parent), index.via[n]!);
  }
  return index.fallback[n]!;
}

/** Every keyword that ends in state `s`: its own and its fallback's. */
function endsOf(index: KeywordIndex, s: number): readonly number[] {
  const n = s / index.width;
  if (!index.resolved[n]) {
    if (s !== 0) index.ends[n]!.push(...endsOf(index, fallbackOf(index, s)));
    index.resolved[n] = 1;
    index.hit[s] = index.ends[n]!.length ? 1 : 0;
  }
  return index.ends[n]!;
}

/** The keywords that end in state `s` marked found; out of the search loop, which stays small enough to be optimized whole. */
function markEnds(index: KeywordIndex, s: number, found: Uint8Array | null): Uint8Array | null {
  const ends = endsOf(index, s);
  if (!ends.length) return found;
  const marks = found ?? new Uint8Array(index.count);
  for (const k of ends) marks[k] = 1;
  return marks;
}

/** Which keywords the text holds, by number; null when it holds none. */
function keywordsIn(text: string, index: KeywordIndex): Uint8Array | null {
  const columns = index.columns;
  const next = index.next;
  const hit = index.hit;
  let found: Uint8Array | null = null;
  let s = 0;
  for (let i = 0; i < text.length; i++) {
    const col = columns[text.charCodeAt(i)]!;
    let t = next[s + col]!;
    if (t < 0) t = step(index, s, col);
    s = t;
    if (hit[s] !== 0) found = markEnds(index, s, found);
  }
  return found;
}

/** Each rule in turn whose keyword the text holds (or that has none), its secrets replaced by markers. */
function runRules(text: string, rules: Compiled[], present: Uint8Array): string {
  let out = text;
  for (const c of rules) {
    if (c.keywords.length && !c.keywords.some((k) => present[k])) continue;
    c.regex ??= new RegExp(c.rule.regex.source, `${c.rule.regex.flags}gd`);
    const spans = findSecrets(out, c.rule, c.regex);
    if (!spans.length) continue;
    const parts: string[] = [];
    let at = 0;
    for (const [start, end] of spans) {
      parts.push(out.slice(at, start), redactionMarker(c.rule.id));
      at = end;
    }
    parts.push(out.slice(at));
    out = parts.join('');
  }
  return out;
}

/** Where the secret of a match is: the rule's group, else the first group that matched something, else the whole match. */
function secretSpan(m: RegExpExecArray, group: number): [number, number] | null {
  const indices = m.indices!;
  if (group > 0) return indices[group] && indices[group][1] > indices[group][0] ? indices[group] : null;
  for (let g = 1; g < indices.length; g++) {
    const span = indices[g];
    if (span && span[1] > span[0]) return span;
  }
  // gitleaks trims line breaks off a match that has no group.
  let [start, end] = indices[0]!;
  while (start < end && m.input[start] === '\n') start++;
  while (end > start && m.input[end - 1] === '\n') end--;
  return end > start ? [start, end] : null;
}

/** The secrets `rule` finds in the text, in order: not inside a marker, past its entropy bar and let go by no allowlist. */
function findSecrets(text: string, rule: GitleaksRule, regex: RegExp): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const marked = text.includes('[REDACTED:');
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m; m = regex.exec(text)) {
    if (m[0] === '') {
      regex.lastIndex++;
      continue;
    }
    const span = secretSpan(m, rule.secretGroup);
    if (!span) continue;
    const secret = text.slice(span[0], span[1]);
    if (marked && overlapsMarker(text, span)) continue;
    if (rule.entropy && shannonEntropy(secret) <= rule.entropy) continue;
    const finding = { text, secret, match: [matchStart(text, m.index, rule.prefix, spans), m.index + m[0].length] as const };
    if (allowed(finding, GITLEAKS_GLOBAL_ALLOWLISTS) || allowed(finding, rule.allowlists)) continue;
    spans.push(span);
  }
  return spans;
}

/** Whether the span touches a marker already in the text: a secret found there was redacted before. */
function overlapsMarker(text: string, [start, end]: readonly [number, number]): boolean {
  const open = text.lastIndexOf('[REDACTED:', end - 1);
  return open >= 0 && text.indexOf(']', open) >= start;
}

/** Where the match would have started with the rule's `[\w.-]{0,prefix}?` still on: back over such characters, not into the previous match. */
function matchStart(text: string, from: number, prefix: number, before: ReadonlyArray<[number, number]>): number {
  const floor = Math.max(0, from - prefix, before.length ? before[before.length - 1]![1] : 0);
  let start = from;
  while (start > floor && /[\w.-]/.test(text[start - 1]!)) start--;
  return start;
}

/** gitleaks' entropy: bits per character over the characters of the secret. */
function shannonEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const length = Buffer.byteLength(s);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / length) * Math.log2(n / length);
  return bits;
}

const allowlistRegexes = new WeakMap<RuleRegex, RegExp>();

/** Whether an allowlist lets the finding go: its regexes on its target (the secret, the match or its lines), its stopwords in the secret. */
function allowed(f: { text: string; secret: string; match: readonly [number, number] }, allowlists: readonly GitleaksAllowlist[]): boolean {
  for (const a of allowlists) {
    let target = f.secret;
    if (a.target === 'match') target = f.text.slice(f.match[0], f.match[1]);
    else if (a.target === 'line') {
      const end = f.text.indexOf('\n', f.match[1]);
      target = f.text.slice(f.text.lastIndexOf('\n', f.match[0] - 1) + 1, end < 0 ? f.text.length : end);
    }
    const byRegex = a.regexes.some((r) => {
      let re = allowlistRegexes.get(r);
      if (!re) allowlistRegexes.set(r, (re = new RegExp(r.source, r.flags)));
      return re.test(target);
    });
    const lower = a.stopwords.length ? f.secret.toLowerCase() : '';
    const byWord = a.stopwords.some((w) => lower.includes(w));
    if (a.and ? (!a.regexes.length || byRegex) && (!a.stopwords.length || byWord) : byRegex || byWord) return true;
  }
  return false;
}

const STRING_LITERAL = /"(?:[^"\\\n]|\\.)*"/y;

/** Where the JSON value starting at `from` (after a key's colon) ends: past a string, a nested array or object, or a scalar. */
function valueEnd(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      STRING_LITERAL.lastIndex = i;
      if (!STRING_LITERAL.test(text)) return text.length;
      i = STRING_LITERAL.lastIndex - 1;
      if (depth === 0) return i + 1;
    } else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      if (depth === 0) return i;
      if (--depth === 0) return i + 1;
    } else if (depth === 0 && (c === ',' || c === '\n')) return i;
  }
  return text.length;
}

/**
 * Redacts the string values (and keys) of JSON or JSON Lines text without changing anything else:
 * each string literal is decoded, redacted and encoded again only when it held a secret, so the
 * layout, key order and number formats stay as written and the result parses as the input did. A
 * value under a key named like a secret ("password", "api_key", "client_secret") is replaced whole;
 * the values of the top-level keys in `keep` are left exactly as they are.
 */
export function redactJsonText(text: string, { keep = [] }: { keep?: readonly string[] } = {}): string {
  const parts: string[] = [];
  let at = 0;
  let prevEnd = 0;
  let prevSecretKey = false;
  let depth = 0;
  let keptUntil = -1;
  const literal = /"(?:[^"\\\n]|\\.)*"/g;
  for (let m = literal.exec(text); m; m = literal.exec(text)) {
    const raw = m[0];
    const start = m.index;
    const end = start + raw.length;
    const gap = text.slice(prevEnd, start);
    // Outside strings only structure remains: its brackets say how deep this literal is.
    for (const c of gap) depth += c === '{' || c === '[' ? 1 : c === '}' || c === ']' ? -1 : 0;
    const colon = /^\s*:\s*/.exec(text.slice(end, end + 64));
    const afterSecretKey = prevSecretKey && /^\s*:\s*$/.test(gap);
    prevEnd = end;
    prevSecretKey = false;
    if (start < keptUntil) continue;
    let value: string;
    try {
      value = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
    } catch {
      continue;
    }
    if (colon && depth === 1 && keep.includes(value)) {
      keptUntil = valueEnd(text, end + colon[0].length);
      continue;
    }
    prevSecretKey = colon !== null && SECRET_KEY_NAME.test(value);
    const next =
      afterSecretKey && !colon && value !== '' && !value.startsWith('[REDACTED:') ? redactionMarker('assignment') : redactSecrets(value);
    if (next === value) continue;
    parts.push(text.slice(at, start), JSON.stringify(next));
    at = end;
  }
  if (!parts.length) return text;
  parts.push(text.slice(at));
  return parts.join('');
}

/**
 * An endpoint as it may be recorded or shown: scheme, host, port and path, without user, password,
 * query string or fragment (where keys ride: http://user:pw@host/v1?api-key=K → http://host/v1).
 */
export function recordableEndpoint(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return redactSecrets(endpoint);
  }
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}
