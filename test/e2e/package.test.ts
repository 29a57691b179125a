// forge as users get it: the packed tarball installed into a scratch prefix and run from there (its version, its programs, a pipeline), and into a scratch TypeScript project that imports its library.
import { API_TYPES_PATH, apiTypesSource } from '../../scripts/gen-api-types';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as assert from 'uvu/assert';
import { version } from '../../package.json';
import { forgeEnv } from '../helpers/forge';
import { test } from '../helpers/harness';
import { ownChild } from '../helpers/owner';
import { git, tempDir, tempRepo } from '../helpers/repo';

/** Runs a program to its end, owned by the test (so the test's time limit stops it); its stdout, or a throw with its stderr. */
function run(program: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = ownChild(
      execFile(program, args, { ...options, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${program} ${args.join(' ')}: ${err.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    child.stdin?.end();
  });
}

/** npm, quietly, with the machine's own cache (npm ci filled it) tried first; npm's own code is not forge's to cover. */
const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
    cwd,
    env: { ...process.env, NODE_V8_COVERAGE: undefined },
  });

/** The package as npm pack makes it, in a directory of the calling test's own: its path. */
async function tarball(): Promise<string> {
  const packDir = tempDir('forge-pack-');
  // The suite runs on the dist/ make test built; --ignore-scripts keeps prepack from rebuilding it under other running tests.
  const name = (await npm(['pack', '--ignore-scripts', '--pack-destination', packDir], process.cwd())).trim().split('\n').at(-1)!;
  return join(packDir, name);
}

test('npm pack, npm install -g of the tarball into a scratch prefix: the installed forge runs a pipeline on its own', async () => {
  const prefix = tempDir('forge-prefix-');
  await npm(['install', '--global', '--prefix', prefix, await tarball()], prefix);

  const bin = join(prefix, 'bin');
  const installed = realpathSync(join(bin, 'forge'));
  assert.ok(installed.startsWith(prefix), `forge resolves into the prefix, not the clone: ${installed}`);
  assert.ok(existsSync(join(bin, 'forge-read')), 'the forge-<command> programs are installed');
  assert.ok(existsSync(join(prefix, 'share/man/man1/forge-read.1')), 'with their man pages');
  // What `npm install -g` puts on a user's disk, dependencies included: the file sizes du --apparent-size adds up.
  const installedBytes = Number((await run('du', ['-sb', join(prefix, 'lib')], { cwd: prefix })).split('\t')[0]);
  assert.ok(installedBytes < 50_000_000, `npm install -g takes ${(installedBytes / 1e6).toFixed(1)} MB; the bound is 50 MB`);

  const repo = tempRepo();
  const env = forgeEnv({ PATH: `${bin}:/usr/bin:/bin` });
  const sh = (script: string) => run('sh', ['-c', script], { cwd: repo, env });
  assert.is(await sh('command -v forge'), `${join(bin, 'forge')}\n`);
  assert.is(await sh('forge --version'), `forge ${version}\n`);
  const recalled = await sh(
    `printf '%s\\n' '{"pattern":"use pnpm","category":"test_command"}' | forge memory save --json > /dev/null && forge-memory recall pnpm --json`,
  );
  const memory = recalled
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((r) => r.type === 'memory');
  assert.equal(
    memory.map((r) => r.pattern),
    ['use pnpm'],
  );
  assert.is(
    git(repo, 'log', '--format=%s', 'refs/forge/state'),
    'memory: save [test_command] use pnpm',
    'one state commit, on the shadow ref',
  );
  assert.not.ok(readFileSync(installed, 'utf8').includes(process.cwd()), 'the installed executable names no path of the clone');
});

/** The scratch project's code: what a user of the library writes, with the types it must refuse. */
const SCRATCH = (repo: string) => `import { applyPatch, checkToolCall, editFile, ForgeError, type PatchResult } from 'forge-agent-cli';

const cwd = ${JSON.stringify(repo)};
const diff = '--- a/a.txt\\n+++ b/a.txt\\n@@ -1,2 +1,2 @@\\n one\\n-two\\n+TWO\\n';
const patched: PatchResult = await applyPatch({ cwd, diff });
const again = await applyPatch({ cwd, diff }).then(
  () => 'applied twice',
  (err: unknown) => (err instanceof ForgeError ? err.code : 'not a ForgeError'),
);
const edited = await editFile({ cwd, path: 'a.txt', old: 'one', new: 'ONE' });
const verdict = await checkToolCall({ cwd, tool: 'edit', paths: ['a.txt'] });
console.log(JSON.stringify({ files: patched.files.map((f) => [f.path, f.kind]), again, line: edited.startLine, allowed: verdict.allowed }));
// Type errors the declarations must catch (never run): tsc fails if one of them compiles.
export function refused() {
  // @ts-expect-error a patch needs its diff
  void applyPatch({ cwd });
  // @ts-expect-error a file to edit is a path, not a number
  void editFile({ cwd, path: 5, old: 'a', new: 'b' });
}
`;

test('a scratch TypeScript project installs the tarball, type-checks against its types and calls the library: import { applyPatch } from forge-agent-cli', async () => {
  const scratch = tempDir('forge-scratch-');
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  await npm(['install', await tarball()], scratch);
  const repo = tempRepo();
  writeFileSync(join(repo, 'a.txt'), 'one\ntwo\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'a');
  writeFileSync(join(scratch, 'index.ts'), SCRATCH(repo));
  writeFileSync(
    join(scratch, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        target: 'es2022',
        strict: true,
        outDir: 'out',
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [resolve('node_modules/@types')],
      },
      files: ['index.ts'],
    }),
  );
  // The library's own declarations are checked too (skipLibCheck off): a broken .d.ts fails here.
  await run(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', scratch], { cwd: scratch });
  const out = await run(process.execPath, [join(scratch, 'out/index.js')], { cwd: scratch, env: forgeEnv() });
  assert.equal(JSON.parse(out), { files: [['a.txt', 'modify']], again: 'PATCH_CONFLICT', line: 1, allowed: true });
  assert.is(readFileSync(join(repo, 'a.txt'), 'utf8'), 'ONE\nTWO\n');
});

test('the types the package declares are what api/index.ts exports (api/forge.gen.d.ts is current)', () => {
  assert.is(readFileSync(API_TYPES_PATH, 'utf8'), apiTypesSource(), `${API_TYPES_PATH} is stale: run make docs`);
});

test.run();
