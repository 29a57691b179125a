// forge agent made safe: the plan-contract gate on every tool call, checkpoints and undo, the change-impact sweep, hooks, MCP servers.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forgeBinDir } from '../helpers/claude';
import { forge } from '../helpers/forge';
import { reply, startOpenAIServer } from '../helpers/openai-server';
import { git, planJournal, repoWith, tempDir, userView } from '../helpers/repo';

/** Rails take in docs/ to read, the blast radius only src/ and test/; the first unit only src/. */
const CONTRACT = `---
envelope:
  plan_id: agent-gate
  plan_contract_version: 1
  parent_rails:
    allowed_tools: [read, edit, write, bash, search, ls]
    allowed_paths: ["src/**", "test/**", "docs/**"]
    surface: local_branch
  parent_blast_radius:
    path_globs: ["src/**", "test/**"]
  requirements: [R1]
---

# agent gate

### U1 — change src

\`\`\`envelope
allowed_tools: [read, edit, bash]
allowed_paths: ["src/**"]
surface: artifacts_only
requirements: [R1]
\`\`\`
`;

test('a contract refuses the agent: hard refusals stop the call, a soft one is acked through bash and then runs', async () => {
  const dir = repoWith({
    'docs/plans/gate.md': CONTRACT,
    'src/a.ts': 'export const a = 1;\n',
    'test/a.test.ts': "import { a } from '../src/a';\n",
    'docs/notes.md': 'notes\n',
  });
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/gate.md'], { cwd: dir })).code, 0);
  const server = await startOpenAIServer({
    script: [
      reply({
        toolCalls: [
          { name: 'edit', arguments: { path: 'docs/notes.md', old: 'notes', new: 'changed' } },
          { name: 'edit', arguments: { path: 'test/a.test.ts', old: "'../src/a'", new: "'../src/a.js'" } },
        ],
      }),
      reply({ toolCalls: [{ name: 'bash', arguments: { command: 'forge plan ack' } }] }),
      reply({
        toolCalls: [
          { name: 'edit', arguments: { path: 'test/a.test.ts', old: "'../src/a'", new: "'../src/a.js'" } },
          { name: 'edit', arguments: { path: 'src/a.ts', old: '= 1', new: '= 2' } },
        ],
      }),
      reply({ text: 'Done within the plan.' }),
    ],
  });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'm', '--json', 'tidy the imports'], {
      cwd: dir,
      env: { PATH: `${forgeBinDir()}:${process.env.PATH}` },
    });
    assert.is(r.code, 0, r.stderr);
    const results = server.chatBodies().map((b) => b.messages.filter((m) => m.role === 'tool').map((m) => String(m.content)));
    const [hard, soft] = results[1]!;
    assert.match(hard!, /^Refused by the active plan contract \(PLAN_BREACH_BLAST_RADIUS, hard\): .*docs\/notes\.md/);
    assert.match(hard!, /This call cannot run under the plan; nothing was done\./);
    assert.match(soft!, /^Refused by the active plan contract \(PLAN_BREACH_PATHS, soft\): /);
    assert.match(soft!, /run bash \{"command": "forge plan ack"\} and then repeat exactly this call/);
    assert.match(results[2]!.at(-1)!, /acknowledged/i);
    const [retried, inUnit] = results[3]!.slice(-2);
    assert.match(retried!, /test\/a\.test\.ts/);
    assert.not.match(retried!, /Refused/);
    assert.not.match(inUnit!, /Refused/);
    assert.is(readFileSync(join(dir, 'docs/notes.md'), 'utf8'), 'notes\n', 'the hard-refused edit never ran');
    assert.is(readFileSync(join(dir, 'test/a.test.ts'), 'utf8'), "import { a } from '../src/a.js';\n");
    assert.is(readFileSync(join(dir, 'src/a.ts'), 'utf8'), 'export const a = 2;\n');
    assert.is(r.records.at(-1)!.refused, 2);
    const journal = planJournal(dir).map((e) => e.verb);
    assert.equal(journal.filter((v: string) => v === 'plan_breach_refused').length, 2);
    assert.ok(journal.includes('plan_breach_acknowledged'));
  } finally {
    await server.close();
  }
});

test("the agent's gate fails closed on a contract it cannot read, and every check is in the run's log", async () => {
  // The model's first call (allowed) replaces the active contract on the state ref with bytes that are not JSON.
  const corrupt = [
    'export GIT_INDEX_FILE="$PWD/.git/corrupt-index"',
    'git read-tree refs/forge/state',
    "blob=$(printf 'not json' | git hash-object -w --stdin)",
    'git update-index --add --cacheinfo "100644,$blob,.forge/plans/agent-gate.json"',
    'git update-ref refs/forge/state "$(git commit-tree "$(git write-tree)" -p refs/forge/state -m corrupt)"',
  ].join('\n');
  const dir = repoWith({ 'docs/plans/gate.md': CONTRACT, 'src/a.ts': 'export const a = 1;\n', 'src/corrupt.sh': `${corrupt}\n` });
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/gate.md'], { cwd: dir })).code, 0);
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [{ name: 'bash', arguments: { command: 'sh src/corrupt.sh' } }] }),
      reply({ toolCalls: [{ name: 'edit', arguments: { path: 'src/a.ts', old: '= 1', new: '= 2' } }] }),
      reply({ text: 'Stopped: the plan cannot be read.' }),
      reply({ text: 'Stopped: the plan cannot be read.' }),
    ],
  });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'm', '--run-id', 'gated', '--json', 'bump a'], {
      cwd: dir,
      env: { PATH: `${forgeBinDir()}:${process.env.PATH}` },
    });
    // The change was asked for and never made: not done, whatever the model says.
    assert.equal([r.code, r.records.at(-1)!.error.code], [1, 'TASK_NOT_DONE'], r.stderr);
    const results = server.chatBodies().map((b) => b.messages.filter((m) => m.role === 'tool').map((m) => String(m.content)));
    assert.match(results[1]![0]!, /\[exit 0\]/, 'the bash call ran while the contract could be read');
    assert.match(results[2]!.at(-1)!, /^Refused by the active plan contract \(PLAN_UNREADABLE, hard\)/);
    assert.is(readFileSync(join(dir, 'src/a.ts'), 'utf8'), 'export const a = 1;\n', 'the edit the gate could not check never ran');
    const logged = await forge(['logs', '--run-id', 'gated', '--json'], { cwd: dir });
    const checks = logged.records.filter((e) => e.type === 'event' && e.event === 'plan preflight');
    assert.equal(
      checks.map((e) => [e.data.exitCode, e.data.error ?? null]),
      [
        [0, null],
        [1, 'PLAN_UNREADABLE'],
      ],
    );
  } finally {
    await server.close();
  }
});

const write = (path: string, content: string) => ({ name: 'write', arguments: { path, content } });

/** A config home whose one profile holds these settings (hooks, MCP servers…). */
function configHome(profile: Record<string, unknown>): string {
  const home = tempDir('forge-config-');
  mkdirSync(join(home, 'forge'));
  writeFileSync(join(home, 'forge', 'config.json'), JSON.stringify({ default: 't', profiles: { t: profile } }, null, 2));
  return home;
}

test("an on_edit hook's compiler error lands in the edit's result, and the model fixes it in the next call", async () => {
  const dir = repoWith({ 'src/app.js': 'exports.add = function (a, b) {\n  return a + b;\n};\n' });
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [{ name: 'edit', arguments: { path: 'src/app.js', old: '  return a + b;', new: '  return (a + b;' } }] }),
      reply({ toolCalls: [{ name: 'edit', arguments: { path: 'src/app.js', old: '  return (a + b;', new: '  return (a + b);' } }] }),
      reply({ text: 'Parenthesised.' }),
    ],
  });
  try {
    const home = configHome({ hooks: { on_edit: ['node --check src/app.js'], on_task_done: ['echo all-done'] } });
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'm', '--json', 'wrap the sum in parentheses'], {
      cwd: dir,
      env: { XDG_CONFIG_HOME: home },
    });
    assert.is(r.code, 0, r.stderr);
    const [, second, third] = server.chatBodies();
    const broken = String(second!.messages.at(-1)!.content);
    assert.match(broken, /^edited src\/app\.js/);
    assert.match(broken, /\n⚙ on_edit `node --check src\/app\.js` \(exit 1\):\n[\s\S]*SyntaxError/);
    assert.match(String(third!.messages.at(-1)!.content), /\n⚙ on_edit `node --check src\/app\.js` ✓$/);
    assert.is(readFileSync(join(dir, 'src/app.js'), 'utf8'), 'exports.add = function (a, b) {\n  return (a + b);\n};\n');
    assert.ok(
      r.records.some(
        (x) => x.type === 'notice' && /⚙ hooks {2}on_edit: node --check src\/app\.js {2}· {2}on_task_done: echo all-done/.test(x.text),
      ),
    );
    assert.ok(r.records.some((x) => x.type === 'hooks' && /⚙ on_task_done `echo all-done` ✓/.test(x.text)));
    const absent = configHome({ hooks: { on_edit: ['forge-no-such-checker src/app.js'] } });
    const twice = await startOpenAIServer({
      script: [
        reply({ toolCalls: [{ name: 'edit', arguments: { path: 'src/app.js', old: '(a + b)', new: '(b + a)' } }] }),
        reply({ toolCalls: [{ name: 'edit', arguments: { path: 'src/app.js', old: '(b + a)', new: '(a + b)' } }] }),
        reply({ text: 'ok' }),
      ],
    });
    try {
      assert.is(
        (await forge(['agent', '--endpoint', twice.url, '--model', 'm', 'swap twice'], { cwd: dir, env: { XDG_CONFIG_HOME: absent } }))
          .code,
        0,
      );
      const [, afterFirst, afterSecond] = twice.chatBodies().map((b) => String(b.messages.at(-1)!.content));
      assert.match(
        afterFirst!,
        /⚙ on_edit `forge-no-such-checker src\/app\.js` \(exit 127\):[\s\S]*not found, so not run again in this session/,
      );
      assert.not.match(afterSecond!, /on_edit/, 'a hook whose command is missing runs once per session');
    } finally {
      await twice.close();
    }
    const off = configHome({ hooks: { on_edit: ['node --check src/app.js'] }, hooks_disabled: true });
    const quiet = await startOpenAIServer({
      script: [
        reply({ toolCalls: [{ name: 'edit', arguments: { path: 'src/app.js', old: '(a + b)', new: '(a - b)' } }] }),
        reply({ text: 'ok' }),
      ],
    });
    try {
      assert.is(
        (await forge(['agent', '--endpoint', quiet.url, '--model', 'm', 'subtract'], { cwd: dir, env: { XDG_CONFIG_HOME: off } })).code,
        0,
      );
      assert.not.match(String(quiet.chatBodies()[1]!.messages.at(-1)!.content), /on_edit/, 'hooks_disabled: no hook ran');
    } finally {
      await quiet.close();
    }
  } finally {
    await server.close();
  }
});

test('hooks detected from tsconfig.json serve the run; they go into the profile, all five events, only with --save-hooks', async () => {
  const dir = repoWith({ 'tsconfig.json': '{}\n' });
  const home = tempDir('forge-config-');
  const server = await startOpenAIServer({ script: [reply({ text: 'nothing to do' }), reply({ text: 'nothing to do' })] });
  try {
    const unasked = await forge(['agent', '--endpoint', server.url, '--model', 'm', 'look around'], {
      cwd: dir,
      env: { XDG_CONFIG_HOME: home },
    });
    assert.is(unasked.code, 0, unasked.stderr);
    assert.match(
      unasked.stdout,
      /hooks detected from tsconfig\.json serve this run only; forge agent --save-hooks writes them into profiles\.default\.hooks of \S+/,
    );
    assert.match(unasked.stdout, /⚙ hooks {2}on_edit: .*tsc --noEmit/);
    assert.not.ok(existsSync(join(home, 'forge', 'config.json')), 'the config file is not written unasked');
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'm', '--save-hooks', 'look around'], {
      cwd: dir,
      env: { XDG_CONFIG_HOME: home },
    });
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stdout, /hooks detected from tsconfig\.json written to profiles\.default\.hooks in \S+ \(forge hooks list\)/);
    const written = JSON.parse(readFileSync(join(home, 'forge', 'config.json'), 'utf8'));
    assert.equal(Object.keys(written.profiles.default.hooks).sort(), [
      'on_edit',
      'on_session_end',
      'on_session_start',
      'on_step_done',
      'on_task_done',
    ]);
    assert.match(written.profiles.default.hooks.on_edit[0], /tsc --noEmit/);
    const list = await forge(['hooks', 'list', '--json'], { cwd: dir, env: { XDG_CONFIG_HOME: home } });
    assert.match(JSON.stringify(list.records.find((x) => x.event === 'on_edit')), /tsc --noEmit/);
    // The profile serves every repository: a Rust one gets its own detected hooks, the profile unchanged.
    const rust = repoWith({ 'Cargo.toml': '[package]\nname = "x"\n' });
    const there = await forge(['hooks', 'list'], { cwd: rust, env: { XDG_CONFIG_HOME: home } });
    assert.match(there.stdout, /^on_edit +cargo check -q$/m);
    assert.match(
      there.stdout,
      /were detected from tsconfig\.json; this repository differs, so forge agent runs these \(detected from Cargo\.toml\) and leaves the profile as it is/,
    );
    assert.equal(JSON.parse(readFileSync(join(home, 'forge', 'config.json'), 'utf8')), written);
  } finally {
    await server.close();
  }
});

test('checkpoint before the task; forge undo brings back the uncommitted and untracked files the task changed, HEAD and index untouched', async () => {
  const dir = repoWith({
    'src/a.ts': 'export const a = 1;\n',
    'src/use.ts': "import { area } from './shape';\nexport const x = area(2);\n",
    'src/shape.ts': 'export function area(r: number): number {\n  return r * r;\n}\n',
  });
  writeFileSync(join(dir, 'src/a.ts'), 'export const a = 2; // uncommitted\n');
  git(dir, 'add', 'src/a.ts');
  writeFileSync(join(dir, 'src/a.ts'), 'export const a = 3; // staged 2, then 3\n');
  writeFileSync(join(dir, 'notes.txt'), 'untracked notes\n');
  const before = userView(dir);
  const server = await startOpenAIServer({
    script: [
      reply({
        toolCalls: [
          { name: 'write', arguments: { path: 'src/a.ts', content: 'export const a = 4;\n', overwrite: true } },
          { name: 'bash', arguments: { command: 'rm notes.txt' } },
          { name: 'write', arguments: { path: 'src/new.ts', content: 'export const b = 1;\n' } },
          { name: 'edit', arguments: { path: 'src/shape.ts', old: 'area(r: number)', new: 'area(r: number, scale: number)' } },
        ],
      }),
      reply({ text: 'Rewrote a, dropped the notes, added b, scaled area.' }),
    ],
  });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'm', '--json', 'rework things'], { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    const checkpoint = r.records.find((x) => x.type === 'checkpoint')!.commit;
    assert.ok(git(dir, 'for-each-ref', '--format=%(objectname)', 'refs/forge/checkpoints').includes(checkpoint));
    assert.equal(
      r.records.filter((x) => x.type === 'change').map((x) => [x.path, x.status]),
      [
        ['notes.txt', 'deleted'],
        ['src/a.ts', 'modified'],
        ['src/new.ts', 'added'],
        ['src/shape.ts', 'modified'],
      ],
    );
    const impact = r.records.find((x) => x.type === 'impact')!;
    assert.equal(
      [impact.symbol, impact.file, impact.change, impact.references.map((x: any) => `${x.path}:${x.line}`)],
      ['area', 'src/shape.ts', 'signature', ['src/use.ts:1', 'src/use.ts:2']],
    );
    const undo = await forge(['undo', '--yes'], { cwd: dir });
    assert.is(undo.code, 0, undo.stderr);
    assert.is(readFileSync(join(dir, 'src/a.ts'), 'utf8'), 'export const a = 3; // staged 2, then 3\n');
    assert.is(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'untracked notes\n');
    assert.not.ok(existsSync(join(dir, 'src/new.ts')));
    assert.is(userView(dir), before, 'HEAD, the index (the staged version), status and branches are as before the task');
  } finally {
    await server.close();
  }
});

test('auto_commit "task": a successful task ends in one commit with the configured prefix; off by default', async () => {
  const dir = repoWith({ 'README.md': '# auto\n' });
  const identity = {
    GIT_AUTHOR_NAME: 'Ada',
    GIT_AUTHOR_EMAIL: 'ada@example.com',
    GIT_COMMITTER_NAME: 'Ada',
    GIT_COMMITTER_EMAIL: 'ada@example.com',
  };
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [write('NOTES.md', 'notes\n')] }),
      reply({ text: 'Wrote notes.' }),
      reply({ toolCalls: [write('MORE.md', 'more\n')] }),
      reply({ text: 'Wrote more.' }),
    ],
  });
  try {
    const head = git(dir, 'rev-parse', 'HEAD');
    const off = await forge(['agent', '--endpoint', server.url, '--model', 'm', 'write notes'], { cwd: dir, env: identity });
    assert.is(off.code, 0, off.stderr);
    assert.is(git(dir, 'rev-parse', 'HEAD'), head, 'no commit unless asked');
    const home = configHome({ auto_commit: 'task', auto_commit_prefix: 'agent: ' });
    const on = await forge(['agent', '--endpoint', server.url, '--model', 'm', 'write more notes'], {
      cwd: dir,
      env: { ...identity, XDG_CONFIG_HOME: home },
    });
    assert.is(on.code, 0, on.stderr);
    assert.is(git(dir, 'log', '-1', '--format=%s|%an'), 'agent: write more notes|Ada');
    assert.is(git(dir, 'rev-parse', 'HEAD~1'), head);
    assert.is(git(dir, 'status', '--porcelain'), '', "both tasks' files are in the commit");
  } finally {
    await server.close();
  }
});

test("MCP servers' tools are offered and called as <server>.<tool>; a broken server is skipped with one warning", async () => {
  const dir = repoWith({ 'README.md': '# mcp\n' });
  const fixture = resolve('test/fixtures/mcp/echo-server.mjs');
  // A word only this test's server has on its command line, to look for it after forge exits.
  const tag = `--tag=agent-mcp-${process.pid}-${Date.now()}`;
  const home = configHome({
    mcp_servers: [
      { name: 'fix', command: [process.execPath, fixture, tag] },
      { name: 'broken', command: ['/nonexistent/mcp-server'] },
    ],
  });
  const server = await startOpenAIServer({
    script: [
      reply({
        toolCalls: [
          { name: 'fix__echo', arguments: { text: 'hello over mcp' } },
          { name: 'fix__add', arguments: { a: 2, b: 3 } },
        ],
      }),
      reply({ text: 'Echoed.' }),
    ],
  });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'm', '--json', 'echo something'], {
      cwd: dir,
      env: { XDG_CONFIG_HOME: home },
    });
    assert.is(r.code, 0, r.stderr);
    const [first, second] = server.chatBodies();
    const names = first!.tools!.map((t: any) => t.function.name);
    assert.ok(names.includes('fix__echo') && names.includes('fix__add'), names.join(' '));
    assert.not.ok(names.some((n: string) => n.startsWith('broken')));
    const results = second!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    assert.match(results[0]!, /hello over mcp/);
    assert.match(results[1]!, /\b5\b/);
    const warnings = r.records.filter((x) => x.type === 'notice' && x.kind === 'warning');
    assert.is(warnings.length, 1);
    assert.match(warnings[0]!.text, /^MCP server 'broken' skipped: .*fix profiles\.t\.mcp_servers\[1\]\.command in /);
    assert.ok(r.records.some((x) => x.type === 'notice' && x.kind === 'mcp' && /fix \(\d+ tools\)/.test(x.text)));
    const left = spawnSync('pgrep', ['-f', tag], { encoding: 'utf8' });
    assert.is(left.stdout.trim(), '', 'the MCP server stopped when forge agent exited');
  } finally {
    await server.close();
  }
});

test("forge agent's model cannot end its plan: forge plan end through bash is refused by the gate, and a script the unit allows that runs it is refused by forge itself", async () => {
  const dir = repoWith({
    'docs/plans/gate.md': CONTRACT,
    'src/a.ts': 'export const a = 1;\n',
    'src/end.sh': 'forge plan end --reason "the model wants out"\n',
  });
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/gate.md'], { cwd: dir })).code, 0);
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [{ name: 'bash', arguments: { command: 'forge plan end' } }] }),
      reply({ toolCalls: [{ name: 'bash', arguments: { command: 'sh src/end.sh' } }] }),
      reply({ toolCalls: [{ name: 'bash', arguments: { command: 'git -C . push origin HEAD' } }] }),
      reply({ text: 'I could not end the plan.' }),
    ],
  });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'm', '--json', 'finish'], {
      cwd: dir,
      env: { PATH: `${forgeBinDir()}:${process.env.PATH}` },
    });
    assert.is(r.code, 0, r.stderr);
    const results = server.chatBodies().map((b) => b.messages.filter((m) => m.role === 'tool').map((m) => String(m.content)));
    assert.match(results[1]!.at(-1)!, /^Refused by the active plan contract \(PLAN_OPERATOR_ONLY, hard\)/);
    // The script is a program the unit lets bash run; forge plan end inside it finds the agent among its ancestors.
    assert.match(results[2]!.at(-1)!, /is the operator's, and this runs inside forge agent/);
    assert.match(results[3]!.at(-1)!, /^Refused by the active plan contract \(PLAN_BREACH_SURFACE, hard\)/);
    const status = (await forge(['plan', 'status', '--json'], { cwd: dir })).records[0]!;
    assert.is(status.status, 'active', 'the plan still gates');
  } finally {
    await server.close();
  }
});

test.run();
