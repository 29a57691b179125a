// forge hooks install pre-push: a real git push to a bare remote, refused while a plan fails the check.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { planTemplate } from '../../lib/plans/template';
import { forge, forgeEnv } from '../helpers/forge';
import { git, PINNED_ENV, tempRepo } from '../helpers/repo';

function push(dir: string) {
  // The hook runs with the user's environment; forge is not on this PATH, so it uses the installing binary.
  return spawnSync('git', ['push', '-q', 'origin', 'main'], { cwd: dir, env: { ...forgeEnv(), ...PINNED_ENV }, encoding: 'utf8' });
}

test('the pre-push hook refuses a push while a plan fails, and lets it through once fixed', async () => {
  const dir = tempRepo();
  const remote = tempRepo({ bare: true });
  git(dir, 'remote', 'add', 'origin', remote);
  const installed = await forge(['hooks', 'install', 'pre-push'], { cwd: dir });
  assert.is(installed.stdout, 'installed .git/hooks/pre-push\nNext: forge plan check\n');
  mkdirSync(join(dir, 'docs', 'plans'), { recursive: true });
  const plan = planTemplate({ slug: 'x', date: '2026-01-01' });
  writeFileSync(join(dir, 'docs/plans/x.md'), plan.replace('allowed_tools: [read, edit, patch, search, ls]', 'allowed_tools: [read, deploy]'));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'a plan that widens its rails');
  const refused = push(dir);
  assert.is.not(refused.status, 0);
  assert.match(refused.stdout + refused.stderr, /docs\/plans\/x\.md:35:1: error TOOLS_WIDER/);
  assert.match(refused.stderr, /pre-push: forge plan check failed/);
  assert.throws(() => git(remote, 'rev-parse', '--verify', 'main'), 'nothing reached the remote');
  writeFileSync(join(dir, 'docs/plans/x.md'), plan);
  git(dir, 'commit', '-q', '-am', 'narrow it');
  const ok = push(dir);
  assert.is(ok.status, 0, ok.stderr);
  assert.is(git(remote, 'rev-parse', 'main'), git(dir, 'rev-parse', 'main'));
});

test('an existing pre-push hook is kept and runs first; installing twice changes nothing', async () => {
  const dir = tempRepo();
  const remote = tempRepo({ bare: true });
  git(dir, 'remote', 'add', 'origin', remote);
  const hook = join(dir, '.git/hooks/pre-push');
  writeFileSync(hook, `#!/bin/sh\ncat > ${join(dir, '.git/own-hook-saw')}\n`);
  chmodSync(hook, 0o755);
  const first = await forge(['hooks', 'install', 'pre-push', '--json'], { cwd: dir });
  assert.equal([first.records[0]!.installed, first.records[0]!.chained], [true, join(dir, '.git/hooks/pre-push.local')]);
  const script = readFileSync(hook, 'utf8');
  const again = await forge(['hooks', 'install', 'pre-push'], { cwd: dir });
  assert.is(again.stdout, ".git/hooks/pre-push is already forge's pre-push hook\nNext: forge plan check\n");
  assert.is(readFileSync(hook, 'utf8'), script);
  assert.is(push(dir).status, 0);
  assert.ok(existsSync(join(dir, '.git/own-hook-saw')));
  assert.match(readFileSync(join(dir, '.git/own-hook-saw'), 'utf8'), /^refs\/heads\/main [0-9a-f]{40} refs\/heads\/main 0{40}\n$/, 'the old hook got the push input');
});

test.run();
