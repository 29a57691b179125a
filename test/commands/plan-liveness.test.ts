// forge plan install-hook and status on whether each agent's gate is live: Codex's recorded trust, where Claude Code and Gemini CLI read settings, an old Claude Code.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { repoWith, tempDir } from '../helpers/repo';
import { oneUnitPlan } from '../helpers/plans';

const PLAN = oneUnitPlan({ id: 'live-demo', title: 'live demo', parentTools: ['read', 'edit'], unitTools: ['read', 'edit'] });

/**
 * The agents' homes in temp directories (the user's own are never touched), and a PATH whose first
 * directory holds `claude` and `codex` stand-ins that print the given releases, as their --version does.
 */
function agentEnv({ claude = '2.1.332', codex = '0.171.0' }: { claude?: string; codex?: string } = {}) {
  const bin = tempDir('forge-agents-bin-');
  for (const [name, line] of [
    ['claude', `${claude} (Claude Code)`],
    ['codex', `codex-cli ${codex}`],
  ]) {
    writeFileSync(join(bin, name!), `#!/bin/sh\necho '${line}'\n`);
    chmodSync(join(bin, name!), 0o755);
  }
  return {
    HOME: tempDir('forge-home-'),
    CODEX_HOME: tempDir('forge-codex-home-'),
    CLAUDE_CONFIG_DIR: tempDir('forge-claude-home-'),
    GEMINI_CLI_HOME: tempDir('forge-gemini-home-'),
    XDG_CONFIG_HOME: tempDir('forge-xdg-config-'),
    PATH: `${bin}:${process.env.PATH}`,
  };
}

const gateOf = (records: Array<Record<string, any>>, agent: string) => records.at(-1)!.gates.find((g: any) => g.agent === agent);

test('Codex: install-hook records the hook trust Codex checks, and is live in a trusted project; untrusted, it refuses with the step, and status says so', async () => {
  const dir = repoWith({ 'docs/plans/p.md': PLAN, 'src/a.ts': 'x\n' });
  const env = agentEnv();
  const userConfig = join(env.CODEX_HOME, 'config.toml');
  writeFileSync(userConfig, '# mine\nmodel = "gpt-5"\n');

  // The project is not trusted: the hook and its trust are written, but the install does not pass for a success.
  const refused = await forge(['plan', 'install-hook', 'codex', '--json'], { cwd: join(dir, 'src'), env });
  assert.equal([refused.code, refused.records[0]!.error.code], [1, 'GATE_NOT_LIVE'], refused.stdout);
  assert.match(refused.records[0]!.error.message, /Codex will not run it: Codex reads \S+\.codex\/config\.toml only in a trusted project/);
  assert.is(refused.records[0]!._next_action, 'forge plan install-hook codex --user');
  assert.not.match(refused.stdout, /fails closed/);
  const key = `${dir}/.codex/config.toml:pre_tool_use:0:0`;
  const recorded = parse(readFileSync(userConfig, 'utf8')) as any;
  assert.match(recorded.hooks.state[key].trusted_hash, /^sha256:[0-9a-f]{64}$/, 'the hook is trusted as /hooks would');
  assert.ok(readFileSync(userConfig, 'utf8').startsWith('# mine\nmodel = "gpt-5"\n'), "the user's config kept as it was");
  const untrusted = gateOf((await forge(['plan', 'status', '--json'], { cwd: dir, env })).records, 'codex');
  assert.equal([untrusted.live, untrusted.state, untrusted.scope, untrusted.version], [false, 'untrusted', 'project', '0.171.0']);

  // Trusting the project (what answering Codex's question writes) makes it live.
  writeFileSync(userConfig, `${readFileSync(userConfig, 'utf8')}\n[projects.${JSON.stringify(dir)}]\ntrust_level = "trusted"\n`);
  const live = await forge(['plan', 'install-hook', 'codex'], { cwd: dir, env });
  assert.is(live.code, 0, live.stderr);
  assert.match(live.stdout, /\nCodex trusts the hook \(\S+config\.toml\)\nfails closed: /);
  assert.equal(gateOf((await forge(['plan', 'status', '--json'], { cwd: dir, env })).records, 'codex').state, 'live');

  // One character of the command changed (a forge upgrade, an edit): Codex skips it until its trust is recorded again.
  const project = join(dir, '.codex/config.toml');
  writeFileSync(project, readFileSync(project, 'utf8').replace('|| exit 2', '||  exit 2'));
  const modified = gateOf((await forge(['plan', 'status', '--json'], { cwd: dir, env })).records, 'codex');
  assert.equal([modified.live, modified.state, modified.fix], [false, 'untrusted', 'forge plan install-hook codex']);
  assert.match(modified.reason, /changed since it was trusted: Codex skips it without a word/);

  // With no trust recorded at all, status says the gate will not run: never that it is gated.
  const bare = agentEnv();
  writeFileSync(join(bare.CODEX_HOME, 'config.toml'), `[projects.${JSON.stringify(dir)}]\ntrust_level = "trusted"\n`);
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/p.md'], { cwd: dir, env: bare })).code, 0);
  const status = await forge(['plan', 'status'], { cwd: dir, env: bare });
  assert.match(
    status.stdout,
    /\ncodex gate: not live \(untrusted\): codex runs ungated — the hook is not trusted: Codex skips it without a word/,
  );
});

test('Codex: --user installs into the user config.toml, which needs no project trust; a Codex too old for hooks is not live', async () => {
  const dir = repoWith({ 'src/a.ts': 'x\n' });
  const env = agentEnv();
  const r = await forge(['plan', 'install-hook', 'codex', '--user', '--json'], { cwd: dir, env });
  assert.is(r.code, 0, r.stdout);
  const file = join(env.CODEX_HOME, 'config.toml');
  assert.equal([r.records[0]!.file, r.records[0]!.gate.live, r.records[0]!.gate.scope], [file, true, 'user']);
  const config = parse(readFileSync(file, 'utf8')) as any;
  assert.is(config.hooks.PreToolUse[0].hooks[0].command, 'forge plan preflight --hook codex || exit 2');
  assert.is(config.hooks.state[`${file}:pre_tool_use:0:0`].trusted_hash, r.records[0]!.trust.hash);
  const old = await forge(['plan', 'install-hook', 'codex', '--user', '--json'], {
    cwd: dir,
    env: { ...env, PATH: agentEnv({ codex: '0.120.0' }).PATH },
  });
  assert.equal([old.code, old.records[0]!.error.code, old.records[0]!.error.data.state], [1, 'GATE_NOT_LIVE', 'too-old']);
  const both = await forge(['plan', 'install-hook', 'codex', '--user', '--settings', 'x.toml', '--json'], { cwd: dir, env });
  assert.equal([both.code, both.records[0]!.error.code], [2, 'CONFLICTING_ARGUMENTS']);
});

test('Claude Code and Gemini CLI read a project settings file only when started in its directory: install-hook and status say where; --user gates them wherever they start', async () => {
  const dir = repoWith({ 'docs/plans/p.md': PLAN, 'src/a.ts': 'x\n' });
  const env = agentEnv();
  writeFileSync(join(mkdirP(join(env.GEMINI_CLI_HOME, '.gemini')), 'trustedFolders.json'), JSON.stringify({ [dir]: 'TRUST_FOLDER' }));

  const claude = await forge(['plan', 'install-hook', 'claude'], { cwd: join(dir, 'src'), env });
  assert.is(claude.code, 0, claude.stderr);
  assert.match(
    claude.stdout,
    new RegExp(`\\nClaude Code reads ${dir}/\\.claude/settings\\.json only when it starts in ${dir}: started in a subdirectory`),
  );
  assert.match(claude.stdout, /\ngate claude wherever it starts: forge plan install-hook claude --user\n/);
  const gemini = await forge(['plan', 'install-hook', 'gemini'], { cwd: join(dir, 'src'), env });
  assert.match(
    gemini.stdout,
    new RegExp(`\\nGemini CLI reads ${dir}/\\.gemini/settings\\.json only when it starts in ${dir}: started in a subdirectory`),
  );
  // Asked from src/, where an agent started now would run ungated: not live, and where it would be.
  let gates = (await forge(['plan', 'status', '--json'], { cwd: join(dir, 'src'), env })).records[0]!.gates;
  assert.equal(
    gates.map((g: any) => [g.agent, g.live, g.state, g.scope, g.startAt]),
    [
      ['claude', false, 'not-loaded', 'project', dir],
      ['gemini', false, 'not-loaded', 'project', dir],
    ],
  );
  assert.match(gates[0].reason, /^started in .*\/src, claude does not read .*\.claude\/settings\.json; /);
  gates = (await forge(['plan', 'status', '--json'], { cwd: dir, env })).records[0]!.gates;
  assert.equal(
    gates.map((g: any) => [g.agent, g.live, g.startAt]),
    [
      ['claude', true, dir],
      ['gemini', true, dir],
    ],
    'asked from the top, where they load it: live',
  );

  for (const agent of ['claude', 'gemini']) {
    const r = await forge(['plan', 'install-hook', agent, '--user', '--json'], { cwd: join(dir, 'src'), env });
    assert.is(r.code, 0, r.stdout);
    assert.equal([r.records[0]!.gate.scope, r.records[0]!.gate.startAt, r.records[0]!.gate.live], ['user', null, true]);
  }
  const claudeUser = JSON.parse(readFileSync(join(env.CLAUDE_CONFIG_DIR, 'settings.json'), 'utf8'));
  assert.equal(claudeUser.hooks.PreToolUse[0], {
    matcher: '*',
    hooks: [{ type: 'command', command: 'forge plan preflight --hook claude', onFailure: 'block' }],
  });
  assert.is(
    JSON.parse(readFileSync(join(env.GEMINI_CLI_HOME, '.gemini/settings.json'), 'utf8')).hooks.BeforeTool[0].hooks[0].name,
    'forge-plan-gate',
  );
  gates = (await forge(['plan', 'status', '--json'], { cwd: join(dir, 'src'), env })).records[0]!.gates;
  assert.equal(
    gates.map((g: any) => [g.agent, g.live, g.scope, g.startAt, g.fix]),
    [
      ['claude', true, 'user', null, null],
      ['gemini', true, 'user', null, null],
    ],
    "the user's file is the gate that loads wherever the agent starts",
  );

  // Gemini CLI runs no hooks at all in a folder it does not trust: its gate is not live, even the user's.
  const untrusting = { ...env, GEMINI_CLI_TRUST_WORKSPACE: 'false' };
  assert.is(
    (await forge(['plan', 'activate', '--path', 'docs/plans/p.md'], { cwd: dir, env: untrusting })).stdout.includes(
      'gemini gate: not live (untrusted): gemini runs ungated — Gemini CLI runs no hooks',
    ),
    true,
  );
});

test('an old Claude Code (2.1.197, what npm installs on Node 20) ignores onFailure: warned at install, not live in status; a current one is live', async () => {
  const dir = repoWith({ 'docs/plans/p.md': PLAN, 'src/a.ts': 'x\n' });
  const old = agentEnv({ claude: '2.1.197' });
  const r = await forge(['plan', 'install-hook', 'claude', '--json'], { cwd: dir, env: old });
  assert.is(r.code, 0, r.stdout);
  assert.equal([r.records[0]!.gate.live, r.records[0]!.gate.state, r.records[0]!.gate.version], [false, 'fails-open', '2.1.197']);
  const text = await forge(['plan', 'install-hook', 'claude'], { cwd: dir, env: old });
  assert.match(
    text.stdout,
    /\nwarning: the claude gate is not live \(fails-open\): Claude Code 2\.1\.197 is older than 2\.1\.295 and ignores "onFailure": "block"/,
  );
  assert.match(text.stdout, /\nto make it live: npm install -g @anthropic-ai\/claude-code@latest\n/);
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/p.md'], { cwd: dir, env: old })).code, 0);
  const status = await forge(['plan', 'status'], { cwd: dir, env: old });
  assert.match(status.stdout, /\nclaude gate: not live \(fails-open\) — Claude Code 2\.1\.197 is older than 2\.1\.295/);
  const current = gateOf((await forge(['plan', 'status', '--json'], { cwd: dir, env: agentEnv({ claude: '2.1.332' }) })).records, 'claude');
  assert.equal([current.live, current.state, current.version], [true, 'live', '2.1.332']);
});

function mkdirP(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}

test.run();
