// Codex's hook trust as forge computes and records it: the hash Codex compares, the [hooks.state] entry it reads, the user's file kept as it was.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { codexHookHash, hookKey, hookTrust, projectTrusted, recordHookTrust } from '../../../lib/codex/trust';
import { tempDir } from '../../helpers/repo';

const COMMAND = 'node "${PLUGIN_ROOT}/hooks/codex-native-hook.mjs"';

test('the hash is the one Codex writes when its /hooks review trusts a hook (Codex CLI 0.157.1): matcher, timeout and event all count', () => {
  // Hashes Codex CLI 0.157.1 wrote for these three hooks, as a public test of a Codex plugin pins them.
  assert.is(
    codexHookHash({ event: 'PreToolUse', handler: { type: 'command', command: COMMAND } }),
    'sha256:0beadaffc3fbe7daf525b5f470271fd9652bbb6a681827f62ae519aa585114fa',
  );
  assert.is(
    codexHookHash({ event: 'SessionStart', matcher: 'startup|resume|clear', handler: { type: 'command', command: COMMAND } }),
    'sha256:c70df1f988a6965eb9d0fbdbfeaf84a609c98a9e24567dd1eb140cd6bf8e49f9',
  );
  assert.is(
    codexHookHash({ event: 'Stop', handler: { type: 'command', command: COMMAND, timeout: 30 } }),
    'sha256:216a53a71d5c9819f0fdbbbbf869c4f8d9455e742dad9e0f1d91f3d67dbba2ff',
  );
  // An unset timeout is Codex's 600; a Stop hook's matcher is ignored; one character of the command changes it.
  const hash = codexHookHash({ event: 'PreToolUse', handler: { type: 'command', command: 'forge plan preflight --hook codex || exit 2' } });
  assert.is(
    codexHookHash({
      event: 'PreToolUse',
      handler: { type: 'command', command: 'forge plan preflight --hook codex || exit 2', timeout: 600 },
    }),
    hash,
  );
  assert.is.not(
    codexHookHash({ event: 'PreToolUse', handler: { type: 'command', command: 'forge plan preflight --hook codex ||  exit 2' } }),
    hash,
  );
  assert.is(
    codexHookHash({ event: 'Stop', matcher: 'x', handler: { type: 'command', command: 'c' } }),
    codexHookHash({ event: 'Stop', handler: { type: 'command', command: 'c' } }),
  );
  assert.is(
    hookKey({ keyPath: '/r/.codex/config.toml', event: 'PreToolUse', group: 2, handler: 0 }),
    '/r/.codex/config.toml:pre_tool_use:2:0',
  );
});

test("recording trust appends one [hooks.state] table, keeps the user's text, replaces a stale hash in place, and leaves a disabled hook disabled", async () => {
  const home = tempDir('forge-codex-trust-');
  const file = join(home, 'config.toml');
  const user = '# mine\nmodel = "gpt-5"\n\n[projects."/r"]\ntrust_level = "trusted"\n';
  writeFileSync(file, user);
  const key = '/r/.codex/config.toml:pre_tool_use:0:0';
  assert.is(await recordHookTrust({ file, key, hash: 'sha256:aa' }), 'recorded');
  const once = readFileSync(file, 'utf8');
  assert.ok(once.startsWith(user), 'the user text stays as it was');
  assert.is(hookTrust({ config: parse(once) as any, key, hash: 'sha256:aa' }), 'trusted');
  assert.is(hookTrust({ config: parse(once) as any, key, hash: 'sha256:bb' }), 'modified');
  assert.is(hookTrust({ config: parse(once) as any, key: `${key}x`, hash: 'sha256:aa' }), 'untrusted');
  assert.is(await recordHookTrust({ file, key, hash: 'sha256:aa' }), 'already');
  assert.is(readFileSync(file, 'utf8'), once, 'idempotent');
  assert.is(await recordHookTrust({ file, key, hash: 'sha256:bb' }), 'recorded');
  assert.is(readFileSync(file, 'utf8'), once.replace('sha256:aa', 'sha256:bb'), 'the stale hash replaced where it was');
  writeFileSync(file, `${user}\n[hooks.state."${key}"]\nenabled = false\n`);
  assert.is(await recordHookTrust({ file, key, hash: 'sha256:aa' }), 'disabled');
  assert.is(hookTrust({ config: parse(readFileSync(file, 'utf8')) as any, key, hash: 'sha256:aa' }), 'disabled');
  assert.equal(
    [projectTrusted({ config: parse(user) as any, dirs: ['/r'] }), projectTrusted({ config: parse(user) as any, dirs: ['/elsewhere'] })],
    [true, false],
  );
});

test.run();
