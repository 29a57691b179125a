// gitleaks' rules as JavaScript: the generated module current with its TOML, Go regex syntax converted, and each rule's secret group, keywords, entropy and allowlists applied.
import { readFileSync } from 'node:fs';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { redactSecrets } from '../../lib/redact';
import { GITLEAKS_COMMIT, gitleaksRules, GITLEAKS_SKIPPED } from '../../lib/redact-rules.gen';
import { convertConfig, FIXTURE_PATH, goRegexToJs, RULES_PATH, secretRulesSource } from '../../scripts/gen-secret-rules';

test('the generated rules are what the generator makes of the committed gitleaks.toml', () => {
  const commit = readFileSync('test/fixtures/secrets/gitleaks.commit', 'utf8').split(/\s+/)[0]!;
  assert.is(GITLEAKS_COMMIT, commit);
  const source = secretRulesSource(readFileSync(FIXTURE_PATH, 'utf8'), commit);
  assert.ok(
    readFileSync(RULES_PATH, 'utf8') === source,
    `${RULES_PATH} is stale: run node --import tsx scripts/gen-secret-rules.ts ${FIXTURE_PATH}`,
  );
});

test('every rule is converted or skipped with its reason; the converted ones compile and each has keywords', () => {
  const c = convertConfig(readFileSync(FIXTURE_PATH, 'utf8'));
  assert.is(c.rules.length + c.skipped.length, c.total);
  assert.ok(c.rules.length >= 200, `${c.rules.length} rules`);
  assert.equal(
    GITLEAKS_SKIPPED.map((s) => s.id),
    ['freemius-secret-key', 'hashicorp-tf-password', 'kubernetes-secret-yaml', 'nuget-config-password', 'pkcs12-file'],
  );
  for (const s of GITLEAKS_SKIPPED) assert.match(s.reason, /path/, s.id);
  for (const r of gitleaksRules()) {
    new RegExp(r.regex.source, `${r.regex.flags}gd`);
    assert.ok(r.keywords.length > 0 && r.keywords.every((k) => k === k.toLowerCase()), r.id);
  }
});

test('Go regex syntax becomes JavaScript: flags, inline case groups, classes, \\z, named groups', () => {
  const cases: Array<[string, string, string]> = [
    ['(?i)abc[a-f]', 'abc[a-f]', 'i'],
    ['x(?i:ab)y', 'x(?:[aA][bB])y', ''],
    ['(?i)a(?-i:B)c', '[aA](?:B)[cC]', ''],
    ['\\b(SG\\.(?i)[a-z0-9]{3})', '\\b(SG\\.[a-z0-9A-Z]{3})', ''],
    ['[^]]+', '[^\\]]+', ''],
    ['a\\z', 'a$', ''],
    ['(?P<alg>x)|(?P<typ>y)', '(x)|(y)', ''],
    ['pat[[:alnum:]]{2}', 'pat[0-9A-Za-z]{2}', ''],
    ['a.b(?s:.)', 'a[^\\n]b(?:[\\s\\S])', ''],
    ['[\\x60a]', '[\\x60a]', ''],
  ];
  for (const [go, source, flags] of cases) assert.equal(goRegexToJs(go), { source, flags }, go);
  for (const bad of ['\\pL', '(?m)^a', '\\Qa.b\\E', '(?U)a+', '(a']) assert.throws(() => goRegexToJs(bad), undefined, bad);
});

test('a rule redacts only its secret group, keeps the text around it, and needs its keyword', () => {
  const key = 'npm_Fak3Fak3Fak3Fak3Fak3Fak3Fak3Fak3Fak3';
  assert.is(redactSecrets(`//registry.npmjs.org/:_authToken=${key}\n`), '//registry.npmjs.org/:_authToken=[REDACTED:npm-access-token]\n');
  // kucoin's regex wants its keyword before the value; the value alone is a hex string like any other.
  const hex = '5f3c9a7e1b2d4c6e8f0a1b2c';
  assert.is(redactSecrets(`kucoin_key = "${hex}"`), 'kucoin_key = "[REDACTED:kucoin-access-token]"');
  assert.is(redactSecrets(`build ${hex} done`), `build ${hex} done`);
});

test('entropy and allowlists let the look-alikes go: low entropy, stopwords, gitleaks examples', () => {
  // generic-api-key: entropy over 3.5, and no stopword (gitleaks' list) in the value.
  assert.is(redactSecrets('apikey = "Zq8vN2xLk4Hc9WmZr7Yb"'), 'apikey = "[REDACTED:generic-api-key]"');
  assert.is(redactSecrets('apikey = "aaaaaaaaaaaaaaaaaaaa"'), 'apikey = "aaaaaaaaaaaaaaaaaaaa"');
  assert.is(redactSecrets('apikey = "Zq8vN2xLk4example77"'), 'apikey = "Zq8vN2xLk4example77"');
  // The global allowlist: a ${VAR} reference is not a secret.
  assert.is(redactSecrets('apikey = "${DEPLOY_CREDENTIAL}"'), 'apikey = "${DEPLOY_CREDENTIAL}"');
  // vault-service-token's own allowlist: s. and letters only is a property chain, not a token.
  assert.is(redactSecrets('VAULT s.QwErTyUiOpAsDfGhJkLzXcVb'), 'VAULT s.QwErTyUiOpAsDfGhJkLzXcVb');
  assert.is(redactSecrets('VAULT s.QwErTyUi0pAsDfGhJkLzXcVb'), 'VAULT [REDACTED:vault-service-token]');
  // An allowlist on the match: gitleaks lets `accessibility_…` go though it holds "access".
  assert.is(redactSecrets('accessibility_label = "Zq8vN2xLk4Hc9WmZr7Yb"'), 'accessibility_label = "Zq8vN2xLk4Hc9WmZr7Yb"');
});

test.run();
