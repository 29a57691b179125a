// Contract checks on real files: every export form is seen, every import form is checked, specifiers resolve like Node and TypeScript.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { checkContract, exportsOf, resolveSpecifier, SourceCache } from '../../../lib/validate/contracts';
import { tempDir } from '../../helpers/repo';

function tree(files: Record<string, string>): string {
  const dir = tempDir('forge-contracts-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const EXPORTER = [
  'export const c1 = 1, c2 = 2;',
  'export let l1 = 1;',
  'export var v1 = 1;',
  'export function f1() {}',
  'export async function* g1() {}',
  'export class K1 {}',
  'export abstract class AK {}',
  'export enum E1 { A }',
  'export interface I1 {}',
  'export type T1 = string;',
  'export namespace N1 { export const x = 1; }',
  'export declare const d1: number;',
  'export declare function df1(): void;',
  'export const { da, nested: { db }, ...drest } = obj;',
  'export const [a0, , a2 = 1, ...arest] = arr;',
  'const local = 1;',
  'export { local as renamed, local };',
  'export * from "./more";',
  'export * as nsx from "./other";',
].join('\n');

test('every ES and TypeScript export form is an export; export * follows files and survives a cycle', async () => {
  const dir = tree({
    'a.ts': EXPORTER,
    'more.ts': 'export const fromMore = 1;\nexport default 1;\nexport * from "./deeper/index.js";\n',
    'deeper/index.ts': 'export function fromDeeper() {}\nexport * from "../a";\n',
    'other.ts': 'export const o = 1;\n',
  });
  const set = await exportsOf({ path: realpathSync(join(dir, 'a.ts')), cache: new SourceCache(), cwd: dir });
  const expected = 'AK E1 I1 K1 N1 T1 a0 a2 arest c1 c2 d1 da db df1 drest f1 fromDeeper fromMore g1 l1 local nsx renamed v1'.split(' ');
  assert.equal([...set.names].sort(), expected.sort(), 'no default: export * does not pass it on');
  assert.equal(set.unknown, []);
});

test('CommonJS exports, and a default for any CommonJS module', async () => {
  const dir = tree({
    'c.cjs': 'exports.x = 1;\nmodule.exports.y = 2;\nexports["z-z"] = 3;\nObject.defineProperty(exports, "w", { value: 4 });\n',
    'd.js': 'const a = 1;\nmodule.exports = { a, b: 1, c() {}, "d": 2 };\n',
    'e.js': 'export { x as default };\nconst x = 1;\n',
  });
  const names = async (f: string) =>
    [...(await exportsOf({ path: realpathSync(join(dir, f)), cache: new SourceCache(), cwd: dir })).names].sort();
  assert.equal(await names('c.cjs'), ['default', 'w', 'x', 'y', 'z-z']);
  assert.equal(await names('d.js'), ['a', 'b', 'c', 'd', 'default']);
  assert.equal(await names('e.js'), ['default']);
});

test('specifiers resolve as written, with an extension, as ./x.js → ./x.ts, or to a directory index; packages do not', async () => {
  const dir = tree({ 'src/a.ts': '', 'src/b.mjs': '', 'src/c.js': '', 'src/c.js.ts': '', 'src/lib/index.tsx': '', 'src/x.ts': '' });
  const r = (s: string) =>
    resolveSpecifier({ from: join(dir, 'src', 'x.ts'), specifier: s }).then((p) => (p ? p.slice(dir.length + 1) : null));
  assert.is(await r('./a'), 'src/a.ts');
  assert.is(await r('./a.js'), 'src/a.ts');
  assert.is(await r('./b.mjs'), 'src/b.mjs');
  assert.is(await r('./c.js'), 'src/c.js', 'as written first');
  assert.is(await r('./lib'), 'src/lib/index.tsx');
  assert.is(await r('../src/a'), 'src/a.ts');
  assert.is(await r('react'), null);
  assert.is(await r('./missing'), null);
});

test('each kind of import of a missing name is reported at the importer line:col', async () => {
  const dir = tree({
    'a.ts': EXPORTER,
    'more.ts': 'export const fromMore = 1;\n',
    'other.ts': 'export const o = 1;\n',
    'nodefault.ts': 'export const only = 1;\n',
    'named.ts': "import { c1, nope1, f1 as ff } from './a';\n",
    'default.ts': "import d from './nodefault.js';\n",
    'namespace.ts': "import * as ns from './a';\nns.c1(ns.nope2, ns['nope3'], ns.fromMore);\nlet t: ns.T1;\nlet u: ns.NopeType;\n",
    'reexport.ts': "export { c1, nope4 as x } from './a';\nexport * from './a';\n",
    'types.ts': "import type { T1, NopeT } from './a';\nimport { type I1, type NopeI } from './a';\n",
    'require.js': "const { x, nope5 } = require('./c.cjs');\nrequire('./c.cjs').nope6;\n",
    'c.cjs': 'exports.x = 1;\n',
    'esm-of-cjs.mjs': "import cjs, { x, nope7 } from './c.cjs';\n",
  });
  const cache = new SourceCache();
  const missing = async (exporter: string, importer: string) => {
    const r = await checkContract({ cwd: dir, exporter, importer, cache });
    return {
      passed: r.passed,
      missing: (r.missing as Array<{ name: string; line: number; col: number }>).map((m) => `${m.name}@${m.line}:${m.col}`),
      message: r.message,
    };
  };
  assert.equal((await missing('a.ts', 'named.ts')).missing, ['nope1@1:14']);
  assert.equal(await missing('nodefault.ts', 'default.ts'), {
    passed: false,
    missing: ['default@1:8'],
    message: "default.ts:1:8: 'default' is not exported by nodefault.ts",
  });
  assert.equal((await missing('a.ts', 'namespace.ts')).missing, ['nope2@2:10', 'nope3@2:20', 'NopeType@4:11']);
  assert.equal((await missing('a.ts', 'reexport.ts')).missing, ['nope4@1:14']);
  assert.equal((await missing('a.ts', 'types.ts')).missing, ['NopeT@1:19', 'NopeI@2:24']);
  assert.equal((await missing('c.cjs', 'require.js')).missing, ['nope5@1:12', 'nope6@2:20']);
  assert.equal((await missing('c.cjs', 'esm-of-cjs.mjs')).missing, ['nope7@1:18']);
});

test('a contract that holds, one that cannot be listed, an importer that imports nothing, and files that will not load', async () => {
  const dir = tree({
    'a.ts': 'export const a = 1;\nexport type T = 1;\n',
    'b.ts': "import { a, type T } from './a.js';\nimport * as all from './a';\nall.a;\n",
    'factory.js': 'module.exports = makeApi();\n',
    'user.js': "const { anything } = require('./factory');\n",
    'lonely.ts': 'export const z = 1;\n',
    'broken.ts': 'export const = 1;\n',
  });
  const cache = new SourceCache();
  const check = (exporter: string, importer: string) => checkContract({ cwd: dir, exporter, importer, cache });
  assert.equal(await check('a.ts', 'b.ts'), {
    type: 'contract_check',
    name: 'a.ts:b.ts',
    imported: 2,
    missing: [],
    passed: true,
    message: '2 names imported, all exported',
  });
  assert.equal(
    (await check('factory.js', 'user.js')).message,
    '1 name imported, all exported; 1 not verified: module.exports is assigned a value whose keys are not written out',
  );
  assert.equal((await check('a.ts', 'lonely.ts')).message, 'lonely.ts imports nothing from a.ts');
  const broken = await check('broken.ts', 'b.ts');
  assert.equal([broken.passed, broken.message], [false, "cannot parse 'broken.ts': broken.ts:1:14: Unexpected token"]);
  assert.is((await check('gone.ts', 'b.ts')).message, "cannot read 'gone.ts': no such file");
});

test.run();
