// forge hooks install pre-push: a real git push to a bare remote, refused while a plan fails the check; forge hooks list: a profile's agent hooks.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { planTemplate } from '../../lib/plans/template';
import { forge, forgeEnv } from '../helpers/forge';
import { git, PINNED_ENV, tempDir, tempRepo } from '../helpers/repo';

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
  writeFileSync(
    join(dir, 'docs/plans/x.md'),
    plan.replace('allowed_tools: [read, edit, patch, search, ls]', 'allowed_tools: [read, deploy]'),
  );
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
  assert.match(
    readFileSync(join(dir, '.git/own-hook-saw'), 'utf8'),
    /^refs\/heads\/main [0-9a-f]{40} refs\/heads\/main 0{40}\n$/,
    'the old hook got the push input',
  );
});

test('the pre-push gate fails closed: a forge on PATH that cannot run or crashes refuses the push', async () => {
  const dir = tempRepo();
  const remote = tempRepo({ bare: true });
  git(dir, 'remote', 'add', 'origin', remote);
  assert.is((await forge(['hooks', 'install', 'pre-push'], { cwd: dir })).code, 0);
  const bin = tempDir('forge-broken-bin-');
  for (const [what, script] of [
    ['cannot start', '#!/bin/sh\nexec /nonexistent/forge "$@"\n'],
    ['crashes', '#!/bin/sh\nkill -SEGV $$\n'],
  ] as const) {
    writeFileSync(join(bin, 'forge'), script);
    chmodSync(join(bin, 'forge'), 0o755);
    const r = spawnSync('git', ['push', '-q', 'origin', 'main'], {
      cwd: dir,
      env: { ...forgeEnv(), ...PINNED_ENV, PATH: `${bin}:${process.env.PATH}` },
      encoding: 'utf8',
    });
    assert.is.not(r.status, 0, what);
    assert.match(r.stderr, /pre-push: forge plan check failed/, what);
    assert.throws(() => git(remote, 'rev-parse', '--verify', 'main'), `${what}: nothing reached the remote`);
  }
});

/** A private XDG_CONFIG_HOME, holding `config` as forge/config.json when given. */
function configHome(config?: unknown): { env: Record<string, string>; path: string } {
  const xdg = tempDir('forge-hooks-xdg-');
  const path = join(xdg, 'forge', 'config.json');
  if (config !== undefined) {
    mkdirSync(join(xdg, 'forge'));
    writeFileSync(path, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  }
  return { env: { XDG_CONFIG_HOME: xdg }, path };
}

const EVENTS = ['on_edit', 'on_task_done', 'on_step_done', 'on_session_start', 'on_session_end'];

test('hooks list with no config file shows what detection would pick, and writes nothing', async () => {
  const dir = tempRepo();
  writeFileSync(join(dir, 'tsconfig.json'), '{}');
  const { env, path } = configHome();
  const r = await forge(['hooks', 'list'], { cwd: dir, env });
  assert.is(r.code, 0, r.stderr);
  assert.is(
    r.stdout,
    [
      'on_edit           npx --no-install tsc --noEmit -p .',
      'on_task_done      -',
      'on_step_done      -',
      'on_session_start  -',
      'on_session_end    -',
      `no ${path} yet: forge agent runs these hooks (detected from tsconfig.json); forge agent --save-hooks creates it with a profile 'default' holding them`,
      `Next: "\${EDITOR:-vi}" ${path}`,
      '',
    ].join('\n'),
  );
  assert.not.ok(existsSync(path), 'listing never writes the config');
  const json = await forge(['hooks', 'list', '--json'], { cwd: join(dir), env });
  assert.equal(
    json.records.slice(0, 5).map((x) => [x.type, x.event, x.commands, x.source, x.runs]),
    [
      ['hook', 'on_edit', ['npx --no-install tsc --noEmit -p .'], 'detection', true],
      ['hook', 'on_task_done', [], 'detection', false],
      ['hook', 'on_step_done', [], 'detection', false],
      ['hook', 'on_session_start', [], 'detection', false],
      ['hook', 'on_session_end', [], 'detection', false],
    ],
  );
  assert.equal(json.records[5], {
    ok: true,
    type: 'summary',
    profile: null,
    configPath: path,
    disabled: false,
    toBeDetected: true,
    markers: ['tsconfig.json'],
    commands: 1,
    _next_action: `"\${EDITOR:-vi}" ${path}`,
  });
});

test("hooks list shows the profile's configured hooks; --profile and FORGE_PROFILE choose another, still to be detected", async () => {
  const dir = tempRepo();
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'Cargo.toml'), '[package]\n');
  const { env, path } = configHome({
    default: 'local',
    profiles: {
      local: { model: 'm', hooks: { on_edit: ['make lint', 'make typecheck'], on_task_done: ['make test'] } },
      cloud: { model: 'n' },
    },
  });
  const r = await forge(['hooks', 'list'], { cwd: join(dir, 'sub'), env });
  assert.is(r.code, 0, r.stderr);
  assert.is(
    r.stdout,
    [
      'on_edit           make lint',
      '                  make typecheck',
      'on_task_done      make test',
      'on_step_done      -',
      'on_session_start  -',
      'on_session_end    -',
      `hooks of profile 'local', from profiles.local.hooks in ${path}`,
      `Next: "\${EDITOR:-vi}" ${path}`,
      '',
    ].join('\n'),
  );
  const cloud = await forge(['hooks', 'list', '--profile', 'cloud', '--json'], { cwd: join(dir, 'sub'), env });
  assert.equal(
    cloud.records.map((x) => x.commands).slice(0, 5),
    [['cargo check -q'], ['cargo test -q'], [], [], []],
    'detection looks at the top of the repository',
  );
  assert.equal([cloud.records[5]!.profile, cloud.records[5]!.toBeDetected, cloud.records[5]!.markers], ['cloud', true, ['Cargo.toml']]);
  const viaEnv = await forge(['hooks', 'list'], { cwd: dir, env: { ...env, FORGE_PROFILE: 'cloud' } });
  assert.match(
    viaEnv.stdout,
    new RegExp(
      `profile 'cloud' has no hooks yet: forge agent runs these \\(detected from Cargo\\.toml\\); forge agent --save-hooks writes them into profiles\\.cloud\\.hooks of ${path}, every event present\\n`,
    ),
  );
  assert.equal(
    EVENTS.map((e) => cloud.records.find((x) => x.event === e)?.type),
    EVENTS.map(() => 'hook'),
  );
});

test('hooks list says when hooks_disabled is set, and detects nothing', async () => {
  const dir = tempRepo();
  writeFileSync(join(dir, 'go.mod'), 'module x\n');
  const { env, path } = configHome({ profiles: { solo: { hooks_disabled: true } } });
  const r = await forge(['hooks', 'list', '--json'], { cwd: dir, env });
  assert.is(r.code, 0);
  assert.equal(
    r.records.slice(0, 5).map((x) => [x.commands, x.runs]),
    EVENTS.map(() => [[], false]),
  );
  assert.equal([r.records[5]!.disabled, r.records[5]!.toBeDetected, r.records[5]!.profile], [true, false, 'solo']);
  const text = await forge(['hooks', 'list'], { cwd: dir, env });
  assert.match(
    text.stdout,
    new RegExp(`\\nhooks_disabled is true in profiles\\.solo of ${path}: none of these runs and nothing is detected\\nNext: `),
  );
});

test('hooks list works outside a git repository, and names the file for an invalid config or an unchosen profile', async () => {
  const outside = tempDir();
  writeFileSync(join(outside, 'go.mod'), 'module x\n');
  const none = configHome();
  const r = await forge(['hooks', 'list', '--json'], { cwd: outside, env: none.env });
  assert.is(r.code, 0, r.stderr);
  assert.equal(r.records[0]!.commands, ['go build ./...']);

  const several = configHome({ profiles: { a: {}, b: {} } });
  const unchosen = await forge(['hooks', 'list'], { cwd: outside, env: several.env });
  assert.is(unchosen.code, 2);
  assert.is(unchosen.stderr, `Error: '${several.path}' has profiles 'a', 'b' and no "default"\nFix: forge hooks list --profile a\n`);
  const missing = await forge(['hooks', 'list', '--profile', 'c'], { cwd: outside, env: several.env });
  assert.match(missing.stderr, /^Error: no profile 'c' in .*; it has 'a', 'b'\nFix: forge hooks list --profile a\n$/);

  const invalid = configHome({ profiles: { a: { hooks: { on_edit: 'make' } } } });
  const bad = await forge(['hooks', 'list', '--json'], { cwd: outside, env: invalid.env });
  assert.is(bad.code, 2);
  assert.equal([bad.records[0]!.error.code, bad.records[0]!._next_action], ['CONFIG_INVALID', `"\${EDITOR:-vi}" ${invalid.path}`]);
  assert.match(bad.records[0]!.error.message, /profiles\.a\.hooks\.on_edit must be a list of shell commands/);
});

test.run();
