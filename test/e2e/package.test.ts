// forge as users get it: the packed tarball installed into a scratch prefix, run from there (not from this clone): its version, its programs, a pipeline.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
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

test('npm pack, npm install -g of the tarball into a scratch prefix: the installed forge runs a pipeline on its own', async () => {
  const packDir = tempDir('forge-pack-');
  // The suite runs on the dist/ make test built; --ignore-scripts keeps prepack from rebuilding it under other running tests.
  const tarball = (await npm(['pack', '--ignore-scripts', '--pack-destination', packDir], process.cwd())).trim().split('\n').at(-1)!;
  const prefix = tempDir('forge-prefix-');
  await npm(['install', '--global', '--prefix', prefix, join(packDir, tarball)], packDir);

  const bin = join(prefix, 'bin');
  const installed = realpathSync(join(bin, 'forge'));
  assert.ok(installed.startsWith(prefix), `forge resolves into the prefix, not the clone: ${installed}`);
  assert.ok(existsSync(join(bin, 'forge-read')), 'the forge-<command> programs are installed');
  assert.ok(existsSync(join(prefix, 'share/man/man1/forge-read.1')), 'with their man pages');

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

test.run();
