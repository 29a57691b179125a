// forge plan check / new: real plan files for every check, each finding at file:line:col, exit codes 0/1/2.
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { filledTemplate } from '../helpers/plans';
import { forge } from '../helpers/forge';
import { git, planJournal, stateCommits, tempRepo } from '../helpers/repo';

const GOOD = filledTemplate({ slug: 'demo', date: '2026-01-01' });

function repoWithPlans(files: Record<string, string | Buffer>): string {
  const dir = tempRepo();
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

async function findings(files: Record<string, string | Buffer>, args: string[] = []) {
  const dir = repoWithPlans(files);
  const r = await forge(['plan', 'check', '--json', ...args], { cwd: dir });
  return {
    code: r.code,
    list: r.records.filter((x) => x.type === 'error' || x.type === 'warning').map((x) => `${x.file}:${x.line}:${x.col} ${x.code}`),
    summary: r.records.at(-1)!,
    dir,
  };
}

test('the template passes, each placeholder a TEMPLATE_TEXT warning until it is written over; plan new refuses an existing file and a bad slug', async () => {
  const dir = tempRepo();
  const r = await forge(['plan', 'new', 'add-login'], { cwd: dir });
  assert.match(
    r.stdout,
    /^wrote docs\/plans\/\d{4}-\d\d-\d\d-add-login-plan\.md: edit its envelopes, then check it\nNext: forge plan check --path docs\/plans\/\d{4}-\d\d-\d\d-add-login-plan\.md\n$/,
  );
  const check = await forge(['plan', 'check'], { cwd: dir });
  assert.is(check.code, 0);
  assert.match(
    check.stdout,
    /^docs\/plans\/\S+-add-login-plan\.md:25:7: warning TEMPLATE_TEXT: still the template's placeholder: "the change itself/,
  );
  // No test command in this repository: U2's verification fails until one is written, and is flagged.
  assert.match(check.stdout, /:53:\d+: warning TEMPLATE_TEXT: still the template's placeholder: "echo 'no test command found/);
  assert.match(check.stdout, /\n1 plan checked \(1 contract\): 0 errors, 5 warnings\nDone\.\n$/);
  // With one (package.json's scripts.test, a Makefile's test target…), U2 runs it.
  const node = repoWithPlans({ 'package.json': '{"scripts":{"test":"node --test"}}', Makefile: 'build:\n\ttrue\n' });
  git(node, 'add', '-A');
  git(node, 'commit', '-qm', 'a package');
  await forge(['plan', 'new', 'x', '--date', '2026-01-01'], { cwd: node });
  assert.match(readFileSync(join(node, 'docs/plans/2026-01-01-x-plan.md'), 'utf8'), /\n {2}command: "npm test"\n/);
  const path = readdirSync(join(dir, 'docs', 'plans'))[0]!;
  writeFileSync(join(dir, 'docs', 'plans', path), filledTemplate({ slug: 'add-login', date: path.slice(0, 10) }));
  const filled = await forge(['plan', 'check'], { cwd: dir });
  assert.equal([filled.code, filled.stdout], [0, '1 plan checked (1 contract): 0 errors, 0 warnings\nDone.\n']);
  assert.is((await forge(['plan', 'new', 'add-login'], { cwd: dir })).code, 1);
  assert.is((await forge(['plan', 'new', '../Bad Slug'], { cwd: dir })).code, 2);
  // Words are not a slug, but the Fix is the slug they make, ready to run.
  const words = await forge(['plan', 'new', 'Add subtract!', '--date', '2026-01-02', '--json'], { cwd: dir });
  assert.equal([words.code, words.records[0]!._next_action], [2, 'forge plan new add-subtract --date 2026-01-02']);
  assert.is(stateCommits(dir), 0, 'checking and creating plans writes nothing to the state ref');
});

test('a unit wider than its parent, field by field, at the line of the field', async () => {
  const wide = GOOD.replace('allowed_tools: [read, edit, patch, search, ls]', 'allowed_tools: [read, deploy]').replace(
    'allowed_paths: ["src/**"]\nsurface: local_branch',
    'allowed_paths: ["src/**", "vendor/**"]\nsurface: remote_branch_pr',
  );
  const r = await findings({ 'docs/plans/wide.md': wide });
  assert.is(r.code, 1);
  assert.equal(r.list, [
    'docs/plans/wide.md:35:1 TOOLS_WIDER',
    'docs/plans/wide.md:36:1 PATHS_WIDER',
    'docs/plans/wide.md:36:1 BLAST_RADIUS_WIDER',
    'docs/plans/wide.md:37:1 SURFACE_WIDER',
  ]);
  assert.is(r.summary._next_action, 'forge read docs/plans/wide.md --start 33');
});

test('duplicate units, missing and orphan envelopes, uncovered and unknown requirements', async () => {
  const dup = GOOD.replace('### U2 — prove it', '### U1 — prove it');
  assert.equal((await findings({ 'docs/plans/p.md': dup })).list, [
    'docs/plans/p.md:18:3 UNCOVERED_REQUIREMENT',
    'docs/plans/p.md:42:1 DUPLICATE_UNIT',
  ]);
  const missing = GOOD.replace(/### U2 — prove it[\s\S]*$/, '### U2 — prove it\n\nno envelope here\n');
  assert.equal((await findings({ 'docs/plans/p.md': missing })).list, [
    'docs/plans/p.md:18:3 UNCOVERED_REQUIREMENT',
    'docs/plans/p.md:42:1 MISSING_ENVELOPE',
  ]);
  const orphan = GOOD.replace('## Units\n', '## Units\n\n```envelope\nallowed_tools: [read]\nallowed_paths: ["src/**"]\n```\n');
  assert.equal((await findings({ 'docs/plans/p.md': orphan })).list, ['docs/plans/p.md:30:1 ORPHAN_ENVELOPE']);
  const unknownReq = GOOD.replace('requirements: [R1]\n```', 'requirements: [R1, R9]\n```');
  assert.equal((await findings({ 'docs/plans/p.md': unknownReq })).list, ['docs/plans/p.md:39:1 UNKNOWN_REQUIREMENT']);
});

test('an envelope with no units, blocks with no envelope, a frontmatter that is not a map, verification_pass with nothing to run', async () => {
  const noUnits = GOOD.replace(/## Units[\s\S]*$/, '').replace('  requirements: [R1, R2]\n', '');
  assert.equal((await findings({ 'docs/plans/p.md': noUnits })).list, ['docs/plans/p.md:1:1 NO_UNITS']);
  const noEnvelope = GOOD.replace(/envelope:\n[\s\S]*?\n---\n/, 'owner: me\n---\n');
  assert.equal((await findings({ 'docs/plans/p.md': noEnvelope })).list, ['docs/plans/p.md:1:1 MISSING_FIELD']);
  const listFront = GOOD.replace('---\ntitle', '---\n- a\ntitle');
  assert.equal((await findings({ 'docs/plans/p.md': listFront })).list[0]?.split(' ')[1], 'YAML_ERROR');
  const scalarFront = '---\njust words\n---\n### U1 — a\n```envelope\nallowed_tools: []\nallowed_paths: []\n```\n';
  assert.equal((await findings({ 'docs/plans/p.md': scalarFront })).list, ['docs/plans/p.md:2:1 INVALID_TYPE']);
  const nothingToRun = GOOD.replace(/verification:\n {2}kind: command\n {2}command: "make test"\n/, '');
  assert.equal((await findings({ 'docs/plans/p.md': nothingToRun })).list, ['docs/plans/p.md:53:3 MISSING_FIELD']);
});

test('bad input: broken YAML, tabs, unknown keys, a list envelope, a path as plan_id, 10 MB, non-UTF-8', async () => {
  const cases: Array<[string, string | Buffer, string[]]> = [
    [
      'broken.md',
      GOOD.replace('surface: local_branch\n  parent_blast_radius', 'surface: [local_branch\n  parent_blast_radius'),
      ['YAML_ERROR'],
    ],
    ['tabs.md', GOOD.replace('  plan_contract_version: 1', '\tplan_contract_version: 1'), ['YAML_ERROR']],
    ['unknown.md', GOOD.replace('  plan_contract_version: 1', '  plan_contract_version: 1\n  owner: me'), ['UNKNOWN_FIELD']],
    [
      'list.md',
      '---\nenvelope:\n  - plan_id: x\n---\n### U1 — a\n```envelope\nallowed_tools: []\nallowed_paths: []\n```\n',
      ['INVALID_TYPE'],
    ],
    ['path-id.md', GOOD.replace('plan_id: 2026-01-01-demo', 'plan_id: ../../etc/passwd'), ['INVALID_ID']],
    ['version.md', GOOD.replace('plan_contract_version: 1', 'plan_contract_version: 2'), ['UNSUPPORTED_VERSION']],
    ['missing.md', GOOD.replace('    surface: local_branch\n  parent_blast', '  parent_blast'), ['MISSING_FIELD']],
    [
      'typed.md',
      GOOD.replace('context_tokens_expected: 8000\nrequirements: [R1]', 'context_tokens_expected: lots\nrequirements: [R1]'),
      ['INVALID_TYPE'],
    ],
    ['big.md', GOOD + 'x'.repeat(10 * 1024 * 1024), ['PLAN_TOO_LARGE']],
    [
      'latin1.md',
      Buffer.concat([Buffer.from(GOOD.slice(0, 20)), Buffer.from([0xe9, 0x0a]), Buffer.from(GOOD.slice(20))]),
      ['INVALID_ENCODING'],
    ],
  ];
  for (const [name, content, codes] of cases) {
    const r = await findings({ [`docs/plans/${name}`]: content });
    assert.is(r.code, 1, name);
    assert.equal(
      r.list.map((l) => l.split(' ')[1]),
      codes,
      `${name}: ${r.list.join('; ')}`,
    );
    assert.match(r.list[0]!, new RegExp(`^docs/plans/${name.replace('.', '\\.')}:\\d+:\\d+ `));
    assert.is(stateCommits(r.dir), 0);
  }
  const tabs = await findings({ 'docs/plans/tabs.md': GOOD.replace('  plan_contract_version: 1', '\tplan_contract_version: 1') });
  assert.is(tabs.list[0], 'docs/plans/tabs.md:6:1 YAML_ERROR', 'the tab is on file line 6');
});

test('legacy plans pass unless --strict; a missing --path is an invocation error (exit 2)', async () => {
  const legacy = { 'docs/plans/old.md': '# An old plan\n\nJust prose.\n' };
  const plain = await findings(legacy);
  assert.equal([plain.code, plain.summary.legacy], [0, ['docs/plans/old.md']]);
  const strict = await findings(legacy, ['--strict']);
  assert.equal([strict.code, strict.list], [1, ['docs/plans/old.md:1:1 LEGACY_PLAN']]);
  const dir = tempRepo();
  const none = await forge(['plan', 'check', '--path', 'nope.md'], { cwd: dir });
  assert.equal([none.code, none.stderr], [2, "Error: no plan at 'nope.md'\nFix: forge plan check\n"]);
});

test('JSON module plans: required fields, unknown dependencies, named cycles, commands on PATH, parallel overlap', async () => {
  const plan = {
    modules: [
      { id: 'm1', title: 'a', objective: 'o', files: ['src/a.ts'], verify: ['node --version'], doneWhen: 'passes', dependsOn: ['m3'] },
      { id: 'm2', title: 'b', objective: 'o', files: ['src/a.ts', 'src/b.ts'], verify: 'no-such-tool-xyz --run', doneWhen: 'passes' },
      { id: 'm3', title: 'c', objective: 'o', files: ['src/c.ts'], verify: ['git status'], doneWhen: 'passes', dependsOn: ['m1', 'ghost'] },
      { id: 'm4', title: 'd', files: [], verify: [], doneWhen: 'x', extra: 1 },
    ],
  };
  const r = await findings({ '.forge/modules/work.json': JSON.stringify(plan, null, 2) });
  assert.is(r.code, 1);
  assert.equal(r.list.map((l) => l.split(' ')[1]).sort(), [
    'COMMAND_NOT_FOUND',
    'DEPENDENCY_CYCLE',
    'FILE_OVERLAP',
    'MISSING_FIELD',
    'UNKNOWN_DEPENDENCY',
    'UNKNOWN_FIELD',
  ]);
  const dir = repoWithPlans({ '.forge/modules/work.json': JSON.stringify(plan, null, 2) });
  const text = await forge(['plan', 'check'], { cwd: dir });
  assert.match(text.stdout, /\.forge\/modules\/work\.json:\d+:\d+: error DEPENDENCY_CYCLE: dependency cycle: m1 → m3 → m1\n/);
  assert.match(text.stdout, /warning FILE_OVERLAP: modules m1 and m2 both change src\/a\.ts but could run in parallel/);
  const acyclic = {
    modules: [
      { ...plan.modules[0]!, dependsOn: ['m3'] },
      { ...plan.modules[2]!, dependsOn: [] },
    ],
  };
  const ok = await findings({ '.forge/modules/ok.json': JSON.stringify(acyclic) });
  assert.equal([ok.code, ok.list], [0, []]);
});

test('a module plan left in .forge/plans/ (the state ref keeps activated contracts there) is still checked, with a warning naming its place', async () => {
  const acyclic = { modules: [{ id: 'm1', title: 'a', objective: 'o', files: ['a.txt'], verify: ['git status'], doneWhen: 'passes' }] };
  const dir = repoWithPlans({ '.forge/plans/old.json': JSON.stringify(acyclic), '.forge/plans/bad.json': '{"modules": []}' });
  const found = await forge(['plan', 'check'], { cwd: dir });
  assert.is(found.code, 1, 'the bad plan in the old place is still an error');
  assert.match(
    found.stdout,
    /\.forge\/plans\/old\.json:1:1: warning OLD_PLACE: module plans live in \.forge\/modules\/ .*: mkdir -p \.forge\/modules && mv \.forge\/plans\/old\.json \.forge\/modules\/\n/,
  );
  assert.match(found.stdout, /\.forge\/plans\/bad\.json:\d+:\d+: error EMPTY_PLAN/);
  // Named by --path, from a subdirectory: the same warning, and a sound plan still passes.
  mkdirSync(join(dir, 'sub'));
  const one = await forge(['plan', 'check', '--json', '--path', '../.forge/plans/old.json'], { cwd: join(dir, 'sub') });
  assert.is(one.code, 0);
  assert.equal(
    one.records.filter((r) => r.severity).map((r) => [r.code, r.message.split(': ').at(-1)]),
    [['OLD_PLACE', 'mkdir -p ../.forge/modules && mv ../.forge/plans/old.json ../.forge/modules/']],
  );
  // Moved where the warning says, it is found there and nothing is reported.
  mkdirSync(join(dir, '.forge', 'modules'));
  renameSync(join(dir, '.forge', 'plans', 'old.json'), join(dir, '.forge', 'modules', 'old.json'));
  const moved = await forge(['plan', 'check', '--path', '.forge/modules'], { cwd: dir });
  assert.equal([moved.code, moved.stdout.split('\n')[0]], [0, '1 plan checked (1 module plan): 0 errors, 0 warnings']);
});

test('activate → status → pause (reason shown) → resume; refusals write nothing', async () => {
  const dir = repoWithPlans({
    'docs/plans/p.md': GOOD,
    'docs/plans/old.md': '# prose only\n',
    'docs/plans/bad.md': GOOD.replace('allowed_tools: [read, edit, patch, search, ls]', 'allowed_tools: [deploy]'),
  });
  const act = await forge(['plan', 'activate', '--path', 'docs/plans/p.md'], { cwd: dir });
  assert.is(
    act.stdout,
    'activated 2026-01-01-demo (2 units); entered U1 — make the change: tools read, edit, patch, search, ls; paths src/**\nNext: forge plan status\n',
  );
  const status = await forge(['plan', 'status', '--json'], { cwd: dir });
  assert.equal([status.records[0]!.unit, status.records[0]!.status, status.records[0]!.caps.files_changed], ['U1', 'active', 20]);
  const commits = stateCommits(dir);
  for (const [args, code] of [
    [['plan', 'activate', '--path', 'docs/plans/p.md'], 'PLAN_ALREADY_ACTIVE'],
    [['plan', 'activate', '--path', 'docs/plans/old.md'], 'LEGACY_PLAN'],
    [['plan', 'activate', '--path', 'docs/plans/bad.md'], 'PLAN_INVALID'],
    [['plan', 'resume', '--plan-id', '2026-01-01-demo'], 'NOT_PAUSED'],
  ] as const) {
    const r = await forge([...args, '--json'], { cwd: dir });
    assert.equal([r.code, r.records[0]!.error.code], [1, code], args.join(' '));
  }
  // A plan id that names no plan is bad input, as a --path naming no plan is (one code, one exit status).
  const unknown = await forge(['plan', 'pause', '--plan-id', 'nope', '--reason', 'x', '--json'], { cwd: dir });
  assert.equal([unknown.code, unknown.records[0]!.error.code], [2, 'PLAN_NOT_FOUND']);
  assert.is(stateCommits(dir), commits, 'refusals did not move the state ref');
  const blank = await forge(['plan', 'pause', '--plan-id', '2026-01-01-demo', '--reason', '  '], { cwd: dir });
  assert.is(blank.code, 2);
  const paused = await forge(['plan', 'pause', '--plan-id', '2026-01-01-demo', '--reason', 'waiting for review'], { cwd: dir });
  assert.is(paused.stdout, 'paused 2026-01-01-demo: waiting for review\nNext: forge plan resume --plan-id 2026-01-01-demo\n');
  assert.match((await forge(['plan', 'status'], { cwd: dir })).stdout, /^2026-01-01-demo: paused — kill switch on: waiting for review\n/);
  assert.is((await forge(['plan', 'resume', '--plan-id', '2026-01-01-demo'], { cwd: dir })).code, 0);
  const journal = planJournal(dir);
  assert.equal(
    journal.map((e) => [e.verb, e.kind, e.unit, e.reason]),
    [
      ['plan_unit_entered', 'Decision', 'U1', undefined],
      ['plan_paused', 'Decision', 'U1', 'waiting for review'],
      ['plan_resumed', 'Decision', 'U1', undefined],
    ],
  );
  assert.is((await forge(['plan', 'status'], { cwd: tempRepo() })).stdout, 'no active plan\nNext: forge plan new --help\n');
});

test('pause and resume default to the active plan; with none they are NO_ACTIVE_PLAN whose Fix activates a real plan file', async () => {
  const dir = repoWithPlans({ 'docs/plans/2026-01-01-demo-plan.md': GOOD });
  mkdirSync(join(dir, 'src'));
  const none = await forge(['plan', 'pause', '--reason', 'r'], { cwd: join(dir, 'src') });
  assert.equal(
    [none.code, none.stderr],
    [1, 'Error: no plan contract is active\nFix: forge plan activate --path ../docs/plans/2026-01-01-demo-plan.md\n'],
    'the path is as seen from the subdirectory',
  );
  assert.is(
    (await forge(['plan', 'status'], { cwd: dir })).stdout,
    'no active plan\nNext: forge plan activate --path docs/plans/2026-01-01-demo-plan.md\n',
  );
  assert.is(
    (await forge(['plan', 'activate', '--path', '../docs/plans/2026-01-01-demo-plan.md'], { cwd: join(dir, 'src') })).code,
    0,
    'the Fix works',
  );
  const paused = await forge(['plan', 'pause', '--reason', 'waiting for review'], { cwd: dir });
  assert.equal([paused.code, paused.stdout], [0, 'paused 2026-01-01-demo: waiting for review\nNext: forge plan resume\n']);
  assert.equal((await forge(['plan', 'status', '--json'], { cwd: dir })).records[0]!._next_action, 'forge plan resume');
  const resumed = await forge(['plan', 'resume'], { cwd: dir });
  assert.equal([resumed.code, resumed.stdout], [0, 'resumed 2026-01-01-demo\nNext: forge plan status\n']);
  assert.equal(
    planJournal(dir).map((e) => e.verb),
    ['plan_unit_entered', 'plan_paused', 'plan_resumed'],
  );
});

test('an edited plan: activate refuses with a working --replace Fix; --replace ends the old contract and restarts at U1 in one state commit', async () => {
  const dir = repoWithPlans({
    'docs/plans/p.md': GOOD,
    'docs/plans/q.md': GOOD.replace('plan_id: 2026-01-01-demo', 'plan_id: 2026-01-02-other'),
  });
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/p.md'], { cwd: dir })).code, 0);
  assert.is((await forge(['plan', 'advance'], { cwd: dir })).code, 0, 'U1 needs no verification');
  writeFileSync(
    join(dir, 'docs/plans/p.md'),
    GOOD.replace('context_tokens_expected: 8000\nrequirements: [R1]', 'context_tokens_expected: 9000\nrequirements: [R1]'),
  );
  const commits = stateCommits(dir);
  const again = await forge(['plan', 'activate', '--path', 'docs/plans/p.md'], { cwd: dir });
  assert.equal(
    [again.code, again.stderr],
    [
      1,
      "Error: plan 2026-01-01-demo is already active, at unit U2: --replace ends it and activates 'docs/plans/p.md'\nFix: forge plan activate --path docs/plans/p.md --replace\n",
    ],
  );
  const other = await forge(['plan', 'activate', '--path', 'docs/plans/q.md', '--json'], { cwd: dir });
  assert.equal(
    [other.code, other.records[0]!.error.code, other.records[0]!._next_action],
    [1, 'PLAN_ALREADY_ACTIVE', 'forge plan activate --path docs/plans/q.md --replace'],
    'another plan does not silently take over the gate',
  );
  assert.is(stateCommits(dir), commits, 'refusals write nothing');
  const replaced = await forge(['plan', 'activate', '--path', 'docs/plans/p.md', '--replace'], { cwd: dir });
  assert.equal(
    [replaced.code, replaced.stdout],
    [
      0,
      'ended 2026-01-01-demo (was at U2)\nactivated 2026-01-01-demo (2 units); entered U1 — make the change: tools read, edit, patch, search, ls; paths src/**\nNext: forge plan status\n',
    ],
  );
  assert.is(stateCommits(dir), commits + 1, 'one state commit');
  assert.match(
    git(dir, 'log', '-1', '--format=%s', 'refs/forge/state'),
    /^plan: activate 2026-01-01-demo \(enter U1\), ending 2026-01-01-demo$/,
  );
  const status = (await forge(['plan', 'status', '--json'], { cwd: dir })).records[0]!;
  assert.equal([status.unit, status.status, status.used.runs], ['U1', 'active', []]);
  assert.match(
    git(dir, 'show', 'refs/forge/state:.forge/plans/2026-01-01-demo.json'),
    /"context_tokens_expected": 9000/,
    'the edited envelope is the contract now',
  );
  const switched = await forge(['plan', 'activate', '--path', 'docs/plans/q.md', '--replace', '--json'], { cwd: dir });
  assert.equal([switched.code, switched.records[0]!.plan_id, switched.records[0]!.ended], [0, '2026-01-02-other', ['2026-01-01-demo']]);
  const ended = planJournal(dir).filter((e) => e.verb === 'plan_ended');
  assert.equal(
    ended.map((e) => [e.plan_id, e.unit, e.reason]),
    [
      ['2026-01-01-demo', 'U2', 'replaced by 2026-01-01-demo (docs/plans/p.md)'],
      ['2026-01-01-demo', 'U1', 'replaced by 2026-01-02-other (docs/plans/q.md)'],
    ],
  );
});

test('plan end stops the gate, keeps the contract and journal, and leaves nothing active; a complete plan activates again', async () => {
  const dir = repoWithPlans({ 'docs/plans/p.md': GOOD });
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/p.md'], { cwd: dir })).code, 0);
  const refused = await forge(['plan', 'preflight', '--tool', 'edit', '--path', 'test/a.test.ts'], { cwd: dir });
  assert.is(refused.code, 1, 'gated while active');
  const end = await forge(['plan', 'end', '--reason', 'scope changed'], { cwd: dir });
  assert.equal(
    [end.code, end.stdout],
    [0, 'ended 2026-01-01-demo at U1 (0 of 2 units done): nothing is gated by it now\nNext: forge plan status\n'],
  );
  assert.is((await forge(['plan', 'preflight', '--tool', 'edit', '--path', 'test/a.test.ts'], { cwd: dir })).code, 0, 'nothing gates now');
  assert.is((await forge(['plan', 'status'], { cwd: dir })).stdout, 'no active plan\nNext: forge plan activate --path docs/plans/p.md\n');
  assert.equal(planJournal(dir).at(-1)!.verb === 'plan_ended' ? [planJournal(dir).at(-1)!.reason] : [], ['scope changed']);
  const twice = await forge(['plan', 'end', '--json'], { cwd: dir });
  assert.equal([twice.code, twice.records[0]!.error.code], [1, 'NO_ACTIVE_PLAN']);
  const byId = await forge(['plan', 'end', '--plan-id', '2026-01-01-demo', '--json'], { cwd: dir });
  assert.equal([byId.code, byId.records[0]!.error.code], [1, 'PLAN_ENDED']);
  for (const verb of ['ack', 'advance', 'resume'] as const) {
    const r = await forge(['plan', verb, '--plan-id', '2026-01-01-demo', '--json'], { cwd: dir });
    assert.equal([r.code, r.records[0]!.error.code], [1, 'PLAN_ENDED'], verb);
  }
  // An ended plan, like a complete one, activates again without --replace.
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/p.md'], { cwd: dir })).code, 0);
  assert.is((await forge(['plan', 'advance'], { cwd: dir })).code, 0);
  writeFileSync(join(dir, 'Makefile'), 'test:\n\ttrue\n');
  assert.equal((await forge(['plan', 'advance', '--json'], { cwd: dir })).records[0]!.status, 'complete');
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/p.md'], { cwd: dir })).code, 0, 'a complete plan activates again');
});

test('plan new --date names the file and plan id; a date that is no day is INVALID_ARGUMENT with a working Fix', async () => {
  const dir = tempRepo();
  const r = await forge(['plan', 'new', 'login', '--date', '2026-11-22'], { cwd: dir });
  assert.equal(
    [r.code, r.stdout],
    [
      0,
      'wrote docs/plans/2026-11-22-login-plan.md: edit its envelopes, then check it\nNext: forge plan check --path docs/plans/2026-11-22-login-plan.md\n',
    ],
  );
  for (const date of ['2026-02-30', '22.11.2026', '2026-1-2']) {
    const bad = await forge(['plan', 'new', 'x', '--date', date], { cwd: dir });
    assert.equal([bad.code, bad.stderr.split('\n')[0]], [2, `Error: date '${date}' is not a day written YYYY-MM-DD`]);
    assert.match(bad.stderr, /\nFix: forge plan new x --date \d{4}-\d\d-\d\d\n$/);
  }
});

test.run();
