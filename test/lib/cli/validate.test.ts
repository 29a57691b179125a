// Request validation: the same rules for flags and NDJSON.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import type { ArgsSpec } from '../../../lib/cli/declare';
import { kebab, validateRequest } from '../../../lib/cli/validate';
import { ForgeError } from '../../../lib/errors';

const spec: ArgsSpec = {
  pattern: { type: 'string', positional: true, required: true, description: 'p' },
  category: { type: 'string', choices: ['a', 'b'], default: 'a', description: 'c' },
  confidence: { type: 'number', min: 0, max: 1, description: 'n' },
  limit: { type: 'integer', min: 1, description: 'l' },
  tag: { type: 'array', description: 't' },
  all: { type: 'boolean', description: 'b' },
  state: { type: 'object', description: 'o' },
};
const fix = 'forge x --help';

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.instance(err, ForgeError);
    assert.is((err as ForgeError).exitCode, 2);
    assert.is((err as ForgeError).fix, fix);
    return (err as ForgeError).code;
  }
  throw new Error('expected an error');
}

test('fills defaults, booleans and arrays', () => {
  const { args, common } = validateRequest({ spec, raw: { pattern: 'p' }, fix });
  assert.equal(args, { pattern: 'p', category: 'a', tag: [], all: false });
  assert.equal(common, {});
});

test('accepts camelCase and kebab keys, common fields and id', () => {
  const { args, common } = validateRequest({ spec, raw: { pattern: 'p', runId: 'r1', cwd: '/x', id: 7 }, fix });
  assert.is(args.pattern, 'p');
  assert.equal(common, { 'run-id': 'r1', cwd: '/x', id: 7 });
  assert.is(kebab('moduleStatus'), 'module-status');
});

test('coerces strings from flags and single values into arrays', () => {
  const { args } = validateRequest({
    spec,
    raw: { pattern: 'p', confidence: '0.5', limit: '3', tag: 'x', all: 'true', state: '{"k":1}' },
    fix,
  });
  assert.equal([args.confidence, args.limit, args.tag, args.all, args.state], [0.5, 3, ['x'], true, { k: 1 }]);
  assert.is(validateRequest({ spec, raw: { pattern: 42 }, fix }).args.pattern, '42');
});

test('refuses unknown fields, wrong types, ranges, choices and missing required', () => {
  assert.is(
    code(() => validateRequest({ spec, raw: { pattern: 'p', nope: 1 }, fix })),
    'UNKNOWN_FIELD',
  );
  assert.is(
    code(() => validateRequest({ spec, raw: { pattern: true }, fix })),
    'INVALID_ARGUMENT',
  );
  assert.is(
    code(() => validateRequest({ spec, raw: { pattern: {} }, fix })),
    'INVALID_ARGUMENT',
  );
  assert.is(
    code(() => validateRequest({ spec, raw: { pattern: 'p', confidence: 2 }, fix })),
    'INVALID_ARGUMENT',
  );
  assert.is(
    code(() => validateRequest({ spec, raw: { pattern: 'p', limit: 1.5 }, fix })),
    'INVALID_ARGUMENT',
  );
  assert.is(
    code(() => validateRequest({ spec, raw: { pattern: 'p', category: 'z' }, fix })),
    'INVALID_ARGUMENT',
  );
  assert.is(
    code(() => validateRequest({ spec, raw: { pattern: 'p', state: [1] }, fix })),
    'INVALID_ARGUMENT',
  );
  assert.is(
    code(() => validateRequest({ spec, raw: { pattern: 'p', tag: [{}] }, fix })),
    'INVALID_ARGUMENT',
  );
  assert.is(
    code(() => validateRequest({ spec, raw: {}, fix })),
    'MISSING_ARGUMENT',
  );
  assert.is(
    code(() => validateRequest({ spec, raw: { pattern: 'p', cwd: 3 }, fix })),
    'INVALID_ARGUMENT',
  );
});

/** The error a request raises, as code and message. */
function refusal(raw: Record<string, unknown>): [string, string] {
  try {
    validateRequest({ spec, raw, fix });
  } catch (err) {
    return [(err as ForgeError).code, (err as ForgeError).message];
  }
  throw new Error('expected an error');
}

test("keys of Object.prototype are unknown fields, not the prototype's members", () => {
  for (const raw of [JSON.parse('{"pattern":"p","__proto__":{"x":1}}'), { pattern: 'p', constructor: 1 }, { pattern: 'p', valueOf: 'x' }]) {
    assert.equal(refusal(raw)[0], 'UNKNOWN_FIELD', JSON.stringify(Object.keys(raw)));
  }
});

test('values nested past 32 levels and text that is not UTF-8 (lone surrogates) are INVALID_ARGUMENT; Infinity and long values are shown as sent', () => {
  const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
  assert.equal(refusal({ pattern: 'p', limit: deep }), ['INVALID_ARGUMENT', "'limit' is nested deeper than 32 levels"]);
  assert.equal(
    refusal({ pattern: 'p', state: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) })[1],
    "'state' is nested deeper than 32 levels",
  );
  assert.equal(
    refusal({ pattern: 'p', state: `{"a":${'['.repeat(40)}${']'.repeat(40)}}` })[1],
    "'state' is nested deeper than 32 levels",
    'JSON text from a flag too',
  );
  assert.equal(refusal(JSON.parse('{"pattern":"a\\nb\\ud800"}')), [
    'INVALID_ARGUMENT',
    "'pattern' is not UTF-8 text: line 2 holds a byte that is not UTF-8, or half of a surrogate pair (a lone \\ud800-\\udfff escape)",
  ]);
  assert.is(refusal(JSON.parse('{"pattern":"p","tag":["ok","\\udc00"]}'))[0], 'INVALID_ARGUMENT');
  assert.is(refusal(JSON.parse('{"pattern":"p","state":{"\\udc00":1}}'))[0], 'INVALID_ARGUMENT');
  assert.is(refusal(JSON.parse('{"pattern":"p","cwd":"\\ud800"}'))[0], 'INVALID_ARGUMENT');
  assert.is(validateRequest({ spec, raw: JSON.parse('{"pattern":"\\ud83d\\ude00"}'), fix }).args.pattern, '😀', 'a whole pair is fine');
  assert.equal(refusal({ pattern: 'p', limit: JSON.parse('1e400') })[1], "'limit' must be an integer, got number Infinity");
  assert.equal(refusal({ pattern: 'p', category: 'z'.repeat(1000) })[1], `'category' must be one of a, b, got '${'z'.repeat(80)}…'`);
});

test.run();
