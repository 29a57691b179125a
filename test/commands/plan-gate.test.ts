// forge plan preflight / ack / advance / journal: every breach posture, the unit lifecycle, and the Claude Code gate.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { openRepo } from '../../lib/git/repo';
import { StateStore } from '../../lib/git/state';
import { hookEnv, runHook } from '../helpers/claude';
import { plantState, stateFile } from '../helpers/state';
import { forge } from '../helpers/forge';
import { changedPaths, git, planJournal, repoWith, stateCommits, tempDir, tempRepo, treeHashes } from '../helpers/repo';

const PLAN_ID = 'gate-demo';

/** Rails wider than the blast radius (docs/ may be read, not changed); U1 narrower than U2. */
const PLAN = `---
envelope:
  plan_id: ${PLAN_ID}
  plan_contract_version: 1
  parent_rails:
    allowed_tools: [read, edit, write, bash, search]
    allowed_paths: ["src/**", "test/**", "docs/**"]
    surface: local_branch
  parent_blast_radius:
    path_globs: ["src/**", "test/**"]
    budget_caps:
      files_changed: 3
      runs: 2
      tokens: 1000
  requirements: [R1, R2]
---

# gate demo

### U1 — change src

\`\`\`envelope
allowed_tools: [read, edit]
allowed_paths: ["src/**"]
surface: artifacts_only
context_tokens_expected: 100
verification:
  kind: command
  command: "test -f src/done"
requirements: [R1]
advance_evidence_required:
  verification_pass: true
\`\`\`

### U2 — test it

\`\`\`envelope
allowed_tools: [read, edit, write, bash]
allowed_paths: ["src/**", "test/**"]
surface: local_branch
requirements: [R2]
\`\`\`
`;

async function activeRepo(): Promise<string> {
  const dir = repoWith({ 'docs/plans/gate.md': PLAN, 'src/a.ts': 'export const a = 1;\n' });
  const r = await forge(['plan', 'activate', '--path', 'docs/plans/gate.md'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  return dir;
}

async function preflight(dir: string, args: string[], env: Record<string, string> = {}) {
  const r = await forge(['plan', 'preflight', ...args, '--json'], { cwd: dir, env });
  return { code: r.code, record: r.records[0]!, stderr: r.stderr };
}

test('every breach posture: soft tools/paths, hard rails, surface, blast radius, a later unit; refusals are journaled', async () => {
  const dir = await activeRepo();
  const cases: Array<[string[], string, string]> = [
    [['--tool', 'search', '--path', 'src'], 'PLAN_BREACH_TOOLS', 'forge plan ack'],
    [['--tool', 'read', '--path', 'docs/guide.md'], 'PLAN_BREACH_PATHS', 'forge plan ack'],
    [['--tool', 'edit', '--path', 'docs/guide.md'], 'PLAN_BREACH_BLAST_RADIUS', 'forge plan status'],
    [['--tool', 'ls'], 'PLAN_BREACH_RAILS', 'forge plan status'],
    [['--tool', 'read', '--path', 'README.md'], 'PLAN_BREACH_RAILS', 'forge plan status'],
    [['--tool', 'read', '--path', '../outside.txt'], 'PLAN_BREACH_RAILS', 'forge plan status'],
    [['--tool', 'bash', '--command', 'git commit -qm wip'], 'PLAN_BREACH_SURFACE', 'forge plan status'],
    [['--tool', 'read', '--surface', 'remote_branch_pr'], 'PLAN_BREACH_SURFACE', 'forge plan status'],
    [['--tool', 'write', '--path', 'src/new.ts'], 'PLAN_BREACH_UNIT', 'forge plan advance'],
  ];
  for (const [args, code, fix] of cases) {
    const r = await preflight(dir, args);
    assert.equal([r.code, r.record.error?.code, r.record._next_action], [1, code, fix], args.join(' '));
    assert.is(r.record.error.data.allowed, false);
  }
  const text = await forge(['plan', 'preflight', '--tool', 'search', '--path', 'src'], { cwd: dir });
  assert.is(text.stderr, "Error: plan breach: tools — 'search' is not allowed in U1 (allowed: read, edit)\nFix: forge plan ack\n");
  const refused = planJournal(dir).filter((e) => e.verb === 'plan_breach_refused');
  assert.is(refused.length, cases.length + 1);
  assert.equal(
    refused.slice(0, 3).map((e) => [e.kind, e.unit, e.tool, e.path, e.breach, e.posture]),
    [
      ['Observation', 'U1', 'search', 'src/', 'tools', 'soft'],
      ['Observation', 'U1', 'read', 'docs/guide.md', 'paths', 'soft'],
      ['Observation', 'U1', 'edit', 'docs/guide.md', 'blast_radius', 'hard'],
    ],
  );
  // Allowed calls that use no budget leave the state ref alone.
  const before = stateCommits(dir);
  assert.is((await preflight(dir, ['--tool', 'read', '--path', 'src/a.ts'])).record.allowed, true);
  assert.is(
    (await preflight(dir, ['--tool', 'Read', '--path', join(dir, 'src/a.ts')])).record.allowed,
    true,
    'Claude names and absolute paths',
  );
  assert.is(stateCommits(dir), before);
  const none = await forge(['plan', 'preflight', '--json'], { cwd: dir });
  assert.equal([none.code, none.records[0]!.error.code], [2, 'MISSING_TOOL']);
});

test('ack lets exactly one retry through; a hard refusal cannot be acknowledged', async () => {
  const dir = await activeRepo();
  const noBreach = await forge(['plan', 'ack', '--json'], { cwd: dir });
  assert.equal([noBreach.code, noBreach.records[0]!.error.code], [1, 'NO_SOFT_BREACH']);
  assert.is((await preflight(dir, ['--tool', 'read', '--path', 'docs/guide.md'])).code, 1);
  const ack = await forge(['plan', 'ack'], { cwd: dir });
  assert.is(
    ack.stdout,
    "acknowledged in gate-demo U1: plan breach: paths — 'docs/guide.md' is outside U1's allowed_paths (src/**)\nthe same call (read on docs/guide.md) may run once under the parent rails\nNext: retry the same call (read on docs/guide.md) once; its gate lets it through\n",
  );
  assert.is((await forge(['plan', 'ack', '--json'], { cwd: dir })).records[0]!.error.code, 'NO_SOFT_BREACH', 'once per refusal');
  const other = await preflight(dir, ['--tool', 'read', '--path', 'docs/other.md']);
  assert.is(other.record.error?.code, 'PLAN_BREACH_PATHS', 'the acknowledgement covers only the refused call');
  const wider = await preflight(dir, ['--tool', 'read', '--path', 'docs/guide.md', '--path', 'docs/other.md']);
  assert.is(wider.record.error?.code, 'PLAN_BREACH_PATHS', 'nor the refused call with a path more');
  const retry = await preflight(dir, ['--tool', 'read', '--path', 'docs/guide.md']);
  assert.equal([retry.code, retry.record.allowed, retry.record.acked], [0, true, true]);
  assert.is((await preflight(dir, ['--tool', 'read', '--path', 'docs/guide.md'])).code, 1, 'used up');
  assert.is((await preflight(dir, ['--tool', 'edit', '--path', 'docs/guide.md'])).record.error.code, 'PLAN_BREACH_BLAST_RADIUS');
  assert.is((await forge(['plan', 'ack', '--json'], { cwd: dir })).records[0]!.error.code, 'NO_SOFT_BREACH', 'the latest refusal was hard');
  assert.equal(
    planJournal(dir)
      .filter((e) => e.verb === 'plan_breach_acknowledged')
      .map((e) => [e.kind, e.unit, e.tool, e.path]),
    [['Action', 'U1', 'read', 'docs/guide.md']],
  );
});

test('budgets: context_tokens_expected is advisory (journaled once), caps on tokens, files and runs are hard', async () => {
  const dir = await activeRepo();
  const first = await preflight(dir, ['--tool', 'edit', '--path', 'src/a.ts', '--tokens', '80']);
  assert.equal([first.record.allowed, first.record.budgetBreaches], [true, []]);
  const over = await preflight(dir, ['--tool', 'edit', '--path', 'src/b.ts', '--tokens', '40']);
  assert.equal(
    [over.code, over.record.allowed, over.record.budgetBreaches],
    [0, true, ['context_tokens_expected: U1 has used 120 tokens, 100 expected']],
  );
  await preflight(dir, ['--tool', 'edit', '--path', 'src/a.ts', '--tokens', '10']);
  assert.equal(
    planJournal(dir)
      .filter((e) => e.verb === 'plan_budget_breach')
      .map((e) => [e.kind, e.unit, e.path]),
    [['Observation', 'U1', 'src/b.ts']],
  );
  // files_changed: 3 — a third file is fine, a fourth is not; reads do not count.
  assert.is((await preflight(dir, ['--tool', 'edit', '--path', 'src/c.ts'])).code, 0);
  assert.is((await preflight(dir, ['--tool', 'read', '--path', 'src/d.ts'])).code, 0);
  const files = await preflight(dir, ['--tool', 'edit', '--path', 'src/d.ts']);
  assert.equal(
    [files.code, files.record.error.code, files.record.error.message],
    [1, 'BUDGET_CAP_REACHED', 'plan budget cap reached: files_changed 3 of 3; src/d.ts would be one more'],
  );
  assert.is((await preflight(dir, ['--tool', 'edit', '--path', 'src/a.ts'])).code, 0, 'a file already changed is not one more');
  // runs: 2
  assert.is((await preflight(dir, ['--tool', 'read'], { FORGE_RUN_ID: 'r1' })).code, 0);
  assert.is((await preflight(dir, ['--tool', 'read', '--run-id', 'r2'])).code, 0);
  assert.is((await preflight(dir, ['--tool', 'read', '--run-id', 'r3'])).record.error.code, 'BUDGET_CAP_REACHED');
  assert.is((await preflight(dir, ['--tool', 'read', '--run-id', 'r1'])).code, 0, 'a run already counted goes on');
  // tokens: 1000 — 130 used.
  assert.is(
    (await preflight(dir, ['--tool', 'read', '--tokens', '871'])).record.error.message,
    'plan budget cap reached: tokens 130 + 871 of 1000',
  );
  const status = await forge(['plan', 'status', '--json'], { cwd: dir });
  assert.equal(status.records[0]!.used, { runs: ['r1', 'r2'], tokens: 130, files: ['src/a.ts', 'src/b.ts', 'src/c.ts'], unitTokens: 130 });
});

test('wall_time counts from activation', async () => {
  const dir = repoWith({ 'docs/plans/gate.md': PLAN.replace('      tokens: 1000\n', '      tokens: 1000\n      wall_time: 1h\n') });
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/gate.md'], { cwd: dir })).code, 0);
  assert.is((await preflight(dir, ['--tool', 'read', '--path', 'src/a.ts'])).code, 0, 'within the hour');
  // Two hours pass, without waiting for them: the activation is moved back on the state ref.
  const path = `.forge/plans/${PLAN_ID}.json`;
  const contract = JSON.parse(stateFile(dir, path)!);
  const activatedAt = new Date(Date.parse(contract.activatedAt) - 2 * 3600_000).toISOString();
  plantState(dir, { [path]: `${JSON.stringify({ ...contract, activatedAt }, null, 2)}\n` });
  const r = await preflight(dir, ['--tool', 'read', '--path', 'src/a.ts']);
  assert.equal([r.code, r.record.error.code], [1, 'BUDGET_CAP_REACHED']);
  const expected = `plan budget cap reached: wall_time 1h since activation at ${activatedAt}`;
  assert.ok(r.record.error.message.startsWith(expected), r.record.error.message);
});

test('the kill switch refuses every call with its reason until resume', async () => {
  const dir = await activeRepo();
  await forge(['plan', 'pause', '--plan-id', PLAN_ID, '--reason', 'tests are red on main'], { cwd: dir });
  const r = await preflight(dir, ['--tool', 'read', '--path', 'src/a.ts']);
  assert.equal(
    [r.code, r.record.error.code, r.record.error.message],
    [1, 'PLAN_PAUSED', 'plan gate-demo is paused (kill switch): tests are red on main'],
  );
  assert.is((await forge(['plan', 'advance', '--json'], { cwd: dir })).records[0]!.error.code, 'PLAN_PAUSED');
  await forge(['plan', 'resume', '--plan-id', PLAN_ID], { cwd: dir });
  assert.is((await preflight(dir, ['--tool', 'read', '--path', 'src/a.ts'])).code, 0);
  assert.is(planJournal(dir).filter((e) => e.verb === 'plan_breach_refused')[0]!.breach, 'kill_switch');
});

test('lifecycle: advance needs its verification, enters U2, then completes; the journal tells the story', async () => {
  const dir = await activeRepo();
  assert.is((await preflight(dir, ['--tool', 'write', '--path', 'test/a.test.ts'])).record.error.code, 'PLAN_BREACH_UNIT');
  const commits = stateCommits(dir);
  const failed = await forge(['plan', 'advance'], { cwd: dir });
  assert.is(failed.code, 1);
  assert.match(failed.stderr, /^Error: U1 needs verification_pass: 'test -f src\/done' exited 1\n/);
  assert.is(stateCommits(dir), commits, 'a failed verification changes nothing');
  writeFileSync(join(dir, 'src/done'), '');
  const adv = await forge(['plan', 'advance', '--evidence', 'src/a.ts exports a'], { cwd: dir });
  assert.match(
    adv.stdout,
    /^verification passed: test -f src\/done \(\d+\.\d s\)\ngate-demo: U1 done; entered U2 — test it: tools read, edit, write, bash; paths src\/\*\*, test\/\*\*\nNext: forge plan status\n$/,
  );
  assert.is((await preflight(dir, ['--tool', 'write', '--path', 'test/a.test.ts'])).code, 0, 'U2 allows it now');
  assert.is((await preflight(dir, ['--tool', 'bash', '--command', 'git commit -qm wip'])).code, 0, 'U2 reaches the local branch');
  assert.is((await preflight(dir, ['--tool', 'bash', '--command', 'git push origin HEAD'])).record.error.code, 'PLAN_BREACH_SURFACE');
  const done = await forge(['plan', 'advance', '--json'], { cwd: dir });
  assert.equal(
    [done.records[0]!.from, done.records[0]!.to, done.records[0]!.status, done.records[0]!._next_action],
    ['U2', null, 'complete', null],
  );
  assert.match((await forge(['plan', 'advance'], { cwd: dir })).stderr, /^Error: plan gate-demo is complete\n/);
  assert.is((await preflight(dir, ['--tool', 'ls'])).record.allowed, true, 'a complete plan gates nothing');
  const list = await forge(['plan', 'journal', '--json'], { cwd: dir });
  assert.equal(
    list.records.filter((r) => r.type === 'entry').map((e) => [e.verb, e.unit]),
    [
      ['plan_unit_entered', 'U1'],
      ['plan_breach_refused', 'U1'],
      ['plan_advance', 'U1'],
      ['plan_unit_entered', 'U2'],
      ['plan_breach_refused', 'U2'],
      ['plan_advance', 'U2'],
      ['plan_completed', 'U2'],
    ],
  );
  assert.equal(list.records.find((r) => r.verb === 'plan_advance')!.evidence, [
    'verification_pass: test -f src/done',
    'src/a.ts exports a',
  ]);
  const refusals = await forge(['plan', 'journal', '--verb', 'plan_breach_refused', '--limit', '1'], { cwd: dir });
  assert.match(
    refusals.stdout,
    /^\S+ {2}gate-demo {2}U2 {2}plan_breach_refused {2}bash {2}— plan breach: surface — this call reaches remote_branch_pr; U2 allows local_branch \(artifacts_only, local_branch\)\n1 of 2 entries\nDone\.\n$/,
  );
  assert.equal(git(dir, 'status', '--porcelain'), '?? src/done', 'the work tree holds only what the test wrote');
});

test('a journal an earlier forge kept in journal.jsonl is listed, and converted by the next entry with every line kept', async () => {
  const dir = await activeRepo();
  const entered = planJournal(dir);
  const older = {
    id: 'jr-older',
    timestamp: '2025-12-01T00:00:00.000Z',
    plan_id: 'earlier',
    verb: 'plan_completed',
    kind: 'Decision',
    unit: 'U9',
  };
  const lines = [JSON.stringify(older), 'a line a hand edit broke', ...entered.map((e) => JSON.stringify(e))];
  // Back to the one file an earlier forge kept, as it would have left it.
  const store = new StateStore(await openRepo({ cwd: dir }));
  try {
    await store.update({
      message: 'as an earlier forge kept it',
      apply: async (tx) => {
        for (const e of await tx.list('.forge/plans/journal')) tx.remove(`.forge/plans/journal/${e.name}`);
        tx.write('.forge/plans/journal.jsonl', `${lines.join('\n')}\n`);
      },
    });
  } finally {
    store.close();
  }
  const listed = await forge(['plan', 'journal', '--json'], { cwd: dir });
  assert.equal(
    listed.records.filter((r) => r.type === 'entry').map((e) => e.id),
    ['jr-older', ...entered.map((e) => e.id)],
  );
  assert.is((await preflight(dir, ['--tool', 'bash', '--command', 'ls'])).code, 1, 'a refusal is journaled');
  assert.not.ok(git(dir, 'ls-tree', '--name-only', 'refs/forge/state:.forge/plans').split('\n').includes('journal.jsonl'), 'converted');
  const after = git(dir, 'grep', '-h', '-a', '-e', '', 'refs/forge/state', '--', '.forge/plans/journal').split('\n');
  assert.equal(after.slice(0, -1), lines, 'every line kept, in order');
  assert.is(JSON.parse(after.at(-1)!).verb, 'plan_breach_refused');
});

test('Claude Code: install-hook merges settings; the installed hook allows, denies with a reason, and exempts the plan lifecycle', async () => {
  const dir = await activeRepo();
  mkdirSync(join(dir, '.claude'));
  const settings = {
    permissions: { allow: ['Bash(npm test)'] },
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'echo bye' }] }],
    },
  };
  writeFileSync(join(dir, '.claude/settings.json'), JSON.stringify(settings, null, 2));
  const inst = await forge(['plan', 'install-hook', 'claude', '--json'], { cwd: join(dir, 'src') });
  assert.equal([inst.code, inst.records[0]!.added, inst.records[0]!.file], [0, true, join(dir, '.claude/settings.json')]);
  const merged = JSON.parse(readFileSync(join(dir, '.claude/settings.json'), 'utf8'));
  assert.equal(merged, {
    ...settings,
    hooks: {
      ...settings.hooks,
      PreToolUse: [
        ...settings.hooks.PreToolUse,
        { matcher: '*', hooks: [{ type: 'command', command: 'forge plan preflight --hook claude', onFailure: 'block' }] },
      ],
    },
  });
  assert.equal([inst.records[0]!.failure, inst.records[0]!.onFailureSince], ['closed', '2.1.295']);
  const bytes = readFileSync(join(dir, '.claude/settings.json'), 'utf8');
  assert.is((await forge(['plan', 'install-hook', 'claude', '--json'], { cwd: dir })).records[0]!.added, false);
  assert.is(readFileSync(join(dir, '.claude/settings.json'), 'utf8'), bytes, 'idempotent');
  writeFileSync(join(dir, 'broken.json'), '{"hooks": [');
  const broken = await forge(['plan', 'install-hook', 'claude', '--settings', 'broken.json'], { cwd: dir });
  assert.equal([broken.code, readFileSync(join(dir, 'broken.json'), 'utf8')], [1, '{"hooks": [']);
  assert.match(broken.stderr, /^Error: \S+broken\.json is not valid JSON/);
  const config = readFileSync(join(dir, '.git/config'), 'utf8');
  for (const [args, path] of [
    [['plan', 'install-hook', 'claude'], '.git/config'],
    [['loop', 'install', 'claude'], join(dir, '.git/hooks/post-checkout')],
  ] as const) {
    const intoGit = await forge([...args, '--settings', path, '--json'], { cwd: dir });
    assert.equal([intoGit.code, intoGit.records[0]!.error.code], [1, 'PATH_IN_GIT_DIR'], path);
  }
  assert.equal([readFileSync(join(dir, '.git/config'), 'utf8'), existsSync(join(dir, '.git/hooks/post-checkout'))], [config, false]);

  // The hook exactly as installed, run as Claude Code runs it.
  const command = merged.hooks.PreToolUse.at(-1).hooks[0].command as string;
  const base = { session_id: 'sess-1', transcript_path: '/dev/null', cwd: dir, hook_event_name: 'PreToolUse' };
  const allowed = runHook({
    dir: dir,
    command,
    payload: { ...base, tool_name: 'Edit', tool_input: { file_path: join(dir, 'src/a.ts'), old_string: '1', new_string: '2' } },
  });
  assert.equal([allowed.status, allowed.stdout], [0, '']);
  const denied = runHook({
    dir: dir,
    command,
    payload: { ...base, tool_name: 'Write', tool_input: { file_path: join(dir, 'docs/notes.md'), content: 'x' } },
  });
  assert.is(denied.status, 0);
  assert.equal(JSON.parse(denied.stdout), {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason:
        "plan breach: blast radius — changing 'docs/notes.md' is outside the plan's blast radius (src/**, test/**). A hard refusal: no acknowledgement applies. Stay within the plan (`forge plan status`)",
    },
  });
  assert.match(
    runHook({ dir: dir, command, payload: { ...base, tool_name: 'Bash', tool_input: { command: 'forge plan ack; rm -rf src' } } }).stdout,
    /"deny"/,
    'only the lifecycle command alone is exempt',
  );
  const soft = JSON.parse(
    runHook({ dir: dir, command, payload: { ...base, tool_name: 'Grep', tool_input: { pattern: 'a', path: join(dir, 'src') } } }).stdout,
  );
  assert.match(
    soft.hookSpecificOutput.permissionDecisionReason,
    /^plan breach: tools — 'Grep' is not allowed in U1 \(allowed: read, edit\)\. Run `forge plan ack`, then retry this exact call once/,
  );
  for (const cmd of ['forge plan ack', 'forge plan status --json'])
    assert.is(runHook({ dir: dir, command, payload: { ...base, tool_name: 'Bash', tool_input: { command: cmd } } }).stdout, '', cmd);
  // What Claude does next: runs the (ungated) ack through Bash, then the same call again.
  assert.is(spawnSync('sh', ['-c', 'forge plan ack'], { cwd: dir, env: hookEnv() }).status, 0);
  assert.is(
    runHook({ dir: dir, command, payload: { ...base, tool_name: 'Grep', tool_input: { pattern: 'a', path: join(dir, 'src') } } }).stdout,
    '',
    'acknowledged through Bash, the retry runs',
  );
  assert.is(runHook({ dir: dir, command, payload: { ...base, tool_name: 'TodoWrite', tool_input: { todos: [] } } }).stdout, '');
  const unknown = JSON.parse(
    runHook({ dir: dir, command, payload: { ...base, tool_name: 'mcp__github__create_pr', tool_input: { title: 'x' } } }).stdout,
  );
  assert.match(
    unknown.hookSpecificOutput.permissionDecisionReason,
    /^plan breach: tools — 'mcp__github__create_pr' is not allowed in U1 .*allowed_tools: \[mcp:github, or mcp__github__create_pr\].*forge plan ack/,
    'an unknown tool is a soft refusal',
  );
  const refusals = planJournal(dir).filter((e) => e.verb === 'plan_breach_refused');
  assert.equal(
    refusals.map((e) => [e.tool, e.breach, e.posture]),
    [
      ['Write', 'blast_radius', 'hard'],
      ['Bash', 'later_unit', 'hard'],
      ['Grep', 'tools', 'soft'],
      ['mcp__github__create_pr', 'tools', 'soft'],
    ],
  );
  const bad = runHook({ dir: dir, command, payload: { ...base, tool_input: {} } });
  assert.is(bad.status, 0);
  assert.match(
    JSON.parse(bad.stdout).hookSpecificOutput.permissionDecisionReason,
    /^forge could not read this tool call, and a plan contract is active: a call the gate cannot check is refused \(the hook payload has no tool_name: is this hook installed on PreToolUse\?\)\. Fix: forge plan install-hook claude$/,
  );
  assert.match(
    bad.stderr,
    /^warning: forge plan preflight: the hook payload has no tool_name.* \[BAD_HOOK_PAYLOAD\]; the call is refused\n/,
  );
  const outside = runHook({
    dir: tempDir('forge-no-repo-'),
    command,
    payload: { ...base, cwd: '/', tool_name: 'Bash', tool_input: { command: 'ls' } },
  });
  assert.equal([outside.status, outside.stdout], [0, ''], 'outside a repository nothing is gated');
  const status = await forge(['plan', 'status', '--json'], { cwd: dir });
  assert.equal(status.records[0]!.used.runs, ['sess-1'], "Claude's session is the run");
});

test('install-hook upgrades an entry from before onFailure in place, keeping its other keys; the text says which Claude Code needs it', async () => {
  const dir = tempRepo();
  mkdirSync(join(dir, '.claude'));
  const old = {
    model: 'opus',
    hooks: {
      PreToolUse: [
        {
          matcher: '*',
          hooks: [{ type: 'command', command: 'forge plan preflight --hook claude', timeout: 30, statusMessage: 'plan gate' }],
        },
        { matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] },
      ],
    },
  };
  writeFileSync(join(dir, '.claude/settings.json'), JSON.stringify(old));
  const up = await forge(['plan', 'install-hook', 'claude'], { cwd: dir });
  assert.is(up.code, 0, up.stderr);
  assert.match(
    up.stdout,
    /^upgraded \(onFailure: "block"\): PreToolUse → forge plan preflight --hook claude in \S+settings\.json\nfails closed: with "onFailure": "block" \(Claude Code 2\.1\.295 or later\) a tool call is refused when the hook cannot run, crashes or times out; earlier Claude Code releases ignore the key and let the call through\n/,
  );
  const expected = structuredClone(old);
  Object.assign(expected.hooks.PreToolUse[0]!.hooks[0]!, { onFailure: 'block' });
  assert.equal(JSON.parse(readFileSync(join(dir, '.claude/settings.json'), 'utf8')), expected);
  const bytes = readFileSync(join(dir, '.claude/settings.json'), 'utf8');
  const again = await forge(['plan', 'install-hook', 'claude', '--json'], { cwd: dir });
  assert.equal([again.records[0]!.added, again.records[0]!.upgraded], [false, []]);
  assert.is(readFileSync(join(dir, '.claude/settings.json'), 'utf8'), bytes, 'idempotent once upgraded');
});

test('with no active plan the gate allows and writes nothing, whatever the payload; a completed plan is no plan', async () => {
  const payloads: Array<string | Buffer> = [
    'garbage',
    '',
    '   ',
    '[1]',
    'null',
    '42',
    '"Write"',
    '{"tool_name":',
    '{}',
    '{"tool_name":7}',
    JSON.stringify({ tool_name: 'Write', tool_input: 'x' }),
    Buffer.from([0xff, 0xfe, 0x00, 0x7b]),
    Buffer.from('{"tool_name":"Read\xff"}', 'latin1'),
    `{"tool_name":"Write","tool_input":{"content":"${'x'.repeat(3_000_000)}"}}`,
    '['.repeat(100_000),
  ];
  const fresh = tempRepo();
  const outside = tempDir('forge-no-repo-');
  const done = await activeRepo();
  // A plan whose units are all done: its pointer stays, it gates nothing.
  writeFileSync(join(done, 'src/done'), '');
  for (const args of [['advance'], ['advance']]) assert.is((await forge(['plan', ...args], { cwd: done })).code, 0);
  for (const dir of [fresh, outside, done]) {
    const before = treeHashes(dir);
    for (const payload of payloads) {
      const r = runHook({ dir, command: 'forge plan preflight --hook claude', payload });
      assert.equal([r.status, r.stdout, r.stderr], [0, '', 'Done.\n'], `${dir}: ${String(payload).slice(0, 20)}`);
    }
    assert.equal(changedPaths(before, treeHashes(dir)), [], `${dir}: nothing written`);
  }
});

test('with a plan active the gate fails closed: an unreadable payload, a contract it cannot read — denied with the reason, exit 0', async () => {
  const dir = await activeRepo();
  for (const payload of ['garbage', '', '[1]', '{"tool_input":{}}']) {
    const r = runHook({ dir, command: 'forge plan preflight --hook claude', payload });
    assert.is(r.status, 0, payload);
    assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny', payload);
    assert.match(r.stderr, /\[BAD_HOOK_PAYLOAD\]; the call is refused\n/, payload);
  }
  // stdin that cannot be read (a directory) is judged as an empty payload, and says so.
  const unreadable = runHook({ dir, command: 'forge plan preflight --hook claude < .', payload: '' });
  assert.is(unreadable.status, 0);
  assert.equal(JSON.parse(unreadable.stdout).hookSpecificOutput.permissionDecision, 'deny');
  assert.match(unreadable.stderr, /hook payload on stdin is empty, or could not be read \[BAD_HOOK_PAYLOAD\]; the call is refused\n/);
  // The contract on the state ref is replaced by bytes that are not JSON.
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: dir, input: 'not json' }).toString().trim();
  const index = join(tempDir('forge-index-'), 'index');
  const env = { ...process.env, GIT_INDEX_FILE: index };
  const g = (...args: string[]) => execFileSync('git', args, { cwd: dir, env }).toString().trim();
  g('read-tree', 'refs/forge/state');
  g('update-index', '--add', '--cacheinfo', `100644,${blob},.forge/plans/${PLAN_ID}.json`);
  g('update-ref', 'refs/forge/state', g('commit-tree', g('write-tree'), '-p', 'refs/forge/state', '-m', 'corrupt'));
  const r = runHook({
    dir,
    command: 'forge plan preflight --hook claude',
    payload: { session_id: 's', cwd: dir, tool_name: 'Read', tool_input: { file_path: join(dir, 'src/a.ts') } },
  });
  assert.is(r.status, 0);
  assert.match(
    JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason,
    new RegExp(
      `^forge could not check this call against the plan contract \\(the contract of the active plan '${PLAN_ID}' cannot be read from the state ref: not JSON \\(.+\\)\\)\\. Fix: forge plan status$`,
    ),
  );
  assert.match(r.stderr, /\[PLAN_UNREADABLE\]; the call is refused\n/);
  const flags = await preflight(dir, ['--tool', 'read', '--path', 'src/a.ts']);
  assert.equal([flags.code, flags.record.error.code], [1, 'PLAN_UNREADABLE']);
  // plan status reads the same contract: not "no active plan" for one it cannot read.
  const status = await forge(['plan', 'status', '--json'], { cwd: dir });
  assert.equal(
    [status.code, status.records[0]!.error.code, status.records[0]!._next_action],
    [1, 'PLAN_UNREADABLE', 'git show refs/forge/state:.forge/plans/active.json'],
  );
});

test.run();
