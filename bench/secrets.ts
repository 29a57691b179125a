// `make bench`, secrets: gitleaks' rules plus our rows against the old hand-written table — rules loaded, misses and false positives on the two corpora, CPU per 1 MB of ordinary text.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactSecrets, SECRET_SHAPES } from '../lib/redact';
import { GITLEAKS_COMMIT, gitleaksRules, GITLEAKS_SKIPPED } from '../lib/redact-rules.gen';

// The table lib/redact.ts had before gitleaks' rules, copied as it was, to measure against.
const OLD_SECRET_NAME = String.raw`(?:^|[^A-Za-z0-9])[\w.-]*(?:[_.-](?:key|token)|secret|password|passwd)["']?[ \t]*[:=][ \t]*`;
const OLD_SHAPES: ReadonlyArray<{ kind: string; pattern: RegExp }> = [
  {
    kind: 'private-key',
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  { kind: 'anthropic-key', pattern: /(?<![\w-])sk-ant-[\w-]{20,}/g },
  { kind: 'openai-key', pattern: /(?<![\w-])sk-(?=[\w-]*\d)[\w-]{20,}/g },
  { kind: 'github-token', pattern: /(?<!\w)(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{30,})/g },
  { kind: 'slack-token', pattern: /(?<![\w-])xox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'aws-access-key', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  { kind: 'bearer-token', pattern: /(?<=\bBearer\s+)[\w.~+/=-]{8,}/g },
  { kind: 'url-password', pattern: /(?<=\b[a-z][a-z0-9+.-]*:\/\/[^\s/@:"'<>]*:)[^\s/@"'<>]+(?=@)/gi },
  {
    kind: 'assignment',
    pattern: new RegExp(
      [
        `(?<=${OLD_SECRET_NAME}")(?![$]|\\[REDACTED:)[^"\\n]+(?=")`,
        `(?<=${OLD_SECRET_NAME}')(?![$]|\\[REDACTED:)[^'\\n]+(?=')`,
        `(?<=${OLD_SECRET_NAME})(?![$=\\s"']|\\[REDACTED:)[^\\s"'\`,;&<>]+`,
      ].join('|'),
      'gi',
    ),
  },
];
const OLD_MAYBE_SECRET = /[-_:=]|A[KS]IA|Bearer/;

function oldRedactSecrets(text: string): string {
  if (!OLD_MAYBE_SECRET.test(text)) return text;
  let out = text;
  for (const { kind, pattern } of OLD_SHAPES) out = out.replace(pattern, `[REDACTED:${kind}]`);
  return out;
}

const secrets: Array<{ provider: string; kind: string; secret: string; text: string }> = JSON.parse(
  readFileSync('test/fixtures/secrets/secrets.json', 'utf8'),
).cases;
const ordinary: Array<{ text: string }> = JSON.parse(readFileSync('test/fixtures/secrets/ordinary.json', 'utf8')).cases;

/** Misses on corpus (a) and false positives on corpus (b) of one redactor. */
function score(redact: (text: string) => string) {
  const misses = secrets.filter((c) => redact(c.text).includes(c.secret));
  const falsePositives = ordinary.filter((c) => redact(c.text) !== c.text);
  return { misses, falsePositives };
}

/** About 1 MB of ordinary text: this project's own source (generated files left out) and corpus (b), repeated; a flat string, as one read from a file is. */
function ordinaryMegabyte(): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (path.endsWith('.ts') && !path.endsWith('.gen.ts')) files.push(path);
    }
  };
  for (const dir of ['lib', 'commands']) walk(dir);
  const parts = [...ordinary.map((c) => c.text), ...files.sort().map((f) => readFileSync(f, 'utf8'))];
  let text = '';
  while (text.length < 1e6) text += parts.join('\n');
  return Buffer.from(text.slice(0, 1e6), 'utf8').toString('utf8');
}

/** Median CPU milliseconds (user + system) of `runs` calls, after two to warm up. */
function cpuMs(fn: () => unknown, runs = 7): number {
  fn();
  fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    fn();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

const markers = (text: string) => (text.match(/\[REDACTED:/g) ?? []).length;

console.log(`\nsecret redaction: gitleaks ${GITLEAKS_COMMIT.slice(0, 12)} rules + our rows vs the old hand-written table`);
console.log(
  `  gitleaks rules loaded ${gitleaksRules().length}, skipped ${GITLEAKS_SKIPPED.length}; our rows ${SECRET_SHAPES.length} (old table ${OLD_SHAPES.length})`,
);
for (const s of GITLEAKS_SKIPPED) console.log(`    skipped ${s.id}: ${s.reason}`);
const now = score(redactSecrets);
const before = score(oldRedactSecrets);
console.log(`  corpus (a), ${secrets.length} fake secrets: misses ${now.misses.length} (old table ${before.misses.length})`);
if (now.misses.length) console.log(`    missed: ${now.misses.map((c) => `${c.provider} (${c.kind})`).join(', ')}`);
console.log(`    old table missed: ${before.misses.map((c) => c.kind).join(', ')}`);
console.log(
  `  corpus (b), ${ordinary.length} ordinary texts: false positives ${now.falsePositives.length} (old table ${before.falsePositives.length})`,
);
for (const c of now.falsePositives)
  console.log(`    ${JSON.stringify(c.text.slice(-60))} → ${JSON.stringify(redactSecrets(c.text).slice(-40))}`);

const text = ordinaryMegabyte();
const prose = Buffer.from('The quick brown fox jumps over the lazy dog. '.repeat(22223).slice(0, 1e6), 'utf8').toString('utf8');
for (const [label, t] of [
  ['1 MB of ordinary code and lockfile text', text],
  ['1 MB of prose (no keyword of any rule)', prose],
] as const) {
  const ms = cpuMs(() => redactSecrets(t));
  const oldMs = cpuMs(() => oldRedactSecrets(t));
  console.log(`  ${label}: ${ms.toFixed(1)} ms CPU, old table ${oldMs.toFixed(1)} ms: ${(ms / oldMs).toFixed(2)}×`);
  console.log(`    markers added: ${markers(redactSecrets(t)) - markers(t)} (old table ${markers(oldRedactSecrets(t)) - markers(t)})`);
}
