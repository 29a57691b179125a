// forge validate: real commands, files, parsers, contracts, worktrees and attempt histories.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge, type Run } from '../helpers/forge';
import { git, repoWith, stateCommits, tempDir, tempRepo } from '../helpers/repo';
import { oneUnitPlan } from '../helpers/plans';

const validate = (dir: string, args: string[], env?: Record<string, string | undefined>) =>
  forge(['validate', ...args, '--json'], { cwd: dir, env });
const last = (r: Run) => r.records.at(-1)!;
/** Durations differ run to run; everything else in a record is exact. */
const timeless = <T>(value: T): T =>
  JSON.parse(
    JSON.stringify(value)
      .replace(/"durationMs":\d+/g, '"durationMs":0')
      .replace(/(in|after) \d+\.\d s/g, '$1 <t> s'),
  );
const byName = (r: Run) =>
  Object.fromEntries((last(r).results as Array<{ name: string; message: string }>).map((x) => [x.name, x.message]));
const hasPython = spawnSync('python3', ['-c', '0']).status === 0;

function put(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

test('a passing module proceeds: exit 0, one record, the attempt in the iteration state', async () => {
  const dir = repoWith({ 'src/a.js': 'export const a = 1;\n' });
  const r = await validate(dir, ['m1', '--file', 'src/a.js', '--cmd', 'test -f src/a.js', '--run-id', 'r1']);
  assert.is(r.code, 0);
  assert.is(r.stderr, '', 'no progress when stderr is not a terminal');
  assert.equal(timeless(r.records), [
    {
      ok: true,
      moduleId: 'm1',
      runId: 'r1',
      passed: true,
      score: 1,
      results: [
        { type: 'file_check', name: 'src/a.js', passed: true, message: 'exists' },
        { type: 'syntax_check', name: 'src/a.js', passed: true, message: 'parses' },
        {
          type: 'command',
          name: 'test -f src/a.js',
          passed: true,
          message: 'exit 0 in <t> s',
          exitCode: 0,
          signal: null,
          timedOut: false,
          durationMs: 0,
        },
      ],
      attempt: 1,
      stagnant: false,
      velocity: null,
      oscillating: false,
      sameAsPrev: false,
      recommendation: 'PROCEED',
      reason: 'every check passed',
      _next_action: null,
    },
  ]);
  const state = JSON.parse(git(dir, 'show', 'refs/forge/state:.forge/iterations/r1/m1.json'));
  assert.equal([state.attempts.length, state.lastStatus, state.scores], [1, 'passed', [1]]);
  const events = await forge(['logs', '--run-id', 'r1', '--phase', 'validation', '--json'], { cwd: dir });
  const event = events.records.find((e) => e.type === 'event')!;
  assert.equal(
    [event.event, event.moduleId, event.severity, event.data.recommendation, event.data.attempt],
    ['validate', 'm1', 'info', 'PROCEED', 1],
  );
});

test('PROCEED names forge plan advance only while a plan contract is active (status while paused, nothing once it ended), and the hint works', async () => {
  const dir = repoWith({
    'docs/plans/2026-01-01-one-plan.md': oneUnitPlan({
      id: '2026-01-01-one',
      title: 'one',
      parentTools: ['read', 'bash'],
      unitTools: ['read', 'bash'],
    }),
  });
  const hintOf = async (run?: string) => last(await validate(dir, ['m1', '--cmd', 'true', ...(run ? ['--run-id', run] : [])]))._next_action;
  assert.is(await hintOf(), null, 'no plan is active');
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/2026-01-01-one-plan.md'], { cwd: dir })).code, 0);
  assert.is(await hintOf('r1'), 'forge plan advance --run-id r1');
  assert.is((await forge(['plan', 'pause', '--reason', 'review'], { cwd: dir })).code, 0);
  assert.is(await hintOf(), 'forge plan status');
  assert.is((await forge(['plan', 'resume'], { cwd: dir })).code, 0);
  const followed = await forge((await hintOf())!.split(' ').slice(1).concat('--json'), { cwd: dir });
  assert.equal([followed.code, followed.records.at(-1)!.status], [0, 'complete'], 'the hint advances the plan');
  assert.is(await hintOf(), null, 'the plan is complete');
});

test('failing checks exit 1 with the exit code and output tail; RETRY repeats the call; the same failures again escalate', async () => {
  const dir = tempRepo();
  const noisy = "printf 'line %s\\n' 1 2 3 4 5 6 7 8 9 10; exit 3";
  const args = ['m2', '--file', 'missing.txt', '--cmd', noisy, '--cmd', 'true'];
  const first = await validate(dir, args);
  assert.is(first.code, 1, 'a failed check is exit 1, not 2');
  const rec = last(first);
  assert.equal(
    [rec.passed, rec.score, rec.attempt, rec.recommendation, rec.reason],
    [false, 0.333, 1, 'RETRY', '2 checks failed; attempt 1 of at most 5'],
  );
  assert.equal(rec.results[0], { type: 'file_check', name: 'missing.txt', passed: false, message: "'missing.txt' does not exist" });
  assert.equal([rec.results[1].exitCode, rec.results[1].message.replace(/[\d.]+ s$/, '<t> s')], [3, 'exit 3 after <t> s']);
  assert.match(rec.results[1].tail, /line 1\n[\s\S]*line 10\n$/);
  assert.is(rec._next_action, `forge validate m2 --file missing.txt --cmd '${noisy.replace(/'/g, `'\\''`)}' --cmd true`);
  // The hint is the same call: its words as a shell splits them, run in text.
  const words = execFileSync('sh', ['-c', `set -- ${rec._next_action}; shift; printf '%s\\0' "$@"`], { encoding: 'utf8' });
  const again = await forge(words.split('\0').slice(0, -1), { cwd: dir });
  assert.is(again.code, 1);
  const lines = again.stdout.trimEnd().split('\n');
  assert.equal(lines.slice(0, 2), [
    "FAIL  file_check missing.txt: 'missing.txt' does not exist",
    `FAIL  command '${noisy}': ${/exit 3 after [\d.]+ s/.exec(again.stdout)![0]}`,
  ]);
  assert.equal(
    lines.slice(2, 10),
    [3, 4, 5, 6, 7, 8, 9, 10].map((n) => `      > line ${n}`),
    'the last 8 lines of output',
  );
  assert.match(lines[10]!, /^ok {4}command 'true': exit 0 in [\d.]+ s$/);
  assert.equal(lines.slice(11), [
    'm2 attempt 2: 1 of 3 checks passed (score 0.333, velocity +0.00) — ESCALATE: stagnant: the same checks failed as in attempt 1',
    'Next: forge logs --run-id default',
    'Or: forge iter get m2 --run-id default',
  ]);
});

test('a command past --timeout is killed and fails as timed out', async () => {
  // A command that outlives the test's own limit: however slow the machine, only --timeout ends it. The
  // group kill itself (a child that ignores SIGTERM too) is tested in test/lib/process/program.test.ts,
  // on a clock the test expires once the children are known to run.
  const dir = tempRepo();
  const r = await validate(dir, ['m', '--cmd', 'sleep 600', '--timeout', '1']);
  assert.is(r.code, 1);
  const result = last(r).results[0];
  assert.equal(
    [result.passed, result.timedOut, result.exitCode, result.message],
    [false, true, null, 'timed out after 1 s; its process group was killed'],
  );
});

test('syntax errors in every language, each as file:line:col and the parser message', async () => {
  const dir = tempRepo();
  put(dir, {
    'a.js': 'const a = ;\n',
    'b.mjs': "import { from './x';\n",
    'c.cjs': 'module.exports = {;\n',
    'd.jsx': 'export const a = 1;\nexport const b = <div>;\n',
    'e.ts': 'let x: = 1;\n',
    'f.tsx': 'type Props = { x: string };\nexport const A = (p: Props) => <div className={p.x}></span>;\n',
    'g.json': '{\n  "a": 1\n  "b": 2\n}\n',
    'h.json': '{"a": tru}\n',
    'i.py': 'x = 1\nif x:\nprint(x)\n',
    'ok.cjs': 'if (!module.parent) return;\nmodule.exports = 1;\n',
    'ok.tsx': 'export const B = <T,>(x: T) => <b>{String(x)}</b>;\n',
    'ok.py': 'print(1)\n',
    'notes.txt': 'not checked',
  });
  const files = ['a.js', 'b.mjs', 'c.cjs', 'd.jsx', 'e.ts', 'f.tsx', 'g.json', 'h.json', 'i.py', 'ok.cjs', 'ok.tsx', 'ok.py', 'notes.txt'];
  const r = await validate(dir, ['m', ...files.flatMap((f) => ['--file', f])]);
  assert.is(r.code, 1);
  const syntax = (last(r).results as Array<{ type: string; name: string; message: string; line?: number; col?: number }>).filter(
    (x) => x.type === 'syntax_check',
  );
  assert.equal(
    syntax.map((x) => `${x.name} ${x.message}`),
    [
      'a.js a.js:1:11: Unexpected token',
      'b.mjs b.mjs:1:15: Unexpected token, expected ","',
      'c.cjs c.cjs:1:19: Unexpected token',
      'd.jsx d.jsx:2:23: Unterminated JSX contents.',
      'e.ts e.ts:1:8: Unexpected token',
      'f.tsx f.tsx:2:53: Expected corresponding JSX closing tag for <div>.',
      "g.json g.json:3:3: Expected ',' or '}' after property value",
      "h.json h.json:1:10: Unexpected token '}'",
      hasPython
        ? "i.py i.py:3:1: expected an indented block after 'if' statement on line 2"
        : 'i.py not checked: python3 is not on the PATH',
      'ok.cjs parses',
      'ok.tsx parses',
      hasPython ? 'ok.py parses' : 'ok.py not checked: python3 is not on the PATH',
    ],
  );
  assert.equal([syntax[0]!.line, syntax[0]!.col], [1, 11]);
});

test('broken contracts of every import kind fail at the importer line:col; kept ones pass', async () => {
  const dir = tempRepo();
  put(dir, {
    'src/auth.ts': 'export function login() {}\nexport type Token = string;\nexport * from "./session";\n',
    'src/session.ts': 'export const session = 1;\n',
    'src/named.ts': "import { login, logout } from './auth.js';\n",
    'src/default.ts': "import auth from './auth';\n",
    'src/namespace.ts': "import * as auth from './auth';\nauth.login();\nauth.refresh();\n",
    'src/reexport.ts': "export { session, sessions } from './auth';\n",
    'src/types.ts': "import type { Token, Claims } from './auth';\n",
    'src/good.ts': "import { login, session, type Token } from './auth';\n",
  });
  const importers = ['named', 'default', 'namespace', 'reexport', 'types', 'good'];
  const r = await validate(dir, ['m', ...importers.flatMap((i) => ['--contract', `src/auth.ts:src/${i}.ts`])]);
  assert.is(r.code, 1);
  assert.equal(byName(r), {
    'src/auth.ts:src/named.ts': "src/named.ts:1:17: 'logout' is not exported by src/auth.ts",
    'src/auth.ts:src/default.ts': "src/default.ts:1:8: 'default' is not exported by src/auth.ts",
    'src/auth.ts:src/namespace.ts': "src/namespace.ts:3:6: 'refresh' is not exported by src/auth.ts",
    'src/auth.ts:src/reexport.ts': "src/reexport.ts:1:19: 'sessions' is not exported by src/auth.ts",
    'src/auth.ts:src/types.ts': "src/types.ts:1:22: 'Claims' is not exported by src/auth.ts",
    'src/auth.ts:src/good.ts': '3 names imported, all exported',
  });
  assert.equal(last(r).results[0].missing, [{ name: 'logout', line: 1, col: 17, file: 'src/named.ts' }]);
  assert.is(last(r).score, 0.167);
});

test('attempt histories: oscillating, a score that stops rising, the attempt limit, and a pass after a retry', async () => {
  const dir = tempRepo();
  const run = async (module: string, ...args: string[]) => last(await validate(dir, [module, ...args]));
  const only = (file: string) => {
    for (const f of ['x', 'y']) if (existsSync(join(dir, f))) unlinkSync(join(dir, f));
    writeFileSync(join(dir, file), '');
  };
  const xy = ['--cmd', 'test -f x', '--cmd', 'test -f y'];
  only('y');
  assert.is((await run('osc', ...xy)).recommendation, 'RETRY');
  only('x');
  assert.is((await run('osc', ...xy)).recommendation, 'RETRY');
  only('y');
  const osc = await run('osc', ...xy, '--cmd', 'true', '--cmd', ':');
  assert.equal(
    [osc.attempt, osc.score, osc.oscillating, osc.stagnant, osc.sameAsPrev, osc.recommendation, osc.reason],
    [3, 0.75, true, false, false, 'ESCALATE', 'oscillating: the same checks failed as in attempt 1'],
  );

  await run('flat', '--cmd', 'false #a', '--cmd', 'true');
  await run('flat', '--cmd', 'false #b', '--cmd', 'true', '--cmd', ':');
  const flat = await run('flat', '--cmd', 'false #c', '--cmd', 'true');
  assert.equal([flat.score, flat.velocity, flat.stagnant, flat.oscillating, flat.recommendation], [0.5, 0, true, false, 'ESCALATE']);

  assert.is((await run('capped', '--cmd', 'false #a', '--max-attempts', '2')).recommendation, 'RETRY');
  const capped = await run('capped', '--cmd', 'false #b', '--cmd', 'true', '--max-attempts', '2');
  assert.equal([capped.recommendation, capped.reason, capped.velocity], ['ESCALATE', 'attempt 2 of at most 2', 0.5]);

  const retried = await run('fixed', '--cmd', 'test -f z');
  writeFileSync(join(dir, 'z'), '');
  const fixed = await run('fixed', '--cmd', 'test -f z');
  assert.equal([retried.recommendation, fixed.recommendation, fixed.attempt, fixed.velocity], ['RETRY', 'PROCEED', 2, 1]);
});

test('a linked worktree: checks run there, state lands in the shared state ref, hints carry --cwd', async () => {
  const dir = tempRepo();
  const wt = join(tempDir(), 'm4');
  git(dir, 'worktree', 'add', '-q', '-b', 'm4', wt);
  put(wt, { 'src/new.ts': 'export const fresh = true;\n' });
  const inMain = await validate(dir, ['m4', '--file', 'src/new.ts']);
  assert.is(last(inMain).passed, false, 'the main checkout does not have the worker file');
  const r = await validate(dir, ['m4', '--cwd', wt, '--file', 'src/new.ts', '--cmd', 'git rev-parse --abbrev-ref HEAD | grep -qx m4']);
  assert.is(r.code, 0);
  assert.equal([last(r).attempt, last(r).recommendation, last(r)._next_action], [2, 'PROCEED', null]);
  assert.is(JSON.parse(git(dir, 'show', 'refs/forge/state:.forge/iterations/default/m4.json')).lastStatus, 'passed');
  assert.is(git(wt, 'status', '--porcelain'), '?? src/', 'the worktree is untouched but for the file written');
});

test('a missing working directory is one failing cwd_check and ESCALATE, recorded where forge started', async () => {
  const dir = tempRepo();
  const gone = join(tempDir(), 'removed-worktree');
  const r = await validate(dir, ['m5', '--cwd', gone, '--cmd', 'true', '--file', 'a.ts', '--run-id', 'r5']);
  assert.is(r.code, 1);
  assert.equal(r.records, [
    {
      ok: false,
      moduleId: 'm5',
      runId: 'r5',
      passed: false,
      score: 0,
      results: [
        {
          type: 'cwd_check',
          name: gone,
          passed: false,
          message: `working directory '${gone}' does not exist: was the worktree removed, or never created?`,
        },
      ],
      attempt: 1,
      stagnant: false,
      velocity: null,
      oscillating: false,
      sameAsPrev: false,
      recommendation: 'ESCALATE',
      reason: 'the working directory does not exist: nothing can be checked until it does',
      _next_action: 'forge logs --run-id r5',
      _or_action: 'forge iter get m5 --run-id r5',
    },
  ]);
  assert.is(JSON.parse(git(dir, 'show', 'refs/forge/state:.forge/iterations/r5/m5.json')).lastStatus, 'error');
  const viaEnv = await forge(['validate', 'm5', '--cmd', 'true'], { cwd: dir, env: { FORGE_CWD: gone } });
  assert.is(viaEnv.code, 1);
  assert.match(
    viaEnv.stdout,
    /^FAIL {2}cwd_check .*\nm5 attempt 1: 0 of 1 check passed \(score 0\) — ESCALATE: the working directory does not exist/,
  );
  const outside = await forge(['validate', 'm5', '--cwd', gone, '--cmd', 'true'], { cwd: tempDir() });
  assert.is(outside.code, 1);
  assert.match(
    outside.stdout,
    /ESCALATE: the working directory does not exist: nothing can be checked until it does \(not recorded: not a git repository: '.+'\)\n/,
  );
  const other = await forge(['iter', 'get', 'm5', '--cwd', gone], { cwd: dir });
  assert.is(other.code, 2, 'other commands still refuse a missing directory');
});

test('--plan takes the module files and verify commands; PROCEED names the next ready module, then plan advance', async () => {
  const plan = {
    modules: [
      { id: 'm1', title: 'one', objective: 'o', files: ['a.txt'], verify: ['test -s a.txt'], doneWhen: 'a' },
      { id: 'm2', title: 'two', objective: 'o', files: ['b.txt'], verify: 'test -s b.txt', doneWhen: 'b', dependsOn: ['m1'] },
      { id: 'm3', title: 'three', objective: 'o', files: [], verify: ['true'], doneWhen: 'c', dependsOn: ['m2'] },
    ],
  };
  const dir = repoWith({ '.forge/modules/p.json': JSON.stringify(plan, null, 2), 'a.txt': 'a\n' });
  const p = '.forge/modules/p.json';
  const m1 = await validate(dir, ['m1', '--plan', p]);
  assert.equal(
    [m1.code, last(m1).results.map((x: { type: string }) => x.type), last(m1)._next_action],
    [0, ['file_check', 'command'], `forge validate m2 --plan ${p}`],
  );
  const m2 = await validate(dir, ['--plan', p, '--module', 'm2']);
  assert.equal([m2.code, last(m2).recommendation, last(m2)._next_action], [1, 'RETRY', `forge validate m2 --plan ${p}`]);
  writeFileSync(join(dir, 'b.txt'), 'b\n');
  assert.is(last(await validate(dir, ['m2', '--plan', p]))._next_action, `forge validate m3 --plan ${p}`);
  assert.is(last(await validate(dir, ['m3', '--plan', p]))._next_action, null, 'no plan contract is active: nothing to advance');
  const unknown = await validate(dir, ['m9', '--plan', p]);
  assert.equal(
    [unknown.code, last(unknown).error.code, last(unknown).error.message, last(unknown)._next_action],
    [2, 'MODULE_NOT_FOUND', `'${p}' has no module 'm9' (it has m1, m2, m3)`, `forge validate m1 --plan ${p}`],
  );
  writeFileSync(join(dir, 'bad.json'), '{"modules": [{"id": "m1"}]}\n');
  const bad = await validate(dir, ['m1', '--plan', 'bad.json']);
  assert.equal([bad.code, last(bad).error.code, last(bad)._next_action], [1, 'PLAN_INVALID', 'forge plan check --path bad.json']);
  assert.match(last(bad).error.message, /^bad\.json:1:\d+: /);
});

test('bad invocations exit 2 and record nothing; NDJSON requests each get a record', async () => {
  const dir = tempRepo();
  const cases: Array<[string[], string]> = [
    [['m'], 'NOTHING_TO_CHECK'],
    [['m', '--contract', 'src/a.ts'], 'INVALID_CONTRACT'],
    [['m', '--contract', 'a.py:b.py'], 'INVALID_CONTRACT'],
    [['../m', '--cmd', 'true'], 'INVALID_ID'],
    [['m', '--cmd', 'true', '--timeout', '0'], 'INVALID_ARGUMENT'],
    [['m', '--plan', 'nope.json'], 'PLAN_NOT_FOUND'],
  ];
  for (const [args, code] of cases) {
    const r = await validate(dir, args);
    assert.equal([r.code, last(r).error.code], [2, code], args.join(' '));
  }
  assert.is(stateCommits(dir), 0);
  const text = await forge(['validate', 'm'], { cwd: dir });
  assert.is(text.stderr, "Error: nothing to check for 'm': give --cmd, --file, --contract or --plan\nFix: forge validate --help\n");
  const stream = await forge(['validate'], {
    cwd: dir,
    input: '{"id":1,"module":"a","cmd":["true"]}\n{"id":2,"module":"b","file":["nope"]}\n',
  });
  assert.is(stream.code, 1, 'the highest exit of the requests');
  assert.equal(
    stream.records.map((x) => [x.id, x.moduleId, x.recommendation]),
    [
      [1, 'a', 'PROCEED'],
      [2, 'b', 'RETRY'],
    ],
  );
});

test.run();
