// Hooks: detection per build file, written once into config.json, run with a cap and a timeout that kills the process group.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { resolveModelConfig } from '../../../lib/agent/config-resolve';
import { resolveAgentSettings } from '../../../lib/agent/config-settings';
import type { HookConfig } from '../../../lib/agent/config-types';
import {
  capLines,
  detectHooks,
  emptyHooks,
  ensureHooks,
  formatHookResults,
  HOOK_TIMEOUT_MS,
  runHooks,
  type HookResult,
} from '../../../lib/agent/hooks';
import type { ForgeError } from '../../../lib/errors';
import { closedPort, startOpenAIServer } from '../../helpers/openai-server';
import { tempDir } from '../../helpers/repo';
import { readIfThere, running, until } from '../../helpers/process';
import { neverExpires, TestClock } from '../../helpers/clock';

/** A project directory holding `files`, and a PATH holding only `programs` (fake executables) and the system's basics. */
function project(files: Record<string, string>, programs: string[] = []): { root: string; env: NodeJS.ProcessEnv } {
  const root = tempDir('forge-hooks-');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const bin = tempDir('forge-hooks-bin-');
  for (const p of programs) {
    writeFileSync(join(bin, p), '#!/bin/sh\nexit 0\n');
    chmodSync(join(bin, p), 0o755);
  }
  return { root, env: { PATH: `${bin}:/usr/bin:/bin` } };
}

const hooks = (partial: Partial<HookConfig>): HookConfig => ({ ...emptyHooks(), ...partial });

test('each build file brings its hooks; none gives every event empty', async () => {
  const cargo = project({ 'Cargo.toml': '[package]\nname = "x"\n' });
  assert.equal(await detectHooks(cargo), {
    hooks: hooks({ on_edit: ['cargo check -q'], on_task_done: ['cargo test -q'] }),
    markers: ['Cargo.toml'],
  });
  const ts = project({ 'tsconfig.json': '{}' });
  assert.equal(await detectHooks(ts), { hooks: hooks({ on_edit: ['npx --no-install tsc --noEmit -p .'] }), markers: ['tsconfig.json'] });
  const go = project({ 'go.mod': 'module x\n' });
  assert.equal(await detectHooks(go), { hooks: hooks({ on_edit: ['go build ./...'] }), markers: ['go.mod'] });
  const both = project({ 'go.mod': 'module x\n', 'tsconfig.json': '{}' });
  assert.equal((await detectHooks(both)).hooks.on_edit, ['npx --no-install tsc --noEmit -p .', 'go build ./...']);
  const none = project({ 'README.md': '# x\n', 'sub/tsconfig.json': '{}' });
  assert.equal(await detectHooks(none), { hooks: emptyHooks(), markers: [] }, 'only the top counts');
  const dirNamedLikeMarker = project({ 'go.mod/x': '' });
  assert.equal((await detectHooks(dirNamedLikeMarker)).markers, []);
});

test('python projects get ruff only when ruff is on PATH', async () => {
  for (const marker of ['pyproject.toml', 'setup.py']) {
    const withRuff = project({ [marker]: '' }, ['ruff']);
    assert.equal(await detectHooks(withRuff), { hooks: hooks({ on_edit: ['ruff check .'] }), markers: [marker] });
    const without = project({ [marker]: '' });
    assert.equal(await detectHooks(without), { hooks: emptyHooks(), markers: [] });
  }
});

/** A config dir and the path of its config.json (not created). */
function configAt(): string {
  return join(tempDir('forge-hooks-config-'), 'forge', 'config.json');
}

test('ensureHooks detects once and writes all five events into the profile, keeping the other keys and the indentation', async () => {
  const { root, env } = project({ 'tsconfig.json': '{}' });
  const path = configAt();
  mkdirSync(join(path, '..'), { recursive: true });
  const original = {
    default: 'local',
    profiles: {
      local: { endpoint: 'http://127.0.0.1:9/v1', model: 'qwen3:14b', note: 'a key forge does not know' },
      cloud: { endpoint: 'https://openrouter.ai/api/v1', model: 'x', api_key_env: 'KEY' },
    },
    'x-editor': { theme: 'dark' },
  };
  writeFileSync(path, JSON.stringify(original, null, 4) + '\n');
  const first = await ensureHooks({ mayWrite: async () => true, configPath: path, profile: 'local', root, env });
  const expected = hooks({ on_edit: ['npx --no-install tsc --noEmit -p .'] });
  assert.equal(first, {
    profile: 'local',
    configPath: path,
    markers: ['tsconfig.json'],
    hooks: expected,
    disabled: false,
    origin: 'written',
  });
  const written = readFileSync(path, 'utf8');
  const want = structuredClone(original) as any;
  want.profiles.local.hooks = {
    on_edit: ['npx --no-install tsc --noEmit -p .'],
    on_task_done: [],
    on_step_done: [],
    on_session_start: [],
    on_session_end: [],
  };
  want.profiles.local.hooks_detected_from = ['tsconfig.json'];
  assert.is(written, JSON.stringify(want, null, 4) + '\n', 'other keys, their order and the 4-space indent kept; every event present');
  assert.equal(readdirSync(join(path, '..')), ['config.json'], 'no temp file left');

  // Set back to a time no write can give it: any write, however soon, would move it.
  utimesSync(path, 1_000_000, 1_000_000);
  const again = await ensureHooks({ mayWrite: async () => true, configPath: path, profile: 'local', root, env });
  assert.equal([again.origin, again.hooks], ['config', expected]);
  assert.is(statSync(path).mtimeMs, 1_000_000_000, 'the second call does not write');
  assert.is(readFileSync(path, 'utf8'), written);

  // What the user then writes is what runs: detection does not come back.
  writeFileSync(path, written.replace('"npx --no-install tsc --noEmit -p ."', '"make check"'));
  assert.equal((await ensureHooks({ mayWrite: async () => true, configPath: path, profile: 'local', root, env })).hooks.on_edit, [
    'make check',
  ]);
  const settings = await resolveAgentSettings({ env: { XDG_CONFIG_HOME: join(path, '..', '..') } });
  assert.equal(settings.hooks.value?.on_edit, ['make check']);
});

test("hooks detected in another kind of project serve only there: this repository's own are detected for the run; hand-written hooks serve everywhere", async () => {
  const rust = project({ 'Cargo.toml': '' });
  const ts = project({ 'tsconfig.json': '{}' });
  const path = configAt();
  assert.is(
    (await ensureHooks({ mayWrite: async () => true, configPath: path, profile: null, root: rust.root, env: rust.env })).origin,
    'written',
  );
  const written = readFileSync(path, 'utf8');
  const elsewhere = await ensureHooks({ mayWrite: async () => true, configPath: path, profile: null, root: ts.root, env: ts.env });
  assert.equal(
    [elsewhere.origin, elsewhere.hooks.on_edit, elsewhere.markers],
    ['detected', ['npx --no-install tsc --noEmit -p .'], ['tsconfig.json']],
  );
  assert.match(
    elsewhere.warning!,
    /^profiles\.default\.hooks were detected from Cargo\.toml, which this repository does not match; hooks detected here \(tsconfig\.json\) serve this run$/,
  );
  assert.is(readFileSync(path, 'utf8'), written, 'the profile keeps its hooks');
  assert.equal(
    (await ensureHooks({ mayWrite: async () => true, configPath: path, profile: null, root: rust.root, env: rust.env })).origin,
    'config',
  );
  const handWritten = JSON.parse(written);
  delete handWritten.profiles.default.hooks_detected_from;
  writeFileSync(path, JSON.stringify(handWritten));
  const everywhere = await ensureHooks({ mayWrite: async () => true, configPath: path, profile: null, root: ts.root, env: ts.env });
  assert.equal([everywhere.origin, everywhere.hooks.on_edit], ['config', ['cargo check -q']]);
});

test('a project with no build file still gets every event written, empty, so the file shows them', async () => {
  const { root, env } = project({});
  const path = configAt();
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '{\n  "profiles": {\n    "solo": {\n      "model": "m"\n    }\n  }\n}');
  const r = await ensureHooks({ mayWrite: async () => true, configPath: path, profile: null, root, env });
  assert.equal([r.origin, r.profile, r.hooks], ['written', 'solo', emptyHooks()]);
  assert.is(
    readFileSync(path, 'utf8'),
    JSON.stringify({ profiles: { solo: { model: 'm', hooks: emptyHooks(), hooks_detected_from: [] } } }, null, 2),
    'no trailing newline added where there was none',
  );
});

test('with no config file, ensureHooks creates one holding a "default" profile with only hooks, and a first run still detects the endpoint', async () => {
  const { root, env } = project({ 'Cargo.toml': '' });
  const xdg = tempDir('forge-hooks-xdg-');
  const path = join(xdg, 'forge', 'config.json');
  const r = await ensureHooks({ mayWrite: async () => true, configPath: path, profile: null, root, env });
  assert.equal([r.origin, r.profile], ['written', 'default']);
  assert.equal(JSON.parse(readFileSync(path, 'utf8')), {
    profiles: {
      default: { hooks: hooks({ on_edit: ['cargo check -q'], on_task_done: ['cargo test -q'] }), hooks_detected_from: ['Cargo.toml'] },
    },
  });
  assert.ok(readFileSync(path, 'utf8').startsWith('{\n  "profiles": {\n    "default": {'), '2-space indent');

  const ollama = await startOpenAIServer({ models: ['qwen3:8b'] });
  try {
    const config = await resolveModelConfig({ env: { XDG_CONFIG_HOME: xdg, FORGE_OLLAMA_URL: ollama.url }, startTimeout: neverExpires });
    assert.equal(
      [config.endpoint.value, config.endpoint.source.kind, config.model.value, config.firstRun, config.profile?.value],
      [ollama.url, 'detected', 'qwen3:8b', true, 'default'],
    );
    assert.equal(config.hooks.value?.on_edit, ['cargo check -q']);
  } finally {
    await ollama.close();
  }
  const noModel = await resolveModelConfig({
    env: { XDG_CONFIG_HOME: xdg, FORGE_OLLAMA_URL: `http://127.0.0.1:${await closedPort()}/v1` },
  }).catch((e: ForgeError) => e);
  assert.is((noModel as ForgeError).code, 'NO_MODEL_ENDPOINT', 'with nothing to detect, the same error as with no file');
});

test('with several profiles and no default, the detected hooks serve the run and nothing is written', async () => {
  const { root, env } = project({ 'go.mod': '' });
  const path = configAt();
  mkdirSync(join(path, '..'), { recursive: true });
  const text = JSON.stringify({ profiles: { a: { model: 'x' }, b: { model: 'y' } } }, null, 2);
  writeFileSync(path, text);
  const r = await ensureHooks({ mayWrite: async () => true, configPath: path, profile: null, root, env });
  assert.equal([r.origin, r.profile, r.hooks.on_edit], ['detected', null, ['go build ./...']]);
  assert.is(readFileSync(path, 'utf8'), text);
});

test('a config file that cannot be written leaves the hooks detected for this run, with a warning', async () => {
  const { root, env } = project({ 'go.mod': '' });
  // Nobody, root included, can make a directory at the top of sysfs (and Node's recursive mkdir loops in /proc).
  if (!existsSync('/sys/kernel')) return;
  const path = '/sys/forge-no-such-dir/config.json';
  const r = await ensureHooks({ mayWrite: async () => true, configPath: path, profile: null, root, env });
  assert.equal([r.origin, r.hooks.on_edit], ['detected', ['go build ./...']]);
  assert.match(
    r.warning ?? '',
    /^cannot write the detected hooks to '\/sys\/forge-no-such-dir\/config\.json' \(.+\); they serve this run only$/,
  );
});

test('hooks_disabled: nothing is detected, written or run', async () => {
  const { root, env } = project({ 'tsconfig.json': '{}' });
  const path = configAt();
  mkdirSync(join(path, '..'), { recursive: true });
  const text = JSON.stringify({ profiles: { a: { hooks_disabled: true } } });
  writeFileSync(path, text);
  const r = await ensureHooks({ mayWrite: async () => true, configPath: path, profile: 'a', root, env });
  assert.equal(r, { profile: 'a', configPath: path, markers: [], hooks: emptyHooks(), disabled: true, origin: 'disabled' });
  assert.is(readFileSync(path, 'utf8'), text);
  const configured = JSON.stringify({ profiles: { a: { hooks_disabled: true, hooks: { on_edit: ['false'] } } } });
  writeFileSync(path, configured);
  assert.equal(
    (await ensureHooks({ mayWrite: async () => true, configPath: path, profile: 'a', root, env })).hooks,
    emptyHooks(),
    'configured hooks do not run either',
  );
});

test('an invalid config file is the same CONFIG_INVALID error, and is not overwritten', async () => {
  const path = configAt();
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '{"profiles": {"a": {"hooks": {"on_save": []}}}}');
  const err = await ensureHooks({ env: process.env, mayWrite: async () => true, configPath: path, profile: 'a', root: tempDir() }).catch(
    (e: ForgeError) => e,
  );
  assert.is((err as ForgeError).code, 'CONFIG_INVALID');
  assert.match((err as ForgeError).message, /profiles\.a\.hooks has an unknown event 'on_save'/);
  writeFileSync(path, '{"profiles": ');
  assert.is(
    (
      (await ensureHooks({ env: process.env, mayWrite: async () => true, configPath: path, profile: null, root: tempDir() }).catch(
        (e: ForgeError) => e,
      )) as ForgeError
    ).code,
    'CONFIG_INVALID',
  );
  assert.is(readFileSync(path, 'utf8'), '{"profiles": ');
});

test('runHooks runs each command in cwd with env, in order, and reports exit codes', async () => {
  const cwd = tempDir();
  const results = await runHooks({
    commands: ['echo "in $(basename "$PWD") $GREETING"', 'echo oops >&2; exit 3', 'true'],
    cwd,
    env: { ...process.env, GREETING: 'hi' },
  });
  assert.equal(
    results.map((r) => [r.command, r.exitCode, r.timedOut, r.output]),
    [
      ['echo "in $(basename "$PWD") $GREETING"', 0, false, `in ${cwd.split('/').at(-1)} hi`],
      ['echo oops >&2; exit 3', 3, false, 'oops'],
      ['true', 0, false, ''],
    ],
  );
  assert.equal(await runHooks({ env: process.env, commands: [], cwd }), []);
});

test('runHooks caps output to 50 lines: the first errors and the summary at the end', async () => {
  const cwd = tempDir();
  const [r] = await runHooks({
    env: process.env,
    commands: ['for i in $(seq 1 200); do echo "error $i"; done; printf "\\033[31mFound 200 errors\\033[0m\\n"; exit 2'],
    cwd,
  });
  const lines = r!.output.split('\n');
  assert.is(lines.length, 50);
  assert.equal(lines.slice(0, 2), ['error 1', 'error 2']);
  assert.is(lines[43], 'error 44');
  assert.is(lines[44], '… 152 lines cut …');
  assert.equal(
    lines.slice(45),
    ['error 197', 'error 198', 'error 199', 'error 200', 'Found 200 errors'],
    'the tail kept, colours stripped',
  );
  const [long] = await runHooks({ env: process.env, commands: [`printf '%0500d\\n' 0`], cwd, maxLines: 5 });
  assert.is(long!.output, `${'0'.repeat(240)}…`);
  assert.is(capLines('a\nb\nc', 50), 'a\nb\nc');
});

test('a hook that outlives its timeout is stopped with its whole process group, and the limit is what it reports', async () => {
  const cwd = tempDir();
  const clock = new TestClock();
  // It outlives the test's own limit, so only the timeout ends it; the pid file comes after
  // `started`, so once the file is there the output holds it.
  const command = 'sleep 600 & echo started; echo $! > child.pid; wait';
  const ran = runHooks({ env: process.env, commands: [command], cwd, startTimeout: clock.startTimeout });
  await until(() => clock.pending === 1 && /^\d+\n$/.test(readIfThere(join(cwd, 'child.pid'))));
  clock.expire();
  const [r] = await ran;
  assert.equal(clock.limits, [HOOK_TIMEOUT_MS], 'the hook ran under the default limit');
  assert.equal([r!.timedOut, r!.exitCode, r!.signal, r!.output], [true, null, 'SIGTERM', 'started']);
  const pid = Number(readFileSync(join(cwd, 'child.pid'), 'utf8'));
  // Unbounded: the harness's timeout is the failure if the group kill missed it.
  await until(() => !running(pid));
  assert.is(
    formatHookResults([r!], 'on_edit'),
    `⚙ on_edit \`${command}\` (timed out after 30 s; its processes were killed):\nstarted`,
    'the configured limit, not the time the kill happened to take',
  );
});

test('a hook that ends within its limit is not timed out, and its timeout is cancelled', async () => {
  const clock = new TestClock();
  const [r] = await runHooks({
    env: process.env,
    commands: ['echo done'],
    cwd: tempDir(),
    timeoutMs: 5000,
    startTimeout: clock.startTimeout,
  });
  assert.equal([r!.timedOut, r!.exitCode, r!.output, r!.timeoutMs], [false, 0, 'done', 5000]);
  assert.equal([clock.limits, clock.pending], [[5000], 0]);
});

test('an aborted signal stops the running hook and skips the rest', async () => {
  const cwd = tempDir();
  const controller = new AbortController();
  const ran = runHooks({
    env: process.env,
    commands: ['touch started; sleep 600', 'touch ran'],
    cwd,
    signal: controller.signal,
    startTimeout: neverExpires,
  });
  await until(() => existsSync(join(cwd, 'started')));
  controller.abort();
  const results = await ran;
  assert.is(results.length, 1);
  assert.equal([results[0]!.exitCode, results[0]!.signal, results[0]!.timedOut], [null, 'SIGTERM', false], 'stopped, not waited for');
  assert.not.ok(existsSync(join(cwd, 'ran')));
});

test('formatHookResults: a failure shows its output, a pass is one ✓ line, nothing to run is the empty string', () => {
  const result = (r: Partial<HookResult>): HookResult => ({
    command: 'tsc --noEmit',
    exitCode: 0,
    signal: null,
    timedOut: false,
    timeoutMs: HOOK_TIMEOUT_MS,
    output: '',
    durationMs: 1200,
    ...r,
  });
  assert.is(formatHookResults([], 'on_edit'), '');
  assert.is(formatHookResults([result({ output: 'warning: unused' })], 'on_edit'), '⚙ on_edit `tsc --noEmit` ✓');
  assert.is(
    formatHookResults(
      [result({ exitCode: 2, output: "src/a.ts(3,1): error TS2304: Cannot find name 'x'." }), result({ command: 'ruff check .' })],
      'on_edit',
    ),
    "⚙ on_edit `tsc --noEmit` (exit 2):\nsrc/a.ts(3,1): error TS2304: Cannot find name 'x'.\n⚙ on_edit `ruff check .` ✓",
  );
  assert.is(formatHookResults([result({ exitCode: 1 })], 'on_task_done'), '⚙ on_task_done `tsc --noEmit` (exit 1):\n(no output)');
  assert.is(
    formatHookResults([result({ exitCode: null, signal: 'SIGKILL', output: 'x' })], 'on_step_done'),
    '⚙ on_step_done `tsc --noEmit` (killed by SIGKILL):\nx',
  );
  assert.is(
    formatHookResults([result({ exitCode: null, timedOut: true, durationMs: 30_004 })], 'on_edit'),
    '⚙ on_edit `tsc --noEmit` (timed out after 30 s; its processes were killed):\n(no output)',
  );
  assert.is(
    formatHookResults([result({ exitCode: null, timedOut: true, timeoutMs: 2500, durationMs: 7_140 })], 'on_edit'),
    '⚙ on_edit `tsc --noEmit` (timed out after 2.5 s; its processes were killed):\n(no output)',
    'the limit it ran under, whatever the kill took',
  );
});

test.run();
