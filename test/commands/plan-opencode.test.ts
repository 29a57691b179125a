// forge plan install-hook opencode: the plan gate as OpenCode's tool.execute.before, the installed plugin loaded and called as OpenCode calls it.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { hookEnv } from '../helpers/claude';
import { forge } from '../helpers/forge';
import { planJournal, repoWith, tempDir } from '../helpers/repo';
import { oneUnitPlan } from '../helpers/plans';

const PLAN = oneUnitPlan({
  id: 'opencode-demo',
  title: 'opencode demo',
  parentTools: ['read', 'edit', 'write', 'patch', 'bash', 'search', 'ls'],
  unitTools: ['read', 'edit'],
});

type Before = (input: { tool: string; sessionID: string; callID: string }, output: { args: Record<string, unknown> }) => Promise<void>;

/**
 * Loads the installed plugin as OpenCode does — its exported plugin function called with the project's
 * context — and returns its tool.execute.before. The file is imported from a .mjs copy, byte for byte,
 * since Node 20 reads a bare .js as CommonJS where OpenCode's Bun reads it as a module.
 */
async function loadPlugin(file: string, directory: string): Promise<Before> {
  const copy = join(tempDir('forge-opencode-plugin-'), 'forge-plan-gate.mjs');
  copyFileSync(file, copy);
  const mod = await import(pathToFileURL(copy).href);
  const plugins = Object.values(mod) as Array<(ctx: Record<string, unknown>) => Promise<Record<string, Before>>>;
  assert.is(plugins.length, 1, 'one plugin function exported');
  const hooks = await plugins[0]!({ directory, worktree: directory, project: {}, client: {}, $: null });
  return hooks['tool.execute.before']!;
}

/** Runs `fn` with the environment OpenCode would give the plugin: forge on PATH (or `path`), no FORGE_* variables. */
async function withEnv<T>(env: NodeJS.ProcessEnv, fn: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const k of Object.keys(process.env)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

/** The call's refusal (the Error OpenCode gives the model), or null when the plugin lets it run. */
async function refusal(before: Before, tool: string, args: Record<string, unknown>, sessionID = 'oc-sess'): Promise<string | null> {
  try {
    await withEnv(hookEnv(), () => before({ tool, sessionID, callID: `call-${tool}` }, { args }));
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

const patch = (file: string) =>
  `*** Begin Patch\n*** Update File: ${file}\n@@\n-export const a = 1;\n+export const a = 2;\n*** End Patch\n`;

test('OpenCode: install-hook writes the plugin once; loaded as OpenCode loads it, it allows, refuses with the reason, acks and retries', async () => {
  const dir = repoWith({ 'docs/plans/opencode.md': PLAN, 'src/a.ts': 'export const a = 1;\n' });
  const inst = await forge(['plan', 'install-hook', 'opencode', '--json'], { cwd: join(dir, 'src') });
  assert.is(inst.code, 0, inst.stderr);
  assert.is(inst.records[0]!.added, true);
  const file = join(dir, '.opencode/plugins/forge-plan-gate.js');
  const source = readFileSync(file, 'utf8');
  const again = await forge(['plan', 'install-hook', 'opencode', '--json'], { cwd: dir });
  assert.equal([again.records[0]!.added, again.records[0]!.upgraded], [false, []]);
  assert.is(readFileSync(file, 'utf8'), source, 'idempotent');
  const before = await loadPlugin(file, dir);

  assert.is(await refusal(before, 'bash', { command: 'cat src/a.ts', description: 'x' }), null, 'no plan: every call runs');
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/opencode.md'], { cwd: dir })).code, 0);
  assert.is(
    await refusal(before, 'edit', { filePath: join(dir, 'src/a.ts'), oldString: '1', newString: '2' }),
    null,
    'an edit of src/a.ts is allowed',
  );
  assert.match(
    (await refusal(before, 'write', { filePath: join(dir, 'docs/b.md'), content: 'x' }))!,
    /^plan breach: blast radius — changing 'docs\/b.md'/,
  );
  assert.match(
    (await refusal(before, 'grep', { pattern: 'a', path: join(dir, 'docs') }))!,
    /^plan breach: tools — 'grep' is not allowed in U1/,
  );
  assert.match(
    (await refusal(before, 'bash', { command: 'npm test', description: 'test' }))!,
    /^plan breach: tools — 'bash' is not allowed in U1 \(allowed: read, edit\)\. Run `forge plan ack`, then retry this exact call once/,
  );
  assert.is(await refusal(before, 'bash', { command: 'forge plan ack', description: 'ack' }), null, 'the lifecycle is never gated');
  assert.is((await forge(['plan', 'ack'], { cwd: dir })).code, 0);
  assert.is(await refusal(before, 'bash', { command: 'npm test', description: 'test' }), null, 'acknowledged, the retry runs');
  assert.is(await refusal(before, 'bash', { command: 'cat src/a.ts', description: 'show' }), null, 'a shell read of src/a.ts is a read');
  assert.match(
    (await refusal(before, 'apply_patch', { patchText: `${patch('src/a.ts')}*** Add File: docs/new.md\n+x\n` }))!,
    /^plan breach: blast radius — changing 'docs\/new.md' is outside .*A hard refusal/,
  );
  assert.match(
    (await refusal(before, 'github_create_issue', { title: 'x' }))!,
    /^plan breach: tools — 'github_create_issue' is not allowed in U1 .*allowed_tools: \[github_create_issue\].*forge plan ack/,
    'an MCP tool is unknown: a soft refusal',
  );
  assert.is(await refusal(before, 'todowrite', { todos: [] }), null, 'the task list is never gated');
  assert.is(
    await refusal(before, 'invalid', { tool: 'forge_plan_end', error: 'Model tried to call unavailable tool' }),
    null,
    "OpenCode's reply to a call of a tool it lacks runs nothing: never gated, never a refusal to acknowledge",
  );
  assert.match(
    (await refusal(before, 'apply_patch', { patchText: 'garbage' }))!,
    /^forge could not read this tool call, and a plan contract is active: .*patchText names no file/,
  );
  assert.match((await refusal(before, '', {}))!, /has no tool: is it from forge's OpenCode plugin/);

  const refused = planJournal(dir).filter((e) => e.verb === 'plan_breach_refused');
  assert.equal(
    refused.map((e) => [e.tool, e.breach, e.posture]),
    [
      ['write', 'blast_radius', 'hard'],
      ['grep', 'tools', 'soft'],
      ['bash', 'tools', 'soft'],
      ['apply_patch', 'blast_radius', 'hard'],
      ['github_create_issue', 'tools', 'soft'],
    ],
  );
  assert.equal(
    (await forge(['plan', 'status', '--json'], { cwd: dir })).records[0]!.used.runs,
    ['oc-sess'],
    "OpenCode's session is the run",
  );
});

test("OpenCode: the plugin fails closed when forge cannot run or answers garbage; a file there that is not forge's is refused untouched", async () => {
  const dir = repoWith({ 'docs/plans/opencode.md': PLAN, 'src/a.ts': 'x\n' });
  assert.is((await forge(['plan', 'install-hook', 'opencode'], { cwd: dir })).code, 0);
  const before = await loadPlugin(join(dir, '.opencode/plugins/forge-plan-gate.js'), dir);
  const noForge = await withEnv({ PATH: '/nonexistent' }, () =>
    before({ tool: 'read', sessionID: 's', callID: 'c' }, { args: { filePath: 'src/a.ts' } }).then(
      () => null,
      (e: Error) => e.message,
    ),
  );
  assert.match(noForge!, /^forge plan gate: this call is refused because forge could not check it \(.*ENOENT.*\)\. Fix: put forge on PATH/);
  // A `forge` that crashes, and one that answers what is not JSON.
  const bin = tempDir('forge-opencode-fake-');
  for (const [script, expected] of [
    ['echo boom >&2; exit 3', /could not check it \(exit 3: boom\)/],
    ['echo not-json', /forge's answer could not be read: not-json/],
  ] as const) {
    writeFileSync(join(bin, 'forge'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    const msg = await withEnv({ PATH: `${bin}:/usr/bin:/bin` }, () =>
      before({ tool: 'read', sessionID: 's', callID: 'c' }, { args: { filePath: 'src/a.ts' } }).then(
        () => null,
        (e: Error) => e.message,
      ),
    );
    assert.match(msg!, expected);
  }
  const mine = join(dir, 'mine.js');
  writeFileSync(mine, 'export const Mine = async () => ({})\n');
  const r = await forge(['plan', 'install-hook', 'opencode', '--settings', 'mine.js', '--json'], { cwd: dir });
  assert.equal([r.code, r.records[0]!.error.code], [1, 'SETTINGS_INVALID']);
  assert.is(readFileSync(mine, 'utf8'), 'export const Mine = async () => ({})\n');
  // An older forge plugin is replaced in place.
  const older = join(dir, '.opencode/plugins/forge-plan-gate.js');
  writeFileSync(older, '// forge plan gate for OpenCode (an older release)\n');
  const up = await forge(['plan', 'install-hook', 'opencode', '--json'], { cwd: dir });
  assert.equal([up.code, up.records[0]!.added, up.records[0]!.upgraded.length], [0, false, 1]);
  assert.match(readFileSync(older, 'utf8'), /tool\.execute\.before/);
});

test.run();
