// Secret shapes kept off the shared state ref: one table of patterns, each match replaced by a readable [REDACTED:<kind>] marker.

/** A name that says its value is a secret (*_KEY, *_TOKEN, *SECRET, *PASSWORD), then `=` or `:`. */
const SECRET_NAME = String.raw`(?:^|[^A-Za-z0-9])[\w.-]*(?:[_.-](?:key|token)|secret|password|passwd)["']?[ \t]*[:=][ \t]*`;

/**
 * One row per shape. A row's pattern matches exactly the secret (lookbehinds keep a `KEY=` or
 * `Bearer ` in place), so the text around it stays as it was. Rows run in order: a marker never
 * matches a later row, so the first row that fits names the secret. Hand-written rather than a
 * library's: the scanners on npm (secretlint, @zapier/secret-scrubber, @npmcli/redact) report
 * findings in files, censor values known in advance or cover one registry's tokens, and none
 * replaces `*_KEY=` assignments or Bearer tokens in free text.
 */

export const SECRET_SHAPES = [
  // Through the END line, or to the end of the text when it was cut off before it.
  {
    kind: 'private-key',
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  { kind: 'anthropic-key', pattern: /(?<![\w-])sk-ant-[\w-]{20,}/g },
  // sk-…, sk-proj-…, sk-svcacct-…; a digit somewhere tells a key from a long kebab-case word.
  { kind: 'openai-key', pattern: /(?<![\w-])sk-(?=[\w-]*\d)[\w-]{20,}/g },
  { kind: 'github-token', pattern: /(?<!\w)(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{30,})/g },
  { kind: 'slack-token', pattern: /(?<![\w-])xox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'aws-access-key', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  { kind: 'bearer-token', pattern: /(?<=\bBearer\s+)[\w.~+/=-]{8,}/g },
  // The password of scheme://user:password@host.
  { kind: 'url-password', pattern: /(?<=\b[a-z][a-z0-9+.-]*:\/\/[^\s/@:"'<>]*:)[^\s/@"'<>]+(?=@)/gi },
  // API_KEY=…, GITHUB_TOKEN: …, client_secret = "…", password: …, ?api-key=…: the value, quoted or bare ($VAR references stay).
  {
    kind: 'assignment',
    pattern: new RegExp(
      [
        `(?<=${SECRET_NAME}")(?![$]|\\[REDACTED:)[^"\\n]+(?=")`,
        `(?<=${SECRET_NAME}')(?![$]|\\[REDACTED:)[^'\\n]+(?=')`,
        `(?<=${SECRET_NAME})(?![$=\\s"']|\\[REDACTED:)[^\\s"'\`,;&<>]+`,
      ].join('|'),
      'gi',
    ),
  },
] as const satisfies ReadonlyArray<{ kind: string; pattern: RegExp }>;

export type SecretKind = (typeof SECRET_SHAPES)[number]['kind'];

/** An object key whose value is a secret as a whole: {"password": "…"}, {"api_key": "…"}. */
const SECRET_KEY_NAME = /(?:^|[_.-])(?:key|token)$|secret|password|passwd/i;

export function redactionMarker(kind: SecretKind): string {
  return `[REDACTED:${kind}]`;
}

/** Every shape above needs one of these (a dash, an underscore, a colon or equals sign, AKIA/ASIA, Bearer): text with none is skipped cheaply. */
const MAYBE_SECRET = /[-_:=]|A[KS]IA|Bearer/;

/** The text with every secret shape replaced by its marker; the same text when there is none. */
export function redactSecrets(text: string): string {
  if (!MAYBE_SECRET.test(text)) return text;
  let out = text;
  for (const { kind, pattern } of SECRET_SHAPES) out = out.replace(pattern, redactionMarker(kind));
  return out;
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
