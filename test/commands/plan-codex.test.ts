// forge plan install-hook codex and preflight --hook codex: the plan gate in Codex CLI's config.toml, run as Codex runs it.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { hookEnv, runHook } from '../helpers/claude';
import { forge } from '../helpers/forge';
import { planJournal, repoWith, tempDir } from '../helpers/repo';
import { oneUnitPlan } from '../helpers/plans';

const PLAN = oneUnitPlan({ id: 'codex-demo', title: 'codex demo', parentTools: ['read', 'patch', 'bash', 'search'], unitTools: ['patch'] });

/** The user's own config: comments and settings forge must keep byte for byte. */
const USER_CONFIG = `# my Codex settings
model = "gpt-5"

[mcp_servers.docs]
command = "docs-mcp" # keep this comment
`;

/** A Codex home that trusts the project, as answering Codex's "trust this folder?" writes: there the installed gate is live. */
function trustingCodexHome(dir: string): Record<string, string> {
  const home = tempDir('forge-codex-home-');
  writeFileSync(join(home, 'config.toml'), `[projects.${JSON.stringify(dir)}]\ntrust_level = "trusted"\n`);
  return { CODEX_HOME: home };
}

const patch = (file: string) =>
  `*** Begin Patch\n*** Update File: ${file}\n@@\n-export const a = 1;\n+export const a = 2;\n*** End Patch\n`;

test('Codex: install-hook appends to config.toml keeping the rest; the installed command allows, denies in Codex JSON, acks and retries', async () => {
  const dir = repoWith({ 'docs/plans/codex.md': PLAN, 'src/a.ts': 'export const a = 1;\n', '.codex/config.toml': USER_CONFIG });
  const env = trustingCodexHome(dir);
  const inst = await forge(['plan', 'install-hook', 'codex', '--json'], { cwd: join(dir, 'src'), env });
  assert.is(inst.code, 0, inst.stderr);
  assert.is(inst.records[0]!.added, true);
  const text = readFileSync(join(dir, '.codex/config.toml'), 'utf8');
  assert.ok(text.startsWith(USER_CONFIG), 'the user text is kept as it was, comments included');
  const config = parse(text) as any;
  assert.is(config.mcp_servers.docs.command, 'docs-mcp');
  assert.is(config.hooks.PreToolUse.length, 1);
  assert.is(config.hooks.PreToolUse[0].matcher, undefined, 'no matcher: every tool Codex reports');
  const command = config.hooks.PreToolUse[0].hooks[0].command as string;
  assert.is(config.hooks.PreToolUse[0].hooks[0].type, 'command');
  const again = await forge(['plan', 'install-hook', 'codex', '--json'], { cwd: dir, env });
  assert.is(again.records[0]!.added, false);
  assert.is(readFileSync(join(dir, '.codex/config.toml'), 'utf8'), text, 'idempotent');

  // No plan yet: everything passes, nothing is written.
  const base = {
    session_id: 'codex-sess',
    turn_id: 't1',
    transcript_path: null,
    cwd: dir,
    hook_event_name: 'PreToolUse',
    model: 'gpt-5',
    permission_mode: 'default',
    tool_use_id: 'call-1',
  };
  assert.equal([runHook({ dir, command, payload: 'not json' }).stdout, runHook({ dir, command, payload: 'not json' }).status], ['', 0]);
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/codex.md'], { cwd: dir })).code, 0);

  const allowed = runHook({ dir, command, payload: { ...base, tool_name: 'apply_patch', tool_input: { command: patch('src/a.ts') } } });
  assert.equal([allowed.status, allowed.stdout], [0, ''], allowed.stderr);
  const hard = runHook({
    dir,
    command,
    payload: { ...base, tool_name: 'apply_patch', tool_input: { command: `${patch('src/a.ts')}*** Add File: docs/new.md\n+x\n` } },
  });
  assert.is(hard.status, 0);
  const hardOut = JSON.parse(hard.stdout);
  assert.equal(Object.keys(hardOut.hookSpecificOutput), ['hookEventName', 'permissionDecision', 'permissionDecisionReason']);
  assert.equal([hardOut.hookSpecificOutput.hookEventName, hardOut.hookSpecificOutput.permissionDecision], ['PreToolUse', 'deny']);
  assert.match(hardOut.hookSpecificOutput.permissionDecisionReason, /^plan breach: blast radius — changing 'docs\/new.md' is outside/);
  const soft = JSON.parse(
    runHook({ dir, command, payload: { ...base, tool_name: 'Bash', tool_input: { command: 'cat src/a.ts' } } }).stdout,
  );
  assert.match(
    soft.hookSpecificOutput.permissionDecisionReason,
    /^plan breach: tools — 'Bash' is not allowed in U1 \(allowed: patch\)\. Run `forge plan ack`, then retry this exact call once/,
  );
  assert.is(
    runHook({ dir, command, payload: { ...base, tool_name: 'Bash', tool_input: { command: 'forge plan ack' } } }).stdout,
    '',
    'the lifecycle is never gated',
  );
  assert.is(spawnSync('sh', ['-c', 'forge plan ack'], { cwd: dir, env: hookEnv() }).status, 0);
  assert.is(
    runHook({ dir, command, payload: { ...base, tool_name: 'Bash', tool_input: { command: 'cat src/a.ts' } } }).stdout,
    '',
    'acknowledged, the retry runs',
  );
  const push = JSON.parse(
    runHook({ dir, command, payload: { ...base, tool_name: 'Bash', tool_input: { command: 'git push origin HEAD' } } }).stdout,
  );
  assert.match(push.hookSpecificOutput.permissionDecisionReason, /^plan breach: surface/, 'a shell command is read for its surface');
  const unknown = JSON.parse(
    runHook({ dir, command, payload: { ...base, tool_name: 'mcp__github__create_pr', tool_input: { title: 'x' } } }).stdout,
  );
  assert.match(
    unknown.hookSpecificOutput.permissionDecisionReason,
    /^plan breach: tools — 'mcp__github__create_pr'.*forge plan ack/,
    'an unknown tool is a soft refusal',
  );
  const bad = runHook({ dir, command, payload: { ...base, tool_input: {} } });
  assert.is(bad.status, 0);
  assert.match(
    JSON.parse(bad.stdout).hookSpecificOutput.permissionDecisionReason,
    /^forge could not read this tool call, and a plan contract is active: .*Fix: forge plan install-hook codex$/,
  );
  const notJson = JSON.parse(runHook({ dir, command, payload: '{"tool_name":' }).stdout);
  assert.match(notJson.hookSpecificOutput.permissionDecisionReason, /the Codex hook payload on stdin is not JSON/);

  const refused = planJournal(dir).filter((e) => e.verb === 'plan_breach_refused');
  assert.equal(
    refused.map((e) => [e.breach, e.posture]),
    [
      ['blast_radius', 'hard'],
      ['tools', 'soft'],
      ['surface', 'hard'],
      ['tools', 'soft'],
    ],
  );
  assert.equal(planJournal(dir).filter((e) => e.verb === 'plan_breach_acknowledged').length, 1);
  const status = await forge(['plan', 'status', '--json'], { cwd: dir });
  assert.equal(status.records[0]!.used.runs, ['codex-sess'], "Codex's session is the run");
});

test('Codex, hostile: a patch run through the shell is gated as the writes it makes; an apply_patch naming no file is refused', async () => {
  const dir = repoWith({ 'docs/plans/codex.md': PLAN, 'src/a.ts': 'export const a = 1;\n' });
  assert.is((await forge(['plan', 'install-hook', 'codex'], { cwd: dir, env: trustingCodexHome(dir) })).code, 0);
  const command = (parse(readFileSync(join(dir, '.codex/config.toml'), 'utf8')) as any).hooks.PreToolUse[0].hooks[0].command as string;
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/codex.md'], { cwd: dir })).code, 0);
  const base = { session_id: 'codex-sess', cwd: dir, hook_event_name: 'PreToolUse' };
  const reason = (payload: Record<string, unknown>) =>
    JSON.parse(runHook({ dir, command, payload: { ...base, ...payload } }).stdout || '{"hookSpecificOutput":{}}').hookSpecificOutput
      .permissionDecisionReason as string | undefined;
  // docs/ is inside the rails but outside the blast radius: as a shell heredoc the patch's write is still seen.
  const heredoc = `apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: docs/evil.md\n+x\n*** End Patch\nEOF`;
  assert.match(
    reason({ tool_name: 'Bash', tool_input: { command: heredoc } })!,
    /^plan breach: blast radius — changing 'docs\/evil\.md' is outside/,
  );
  assert.match(
    reason({ tool_name: 'apply_patch', tool_input: { command: 'garbage' } })!,
    /a call the gate cannot check is refused \(the apply_patch patch names no file/,
  );
  assert.match(
    reason({ tool_name: 'apply_patch', tool_input: { command: patch('../outside.txt') } })!,
    /^plan breach: paths — '\.\.\/outside\.txt' is outside the plan's rails/,
  );
});

test('Codex: fails closed when forge cannot run; a malformed config.toml is refused untouched', async () => {
  const dir = repoWith({ 'docs/plans/codex.md': PLAN, 'src/a.ts': 'x\n' });
  assert.is((await forge(['plan', 'install-hook', 'codex'], { cwd: dir, env: trustingCodexHome(dir) })).code, 0);
  const command = (parse(readFileSync(join(dir, '.codex/config.toml'), 'utf8')) as any).hooks.PreToolUse[0].hooks[0].command as string;
  const missing = spawnSync('/bin/sh', ['-c', command], { cwd: dir, input: '{}', encoding: 'utf8', env: { PATH: '/nonexistent' } });
  assert.is(missing.status, 2, 'Codex blocks a call on exit 2');
  assert.match(missing.stderr, /forge/);
  for (const broken of ['model = \n', 'hooks = "x"\n', 'hooks = { PreToolUse = 1 }\n']) {
    writeFileSync(join(dir, 'broken.toml'), broken);
    const r = await forge(['plan', 'install-hook', 'codex', '--settings', 'broken.toml', '--json'], { cwd: dir });
    assert.is(r.code, 1, broken);
    assert.is(r.records[0]!.error.code, 'SETTINGS_INVALID');
    assert.is(readFileSync(join(dir, 'broken.toml'), 'utf8'), broken);
  }
});

test.run();
