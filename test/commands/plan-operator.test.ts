// The plan's lifecycle is the operator's: no agent's door — its shell, forge's MCP tools, an ack, a script, a synced state — ends, pauses, resumes or replaces the plan that gates it.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as assert from 'uvu/assert';
import { runHook } from '../helpers/claude';
import { FORGE, forge, forgeEnv } from '../helpers/forge';
import { test } from '../helpers/harness';
import { oneUnitPlan } from '../helpers/plans';
import { git, repoWith, tempDir, tempRepo } from '../helpers/repo';

const PLAN = oneUnitPlan({
  id: 'operator-demo',
  title: 'operator demo',
  parentTools: ['read', 'edit', 'write', 'bash', 'search', 'ls'],
  unitTools: ['read', 'edit', 'bash'],
});

/** Each agent's hook as installed, and its pre-tool payload for a shell command or a tool by name. */
const AGENTS = {
  claude: {
    command: 'forge plan preflight --hook claude',
    shell: 'Bash',
    payload: (dir: string, tool: string, input: Record<string, unknown>) => ({
      session_id: 's-claude',
      cwd: dir,
      hook_event_name: 'PreToolUse',
      tool_name: tool,
      tool_input: input,
    }),
    mcp: (tool: string) => `mcp__forge__${tool}`,
  },
  codex: {
    command: 'forge plan preflight --hook codex || exit 2',
    shell: 'Bash',
    payload: (dir: string, tool: string, input: Record<string, unknown>) => ({
      session_id: 's-codex',
      turn_id: 't1',
      cwd: dir,
      hook_event_name: 'PreToolUse',
      model: 'gpt-5',
      tool_name: tool,
      tool_input: input,
    }),
    mcp: (tool: string) => `mcp__forge__${tool}`,
  },
  gemini: {
    command: 'forge plan preflight --hook gemini || exit 2',
    shell: 'run_shell_command',
    payload: (dir: string, tool: string, input: Record<string, unknown>) => ({
      session_id: 's-gemini',
      cwd: dir,
      hook_event_name: 'BeforeTool',
      tool_name: tool,
      tool_input: input,
      ...(tool.startsWith('mcp_') ? { mcp_context: { server_name: 'forge', tool_name: tool.slice('mcp_forge_'.length) } } : {}),
    }),
    mcp: (tool: string) => `mcp_forge_${tool}`,
  },
  opencode: {
    command: 'forge plan preflight --hook opencode',
    shell: 'bash',
    payload: (dir: string, tool: string, input: Record<string, unknown>) => ({
      tool,
      sessionID: 's-opencode',
      callID: 'c1',
      args: input,
      directory: dir,
    }),
    mcp: (tool: string) => `forge_${tool}`,
  },
} as const;

type Agent = keyof typeof AGENTS;

/** The agent's answer: null when the call may run, else the reason the model is shown. */
function decide(dir: string, agent: Agent, tool: string, input: Record<string, unknown>): string | null {
  const a = AGENTS[agent];
  const r = runHook({ dir, command: a.command, payload: a.payload(dir, tool, input) });
  assert.is(r.status, 0, r.stderr);
  if (!r.stdout.trim()) return null;
  const answer = JSON.parse(r.stdout);
  return answer.hookSpecificOutput?.permissionDecisionReason ?? answer.reason ?? null;
}

async function activePlan(): Promise<string> {
  const dir = repoWith({ 'docs/plans/p.md': PLAN, 'src/a.ts': 'export const a = 1;\n', 'docs/notes.md': 'notes\n' });
  const r = await forge(['plan', 'activate', '--path', 'docs/plans/p.md'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  return dir;
}

async function stillActive(dir: string): Promise<void> {
  const status = (await forge(['plan', 'status', '--json'], { cwd: dir })).records[0]!;
  assert.is(status.plan_id, 'operator-demo');
  assert.is(status.status, 'active');
}

const LIFECYCLE_COMMANDS = [
  'forge plan end',
  "forge plan end --reason 'done'",
  'npx forge plan pause --reason x',
  "sh -c 'forge plan resume'",
  'echo ok && forge -C . plan end',
  'forge plan activate --path docs/plans/p.md --replace',
  'git update-ref -d refs/forge/state',
];

test('through every agent’s shell, a command that would end, pause, resume or replace the plan is refused hard, and an ack does not reach it', async () => {
  const dir = await activePlan();
  for (const agent of Object.keys(AGENTS) as Agent[]) {
    for (const command of LIFECYCLE_COMMANDS) {
      const reason = decide(dir, agent, AGENTS[agent].shell, { command });
      assert.match(
        reason ?? '',
        /^plan breach: operator only — .*the operator's, from a terminal outside the agent/,
        `${agent}: ${command}`,
      );
      assert.match(reason!, /A hard refusal: no acknowledgement applies/);
    }
    // What the unit allows still runs: the gate refuses the lifecycle, not the shell.
    assert.is(decide(dir, agent, AGENTS[agent].shell, { command: 'npm test' }), null, `${agent}: npm test`);
    assert.is(decide(dir, agent, AGENTS[agent].shell, { command: 'forge plan status' }), null, `${agent}: plan status`);
  }
  // A refusal that was hard leaves nothing to acknowledge: the retry is refused again.
  const ack = await forge(['plan', 'ack'], { cwd: dir });
  assert.is(ack.code, 1, 'nothing to acknowledge');
  assert.match(decide(dir, 'opencode', 'bash', { command: 'forge plan end' }) ?? '', /operator only/);
  await stillActive(dir);
  const journal = (await forge(['plan', 'journal', '--json'], { cwd: dir })).records;
  assert.ok(
    journal.some((e) => e.breach === 'operator_only' && e.posture === 'hard'),
    'journaled as a hard breach',
  );
});

test('forge’s MCP tools that end, pause, resume or replace the plan are refused hard in every agent, under every name; its other tools keep their words', async () => {
  const dir = await activePlan();
  for (const agent of Object.keys(AGENTS) as Agent[]) {
    const name = AGENTS[agent].mcp;
    for (const tool of ['plan_end', 'plan_pause', 'plan_resume', 'plan_activate'])
      assert.match(
        decide(dir, agent, name(tool), { reason: 'x', path: 'docs/plans/p.md' }) ?? '',
        /^plan breach: operator only/,
        `${agent}: ${name(tool)}`,
      );
    // OpenCode's forge_read is forge's read: U1 allows it on src/a.ts, and refuses it softly elsewhere.
    assert.is(decide(dir, agent, name('read'), { path: 'src/a.ts' }), null, `${agent}: ${name('read')} src/a.ts`);
    assert.match(
      decide(dir, agent, name('read'), { path: 'docs/notes.md' }) ?? '',
      /^plan breach: paths — 'docs\/notes.md'/,
      `${agent}: read docs`,
    );
    assert.is(decide(dir, agent, name('plan_ack'), {}), null, `${agent}: ${name('plan_ack')} is never gated`);
  }
  await stillActive(dir);
});

test('a shell command is judged where it runs: Gemini CLI’s dir_path, Codex’s and OpenCode’s workdir; a PowerShell command is not read as bash', async () => {
  const dir = await activePlan();
  const cases: [Agent, Record<string, unknown>][] = [
    ['gemini', { command: 'cat passwd', dir_path: '/etc' }],
    ['codex', { command: 'cat passwd', workdir: '/etc' }],
    ['opencode', { command: 'cat passwd', workdir: '/etc', description: 'read' }],
    ['gemini', { command: 'cat notes.md', dir_path: 'docs' }],
  ];
  for (const [agent, input] of cases)
    assert.match(
      decide(dir, agent, AGENTS[agent].shell, input) ?? '',
      /^plan breach: paths — '(\.\.\/)+etc\/passwd'|'docs\/notes\.md'/,
      `${agent}: ${JSON.stringify(input)}`,
    );
  assert.is(decide(dir, 'gemini', 'run_shell_command', { command: 'cat a.ts', dir_path: 'src' }), null, 'src/a.ts, read from src');
  assert.match(
    decide(dir, 'claude', 'PowerShell', { command: 'Remove-Item docs/notes.md' }) ?? '',
    /^plan breach: shell — forge cannot judge a PowerShell command/,
  );
  assert.match(decide(dir, 'claude', 'PowerShell', { command: 'forge plan end' }) ?? '', /^plan breach: operator only/);
});

test('a shell call sent as argv is read as the shell would run it, and one whose command cannot be read is refused while a plan gates', async () => {
  const dir = await activePlan();
  assert.match(decide(dir, 'codex', 'Bash', { command: ['bash', '-lc', 'git push origin HEAD'] }) ?? '', /^plan breach: surface — /);
  assert.match(decide(dir, 'codex', 'Bash', { command: ['bash', '-lc', 'forge plan end'] }) ?? '', /^plan breach: operator only/);
  assert.match(
    decide(dir, 'opencode', 'bash', { command: ['sh', '-c', 'echo x > docs/y.md'] }) ?? '',
    /^plan breach: (blast radius|paths)/,
  );
  assert.is(decide(dir, 'codex', 'Bash', { command: ['cat', 'src/a.ts'] }), null, 'a read within the unit');
  for (const [agent, command] of [
    ['claude', undefined],
    ['claude', 42],
    ['codex', ['git', 7]],
    ['gemini', { cmd: 'git push' }],
    ['opencode', null],
  ] as [Agent, unknown][])
    assert.match(
      decide(dir, agent, AGENTS[agent].shell, { command }) ?? '',
      /carries no command line the gate can read/,
      `${agent}: ${JSON.stringify(command)}`,
    );
});

test('forge mcp serves none of the operator’s commands, whatever toolsets are asked for', async () => {
  const dir = tempRepo();
  const env = Object.fromEntries(Object.entries(forgeEnv()).filter((e): e is [string, string] => e[1] !== undefined));
  const client = new Client({ name: 'forge-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [FORGE, 'mcp', '--toolsets', 'all'], cwd: dir, env, stderr: 'pipe' }),
  );
  try {
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('plan_ack') && names.includes('plan_status'), 'the agent’s steps are served');
    for (const tool of ['plan_end', 'plan_pause', 'plan_resume', 'plan_activate']) assert.not.ok(names.includes(tool), tool);
    const called = await client.callTool({ name: 'plan_end', arguments: { reason: 'x' } }).catch((err: Error) => ({ isError: true, err }));
    assert.ok((called as { isError?: boolean }).isError, 'a call of it is an error');
  } finally {
    await client.close();
  }
});

/** A program named as an agent that runs its arguments: what an agent's shell looks like from the process tree. */
function fakeAgent(name: string): string {
  const bin = join(tempDir(), 'agent-bin');
  mkdirSync(bin, { recursive: true });
  const path = join(bin, name);
  // No exec: the agent's process stays as the command's ancestor, as a real agent's does.
  writeFileSync(path, '#!/bin/sh\n"$@"\nexit $?\n');
  chmodSync(path, 0o755);
  return path;
}

test('run inside an agent — a script past the gate, a renamed binary, a cleared environment — the operator’s commands refuse and change nothing', async () => {
  const dir = await activePlan();
  const cases: [string, string[], Record<string, string>][] = [
    ['claude', ['forge', 'plan', 'end', '--reason', 'x'], {}],
    ['codex', ['forge', 'plan', 'pause', '--reason', 'x'], {}],
    ['gemini', ['env', '-u', 'GEMINI_CLI', 'forge', 'plan', 'end'], {}],
    ['opencode', [process.execPath, FORGE, 'plan', 'activate', '--path', 'docs/plans/p.md', '--replace'], {}],
  ];
  for (const [agent, argv, env] of cases) {
    const r = runHook({ dir, command: `${fakeAgent(agent)} ${argv.map((w) => `'${w}'`).join(' ')}`, payload: '', env });
    assert.is(r.status, 1, `${agent}: ${r.stderr}`);
    assert.match(r.stderr, /is the operator's, and this runs inside/);
    assert.match(r.stderr, /PLAN_OPERATOR_ONLY|Fix: forge plan/);
  }
  for (const mark of ['CLAUDECODE', 'GEMINI_CLI', 'OPENCODE']) {
    const r = await forge(['plan', 'resume'], { cwd: dir, env: { [mark]: '1' } });
    assert.is(r.code, 1, mark);
    assert.match(r.stderr, /the operator's/);
  }
  await stillActive(dir);
  // The operator, in a terminal of their own: ended.
  const end = await forge(['plan', 'end', '--reason', 'done'], { cwd: dir });
  assert.is(end.code, 0, end.stderr);
  // With no plan active, activating one is anyone's (it only narrows what an agent may do).
  const again = runHook({ dir, command: `${fakeAgent('claude')} forge plan activate --path docs/plans/p.md`, payload: '' });
  assert.is(again.status, 0, again.stderr);
});

test('a synced state never ends the local plan: the remote’s end is not taken, the local plan keeps gating, and the sync says so', async () => {
  const remote = tempRepo({ bare: true });
  const a = await activePlan();
  git(a, 'remote', 'add', 'origin', remote);
  git(a, 'push', '-q', 'origin', 'main');
  assert.is((await forge(['state', 'sync', 'origin'], { cwd: a })).code, 0);
  const b = join(tempDir(), 'b');
  git(tempDir(), 'clone', '-q', remote, b);
  assert.is((await forge(['state', 'sync', 'origin'], { cwd: b })).code, 0);
  // In b (its own operator, or an agent that reached a clone), the plan ends and the end is shared.
  assert.is((await forge(['plan', 'end', '--reason', 'elsewhere'], { cwd: b })).code, 0);
  assert.is((await forge(['state', 'sync', 'origin'], { cwd: b })).code, 0);
  const sync = await forge(['state', 'sync', 'origin'], { cwd: a });
  assert.is(sync.code, 0, sync.stderr);
  assert.match(sync.stdout, /kept the local active plan \(\.forge\/plans\/active\.json, \.forge\/plans\/operator-demo\.json\)/);
  await stillActive(a);
  assert.match(decide(a, 'claude', 'Write', { file_path: join(a, 'docs/y.md'), content: 'x' }) ?? '', /plan breach/, 'still gated');
  // The journal of b's end still arrives: what happened elsewhere is on record.
  const journal = (await forge(['plan', 'journal', '--json'], { cwd: a })).records;
  assert.ok(
    journal.some((e) => e.verb === 'plan_ended'),
    'b’s end is in the journal',
  );
  // A sync where the remote holds the same plan changes nothing and keeps nothing.
  const quiet = await forge(['state', 'sync', 'origin'], { cwd: a });
  assert.not.match(quiet.stdout, /kept the local/);
});

test.run();
