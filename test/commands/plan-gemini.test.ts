// forge plan install-hook gemini and preflight --hook gemini: the plan gate as Gemini CLI's BeforeTool hook, run as Gemini CLI runs it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { hookEnv, runHook } from '../helpers/claude';
import { forge } from '../helpers/forge';
import { planJournal, repoWith, tempDir } from '../helpers/repo';
import { oneUnitPlan } from '../helpers/plans';

const PLAN = oneUnitPlan({
  id: 'gemini-demo',
  title: 'gemini demo',
  parentTools: ['read', 'edit', 'write', 'bash', 'search', 'ls'],
  unitTools: ['read', 'edit'],
});

/** The user's own settings, with the comments and trailing comma Gemini CLI accepts: kept byte for byte. */
const USER_SETTINGS = `{
  // my Gemini settings
  "general": { "vimMode": true },
  "hooks": {
    "AfterTool": [{ "matcher": "write_file", "hooks": [{ "type": "command", "command": "./lint.sh" }] }],
  },
}
`;

/** The hook command as installed: what Gemini CLI runs through the shell for each tool call. */
function installedCommand(file: string): string {
  const settings = parse(readFileSync(file, 'utf8')) as any;
  const entry = settings.hooks.BeforeTool.at(-1);
  assert.is(entry.matcher, undefined, 'no matcher: every tool');
  assert.is(entry.hooks[0].name, 'forge-plan-gate');
  return entry.hooks[0].command as string;
}

test('Gemini CLI: install-hook merges settings.json keeping comments; the installed hook allows, denies in Gemini JSON, acks and retries', async () => {
  const dir = repoWith({ 'docs/plans/gemini.md': PLAN, 'src/a.ts': 'export const a = 1;\n', '.gemini/settings.json': USER_SETTINGS });
  const inst = await forge(['plan', 'install-hook', 'gemini', '--json'], { cwd: join(dir, 'src') });
  assert.is(inst.code, 0, inst.stderr);
  assert.is(inst.records[0]!.added, true);
  const text = readFileSync(join(dir, '.gemini/settings.json'), 'utf8');
  assert.ok(text.includes('// my Gemini settings') && text.includes('"general": { "vimMode": true },'), 'comments and formatting kept');
  assert.equal((parse(text) as any).hooks.AfterTool[0].hooks[0].command, './lint.sh', "the user's hook kept");
  const command = installedCommand(join(dir, '.gemini/settings.json'));
  assert.is((await forge(['plan', 'install-hook', 'gemini', '--json'], { cwd: dir })).records[0]!.added, false);
  assert.is(readFileSync(join(dir, '.gemini/settings.json'), 'utf8'), text, 'idempotent');

  const base = {
    session_id: 'gem-sess',
    transcript_path: '/tmp/t.json',
    cwd: dir,
    hook_event_name: 'BeforeTool',
    timestamp: '2026-11-24T10:00:00.000Z',
  };
  // No plan yet: every call passes and nothing is written.
  assert.equal([runHook({ dir, command, payload: 'not json' }).stdout, runHook({ dir, command, payload: 'not json' }).status], ['', 0]);
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/gemini.md'], { cwd: dir })).code, 0);
  const answer = (payload: Record<string, unknown> | string) => {
    const r = runHook({ dir, command, payload: typeof payload === 'string' ? payload : { ...base, ...payload } });
    assert.is(r.status, 0, r.stderr);
    return r.stdout ? (JSON.parse(r.stdout) as { decision: string; reason: string }) : null;
  };

  assert.is(
    answer({ tool_name: 'replace', tool_input: { file_path: join(dir, 'src/a.ts'), old_string: '1', new_string: '2' } }),
    null,
    'replace edits src/a.ts: allowed',
  );
  assert.is(
    answer({ tool_name: 'run_shell_command', tool_input: { command: 'cat src/a.ts', dir_path: dir } }),
    null,
    'a shell command that only reads src/a.ts is a read, which U1 allows',
  );
  const soft = answer({ tool_name: 'run_shell_command', tool_input: { command: 'npm test', dir_path: dir } })!;
  assert.equal(Object.keys(soft), ['decision', 'reason']);
  assert.is(soft.decision, 'deny');
  assert.match(
    soft.reason,
    /^plan breach: tools — 'run_shell_command' is not allowed in U1 \(allowed: read, edit\)\. Run `forge plan ack`, then retry this exact call once/,
  );
  assert.is(answer({ tool_name: 'run_shell_command', tool_input: { command: 'forge plan ack' } }), null, 'the lifecycle is never gated');
  assert.is(spawnSync('sh', ['-c', 'forge plan ack'], { cwd: dir, env: hookEnv() }).status, 0);
  assert.is(
    answer({ tool_name: 'run_shell_command', tool_input: { command: 'npm test', dir_path: dir } }),
    null,
    'acknowledged, the retry runs',
  );
  const hard = answer({ tool_name: 'write_file', tool_input: { file_path: join(dir, 'docs/new.md'), content: 'x' } })!;
  assert.match(
    hard.reason,
    /^plan breach: blast radius — changing 'docs\/new.md' is outside the plan's blast radius .*A hard refusal: no acknowledgement applies/,
  );
  const glob = answer({ tool_name: 'glob', tool_input: { pattern: '**/*.md' } })!;
  assert.match(
    glob.reason,
    /^plan breach: paths — '\.\/' is outside the plan's rails/,
    'a path-less glob lists the whole working directory, which a read of one file outside the rails could not',
  );
  const unknown = answer({
    tool_name: 'mcp_github_create_issue',
    tool_input: { title: 'x' },
    mcp_context: { server_name: 'github', tool_name: 'create_issue', url: 'https://example.test/mcp' },
  })!;
  assert.match(
    unknown.reason,
    /^plan breach: tools — 'mcp__github__create_issue' is not allowed in U1 .*allowed_tools: \[mcp:github, or mcp__github__create_issue\].*forge plan ack/,
    'an MCP tool is read from mcp_context, and refused softly',
  );
  assert.is(answer({ tool_name: 'write_todos', tool_input: { todos: [] } }), null, 'the task list is never gated');
  const disguised = answer({
    tool_name: 'run_shell_command',
    tool_input: { command: 'rm -rf src' },
    mcp_context: { server_name: 'forge', tool_name: 'read' },
  })!;
  assert.match(
    disguised.reason,
    /^plan breach: tools — 'run_shell_command' is not allowed/,
    'an mcp_context on a built-in tool does not rename it',
  );
  const bad = answer({ ...base, tool_input: {} })!;
  assert.match(
    bad.reason,
    /^forge could not read this tool call, and a plan contract is active: .*is this hook installed on BeforeTool\?.*Fix: forge plan install-hook gemini$/,
  );
  const notJson = answer('{"tool_name":')!;
  assert.match(notJson.reason, /the Gemini CLI hook payload on stdin is not JSON/);

  const refused = planJournal(dir).filter((e) => e.verb === 'plan_breach_refused');
  assert.equal(
    refused.map((e) => [e.tool, e.breach, e.posture]),
    [
      ['run_shell_command', 'tools', 'soft'],
      ['write_file', 'blast_radius', 'hard'],
      ['glob', 'rails', 'hard'],
      ['mcp__github__create_issue', 'tools', 'soft'],
      ['run_shell_command', 'tools', 'soft'],
    ],
  );
  assert.equal(
    planJournal(dir)
      .filter((e) => e.verb === 'plan_breach_acknowledged')
      .map((e) => e.tool),
    ['run_shell_command'],
  );
  assert.equal(
    (await forge(['plan', 'status', '--json'], { cwd: dir })).records[0]!.used.runs,
    ['gem-sess'],
    "Gemini CLI's session is the run",
  );
});

test("Gemini CLI's names mean Gemini's tools: replace is an edit of its file, read_many_files reads its patterns' directories", async () => {
  const dir = repoWith({ 'docs/plans/gemini.md': PLAN, 'src/a.ts': 'x\n', 'docs/b.md': 'y\n' });
  assert.is((await forge(['plan', 'install-hook', 'gemini'], { cwd: dir })).code, 0);
  const command = installedCommand(join(dir, '.gemini/settings.json'));
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/gemini.md'], { cwd: dir })).code, 0);
  const reason = (payload: Record<string, unknown>) =>
    JSON.parse(runHook({ dir, command, payload: { session_id: 's', cwd: dir, ...payload } }).stdout || '{}').reason as string | undefined;
  // Gemini's replace is an edit (U1 allows it on src/), and outside the blast radius a hard refusal.
  assert.is(reason({ tool_name: 'replace', tool_input: { file_path: 'src/a.ts', old_string: 'x', new_string: 'z' } }), undefined);
  assert.match(
    reason({ tool_name: 'replace', tool_input: { file_path: 'docs/b.md', old_string: 'y', new_string: 'z' } })!,
    /^plan breach: blast radius — changing 'docs\/b.md'/,
  );
  assert.is(reason({ tool_name: 'read_many_files', tool_input: { include: ['src/**/*.ts'] } }), undefined, 'src/ is within U1');
  assert.match(
    reason({ tool_name: 'read_many_files', tool_input: { include: ['src/*.ts', 'docs/*.md'] } })!,
    /^plan breach: paths — 'docs\/' is outside U1's allowed_paths/,
  );
  assert.match(reason({ tool_name: 'read_many_files', tool_input: {} })!, /names no include pattern/);
  assert.match(
    reason({ tool_name: 'grep_search', tool_input: { pattern: 'TODO', dir_path: join(dir, 'docs') } })!,
    /^plan breach: (tools|paths)/,
  );
});

test('Gemini CLI: fails closed when forge cannot run; installs into a user settings file; a malformed settings.json is refused untouched', async () => {
  const dir = repoWith({ 'docs/plans/gemini.md': PLAN, 'src/a.ts': 'x\n' });
  const home = tempDir('forge-gemini-home-');
  mkdirSync(join(home, '.gemini'), { recursive: true });
  const r = await forge(['plan', 'install-hook', 'gemini', '--settings', join(home, '.gemini/settings.json'), '--json'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  const command = installedCommand(join(home, '.gemini/settings.json'));
  const missing = spawnSync('/bin/bash', ['-c', command], { cwd: dir, input: '{}', encoding: 'utf8', env: { PATH: '/nonexistent' } });
  assert.is(missing.status, 2, 'Gemini CLI blocks a call on exit 2');
  assert.match(missing.stderr, /forge/, 'stderr is the reason Gemini CLI gives the model');
  for (const empty of ['{"hooks": null}\n', '{"hooks": {"BeforeTool": null}}\n', '  \n']) {
    writeFileSync(join(dir, 'empty.json'), empty);
    const e = await forge(['plan', 'install-hook', 'gemini', '--settings', 'empty.json', '--json'], { cwd: dir });
    assert.equal([e.code, e.records[0]!.added], [0, true], empty);
    assert.is(installedCommand(join(dir, 'empty.json')), 'forge plan preflight --hook gemini || exit 2');
  }
  for (const broken of ['{ "hooks": [] }\n', '{ "hooks": { "BeforeTool": {} } }\n', '{ "a": 1 \n', '[1]\n']) {
    writeFileSync(join(dir, 'broken.json'), broken);
    const b = await forge(['plan', 'install-hook', 'gemini', '--settings', 'broken.json', '--json'], { cwd: dir });
    assert.is(b.code, 1, broken);
    assert.is(b.records[0]!.error.code, 'SETTINGS_INVALID');
    assert.is(readFileSync(join(dir, 'broken.json'), 'utf8'), broken);
  }
});

test('every installer refuses a directory or a FIFO where its file goes, at once and untouched (a read would fail or wait forever)', async () => {
  const dir = repoWith({ 'src/a.ts': 'x\n' });
  mkdirSync(join(dir, 'a-dir'));
  spawnSync('mkfifo', [join(dir, 'a-fifo')]);
  for (const args of [
    ['plan', 'install-hook', 'claude'],
    ['plan', 'install-hook', 'codex'],
    ['plan', 'install-hook', 'gemini'],
    ['plan', 'install-hook', 'opencode'],
    ['loop', 'install', 'codex'],
    ['loop', 'install', 'gemini'],
  ]) {
    for (const [target, kind] of [
      ['a-dir', 'a directory'],
      ['a-fifo', 'a FIFO, socket or device'],
    ]) {
      const r = await forge([...args, '--settings', target!, '--json'], { cwd: dir });
      assert.equal([r.code, r.records[0]!.error.code], [1, 'SETTINGS_INVALID'], `${args.join(' ')} ${target}`);
      assert.match(r.records[0]!.error.message, new RegExp(`is not a regular file \\(${kind}\\); it was left as it is`));
    }
  }
  assert.ok(statSync(join(dir, 'a-fifo')).isFIFO());
});

test.run();
