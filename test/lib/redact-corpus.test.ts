// The redactor against two corpora: fake secrets of many providers that must all go, ordinary text that must stay; and the state store on a real repo.
import { readFileSync } from 'node:fs';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { openRepo } from '../../lib/git/repo';
import { STATE_REF, StateStore } from '../../lib/git/state';
import { redactJsonText, redactSecrets } from '../../lib/redact';
import { git, tempRepo } from '../helpers/repo';

interface SecretCase {
  provider: string;
  kind: string;
  secret: string;
  text: string;
  source: string;
}

const SECRETS: SecretCase[] = JSON.parse(readFileSync('test/fixtures/secrets/secrets.json', 'utf8')).cases;
const ORDINARY: Array<{ text: string; source: string }> = JSON.parse(readFileSync('test/fixtures/secrets/ordinary.json', 'utf8')).cases;

/** Ordinary text the redactor changes anyway, and why that is accepted. A case not listed here that changes fails the test; so does a listed one that no longer changes. */
const KNOWN_FALSE_POSITIVES: Record<string, string> = {
  '      - uses: actions/cache@v4\n        with:\n          path: ~/.npm\n          cache_key: npm-linux-x64-node20-lockfile-v3':
    'the assignment row takes every *_key value: a name cannot tell a cache key from an API key',
};

/** The shapes the hand-written table used to miss: each must be in corpus (a). */
const ONCE_MISSED = [
  'gcp-api-key',
  'stripe-access-token',
  'gitlab-pat',
  'npm-access-token',
  'huggingface-access-token',
  'jwt',
  'sendgrid-api-token',
  'azure-storage-key',
  'twilio-api-key',
  'twilio-account-sid',
];

test('corpus (a): at least 40 fake secrets of at least 30 providers, the once-missed shapes among them', () => {
  assert.ok(SECRETS.length >= 40, `${SECRETS.length} cases`);
  assert.ok(new Set(SECRETS.map((c) => c.provider)).size >= 30, 'providers');
  const kinds = new Set(SECRETS.map((c) => c.kind));
  for (const kind of ONCE_MISSED) assert.ok(kinds.has(kind), `${kind} has a case`);
  assert.ok(
    SECRETS.some((c) => c.secret.startsWith('sk_live_')) && SECRETS.some((c) => c.secret.startsWith('rk_live_')),
    'Stripe live secret and restricted keys',
  );
  for (const c of SECRETS) assert.ok(c.text.includes(c.secret) && c.source, `${c.provider}: the text holds the secret, a source is named`);
});

test('corpus (a): no miss — each secret becomes one marker naming its kind, the text around it kept, in plain text and in JSON', () => {
  const misses: string[] = [];
  for (const c of SECRETS) {
    const out = redactSecrets(c.text);
    if (out.includes(c.secret)) misses.push(`${c.provider} (${c.kind})`);
    else assert.is(out, c.text.replace(c.secret, `[REDACTED:${c.kind}]`), c.provider);
    const json = JSON.stringify({ note: c.text });
    if (redactJsonText(json).includes(c.secret)) misses.push(`${c.provider} (${c.kind}) in JSON`);
  }
  assert.equal(misses, []);
  // All of them in one text: one rule's match does not let a neighbour through.
  const all = redactSecrets(SECRETS.map((c) => c.text).join('\n\n'));
  assert.equal(
    SECRETS.filter((c) => all.includes(c.secret)).map((c) => c.provider),
    [],
  );
});

test('corpus (b): ordinary text stays byte for byte, but for the known false positives listed here', () => {
  assert.ok(ORDINARY.length >= 40, `${ORDINARY.length} cases`);
  const changed = ORDINARY.filter((c) => redactSecrets(c.text) !== c.text).map((c) => c.text);
  assert.equal(changed, Object.keys(KNOWN_FALSE_POSITIVES));
  for (const c of ORDINARY) {
    const json = JSON.stringify({ note: c.text });
    if (!(c.text in KNOWN_FALSE_POSITIVES)) assert.is(redactJsonText(json), json, c.source);
  }
});

test('through the state store on a real repository: no secret of corpus (a) reaches refs/forge/state, in files or the commit message', async () => {
  const dir = tempRepo();
  const store = new StateStore(await openRepo({ cwd: dir }));
  try {
    await store.update({
      message: `memory: save ${SECRETS[0]!.text}`,
      apply: async (tx) => {
        tx.write('.forge/memory/project.jsonl', SECRETS.map((c) => `${JSON.stringify({ pattern: c.text, n: 1 })}\n`).join(''));
        tx.write('.forge/plan.md', `# Plan\n\n${SECRETS.map((c) => `- ${c.text}`).join('\n')}\n`);
      },
    });
    // An append redacts what it adds.
    await store.update({
      message: 'memory: append',
      apply: async (tx) =>
        tx.write(
          '.forge/memory/project.jsonl',
          `${await tx.readText('.forge/memory/project.jsonl')}${JSON.stringify({ pattern: SECRETS.at(-1)!.text })}\n`,
        ),
    });
  } finally {
    store.close();
  }
  const history = git(dir, 'log', '-p', '--format=%H%n%B', STATE_REF);
  assert.equal(
    SECRETS.filter((c) => history.includes(c.secret)).map((c) => c.provider),
    [],
  );
  const lines = git(dir, 'show', `${STATE_REF}:.forge/memory/project.jsonl`).split('\n');
  assert.is(lines.length, SECRETS.length + 1);
  assert.equal(JSON.parse(lines[0]!), { pattern: SECRETS[0]!.text.replace(SECRETS[0]!.secret, `[REDACTED:${SECRETS[0]!.kind}]`), n: 1 });
  assert.ok(git(dir, 'log', '-1', '--skip=1', '--format=%s', STATE_REF).includes(`[REDACTED:${SECRETS[0]!.kind}]`), 'the message');
});

test.run();
