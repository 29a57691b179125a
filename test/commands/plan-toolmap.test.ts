// The tool map through the installed Claude Code hook: today's tool set, forge's own MCP tools, unknown tools as soft refusals, path-less searches.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { runHook } from '../helpers/claude';
import { forge } from '../helpers/forge';
import { planJournal, repoWith } from '../helpers/repo';

const PLAN = `---
envelope:
  plan_id: toolmap
  plan_contract_version: 1
  parent_rails:
    allowed_tools: [read, edit, search, ls, bash, mcp:linear]
    allowed_paths: ["src/**", "docs/**"]
    surface: local_branch
  parent_blast_radius:
    path_globs: ["src/**"]
---

### U1 — the change

\`\`\`envelope
allowed_tools: [read, edit, search, ls, mcp:linear]
allowed_paths: ["src/**"]
\`\`\`
`;

async function installed(): Promise<{ dir: string; command: string }> {
  const dir = repoWith({ 'docs/plans/toolmap.md': PLAN, 'src/a.ts': 'export const a = 1;\n', 'docs/secret.md': 'secret\n' });
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/toolmap.md'], { cwd: dir })).code, 0);
  mkdirSync(join(dir, '.claude'));
  assert.is((await forge(['plan', 'install-hook', 'claude'], { cwd: dir })).code, 0);
  const settings = JSON.parse(readFileSync(join(dir, '.claude/settings.json'), 'utf8'));
  return { dir, command: settings.hooks.PreToolUse.at(-1).hooks[0].command };
}

/** A PreToolUse payload in Claude Code's documented shape; the answer's deny reason, or '' when allowed. */
function call(dir: string, command: string, tool_name: string, tool_input: Record<string, unknown>, cwd = dir): string {
  const r = runHook({
    dir,
    command,
    payload: {
      session_id: 's1',
      transcript_path: '/dev/null',
      cwd,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name,
      tool_input,
      tool_use_id: 'toolu_01',
    },
  });
  assert.is(r.status, 0, r.stderr);
  return r.stdout ? JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason : '';
}

test("Claude Code's task, plan-mode, question and tool-search tools and forge's own lifecycle tools are never gated", async () => {
  const { dir, command } = await installed();
  const calls: Array<[string, Record<string, unknown>]> = [
    ['TaskCreate', { subject: 'step 1', description: 'do it' }],
    ['TaskUpdate', { taskId: '1', status: 'completed' }],
    ['TaskList', {}],
    ['TaskGet', { taskId: '1' }],
    ['TodoWrite', { todos: [] }],
    ['EnterPlanMode', {}],
    ['ExitPlanMode', { plan: 'x' }],
    ['AskUserQuestion', { questions: [] }],
    ['ToolSearch', { query: 'github' }],
    ['mcp__forge__plan_status', {}],
    ['mcp__forge__plan_ack', {}],
  ];
  for (const [tool, input] of calls) assert.is(call(dir, command, tool, input), '', tool);
});

test("forge's MCP tools keep their own words; a known tool outside the rails is hard; an unknown one is soft, acked once, and allowed by name", async () => {
  const { dir, command } = await installed();
  assert.is(call(dir, command, 'mcp__forge__edit', { path: 'src/a.ts', old: '1', new: '2' }), '', 'mcp__forge__edit is edit');
  assert.match(
    call(dir, command, 'mcp__forge__edit', { path: 'docs/secret.md', old: 's', new: 't' }),
    /^plan breach: blast radius — changing 'docs\/secret\.md'/,
  );
  assert.is(call(dir, command, 'mcp__linear__create_issue', { title: 'x' }), '', 'allowed by mcp:linear');
  assert.match(
    call(dir, command, 'WebFetch', { url: 'https://example.com', prompt: 'x' }),
    /^plan breach: tools — 'WebFetch' is outside the plan's rails \(.*\)\. A hard refusal/,
  );
  const soft = call(dir, command, 'mcp__github__create_pull_request', { title: 'x' });
  assert.match(
    soft,
    /^plan breach: tools — 'mcp__github__create_pull_request' is not allowed in U1 \(allowed: read, edit, search, ls, mcp:linear\) — a tool forge's tool map does not know; the plan allows it with allowed_tools: \[mcp:github, or mcp__github__create_pull_request\]\. Run `forge plan ack`/,
  );
  assert.is((await forge(['plan', 'ack'], { cwd: dir })).code, 0);
  assert.is(call(dir, command, 'mcp__github__create_pull_request', { title: 'x' }), '', 'the acknowledged retry runs');
  const journal = planJournal(dir);
  assert.equal(
    journal.filter((e) => e.verb === 'plan_breach_refused').map((e) => [e.tool, e.breach, e.posture]),
    [
      ['mcp__forge__edit', 'blast_radius', 'hard'],
      ['WebFetch', 'rails', 'hard'],
      ['mcp__github__create_pull_request', 'tools', 'soft'],
    ],
  );
});

test("forge's MCP patch and replace are gated on the files they change: a patch's from its diff, a replace's directories; a change the gate cannot see is refused", async () => {
  const plan = PLAN.replace(
    'allowed_tools: [read, edit, search, ls, bash, mcp:linear]',
    'allowed_tools: [read, edit, patch, replace, search, ls, bash, mcp:linear]',
  ).replace('allowed_tools: [read, edit, search, ls, mcp:linear]', 'allowed_tools: [read, edit, patch, replace, search, ls, mcp:linear]');
  const dir = repoWith({ 'docs/plans/toolmap.md': plan, 'src/a.ts': 'export const a = 1;\n', 'docs/secret.md': 'secret\n' });
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/toolmap.md'], { cwd: dir })).code, 0);
  mkdirSync(join(dir, '.claude'));
  assert.is((await forge(['plan', 'install-hook', 'claude'], { cwd: dir })).code, 0);
  const command = JSON.parse(readFileSync(join(dir, '.claude/settings.json'), 'utf8')).hooks.PreToolUse.at(-1).hooks[0].command;
  const diff = (file: string) => `--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n-x\n+y\n`;
  assert.is(call(dir, command, 'mcp__forge__patch', { diff: diff('src/a.ts') }), '', 'a patch of src/a.ts');
  assert.match(
    call(dir, command, 'mcp__forge__patch', { diff: diff('src/a.ts') + diff('docs/secret.md') }),
    /^plan breach: blast radius — changing 'docs\/secret\.md'/,
  );
  assert.match(
    call(dir, command, 'mcp__forge__patch', { file: 'changes.diff' }),
    /a call the gate cannot check is refused \(the mcp__forge__patch call changes files but names none the gate can see\)/,
  );
  assert.is(call(dir, command, 'mcp__forge__replace', { old: 'a', new: 'b', paths: ['src'] }), '', 'a replace under src/');
  assert.match(
    call(dir, command, 'mcp__forge__replace', { old: 'a', new: 'b' }),
    /^plan breach: paths — '\.\/' is outside the plan's rails/,
    'a replace with no path changes the whole working directory',
  );
  assert.match(call(dir, command, 'Edit', { old_string: 'a', new_string: 'b' }), /names none the gate can see/, 'an edit naming no file');
});

test("forge's MCP tools that run code are judged by the code they run: validate's verify commands, a loop's check and agent, state sync's push — under every agent's name for them", async () => {
  const plan = PLAN.replaceAll(
    'allowed_tools: [read, edit, search, ls, mcp:linear]',
    'allowed_tools: [read, edit, search, ls, validate, loop_run, loop_start, state_sync, mcp:linear]',
  ).replace(
    'allowed_tools: [read, edit, search, ls, bash, mcp:linear]',
    'allowed_tools: [read, edit, search, ls, bash, validate, loop_run, loop_start, state_sync, mcp:linear]',
  );
  const dir = repoWith({ 'docs/plans/toolmap.md': plan, 'src/a.ts': 'export const a = 1;\n' });
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/toolmap.md'], { cwd: dir })).code, 0);
  mkdirSync(join(dir, '.claude'));
  assert.is((await forge(['plan', 'install-hook', 'claude'], { cwd: dir })).code, 0);
  const command = JSON.parse(readFileSync(join(dir, '.claude/settings.json'), 'utf8')).hooks.PreToolUse.at(-1).hooks[0].command;
  assert.is(call(dir, command, 'mcp__forge__validate', { module: 'm', cmd: ['npm test'] }), '', 'a verify command that reaches nothing');
  const push = /^plan breach: surface — this call reaches remote_branch_pr/;
  assert.match(call(dir, command, 'mcp__forge__validate', { module: 'm', cmd: ['npm test', 'git push origin HEAD'] }), push);
  assert.match(
    call(dir, command, 'mcp__forge__validate', { module: 'm', cmd: ['echo x > docs/y.md'] }),
    /^plan breach: blast radius — changing 'docs\/y\.md'/,
  );
  assert.match(call(dir, command, 'mcp__forge__validate', { module: 'm', cmd: ['forge plan end'] }), /plan breach: operator only/);
  assert.match(call(dir, command, 'mcp__forge__validate', { module: 'm', cmd: ['$(cat cmd.txt)'] }), /plan breach: shell/);
  assert.match(call(dir, command, 'mcp__forge__loop_run', { prompt: 'go', agent: ['sh', '-c', 'git push'] }), push);
  assert.match(call(dir, command, 'mcp__forge__loop_start', { prompt: 'go', 'done-when': 'git push' }), push);
  assert.match(call(dir, command, 'mcp__forge__state_sync', {}), push);
  assert.is(call(dir, command, 'mcp__forge__state_sync', { 'dry-run': true }), '', 'a dry run reaches nothing');
  assert.match(call(dir, command, 'mcp__forge__agent', { task: 'x' }), /plan breach: shell — .*forge agent/);
  const refused = planJournal(dir).filter((e) => e.verb === 'plan_breach_refused');
  assert.is(refused.length, 8, 'each refusal journaled');
});

test('Grep and Glob without a path are checked against the directory they search, as a Read of the same files is', async () => {
  const { dir, command } = await installed();
  assert.match(
    call(dir, command, 'Read', { file_path: join(dir, 'docs/secret.md') }),
    /^plan breach: paths — 'docs\/secret\.md' is outside U1's allowed_paths/,
  );
  assert.match(
    call(dir, command, 'Grep', { pattern: 'secret', output_mode: 'content' }),
    /^plan breach: paths — '\.\/' is outside the plan's rails \(src\/\*\*, docs\/\*\*\)\. A hard refusal/,
    'the whole repository is wider than the rails',
  );
  assert.match(call(dir, command, 'Glob', { pattern: '**/*.md' }), /^plan breach: paths — '\.\/' is outside the plan's rails/);
  assert.match(
    call(dir, command, 'Grep', { pattern: 'secret', path: join(dir, 'docs') }),
    /^plan breach: paths — 'docs\/' is outside U1's allowed_paths \(src\/\*\*\)\. Run `forge plan ack`/,
  );
  assert.match(
    call(dir, command, 'Grep', { pattern: 'secret' }, join(dir, 'docs')),
    /^plan breach: paths — 'docs\/' is outside/,
    'the payload cwd is where it searches',
  );
  assert.is(call(dir, command, 'Grep', { pattern: 'a' }, join(dir, 'src')), '', 'from src it searches src');
  assert.is(call(dir, command, 'Grep', { pattern: 'a', path: join(dir, 'src') }), '');
  assert.is(call(dir, command, 'Glob', { pattern: 'src/**/*.ts' }), '', "the pattern's literal directory is what Glob lists");
  assert.is(call(dir, command, 'Grep', { pattern: 'a', path: join(dir, 'src/a.ts') }), '', 'a file is checked as a file');
});

test('plan check refuses an allowed_tools entry that allows nothing; words, mcp:<server> and tool names pass', async () => {
  const bad = PLAN.replace('allowed_tools: [read, edit, search, ls, mcp:linear]', 'allowed_tools: [read, "mcp:", "Read file"]');
  const dir = repoWith({ 'docs/plans/toolmap.md': bad });
  const r = await forge(['plan', 'check', '--json'], { cwd: dir });
  assert.is(r.code, 1);
  assert.equal(
    r.records.filter((x) => x.code === 'INVALID_TOOL').map((x) => [x.line, x.message]),
    [
      [
        16,
        "U1: allowed_tools entry 'mcp:' is not a plan word (read, edit, search, web, agent…), mcp:<server>, or a tool's name (WebFetch, mcp__github__create_pr)",
      ],
      [
        16,
        "U1: allowed_tools entry 'Read file' is not a plan word (read, edit, search, web, agent…), mcp:<server>, or a tool's name (WebFetch, mcp__github__create_pr)",
      ],
    ],
  );
  const good = await forge(['plan', 'check', '--json'], {
    cwd: repoWith({
      'docs/plans/toolmap.md': PLAN.replace(
        'mcp:linear]\n    allowed_paths: ["src/**", "docs/**"]',
        'mcp:linear, WebFetch, mcp__github__create_pull_request]\n    allowed_paths: ["src/**", "docs/**"]',
      ),
    }),
  });
  assert.is(good.code, 0, good.stdout);
});

test.run();
