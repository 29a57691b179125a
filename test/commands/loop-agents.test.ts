// forge loop install codex|gemini and forge loop hook codex|gemini: the loop driven by Codex CLI's Stop hook and Gemini CLI's AfterAgent hook, run as each agent runs it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { runHook } from '../helpers/claude';
import { forge } from '../helpers/forge';
import { changedPaths, tempRepo, treeHashes } from '../helpers/repo';

async function status(dir: string): Promise<Record<string, any>> {
  return (await forge(['loop', 'status', '--json'], { cwd: dir })).records[0]!;
}

function answer(dir: string, command: string, payload: Record<string, unknown> | string) {
  const r = runHook({ dir, command, payload });
  assert.is(r.status, 0, r.stderr);
  return { stdout: r.stdout, stderr: r.stderr, json: r.stdout ? (JSON.parse(r.stdout) as Record<string, any>) : null };
}

test('Codex CLI: loop install appends [[hooks.Stop]]; the installed hook continues with the prompt in the answer Codex reads, and stops when done', async () => {
  const dir = tempRepo();
  const inst = await forge(['loop', 'install', 'codex', '--json'], { cwd: dir });
  assert.is(inst.code, 0, inst.stderr);
  assert.equal([inst.records[0]!.added, inst.records[0]!.failure], [true, 'open']);
  const config = parseToml(readFileSync(join(dir, '.codex/config.toml'), 'utf8')) as any;
  const command = config.hooks.Stop[0].hooks[0].command as string;
  assert.is(command, 'forge loop hook codex', 'no "|| exit 2": a driver that fails lets the turn end');
  assert.is((await forge(['loop', 'install', 'codex', '--json'], { cwd: dir })).records[0]!.added, false);

  const base = {
    session_id: 'codex-sess',
    turn_id: 't1',
    transcript_path: null,
    cwd: dir,
    hook_event_name: 'Stop',
    model: 'gpt-5',
    permission_mode: 'default',
    stop_hook_active: false,
  };
  assert.equal(answer(dir, command, { ...base, last_assistant_message: 'hi' }).stdout, '', 'no loop: the turn ends, nothing written');
  assert.is((await forge(['loop', 'start', '--prompt', 'Fix the flaky test.', '--max-iterations', '5'], { cwd: dir })).code, 0);
  const go = answer(dir, command, { ...base, last_assistant_message: 'I looked at the test.' }).json!;
  assert.equal(Object.keys(go), ['decision', 'reason', 'systemMessage'], 'the Stop answer Codex parses (no other keys allowed)');
  assert.is(go.decision, 'block');
  assert.match(go.reason, /Fix the flaky test\./);
  assert.is(go.systemMessage, 'forge loop: iteration 2 of 5');
  // A turn that ends without a message (null) is an empty reply, not a payload error.
  assert.is(answer(dir, command, { ...base, stop_hook_active: true, last_assistant_message: null }).json!.decision, 'block');
  const bad = answer(dir, command, '{"session_id":');
  assert.match(bad.stderr, /the Codex hook payload on stdin is not JSON.*letting the session stop/);
  assert.is(bad.json!.decision, undefined, 'a payload forge cannot read lets the turn end');
  const missing = answer(dir, command, { ...base, last_assistant_message: undefined });
  assert.match(missing.stderr, /no last_assistant_message: is this hook installed on Stop\?/);
  const done = answer(dir, command, { ...base, last_assistant_message: 'All green.\nFORGE_COMPLETE' }).json!;
  assert.equal(Object.keys(done), ['systemMessage']);
  assert.match(done.systemMessage, /complete/);
  const s = await status(dir);
  assert.equal([s.status, s.iteration, s.session], ['complete', 3, 'codex-sess']);
  assert.is(s.last.hookBlock, undefined, 'Codex has no cap on Stop-hook blocks that forge counts');
});

test("Gemini CLI: loop install merges AfterAgent; the installed hook denies the turn's end with the next prompt, and lets it end when done", async () => {
  const dir = tempRepo();
  const inst = await forge(['loop', 'install', 'gemini', '--json'], { cwd: dir });
  assert.is(inst.code, 0, inst.stderr);
  const settings = parseJsonc(readFileSync(join(dir, '.gemini/settings.json'), 'utf8')) as any;
  assert.equal(settings.hooks.AfterAgent, [
    { hooks: [{ type: 'command', command: 'forge loop hook gemini', name: 'forge-loop', timeout: 1_800_000 }] },
  ]);
  const command = settings.hooks.AfterAgent[0].hooks[0].command as string;

  const base = {
    session_id: 'gem-sess',
    transcript_path: '/tmp/t.json',
    cwd: dir,
    hook_event_name: 'AfterAgent',
    timestamp: '2026-11-24T10:00:00.000Z',
    prompt: 'Fix the flaky test.',
    stop_hook_active: false,
  };
  assert.is(answer(dir, command, { ...base, prompt_response: 'hi' }).stdout, '', 'no loop: the turn ends');
  assert.is((await forge(['loop', 'start', '--prompt', 'Fix the flaky test.', '--max-iterations', '3'], { cwd: dir })).code, 0);
  const go = answer(dir, command, { ...base, prompt_response: 'Looked around.' }).json!;
  assert.equal([go.decision, go.systemMessage], ['deny', 'forge loop: iteration 2 of 3']);
  assert.match(go.reason, /Fix the flaky test\./, 'the reason is the next prompt Gemini CLI sends');
  assert.match(
    answer(dir, command, { ...base, prompt_response: 'x' }).stderr + answer(dir, command, '[]').stderr,
    /Gemini CLI hook payload must be a JSON object/,
  );
  assert.match(answer(dir, command, { ...base }).stderr, /no prompt_response: is this hook installed on AfterAgent\?/);
  const last = answer(dir, command, { ...base, stop_hook_active: true, prompt_response: 'still going' }).json!;
  assert.match(last.systemMessage, /max_reached: reached the limit of 3 iterations/);
  assert.is(last.decision, undefined, 'at its limit the loop lets the turn end');
  assert.equal((await status(dir)).session, 'gem-sess');
});

test('loop install refuses what it cannot merge, untouched; OpenCode has no stop hook and is driven by forge loop run', async () => {
  const dir = tempRepo();
  const before = treeHashes(dir);
  const r = await forge(['loop', 'install', 'opencode', '--json'], { cwd: dir });
  assert.equal([r.code, r.records[0]!.error.code, r.records[0]!._next_action], [1, 'NO_STOP_HOOK', 'forge loop run --help']);
  assert.equal(changedPaths(before, treeHashes(dir)), [], 'nothing written');
  for (const [agent, file, broken] of [
    ['codex', 'c.toml', 'hooks = 1\n'],
    ['gemini', 'g.json', '{"hooks": {"AfterAgent": 1}}\n'],
  ] as const) {
    writeFileSync(join(dir, file), broken);
    const b = await forge(['loop', 'install', agent, '--settings', file, '--json'], { cwd: dir });
    assert.equal([b.code, b.records[0]!.error.code], [1, 'SETTINGS_INVALID'], agent);
    assert.is(readFileSync(join(dir, file), 'utf8'), broken);
  }
});

test.run();
