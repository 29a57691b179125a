// The plan gate judges a path by where it leads, as forge's file tools do: symlinks, `..` after one, absolute paths, .git in any spelling.
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { locateWorkspace, pathLead } from '../../../lib/files/workspace';
import { forge } from '../../helpers/forge';
import { oneUnitPlan } from '../../helpers/plans';
import { git, repoWith, tempDir } from '../../helpers/repo';

const TOOLS = ['read', 'edit', 'write', 'search', 'patch'];

/** Rails src/** and docs/**, blast radius src/**, U1 src/**. */
const PLAN = oneUnitPlan({ id: 'paths-demo', title: 'paths demo', parentTools: TOOLS, unitTools: TOOLS });

/** A plan that allows every path everywhere: git's own files must still be refused. */
const OPEN_PLAN = `---
envelope:
  plan_id: open-demo
  plan_contract_version: 1
  parent_rails:
    allowed_tools: [${TOOLS.join(', ')}]
    allowed_paths: ["**"]
    surface: artifacts_only
  parent_blast_radius:
    path_globs: ["**"]
  requirements: [R1]
---

# open demo

### U1 — anything

\`\`\`envelope
allowed_tools: [${TOOLS.join(', ')}]
allowed_paths: ["**"]
surface: artifacts_only
requirements: [R1]
\`\`\`
`;

const GIT_REFUSAL = "git's own files, which no plan opens to a tool call";

/** A repository with the plan active, and `links` (path → target, as symlinkSync takes them) made in it. */
async function activeRepo(plan: string, links: Record<string, string> = {}): Promise<string> {
  const dir = repoWith({
    'docs/plans/p.md': plan,
    'src/a.ts': 'export const a = 1;\n',
    'docs/guide.md': '# guide\n',
    'docs/sub/keep.md': 'x\n',
  });
  const r = await forge(['plan', 'activate', '--path', 'docs/plans/p.md'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  for (const [path, target] of Object.entries(links)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    symlinkSync(target, join(dir, path));
  }
  return dir;
}

/** forge plan preflight --tool … --path …: the decision as a record. */
async function preflight(dir: string, tool: string, ...paths: string[]) {
  const r = await forge(['plan', 'preflight', '--tool', tool, ...paths.flatMap((p) => ['--path', p]), '--json'], { cwd: dir });
  const rec = r.records[0]!;
  const facts = rec.error?.data ?? rec;
  return { code: r.code, error: rec.error?.code ?? null, posture: facts.posture, reason: facts.reason as string, paths: facts.paths };
}

/** A hard refusal of the rails, the reason as given. */
function assertHard(r: Awaited<ReturnType<typeof preflight>>, reason: string | RegExp, what: string) {
  assert.equal([r.code, r.error, r.posture], [1, 'PLAN_BREACH_RAILS', 'hard'], `${what}: ${r.reason}`);
  if (typeof reason === 'string') assert.is(r.reason, reason, what);
  else assert.match(r.reason, reason, what);
}

test('a symlink to .git/config is git’s own files: an edit and a read are refused hard, and no ack lets them through', async () => {
  const dir = await activeRepo(PLAN, { 'src/cfg': '../.git/config' });
  for (const tool of ['edit', 'read']) {
    const r = await preflight(dir, tool, 'src/cfg');
    assertHard(r, `plan breach: paths — 'src/cfg' leads to '.git/config', ${GIT_REFUSAL}`, tool);
    assert.equal(r.paths, ['src/cfg', '.git/config']);
  }
  assert.is((await forge(['plan', 'ack', '--json'], { cwd: dir })).records[0]!.error.code, 'NO_SOFT_BREACH');
  // By its absolute name too; while the file it names is allowed, by absolute name or not.
  assertHard(await preflight(dir, 'edit', join(dir, 'src/cfg')), /^plan breach: paths — 'src\/cfg' leads to '\.git\/config'/, 'absolute');
  const allowed = await preflight(dir, 'edit', join(dir, 'src/a.ts'));
  assert.equal([allowed.code, allowed.paths], [0, ['src/a.ts']]);
});

test("git's own files are refused hard whatever the plan allows: allowed_paths ['**'], .GIT and .g\\u200cit, a chain, a dangling link, `..` after a link", async () => {
  const dir = await activeRepo(OPEN_PLAN, {
    'src/cfg': '../.git/config',
    'src/c1': 'c2',
    'src/c2': '../docs/c3',
    'docs/c3': '../.git/HEAD',
    'src/hook': '../.git/hooks/pre-commit',
    'src/refs': '../.git/refs',
  });
  assert.is((await preflight(dir, 'edit', 'src/a.ts')).code, 0, 'the plan allows everything else');
  assertHard(await preflight(dir, 'edit', 'src/cfg'), `plan breach: paths — 'src/cfg' leads to '.git/config', ${GIT_REFUSAL}`, 'link');
  assertHard(await preflight(dir, 'read', '.git/config'), `plan breach: paths — '.git/config' is in ${GIT_REFUSAL}`, 'by name');
  // On a case-sensitive file system .GIT is another directory, but not on every checkout of this repository.
  assertHard(await preflight(dir, 'write', '.GIT/config'), `plan breach: paths — '.GIT/config' is in ${GIT_REFUSAL}`, '.GIT');
  assertHard(await preflight(dir, 'write', '.g\u200cit/config'), `plan breach: paths — '.g\u200cit/config' is in ${GIT_REFUSAL}`, 'HFS');
  assertHard(await preflight(dir, 'edit', 'src/c1'), `plan breach: paths — 'src/c1' leads to '.git/HEAD', ${GIT_REFUSAL}`, 'chain');
  const dangling = await preflight(dir, 'write', 'src/hook');
  assertHard(dangling, `plan breach: paths — 'src/hook' leads to '.git/hooks/pre-commit', ${GIT_REFUSAL}`, 'dangling');
  assertHard(
    await preflight(dir, 'edit', 'src/refs/../config'),
    `plan breach: paths — 'src/refs/../config' leads to '.git/config', ${GIT_REFUSAL}`,
    '..',
  );
  assertHard(await preflight(dir, 'search', 'src/refs'), `plan breach: paths — 'src/refs/' leads to '.git/refs/', ${GIT_REFUSAL}`, 'dir');
});

test('a path leading out of the repository is the ../ form the rails refuse hard: a link to a file outside or /etc/passwd, a dangling one, a chain', async () => {
  const away = tempDir('forge-away-');
  writeFileSync(join(away, 'secret.txt'), 'secret\n');
  const dir = await activeRepo(PLAN, {
    'src/pw': join(away, 'secret.txt'),
    'src/gone': join(away, 'missing/new.txt'),
    'src/hop': 'pw',
    'src/etc': '/etc/passwd',
  });
  for (const [tool, path, to] of [
    ['read', 'src/pw', join(away, 'secret.txt')],
    ['edit', 'src/pw', join(away, 'secret.txt')],
    ['write', 'src/gone', join(away, 'missing/new.txt')],
    ['read', 'src/hop', join(away, 'secret.txt')],
    ['read', 'src/etc', realpathSync('/etc/passwd')],
  ] as const) {
    const r = await preflight(dir, tool, path);
    const out = relative(dir, to);
    assertHard(r, `plan breach: paths — '${out}' (where '${path}' leads) is outside the plan's rails (src/**, docs/**)`, `${tool} ${path}`);
    assert.equal(r.paths, [path, out]);
  }
});

test('a directory link, `..` after a link: the name and where it leads must both be allowed, and the refusal names both', async () => {
  const dir = await activeRepo(PLAN, { 'src/d': '../docs', 'src/link': '../docs/sub', 'src/alias': 'a.ts' });
  const read = await preflight(dir, 'read', 'src/d/guide.md');
  assert.equal(
    [read.code, read.error, read.posture, read.reason, read.paths],
    [
      1,
      'PLAN_BREACH_PATHS',
      'soft',
      "plan breach: paths — 'docs/guide.md' (where 'src/d/guide.md' leads) is outside U1's allowed_paths (src/**)",
      ['src/d/guide.md', 'docs/guide.md'],
    ],
  );
  const edit = await preflight(dir, 'edit', 'src/d/guide.md');
  assert.equal(
    [edit.error, edit.posture, edit.reason],
    [
      'PLAN_BREACH_BLAST_RADIUS',
      'hard',
      "plan breach: blast radius — changing 'docs/guide.md' (where 'src/d/guide.md' leads) is outside the plan's blast radius (src/**)",
    ],
  );
  const search = await preflight(dir, 'search', 'src/d');
  assert.equal([search.error, search.paths], ['PLAN_BREACH_PATHS', ['src/d/', 'docs/']]);
  // The kernel reads src/link/.. as docs; a tool that normalises the name first reaches src/guide.md: both are judged.
  const up = await preflight(dir, 'read', 'src/link/../guide.md');
  assert.equal(
    [up.error, up.reason, up.paths],
    [
      'PLAN_BREACH_PATHS',
      "plan breach: paths — 'docs/guide.md' (where 'src/link/../guide.md' leads) is outside U1's allowed_paths (src/**)",
      ['src/guide.md', 'docs/guide.md'],
    ],
  );
  // A name outside the unit leading inside it is refused by its name.
  symlinkSync('../src/a.ts', join(dir, 'docs/to-a'));
  const back = await preflight(dir, 'edit', 'docs/to-a');
  assert.equal(
    [back.error, back.reason],
    [
      'PLAN_BREACH_BLAST_RADIUS',
      "plan breach: blast radius — changing 'docs/to-a' (which leads to 'src/a.ts') is outside the plan's blast radius (src/**)",
    ],
  );
  // A link inside the allowed paths to another allowed path is allowed, judged as both.
  const alias = await preflight(dir, 'edit', 'src/alias');
  assert.equal([alias.code, alias.paths], [0, ['src/alias', 'src/a.ts']]);
});

test('pathLead: the kernel reading of `..` after a link, the normalised one, and which is git', async () => {
  const dir = await activeRepo(PLAN, { 'src/link': '../docs/sub', 'src/refs': '../.git/refs', 'src/dead': '../nowhere/x' });
  const ws = await locateWorkspace({ cwd: dir });
  const lead = (path: string, base = dir) => pathLead({ ws, base, path });
  assert.equal(await lead('src/link/../guide.md'), {
    given: 'src/guide.md',
    leads: ['docs/guide.md', 'src/guide.md'],
    real: join(dir, 'docs/guide.md'),
    git: null,
  });
  assert.equal((await lead('../../x', join(dir, 'src'))).given, '../x');
  assert.equal(await lead('src/dead'), { given: 'src/dead', leads: ['nowhere/x'], real: join(dir, 'nowhere/x'), git: null });
  assert.equal((await lead('src/refs/heads/new')).git, '.git/refs/heads/new');
  assert.equal((await lead('sub/.Git/config')).git, 'sub/.Git/config');
  // A git dir under no .git name (git init --separate-git-dir) is still git's own files, wherever a link finds it.
  const top = tempDir('forge-sep-');
  git(top, 'init', '-q', '--separate-git-dir', join(top, 'gd'), join(top, 'wt'));
  symlinkSync('../gd/config', join(top, 'wt/cfg'));
  const separate = await locateWorkspace({ cwd: join(top, 'wt') });
  assert.equal(await pathLead({ ws: separate, base: join(top, 'wt'), path: 'cfg' }), {
    given: 'cfg',
    leads: ['../gd/config'],
    real: join(top, 'gd/config'),
    git: '../gd/config',
  });
});

test('through the hook doors: Claude Code, OpenCode and Codex (apply_patch) calls on links are refused as forge preflight refuses them', async () => {
  const away = tempDir('forge-away-');
  writeFileSync(join(away, 'passwd'), 'root:x:0:0\n');
  const dir = await activeRepo(PLAN, {
    'src/cfg': '../.git/config',
    'src/pw': join(away, 'passwd'),
    'src/d': '../docs',
    'src/alias': 'a.ts',
  });
  const hook = async (agent: string, payload: Record<string, unknown>) => {
    const r = await forge(['plan', 'preflight', '--hook', agent], { cwd: dir, input: JSON.stringify(payload) });
    assert.is(r.code, 0, r.stderr);
    return r.stdout ? JSON.parse(r.stdout) : null;
  };
  const claude = (tool_name: string, tool_input: Record<string, unknown>) =>
    hook('claude', { session_id: 's1', transcript_path: '/dev/null', cwd: dir, hook_event_name: 'PreToolUse', tool_name, tool_input }).then(
      (a) => a?.hookSpecificOutput.permissionDecisionReason ?? null,
    );
  assert.match(
    await claude('Edit', { file_path: join(dir, 'src/cfg'), old_string: 'a', new_string: 'b' }),
    /^plan breach: paths — 'src\/cfg' leads to '\.git\/config', git's own files.*A hard refusal/,
  );
  assert.match(await claude('Read', { file_path: join(dir, 'src/cfg') }), /^plan breach: paths — 'src\/cfg' leads to '\.git\/config'/);
  assert.match(await claude('Read', { file_path: join(dir, 'src/pw') }), /\(where 'src\/pw' leads\) is outside the plan's rails/);
  assert.match(
    await claude('Write', { file_path: join(dir, 'src/d/new.md'), content: 'x' }),
    /^plan breach: blast radius — changing 'docs\/new.md' \(where 'src\/d\/new.md' leads\)/,
  );
  assert.is(await claude('Edit', { file_path: join(dir, 'src/alias'), old_string: '1', new_string: '2' }), null);

  const opencode = (tool: string, args: Record<string, unknown>) =>
    hook('opencode', { tool, sessionID: 'oc', callID: 'c1', args, directory: dir }).then((a) => a?.reason ?? null);
  assert.match(
    await opencode('edit', { filePath: join(dir, 'src/cfg'), oldString: 'a', newString: 'b' }),
    /^plan breach: paths — 'src\/cfg' leads to '\.git\/config'/,
  );
  assert.match(await opencode('read', { filePath: join(dir, 'src/pw') }), /\(where 'src\/pw' leads\) is outside the plan's rails/);
  assert.is(await opencode('read', { filePath: join(dir, 'src/a.ts') }), null);

  const patch = (file: string) => `*** Begin Patch\n*** Update File: ${file}\n@@\n-a\n+b\n*** End Patch\n`;
  const codex = (command: string) =>
    hook('codex', {
      session_id: 'cx',
      turn_id: 't1',
      cwd: dir,
      hook_event_name: 'PreToolUse',
      tool_name: 'apply_patch',
      tool_input: { command },
    }).then((a) => a?.hookSpecificOutput.permissionDecisionReason ?? null);
  assert.match(await codex(patch('src/cfg')), /^plan breach: paths — 'src\/cfg' leads to '\.git\/config'/);
  assert.match(
    await codex(patch('src/d/guide.md')),
    /^plan breach: blast radius — changing 'docs\/guide.md' \(where 'src\/d\/guide.md' leads\)/,
  );
  assert.is(await codex(patch('src/alias')), null);
});

test('a shell command’s paths follow the same rule: cat, a redirection, sed -i and git config through links or into .git are refused hard', async () => {
  const dir = await activeRepo(
    oneUnitPlan({ id: 'shell-paths', title: 'shell paths', parentTools: [...TOOLS, 'bash'], unitTools: [...TOOLS, 'bash'] }),
    {
      'src/cfg': '../.git/config',
      'src/d': '../docs',
    },
  );
  const bash = async (command: string) => {
    const r = await forge(['plan', 'preflight', '--tool', 'bash', '--command', command], { cwd: dir });
    return { code: r.code, text: r.stderr };
  };
  for (const command of [
    'cat src/cfg',
    'echo x >> src/cfg',
    "sed -i 's/a/b/' src/cfg",
    'git config core.hooksPath /tmp/h',
    'cat .GIT/config',
  ])
    assert.match((await bash(command)).text, /git's own files.*\n.*|git's own files/, command);
  assert.match((await bash('echo x > src/d/new.md')).text, /\(where 'src\/d\/new.md' leads\)/, 'a write through a directory link');
  assert.is((await bash('cat src/a.ts')).code, 0, 'a read within the unit');
});

test.run();
