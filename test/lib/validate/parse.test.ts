// Parser errors located as line:col: JSON.parse's positions (named or bisected) and Babel's.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { jsonError, lineCol, parseScript, SourceSyntaxError } from '../../../lib/validate/parse';

test('lineCol counts 1-based lines and columns', () => {
  assert.equal(lineCol('ab\ncd\n', 0), { line: 1, col: 1 });
  assert.equal(lineCol('ab\ncd\n', 4), { line: 2, col: 2 });
  assert.equal(lineCol('ab\ncd\n', 6), { line: 3, col: 1 });
});

test('JSON errors V8 gives a position for', () => {
  assert.equal(jsonError('{\n  "a": 1,\n}\n'), { line: 3, col: 1, message: 'Expected double-quoted property name' });
  assert.equal(jsonError('[1, 2'), { line: 1, col: 6, message: "Expected ',' or ']' after array element" });
  assert.equal(jsonError(''), { line: 1, col: 1, message: 'Unexpected end of JSON input' });
});

test('JSON errors V8 names no position for are found by bisection', () => {
  assert.equal(jsonError('{"a": tru}'), { line: 1, col: 10, message: "Unexpected token '}'" });
  assert.equal(jsonError('[\n  1,\n  ,2\n]'), { line: 3, col: 3, message: "Unexpected token ','" });
  assert.equal(jsonError('{"a": tru\n}'), { line: 1, col: 10, message: "Unexpected token '\\n'" }, 'a control character is shown escaped');
  assert.equal(jsonError('[1,,2]'), { line: 1, col: 4, message: "Unexpected token ','" });
  const long = `{\n${Array.from({ length: 40 }, (_, i) => `  "k${i}": ${i},`).join('\n')}\n  "x": }\n`;
  assert.equal(jsonError(long), { line: 42, col: 8, message: "Unexpected token '}'" });
});

test('valid JSON, with or without a byte-order mark, has no error', () => {
  assert.is(jsonError('{"a": [1, 2, {"b": null}]}'), null);
  assert.is(jsonError('\uFEFF{"a": 1}'), null);
});

test('Babel errors carry line, 1-based column and the message without its position', async () => {
  const err = await parseScript({ file: 'a.ts', text: 'const a = 1;\nlet b: number = ;\n' }).catch((e) => e);
  assert.instance(err, SourceSyntaxError);
  assert.equal(err.location, { line: 2, col: 17, message: 'Unexpected token' });
  assert.ok(await parseScript({ file: 'a.cjs', text: 'if (x) return;\nmodule.exports = 1;\n' }), 'top-level return is CommonJS');
  assert.ok(
    await parseScript({ file: 'a.tsx', text: '@Dec() export class A {}\nexport const B = <T,>(x: T) => <div>{String(x)}</div>;\n' }),
  );
  assert.ok(await parseScript({ file: 'a.d.ts', text: 'export declare function f(): void;\ndeclare const x: number;\n' }));
});

test.run();
