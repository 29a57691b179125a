// forge loop install codex|gemini and forge loop hook codex|gemini: the loop driven by Codex CLI's Stop hook and Gemini CLI's AfterAgent hook, run as each agent runs it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { callHook } from '../helpers/claude';
import { forge, forgeEnv } from '../helpers/forge';
import { changedPaths, tempRepo, treeHashes } from '../helpers/repo';

async function status(dir: string): Promise<Record<string, any>> {
  return (await forge(['loop', 'status', '--json'], { cwd: dir })).records[0]!;
}

async function answer(dir: string, command: string, payload: Record<string, unknown> | string) {
  const r = await callHook({ dir, command, payload });
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
  // Codex runs no hook it has not trusted: the Stop hook's trust is recorded in the user's config, as the gate's is.
  const home = forgeEnv().CODEX_HOME!;
  const trust = parseToml(readFileSync(join(home, 'config.toml'), 'utf8')) as any;
  const keys = Object.keys(trust.hooks?.state ?? {});
  assert.ok(
    keys.some((k) => k.includes(':stop:')),
    `a trusted_hash for the Stop hook: ${keys.join(', ')}`,
  );

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
  assert.equal(
    (await answer(dir, command, { ...base, last_assistant_message: 'hi' })).stdout,
    '',
    'no loop: the turn ends, nothing written',
  );
  assert.is((await forge(['loop', 'start', '--prompt', 'Fix the flaky test.', '--max-iterations', '5'], { cwd: dir })).code, 0);
  const go = (await answer(dir, command, { ...base, last_assistant_message: 'I looked at the test.' })).json!;
  assert.equal(Object.keys(go), ['decision', 'reason', 'systemMessage'], 'the Stop answer Codex parses (no other keys allowed)');
  assert.is(go.decision, 'block');
  assert.match(go.reason, /Fix the flaky test\./);
  assert.is(go.systemMessage, 'forge loop: iteration 2 of 5');
  // A turn that ends without a message (null) is an empty reply, not a payload error.
  assert.is((await answer(dir, command, { ...base, stop_hook_active: true, last_assistant_message: null })).json!.decision, 'block');
  const bad = await answer(dir, command, '{"session_id":');
  assert.match(bad.stderr, /the Codex hook payload on stdin is not JSON.*letting the session stop/);
  assert.is(bad.json!.decision, undefined, 'a payload forge cannot read lets the turn end');
  const missing = await answer(dir, command, { ...base, last_assistant_message: undefined });
  assert.match(missing.stderr, /no last_assistant_message: is this hook installed on Stop\?/);
  const done = (await answer(dir, command, { ...base, last_assistant_message: 'All green.\nFORGE_COMPLETE' })).json!;
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
  assert.is((await answer(dir, command, { ...base, prompt_response: 'hi' })).stdout, '', 'no loop: the turn ends');
  assert.is((await forge(['loop', 'start', '--prompt', 'Fix the flaky test.', '--max-iterations', '3'], { cwd: dir })).code, 0);
  const go = (await answer(dir, command, { ...base, prompt_response: 'Looked around.' })).json!;
  assert.equal([go.decision, go.systemMessage], ['deny', 'forge loop: iteration 2 of 3']);
  assert.match(go.reason, /Fix the flaky test\./, 'the reason is the next prompt Gemini CLI sends');
  assert.match(
    (await answer(dir, command, { ...base, prompt_response: 'x' })).stderr + (await answer(dir, command, '[]')).stderr,
    /Gemini CLI hook payload must be a JSON object/,
  );
  assert.match((await answer(dir, command, { ...base })).stderr, /no prompt_response: is this hook installed on AfterAgent\?/);
  const last = (await answer(dir, command, { ...base, stop_hook_active: true, prompt_response: 'still going' })).json!;
  assert.match(last.systemMessage, /max_reached: reached the limit of 3 iterations/);
  assert.is(last.decision, undefined, 'at its limit the loop lets the turn end');
  assert.equal((await status(dir)).session, 'gem-sess');
});

test('Gemini CLI: prompt_response holds every reply since the prompt; three turns that each add the same reply pause the loop as stuck', async () => {
  const dir = tempRepo();
  const command = 'forge loop hook gemini';
  const base = {
    session_id: 'gem-sess',
    transcript_path: '/tmp/t.json',
    cwd: dir,
    hook_event_name: 'AfterAgent',
    timestamp: '2026-11-24T10:00:00.000Z',
    prompt: 'Fix the flaky test.',
  };
  assert.is((await forge(['loop', 'start', '--prompt', 'Fix the flaky test.', '--max-iterations', '10'], { cwd: dir })).code, 0);
  // As Gemini CLI builds it: each model turn's text appended after a newline, across the turns a deny continues.
  const said: string[] = [];
  const turn = async (reply: string, stopHookActive: boolean) => {
    said.push(reply);
    return (await answer(dir, command, { ...base, stop_hook_active: stopHookActive, prompt_response: said.join('\n') })).json!;
  };
  assert.is((await turn('I looked at the test.', false)).decision, 'deny');
  assert.is((await turn('Tried a retry; still flaky.', true)).decision, 'deny');
  assert.equal((await status(dir)).last.chars, 'Tried a retry; still flaky.'.length, "the iteration's reply is this turn's text alone");
  assert.is((await turn('Tried a retry; still flaky.', true)).decision, 'deny');
  const stuck = await turn('Tried a retry; still flaky.', true);
  assert.is(stuck.decision, undefined, 'stuck: the turn may end');
  assert.match(stuck.systemMessage, /paused: stuck: 3 identical responses in a row/);
  const s = await status(dir);
  assert.equal([s.status, s.iteration, s.reason], ['paused', 4, 'stuck: 3 identical responses in a row']);

  // A new prompt starts prompt_response afresh: its text is read whole, and a turn that adds nothing is an empty reply.
  assert.is((await forge(['loop', 'resume'], { cwd: dir })).code, 0);
  said.length = 0;
  assert.is((await turn('A new start.', false)).decision, 'deny');
  assert.equal((await status(dir)).last.chars, 'A new start.'.length);
  assert.is((await answer(dir, command, { ...base, stop_hook_active: true, prompt_response: said.join('\n') })).json!.decision, 'deny');
  assert.equal((await status(dir)).last.chars, 0);
});

test("a loop names its agent's own hook: loop start --agent suggests that agent's install, status and the hook say whose hook drives it", async () => {
  const dir = tempRepo();
  const codex = await forge(['loop', 'start', '--prompt', 'Fix it.', '--agent', 'codex'], { cwd: dir });
  assert.is(codex.code, 0, codex.stderr);
  assert.match(
    codex.stdout,
    /; Codex CLI's Stop hook drives it: the first Codex CLI session to stop binds it\nNext: forge loop install codex\n$/,
  );
  // Another agent's hook neither binds nor drives a loop started for Codex CLI.
  assert.is(
    (await callHook({ dir, command: 'forge loop hook claude', payload: { session_id: 'cc', last_assistant_message: 'hi' } })).stdout,
    '',
  );
  assert.is(
    (await answer(dir, 'forge loop hook codex', { session_id: 'cx', stop_hook_active: false, last_assistant_message: 'hi' })).json!
      .decision,
    'block',
  );
  const codexStatus = await forge(['loop', 'status'], { cwd: dir });
  assert.match(codexStatus.stdout, /driver: Codex CLI's Stop hook, session cx;/);
  assert.match(codexStatus.stdout, /\nWait: the Codex CLI session to stop: Codex CLI's Stop hook runs the next iteration\n$/);
  assert.not.match(codexStatus.stdout, /Claude Code/);
  assert.equal([(await status(dir)).agent, (await status(dir)).session], ['codex', 'cx']);
  assert.is((await forge(['loop', 'cancel'], { cwd: dir })).code, 0);

  // Started for no agent in particular: the answer lists each driver, and the first hook to stop binds its agent.
  const any = await forge(['loop', 'start', '--prompt', 'Fix it.', '--json'], { cwd: dir });
  assert.equal([any.records[0]!.agent, any.records[0]!._next_action], [null, 'forge loop install --help']);
  const anyText = await forge(['loop', 'status'], { cwd: dir });
  assert.match(anyText.stdout, /driver: an agent's Stop hook \(Claude Code, Codex CLI; Gemini CLI's AfterAgent\), no session bound yet/);
  assert.is(
    (await answer(dir, 'forge loop hook gemini', { session_id: 'gem', stop_hook_active: false, prompt: 'Fix it.', prompt_response: 'hi' }))
      .json!.decision,
    'deny',
  );
  const gemini = await forge(['loop', 'status'], { cwd: dir });
  assert.match(gemini.stdout, /driver: Gemini CLI's AfterAgent hook, session gem;/);
  assert.match(gemini.stdout, /\nWait: the Gemini CLI session to stop: Gemini CLI's AfterAgent hook runs the next iteration\n$/);
  assert.not.match(gemini.stdout, /Claude Code/);
  assert.is((await forge(['loop', 'cancel'], { cwd: dir })).code, 0);
  const listed = await forge(['loop', 'start', '--prompt', 'Fix it.'], { cwd: dir });
  assert.match(
    listed.stdout,
    /the first agent session to stop binds it, whichever agent's hook is installed: forge loop install claude, forge loop install codex or forge loop install gemini\nNext: forge loop install --help\nOr: forge loop run -- claude -p\n$/,
  );
  // Bound to a session up front, the loop learns its agent from the first hook that drives it.
  assert.is((await forge(['loop', 'cancel'], { cwd: dir })).code, 0);
  assert.is((await forge(['loop', 'start', '--prompt', 'Fix it.', '--session', 'cx2'], { cwd: dir })).code, 0);
  assert.is(
    (await answer(dir, 'forge loop hook codex', { session_id: 'cx2', stop_hook_active: false, last_assistant_message: 'hi' })).json!
      .decision,
    'block',
  );
  assert.match((await forge(['loop', 'status'], { cwd: dir })).stdout, /driver: Codex CLI's Stop hook, session cx2;/);
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
