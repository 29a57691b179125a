// The change-impact sweep on real repositories: changed signatures and removed symbols still used by untouched files.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { declarationHead, impactSweep } from '../../../lib/agent/impact';
import { extractSymbols } from '../../../lib/files/symbols';
import { createCheckpoint } from '../../../lib/git/checkpoint';
import { repoWith } from '../../helpers/repo';

function write(dir: string, path: string, content: string) {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), content);
}

const AUTH = `export interface Claims {
  sub: string;
}

export function validateToken(token: string): boolean {
  return token.length > 0;
}

export function helper(x: number) {
  return x + 1;
}
`;

function project(): string {
  return repoWith({
    'src/auth.ts': AUTH,
    'src/handler.ts': "import { validateToken } from './auth';\n\nexport function handle(t: string) {\n  return validateToken(t);\n}\n",
    'src/mw.ts': "import { validateToken, helper } from './auth';\nexport const mw = (t: string) => validateToken(t) && helper(1);\n",
  });
}

async function base(dir: string): Promise<string> {
  return (await createCheckpoint({ cwd: dir, message: 'the task' }))!.oid;
}

test('a function whose parameters changed, used by untouched files, is a warning naming each reference', async () => {
  const dir = project();
  const oid = await base(dir);
  write(dir, 'src/auth.ts', AUTH.replace('validateToken(token: string)', 'validateToken(token: string, audience: string)'));
  const r = await impactSweep({ cwd: dir, base: oid });
  assert.equal([r.examined, r.skipped], [1, 0]);
  assert.equal(
    r.warnings.map((w) => w.text),
    ['⚠ changed signature of validateToken in src/auth.ts — referenced by src/handler.ts:1, src/handler.ts:4, src/mw.ts:1, src/mw.ts:2'],
  );
  const w = r.warnings[0]!;
  assert.equal(
    [w.symbol, w.kind, w.change, w.before, w.after],
    [
      'validateToken',
      'function',
      'signature',
      'export function validateToken(token: string): boolean',
      'export function validateToken(token: string, audience: string): boolean',
    ],
  );
});

test('a body-only change, or a signature merely reformatted, warns of nothing', async () => {
  const dir = project();
  const oid = await base(dir);
  write(
    dir,
    'src/auth.ts',
    AUTH.replace('return token.length > 0;', 'return token.trim().length > 0;').replace(
      'export function helper(x: number) {',
      'export function helper(\n  x: number,\n) {',
    ),
  );
  const r = await impactSweep({ cwd: dir, base: oid });
  assert.is(r.examined, 1);
  assert.equal(r.warnings, []);
});

test('references in files the task touched too are not reported', async () => {
  const dir = project();
  const oid = await base(dir);
  write(
    dir,
    'src/auth.ts',
    AUTH.replace('export function helper(x: number)', 'export function helper(x: number, y = 2)').replace(
      'validateToken(token: string)',
      'validateToken(token: string, audience: string)',
    ),
  );
  write(
    dir,
    'src/handler.ts',
    "import { validateToken } from './auth';\n\nexport function handle(t: string) {\n  return validateToken(t, 'api');\n}\n",
  );
  const r = await impactSweep({ cwd: dir, base: oid });
  assert.equal(
    r.warnings.map((w) => w.text),
    [
      '⚠ changed signature of validateToken in src/auth.ts — referenced by src/mw.ts:1, src/mw.ts:2',
      '⚠ changed signature of helper in src/auth.ts — referenced by src/mw.ts:1, src/mw.ts:2',
    ],
  );
  write(dir, 'src/mw.ts', 'export const mw = () => true;\n');
  assert.equal((await impactSweep({ cwd: dir, base: oid })).warnings, []);
});

test('a removed or renamed symbol is reported; one moved unchanged to another changed file is not', async () => {
  const dir = project();
  const oid = await base(dir);
  write(dir, 'src/auth.ts', AUTH.replace('validateToken(', 'checkToken(').replace(/export function helper[\s\S]*$/, ''));
  write(dir, 'src/util.ts', 'export function helper(x: number) {\n  return x + 2;\n}\n');
  const r = await impactSweep({ cwd: dir, base: oid });
  assert.equal(
    r.warnings.map((w) => [w.symbol, w.change, w.after]),
    [['validateToken', 'removed', null]],
  );
  assert.is(
    r.warnings[0]!.text,
    '⚠ removed validateToken from src/auth.ts — referenced by src/handler.ts:1, src/handler.ts:4, src/mw.ts:1, src/mw.ts:2',
  );
});

test("an interface's members are its signature; an untracked file is an untouched user too", async () => {
  const dir = project();
  write(dir, 'scripts/check.ts', "import type { Claims } from '../src/auth';\nlet c: Claims;\n");
  const oid = await base(dir);
  write(dir, 'src/auth.ts', AUTH.replace('sub: string;', 'sub: string;\n  aud: string;'));
  const r = await impactSweep({ cwd: dir, base: oid });
  assert.equal(
    r.warnings.map((w) => w.text),
    ['⚠ changed signature of Claims in src/auth.ts — referenced by scripts/check.ts:1, scripts/check.ts:2'],
  );
  assert.is(r.warnings[0]!.kind, 'interface');
});

test('bounded: at most maxReferences listed, the rest counted; files past maxFiles skipped', async () => {
  const files: Record<string, string> = { 'src/auth.ts': AUTH };
  for (let i = 0; i < 12; i++) files[`src/use${String(i).padStart(2, '0')}.ts`] = 'validateToken("x");\n';
  const dir = repoWith(files);
  write(dir, 'src/auth.ts', AUTH.replace('(token: string)', '(token: string[])'));
  write(dir, 'src/other.py', 'def f(a):\n    pass\n');
  const r = await impactSweep({ cwd: dir, base: 'HEAD', maxReferences: 3, maxFiles: 1 });
  assert.equal([r.examined, r.skipped], [1, 1], 'the added other.py is past maxFiles');
  assert.is(
    r.warnings[0]!.text,
    '⚠ changed signature of validateToken in src/auth.ts — referenced by src/use00.ts:1, src/use01.ts:1, src/use02.ts:1 and 9 more',
  );
});

test('declaration heads: multi-line parameters, arrow consts, Python, Rust lifetimes', async () => {
  const head = async (path: string, text: string) => {
    const s = (await extractSymbols({ path, text })).symbols;
    return s.map((x) =>
      declarationHead({
        lines: text.split('\n'),
        symbol: x,
        language: path.endsWith('.py') ? 'python' : path.endsWith('.rs') ? 'rust' : 'typescript',
      })
        .replace(/\s+/g, ' ')
        .trim(),
    );
  };
  assert.equal(await head('a.ts', 'export function f(\n  a: { x: number },\n  b = "{",\n): Promise<void> {\n  return;\n}\n'), [
    'export function f( a: { x: number }, b = "{", ): Promise<void>',
  ]);
  assert.equal(await head('a.ts', 'export const g = async (a: string) => {\n  return a;\n};\nexport const limit = 5;\n'), [
    'export const g = async (a: string) =>',
    'export const limit',
  ]);
  assert.equal(await head('a.py', 'def f(a: int, b: dict = {}) -> int:\n    return a\n'), ['def f(a: int, b: dict = {}) -> int']);
  assert.equal(await head('a.rs', "fn f<'a>(x: &'a str) -> &'a str {\n    x\n}\n"), ["fn f<'a>(x: &'a str) -> &'a str"]);
});

test.run();
