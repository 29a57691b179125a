// The secret redactor: every shape of the table, the text around it kept, JSON kept valid, and look-alikes left alone.
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { recordableEndpoint, redactJsonText, redactSecrets, SECRET_SHAPES, type SecretKind } from '../../lib/redact';

const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq9\nx2Yb3Jd6Fg1Ps5Ua==\n-----END RSA PRIVATE KEY-----';

/** One example per row, inside a sentence: [text, what it must become]. */
const EXAMPLES: Record<SecretKind, Array<[string, string]>> = {
  'private-key': [
    [`key:\n${PEM}\nthanks`, 'key:\n[REDACTED:private-key]\nthanks'],
    ['-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA (cut off here', '[REDACTED:private-key]'],
    ['-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF\n-----END PGP PRIVATE KEY BLOCK----- end', '[REDACTED:private-key] end'],
  ],
  'anthropic-key': [['use sk-ant-api03-Zx9Wv8Ut7Sr6Qp5On4Ml3Kj2 now', 'use [REDACTED:anthropic-key] now']],
  'openai-key': [
    ['key sk-Tq8vN2xLk4Hc9WmZr7Yb3Jd6Fg1Ps5UaTq8vN2xLk4Hc9Wm.', 'key [REDACTED:openai-key].'],
    ['key sk-proj-Tq8vN2xLk4Hc9WmZr7_Yb3Jd6-Fg1Ps5Ua', 'key [REDACTED:openai-key]'],
  ],
  'github-token': [
    ['push with ghp_R4nD0mT0k3nV4lu3F0rT3st1ngAbCdEfGh12', 'push with [REDACTED:github-token]'],
    [
      'gho_R4nD0mT0k3nV4lu3F0rT3st1ngAbCdEfGh12 and github_pat_11ABCDEFG0_R4nD0mT0k3nV4lu3F0rT3st1ng',
      '[REDACTED:github-token] and [REDACTED:github-token]',
    ],
  ],
  'slack-token': [['xoxb-1234567890-0987654321-AbCdEfGhIj posts', '[REDACTED:slack-token] posts']],
  'aws-access-key': [['id AKIAIOSFODNN7EXAMPLE, secret below', 'id [REDACTED:aws-access-key], secret below']],
  'gcp-api-key': [
    [
      '<script src="https://maps.googleapis.com/maps/api/js?key=AIzaFak3Fak3Fak3Fak3Fak3Fak3Fak3Fak3Fak&callback=init">',
      '<script src="https://maps.googleapis.com/maps/api/js?key=[REDACTED:gcp-api-key]&callback=init">',
    ],
  ],
  'azure-storage-key': [
    [
      `AccountName=fake;AccountKey=${'Fak3'.repeat(21)}xy==;EndpointSuffix=core.windows.net`,
      'AccountName=fake;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=core.windows.net',
    ],
  ],
  'twilio-account-sid': [['Client("AC0123456789abcdef0123456789abcdef", token)', 'Client("[REDACTED:twilio-account-sid]", token)']],
  'bearer-token': [['-H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc"', '-H "Authorization: Bearer [REDACTED:bearer-token]"']],
  'url-password': [
    ['git clone https://bob:hunter2pass@git.example.com/r.git', 'git clone https://bob:[REDACTED:url-password]@git.example.com/r.git'],
  ],
  assignment: [
    ['OPENAI_API_KEY=abc123 make test', 'OPENAI_API_KEY=[REDACTED:assignment] make test'],
    ['GITHUB_TOKEN: t0k3n\nDB_PASSWORD = "pa ss"', 'GITHUB_TOKEN: [REDACTED:assignment]\nDB_PASSWORD = "[REDACTED:assignment]"'],
    ['client_secret: xyz; password=hunter2', 'client_secret: [REDACTED:assignment]; password=[REDACTED:assignment]'],
    ['{"api_key": "abc"}', '{"api_key": "[REDACTED:assignment]"}'],
    ['http://host/v1?api-key=QK7Z9&x=1', 'http://host/v1?api-key=[REDACTED:assignment]&x=1'],
  ],
};

test('every row of the table redacts its shape and keeps the text around it', () => {
  assert.equal(Object.keys(EXAMPLES).sort(), SECRET_SHAPES.map((s) => s.kind).sort(), 'one example per row');
  for (const [kind, examples] of Object.entries(EXAMPLES)) {
    for (const [text, expected] of examples) {
      assert.is(redactSecrets(text), expected, kind);
      assert.is(redactSecrets(expected), expected, `${kind}: redacting again changes nothing`);
    }
  }
});

test('look-alikes and references are left alone', () => {
  for (const text of [
    'pip install scikit-learn; sk-learn and sk-this-is-a-long-branch-name-here',
    'git checkout -b sk-learn-upgrade-to-version-1-4-2',
    'export OPENAI_API_KEY=$OPENAI_API_KEY GITHUB_TOKEN="${GITHUB_TOKEN}"',
    'max_tokens: 100, inputTokens: 5, monkey=1, keyboard: 3',
    'the bearer of this letter',
    'http://localhost:8080/v1 and git@github.com:org/repo.git',
    'if (password == other)',
    'AKIA is a prefix; ghp_short',
  ]) {
    assert.is(redactSecrets(text), text);
  }
});

test('JSON keeps its layout and stays valid: string values and keys are redacted, a secret-named key loses its whole value', () => {
  const value = {
    task: `deploy with ${PEM} and OPENAI_API_KEY=sk-proj-Tq8vN2xLk4Hc9WmZr7Yb3Jd6Fg1`,
    password: 'plain words',
    token: 'x',
    apiKey: 'camel is not a key name',
    n: 5,
    nested: { x_token: 'v', ok: 'fine "quoted" \\ text', empty_secret: '' },
    list: ['AKIAIOSFODNN7EXAMPLE', 7, null],
  };
  for (const text of [
    JSON.stringify(value),
    JSON.stringify(value, null, 2),
    `${JSON.stringify(value)}\n${JSON.stringify({ a: 'ghp_R4nD0mT0k3nV4lu3F0rT3st1ngAbCdEfGh12' })}\n`,
  ]) {
    const out = redactJsonText(text);
    const lines = out.split('\n').filter(Boolean);
    const parsed = text.includes('\n  ') ? [JSON.parse(out)] : lines.map((l) => JSON.parse(l));
    assert.equal(parsed[0], {
      task: 'deploy with [REDACTED:private-key] and OPENAI_API_KEY=[REDACTED:openai-key]',
      password: '[REDACTED:assignment]',
      token: '[REDACTED:assignment]',
      apiKey: 'camel is not a key name',
      n: 5,
      nested: { x_token: '[REDACTED:assignment]', ok: 'fine "quoted" \\ text', empty_secret: '' },
      list: ['[REDACTED:aws-access-key]', 7, null],
    });
    if (parsed[1]) assert.equal(parsed[1], { a: '[REDACTED:github-token]' });
    assert.is(out.split('\n').length, text.split('\n').length, 'same lines');
    assert.is(redactJsonText(out), out, 'redacting again changes nothing');
  }
  const clean = '{"a":"b","n":1.50,"s":"caf\\u00e9"}';
  assert.is(redactJsonText(clean), clean, 'text without secrets comes back byte for byte');
});

test('an endpoint is recorded without user, password, query or fragment', () => {
  assert.is(recordableEndpoint('http://user:pw@127.0.0.1:8080/v1?api-key=K#frag'), 'http://127.0.0.1:8080/v1');
  assert.is(recordableEndpoint('https://api.openai.com/v1'), 'https://api.openai.com/v1');
  assert.is(recordableEndpoint('https://token@example.com'), 'https://example.com');
  assert.is(recordableEndpoint('not a url?api_key=abc'), 'not a url?api_key=[REDACTED:assignment]');
});

test('keep: the values of the named top-level keys stay exact, nested keys of the same name do not', () => {
  const key = 'sk-proj-Tq8vN2xLk4Hc9WmZr7Yb3Jd6Fg1Ps5Ua';
  const value = { prompt: `use ${key}`, command: ['run', key, { x: key }], note: key, nested: { prompt: key }, after: `then ${key}` };
  for (const text of [JSON.stringify(value), JSON.stringify(value, null, 2)]) {
    assert.equal(JSON.parse(redactJsonText(text, { keep: ['prompt', 'command'] })), {
      prompt: `use ${key}`,
      command: ['run', key, { x: key }],
      note: '[REDACTED:openai-key]',
      nested: { prompt: '[REDACTED:openai-key]' },
      after: 'then [REDACTED:openai-key]',
    });
  }
});

test.run();
