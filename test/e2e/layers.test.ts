// The layering rule of ARCHITECTURE.md, held by reading the sources: lib/ outside lib/cli/ knows no CLI, no process streams and no process environment.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';

const tracked = (pattern: string) =>
  execFileSync('git', ['ls-files', '-z', '--', pattern], { encoding: 'utf8' })
    .split('\0')
    .filter((p) => p.endsWith('.ts'));

/** Files under lib/ but outside the CLI layer, with their text. */
const core = tracked('lib/')
  .filter((p) => !p.startsWith('lib/cli/'))
  .map((path) => ({ path, text: readFileSync(path, 'utf8') }));

/** Every module a file names in an import or export … from, static or dynamic. */
function specifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)) out.push(m[1]!);
  return out;
}

test('there are files to check (the listing works)', () => {
  assert.ok(core.length > 50, `${core.length} files`);
  assert.ok(
    core.some((f) => f.path === 'lib/agent/agent.ts'),
    'lib/agent/agent.ts is among them',
  );
});

test('no lib/ file outside lib/cli/ imports the CLI layer or a command', () => {
  const offenders = core.flatMap(({ path, text }) =>
    specifiers(text)
      .filter((s) => /(^|\/)cli\/|(^|\/)commands\//.test(s) || s === '../cli' || s.endsWith('/commands'))
      .map((s) => `${path} imports ${s}`),
  );
  assert.equal(offenders, []);
});

test('no lib/ file outside lib/cli/ touches the process streams or exits', () => {
  const offenders = core.flatMap(({ path, text }) =>
    [...text.matchAll(/\bprocess\.(stdout|stderr|stdin|exit|exitCode)\b/g)].map((m) => `${path}: process.${m[1]}`),
  );
  assert.equal(offenders, []);
});

test("no lib/ file outside lib/cli/ and lib/git/ reads the process's environment: the caller passes its env (ctx.env)", () => {
  // lib/git/ is the exception: git's own processes inherit this process's environment, so the
  // discovery and config checks that stand in for git must read the same one.
  const offenders = core
    .filter(({ path }) => !path.startsWith('lib/git/'))
    .flatMap(({ path, text }) => [...text.matchAll(/\bprocess\.env\b/g)].map(() => `${path}: process.env`));
  assert.equal(offenders, []);
});

test('lib/git is the bottom layer: it imports no feature, not even the state layer above it', () => {
  // What git code may build on: errors, paths and processes, the shared small modules.
  const below = /^\.\.\/(errors|error-codes|fs|process|quote|random|redact|redact-rule|sha1|order|timeout|guards)(\/|$)/;
  const offenders = core
    .filter(({ path }) => path.startsWith('lib/git/'))
    .flatMap(({ path, text }) =>
      specifiers(text)
        .filter((s) => s.startsWith('../') && !below.test(s))
        .map((s) => `${path} imports ${s}`),
    );
  assert.equal(offenders, []);
});

test('no import goes round in a circle, type imports included (madge over api, bin, commands, lib and scripts)', async () => {
  const { default: madge } = await import('madge');
  const graph = await madge(['api', 'bin', 'commands', 'lib', 'scripts'], {
    fileExtensions: ['ts'],
    tsConfig: 'tsconfig.json',
    detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
  });
  assert.ok(Object.keys(graph.obj()).length > 250, 'the graph holds the tree');
  assert.equal(graph.circular(), []);
});

test('the checks above see an offence when there is one', () => {
  assert.equal(specifiers("import { main } from '../cli/main';\nconst x = await import('../../commands/index');"), [
    '../cli/main',
    '../../commands/index',
  ]);
  assert.ok(/\bprocess\.(stdout|stderr|stdin|exit|exitCode)\b/.test('process.stderr.write(b)'));
  assert.ok(/\bprocess\.env\b/.test('runShell({ env = process.env })'));
});

test.run();
