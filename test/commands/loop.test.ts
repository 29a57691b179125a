// forge loop: the Stop hook's known failure modes, one test each, and forge loop run driving real agent processes.
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import { ownChild } from '../helpers/owner';
import * as assert from 'uvu/assert';
import { runHook } from '../helpers/claude';
import { FORGE, forge, forgeEnv } from '../helpers/forge';
import { changedPaths, stateCommits, tempDir, tempRepo, treeHashes } from '../helpers/repo';
import { running, until } from '../helpers/process';

const HOOK = 'forge loop hook claude';

function hook(dir: string, payload: Record<string, unknown> | string, env: Record<string, string> = {}) {
  const r = runHook({ dir, command: HOOK, payload, env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, answer: r.stdout ? (JSON.parse(r.stdout) as Record<string, any>) : null };
}

async function status(dir: string): Promise<Record<string, any>> {
  return (await forge(['loop', 'status', '--json'], { cwd: dir })).records[0]!;
}

async function started(args: string[] = []): Promise<string> {
  const dir = tempRepo();
  const r = await forge(['loop', 'start', '--prompt', 'Fix the flaky test in src/.', ...args], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  return dir;
}

/** A Claude Code transcript: one JSON object per line. */
function transcript(entries: Array<Record<string, unknown> | string>): string {
  const file = join(tempDir('forge-transcript-'), 'session.jsonl');
  writeFileSync(file, entries.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n') + '\n');
  return file;
}
const user = (text: string) => ({ type: 'user', message: { role: 'user', content: text } });
const said = (text: string) => ({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] } });
const toolUse = {
  type: 'assistant',
  message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'make test' } }] },
};
const toolResult = { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] } };

test('no loop, or a paused one: the hook lets the session stop and writes nothing, whatever the payload', async () => {
  const dir = tempRepo();
  assert.equal(hook(dir, { session_id: 's1', last_assistant_message: 'hi' }), { code: 0, stdout: '', stderr: 'Done.\n', answer: null });
  const loopDir = await started();
  await forge(['loop', 'pause'], { cwd: loopDir });
  const before = treeHashes(loopDir);
  assert.is(hook(loopDir, { session_id: 's1', last_assistant_message: 'hi' }).stdout, '');
  for (const payload of ['not json', '', '[1]', 'null', '"FORGE_COMPLETE"', '{"session_id":', `{"x":"${'y'.repeat(3_000_000)}"}`]) {
    const r = hook(loopDir, payload);
    assert.equal([r.code, r.stdout, r.stderr], [0, '', 'Done.\n'], payload.slice(0, 20));
  }
  assert.equal(changedPaths(before, treeHashes(loopDir)), [], 'nothing written: not the work tree, not .git');
});

test('binding: never to an empty or "null" session; once bound, another session never touches the loop', async () => {
  const dir = await started();
  for (const session_id of ['', 'null', '  ', undefined]) {
    const r = hook(dir, { session_id, last_assistant_message: 'working' });
    assert.equal([r.code, r.stdout], [0, ''], `session ${JSON.stringify(session_id)}`);
  }
  assert.equal([(await status(dir)).session, (await status(dir)).iteration], [null, 0]);
  const first = hook(dir, { session_id: 'sess-A', last_assistant_message: 'I changed src/a.ts.' });
  assert.is(first.answer!.decision, 'block');
  assert.is(first.answer!.systemMessage, 'forge loop: iteration 2 of 20');
  assert.match(first.answer!.reason, /^Fix the flaky test in src\/\.\n\n---\nforge loop loop-\d{8}-[0-9a-f]{8} · iteration 2 of 20\n/);
  assert.match(first.answer!.reason, /end your reply with a line FORGE_COMPLETE on its own/);
  assert.equal([(await status(dir)).session, (await status(dir)).iteration], ['sess-A', 1]);
  const commits = stateCommits(dir);
  const other = hook(dir, { session_id: 'sess-B', last_assistant_message: 'FORGE_COMPLETE' });
  assert.equal([other.code, other.stdout], [0, '']);
  assert.is(stateCommits(dir), commits, "the second session's hook changed nothing");
  assert.equal([(await status(dir)).status, (await status(dir)).iteration], ['active', 1]);
});

test('the last assistant text comes from the transcript: a tool-use-only ending, a line still being written, broken lines, control characters', async () => {
  const dir = await started();
  const toolOnly = transcript([
    user('old prompt'),
    said('FORGE_COMPLETE from an earlier turn'),
    user('go on'),
    said('Fixed the race in src/a.ts.'),
    toolUse,
    toolResult,
    toolUse,
  ]);
  const r1 = hook(dir, { session_id: 's', transcript_path: toolOnly });
  assert.is(r1.answer!.decision, 'block', 'the earlier turn’s control word does not count');
  const last = (await status(dir)).last;
  assert.is(last.chars, 'Fixed the race in src/a.ts.'.length);
  const partial = transcript([user('go on'), said('Done:\nFORGE_COMPLETE'), '{"type":"assistant","message":{"content":[{"type":"te']);
  const messy = readFileSync(partial, 'utf8').replace(/\n$/, '');
  writeFileSync(partial, `garbage line\n\u0000\u0007{broken\n${messy}`);
  const r2 = hook(dir, { session_id: 's', transcript_path: partial });
  assert.equal(r2.answer, {
    systemMessage: `forge loop ${(await status(dir)).loop_id} complete: the agent signalled FORGE_COMPLETE at iteration 2`,
  });
  const ansi = await started();
  assert.match(
    JSON.stringify(hook(ansi, { session_id: 's', last_assistant_message: 'ok\n\u001b[32mFORGE_COMPLETE\u001b[0m\u0007\n' }).answer),
    /complete/,
  );
});

test('the Stop hook fails open: a payload it cannot read or a transcript it cannot read lets the session stop, exit 0, the loop as it was, why on stderr', async () => {
  const dir = await started();
  const outside = tempDir('forge-transcripts-');
  const fifo = join(outside, 'fifo.jsonl');
  execFileSync('mkfifo', [fifo]);
  symlinkSync(fifo, join(outside, 'link-to-fifo.jsonl'));
  symlinkSync('/dev/zero', join(outside, 'link-to-zero.jsonl'));
  const cases: Array<[string, Record<string, unknown> | string, RegExp]> = [
    ['garbage', 'garbage', /the Claude Code hook payload on stdin is not JSON .*\[BAD_HOOK_PAYLOAD\]/],
    ['an array', '[1,2]', /must be a JSON object \[BAD_HOOK_PAYLOAD\]/],
    ['no words at all', { session_id: 's' }, /neither last_assistant_message nor transcript_path \[BAD_HOOK_PAYLOAD\]/],
    ['a FIFO', { session_id: 's', transcript_path: fifo }, /cannot read the transcript '.*fifo\.jsonl': a FIFO \[TRANSCRIPT_UNREADABLE\]/],
    ['a symlink to a FIFO', { session_id: 's', transcript_path: join(outside, 'link-to-fifo.jsonl') }, /a FIFO \[TRANSCRIPT_UNREADABLE\]/],
    ['/dev/zero', { session_id: 's', transcript_path: '/dev/zero' }, /'\/dev\/zero': a device \[TRANSCRIPT_UNREADABLE\]/],
    [
      'a symlink to /dev/zero',
      { session_id: 's', transcript_path: join(outside, 'link-to-zero.jsonl') },
      /a device \[TRANSCRIPT_UNREADABLE\]/,
    ],
    ['a directory', { session_id: 's', transcript_path: outside }, /a directory \[TRANSCRIPT_UNREADABLE\]/],
    ['a missing file', { session_id: 's', transcript_path: join(outside, 'no-such.jsonl') }, /no such file \[TRANSCRIPT_UNREADABLE\]/],
  ];
  const before = treeHashes(dir);
  for (const [what, payload, why] of cases) {
    const r = hook(dir, payload);
    assert.is(r.code, 0, what);
    assert.match(
      r.answer?.systemMessage ?? '',
      /^forge loop loop-\S+: the Stop hook could not go on \(.+\), so the session stops; forge loop status shows where the loop stands$/,
      what,
    );
    assert.is(r.answer!.decision, undefined, `${what}: never a block`);
    assert.match(r.stderr, why, what);
    assert.match(r.stderr, /; letting the session stop\n/, what);
  }
  const nowhere = hook(dir, { session_id: 's', last_assistant_message: 'FORGE_COMPLETE' }, { FORGE_CWD: join(outside, 'gone') });
  assert.equal([nowhere.code, nowhere.answer!.decision], [0, undefined], 'a FORGE_CWD that names no directory');
  assert.match(
    nowhere.stderr,
    /^warning: forge loop hook: working directory '\S+gone' does not exist \[CWD_NOT_FOUND\]; letting the session stop\n/,
  );
  // Errors the CLI reports before the hook runs fail open too: exit 2 would keep the session going.
  for (const [what, env, command] of [
    ['a run id with ..', { FORGE_RUN_ID: '../../x' }, HOOK],
    ['a run id with a newline', { FORGE_RUN_ID: 'a\nb' }, HOOK],
    ['an unknown flag', {}, `${HOOK} --no-such-flag`],
  ] as const) {
    const r = runHook({ dir, command, payload: { session_id: 's', last_assistant_message: 'FORGE_COMPLETE' }, env });
    assert.equal([r.status, r.stdout], [0, ''], what);
    assert.match(r.stderr, /^Error: .*\nFix: /, what);
  }
  assert.equal(changedPaths(before, treeHashes(dir)), [], 'the loop is as it was: no iteration, no binding');
  const s = await status(dir);
  assert.equal([s.status, s.iteration, s.session], ['active', 0, null]);
});

test('the Stop hook fails open when it cannot record the iteration: exit 0, the session stops, why on stderr', async () => {
  const dir = await started();
  // forge's lock directory is a file now: the state update cannot take its lock.
  rmSync(join(dir, '.git/forge'), { recursive: true, force: true });
  writeFileSync(join(dir, '.git/forge'), 'not a directory');
  const r = hook(dir, { session_id: 's', last_assistant_message: 'step' });
  assert.is(r.code, 0);
  assert.match(r.answer!.systemMessage, /^forge loop loop-\S+: the Stop hook could not go on \(.*\.git\/forge.*\), so the session stops/);
  assert.match(r.stderr, /^warning: forge loop hook: .*\.git\/forge.* \[[A-Z_]+\]; letting the session stop\n/);
  assert.equal([(await status(dir)).iteration, (await status(dir)).session], [0, null]);
});

test('control lines end at \\n or \\r\\n only: a bare \\r inside a line ends nothing', async () => {
  const dir = await started(['--completion-promise', 'DONE']);
  for (const message of [
    'working…\r FORGE_COMPLETE',
    'progress 99%\rFORGE_COMPLETE',
    'x\r<promise>DONE</promise>',
    'FORGE_PAUSE\rnot yet',
  ]) {
    assert.is(hook(dir, { session_id: 's', last_assistant_message: message }).answer!.decision, 'block', JSON.stringify(message));
  }
  assert.match(
    hook(dir, { session_id: 's', last_assistant_message: 'All green.\r\nFORGE_COMPLETE\r\n' }).answer!.systemMessage,
    /complete: the agent signalled FORGE_COMPLETE at iteration 5$/,
  );
});

test('control lines: a bare promise is not one; the tagged promise on its own line is; FORGE_PAUSE pauses until resume', async () => {
  const dir = await started(['--completion-promise', 'ALL TESTS PASS']);
  assert.is(hook(dir, { session_id: 's', last_assistant_message: 'ALL TESTS PASS' }).answer!.decision, 'block');
  assert.is(
    hook(dir, { session_id: 's', last_assistant_message: 'I will print <promise>ALL TESTS PASS</promise> when done' }).answer!.decision,
    'block',
  );
  assert.is(hook(dir, { session_id: 's', last_assistant_message: 'FORGE_COMPLETE is what I will say later' }).answer!.decision, 'block');
  assert.is(
    hook(dir, { session_id: 's', last_assistant_message: 'Need a decision on the API.\nFORGE_PAUSE' }).answer!.systemMessage.includes(
      'paused',
    ),
    true,
  );
  assert.is(hook(dir, { session_id: 's', last_assistant_message: 'still there?' }).stdout, '', 'paused: the session may stop');
  const resumed = await forge(['loop', 'resume'], { cwd: dir });
  assert.match(resumed.stdout, /^resumed loop-\S+ at iteration 4\nWait: the Claude Code session to stop/);
  assert.is(hook(dir, { session_id: 's', last_assistant_message: 'next step' }).answer!.decision, 'block');
  const done = hook(dir, { session_id: 's', last_assistant_message: 'Green.\n  <promise>ALL  TESTS PASS</promise>  \n' });
  assert.match(done.answer!.systemMessage, /complete: the agent kept the promise <promise>ALL TESTS PASS<\/promise> at iteration 6$/);
  const s = await status(dir);
  assert.equal([s.status, s.iteration, s.last.control], ['complete', 6, 'promise']);
});

test("Claude Code's cap of consecutive Stop-hook blocks: counted from stop_hook_active, announced two before the cap and at it, shown by forge loop status", async () => {
  const dir = await started(['--max-iterations', '20']);
  const messages: string[] = [];
  for (let i = 0; i < 4; i++) {
    const r = hook(
      dir,
      { session_id: 's', stop_hook_active: i > 0, last_assistant_message: `step ${i}` },
      { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '4' },
    );
    assert.is(r.answer!.decision, 'block');
    messages.push(r.answer!.systemMessage);
  }
  assert.equal(messages.slice(0, 2), [
    'forge loop: iteration 2 of 20',
    'forge loop: iteration 3 of 20; Stop-hook block 2 of 4 in this turn (Claude Code ends the turn at 4; CLAUDE_CODE_STOP_HOOK_BLOCK_CAP raises it)',
  ]);
  assert.match(
    messages[3]!,
    /; Stop-hook block 4 of 4 in this turn: Claude Code ends the turn now — send any message to go on with the loop$/,
  );
  // A new turn (the person wrote again): stop_hook_active is false, the count starts over.
  assert.is(
    hook(dir, { session_id: 's', stop_hook_active: false, last_assistant_message: 'step 4' }).answer!.systemMessage,
    'forge loop: iteration 6 of 20',
  );
  const s = await status(dir);
  assert.is(s.last.hookBlock, 1);
  assert.match((await forge(['loop', 'status'], { cwd: dir })).stdout, /Stop-hook block 1 in a row of Claude Code's cap/);
});

test('limits: max iterations stops; three identical or empty answers pause as stuck', async () => {
  const dir = await started(['--max-iterations', '2']);
  assert.is(hook(dir, { session_id: 's', last_assistant_message: 'one' }).answer!.decision, 'block');
  assert.match(
    hook(dir, { session_id: 's', last_assistant_message: 'two' }).answer!.systemMessage,
    /max_reached: reached the limit of 2 iterations$/,
  );
  const same = await started();
  for (let i = 0; i < 2; i++)
    assert.is(hook(same, { session_id: 's', last_assistant_message: 'Looking into it.' }).answer!.decision, 'block');
  assert.match(
    hook(same, { session_id: 's', last_assistant_message: ' Looking into  it. ' }).answer!.systemMessage,
    /paused: stuck: 3 identical responses in a row$/,
  );
  const empty = await started();
  for (let i = 0; i < 2; i++) hook(empty, { session_id: 's', last_assistant_message: '' });
  assert.match(
    hook(empty, { session_id: 's', last_assistant_message: '\u0007' }).answer!.systemMessage,
    /stuck: 3 empty responses in a row$/,
  );
});

test('each prompt carries the last forge validate result of the loop’s run and matching memory lessons', async () => {
  const dir = await started();
  const runId = (await status(dir)).runId as string;
  await forge(
    [
      'iter',
      'update',
      'm1',
      '--run-id',
      runId,
      '--status',
      'failed',
      '--score',
      '0.5',
      '--issue',
      'auth.test fails',
      '--issue',
      'lint: unused import',
    ],
    { cwd: dir },
  );
  await forge(['memory', 'save', 'flaky tests here need --runInBand', '--category', 'failure_pattern'], { cwd: dir });
  await forge(['memory', 'save', 'deploys go through make release', '--category', 'convention'], { cwd: dir });
  const reason = hook(dir, { session_id: 's', last_assistant_message: 'tried again' }).answer!.reason as string;
  assert.ok(
    reason.includes('Last forge validate: m1 attempt 1 failed (score 0.5)\n  - auth.test fails\n  - lint: unused import\n'),
    reason,
  );
  assert.ok(reason.includes('Lessons from forge memory:\n  - [failure_pattern] flaky tests here need --runInBand\n'), reason);
  assert.not.ok(reason.includes('make release'), 'only lessons that match the prompt');
  assert.ok(reason.includes(`Run forge commands with --run-id ${runId} so the loop sees their results.`));
});

test('done-when runs after each iteration, under the loop’s run id; install merges the Stop hook', async () => {
  const dir = await started(['--done-when', 'test -f ok && echo "$FORGE_RUN_ID" > run-id']);
  assert.match(
    hook(dir, { session_id: 's', last_assistant_message: 'step' }).answer!.reason,
    /Last check `test -f ok && echo "\$FORGE_RUN_ID" > run-id`: failed \(exit 1\)/,
  );
  writeFileSync(join(dir, 'ok'), '');
  assert.match(
    hook(dir, { session_id: 's', last_assistant_message: 'step' }).answer!.systemMessage,
    /complete: done-when passed at iteration 2/,
  );
  assert.is(readFileSync(join(dir, 'run-id'), 'utf8').trim(), (await status(dir)).runId);
  const inst = await forge(['loop', 'install', 'claude', '--json'], { cwd: dir });
  assert.equal(JSON.parse(readFileSync(join(dir, '.claude/settings.json'), 'utf8')), {
    hooks: { Stop: [{ hooks: [{ type: 'command', command: HOOK, timeout: 1800 }] }] },
  });
  assert.is(inst.records[0]!.added, true);
  assert.is((await forge(['loop', 'install', 'claude', '--json'], { cwd: dir })).records[0]!.added, false);
  const again = await forge(['loop', 'start', '--prompt', 'x', '--json'], { cwd: dir });
  assert.is(again.code, 0, 'a finished loop makes room for the next');
  assert.is((await forge(['loop', 'start', '--prompt', 'y', '--json'], { cwd: dir })).records[0]!.error.code, 'LOOP_ACTIVE');
});

test('loop install keeps the driver failing open: an onFailure "block" on its Stop entry is removed, the rest kept', async () => {
  const dir = tempRepo();
  mkdirSync(join(dir, '.claude'));
  const settings = {
    hooks: {
      Stop: [
        {
          hooks: [
            { type: 'command', command: HOOK, timeout: 600, onFailure: 'block' },
            { type: 'command', command: 'echo bye', onFailure: 'block' },
          ],
        },
      ],
    },
  };
  writeFileSync(join(dir, '.claude/settings.json'), JSON.stringify(settings));
  const r = await forge(['loop', 'install', 'claude'], { cwd: dir });
  assert.match(
    r.stdout,
    /^upgraded \(onFailure removed\): Stop → forge loop hook claude in \S+\nfails open: when the hook cannot run, crashes or times out, Claude Code lets the session stop\n/,
  );
  assert.equal(
    JSON.parse(readFileSync(join(dir, '.claude/settings.json'), 'utf8')),
    {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: HOOK, timeout: 600 },
              { type: 'command', command: 'echo bye', onFailure: 'block' },
            ],
          },
        ],
      },
    },
    'only forge’s own entry is touched',
  );
  const again = await forge(['loop', 'install', 'claude', '--json'], { cwd: dir });
  assert.equal([again.records[0]!.added, again.records[0]!.upgraded, again.records[0]!.failure], [false, [], 'open']);
});

/** A scripted agent: logs each prompt; says FORGE_COMPLETE at iteration `finish` (never when 0). */
function agentScript(finish: number): string {
  const file = join(tempDir('forge-agent-script-'), 'agent.js');
  writeFileSync(
    file,
    `
const fs = require('fs');
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  const n = Number(process.env.FORGE_LOOP_ITERATION);
  fs.appendFileSync('prompts.log', '=== ' + n + ' ' + process.env.FORGE_RUN_ID + '\\n' + input);
  console.log(n === ${finish} ? 'All green.\\nFORGE_COMPLETE' : 'step ' + n + ' done');
});
`,
  );
  return file;
}

test('forge loop run drives a scripted agent to completion, and to its limit', async () => {
  const dir = tempRepo();
  writeFileSync(join(dir, 'PROMPT.md'), 'Make the build green.\n');
  const run = await forge(
    ['loop', 'run', '--prompt-file', 'PROMPT.md', '--max-iterations', '5', '--json', '--', process.execPath, agentScript(3)],
    { cwd: dir },
  );
  assert.is(run.code, 0, run.stderr);
  assert.equal(
    run.records.map((r) => [r.type ?? 'summary', r.n ?? r.iteration, r.outcome ?? r.status]),
    [
      ['iteration', 1, 'continue'],
      ['iteration', 2, 'continue'],
      ['iteration', 3, 'complete'],
      ['summary', 3, 'complete'],
    ],
  );
  assert.is(run.records.at(-1)!._next_action, null);
  assert.match(run.stderr, /step 1 done\nstep 2 done\nAll green\.\nFORGE_COMPLETE\n/);
  const prompts = readFileSync(join(dir, 'prompts.log'), 'utf8');
  assert.match(prompts, /^=== 1 loop-\d{8}-[0-9a-f]{8}\nMake the build green\.\n\n---\nforge loop loop-\S+ · iteration 1 of 5\n/);
  assert.match(prompts, /=== 3 loop-/);
  const limited = tempRepo();
  const capped = await forge(['loop', 'run', '--prompt', 'never done', '--max-iterations', '2', '--', process.execPath, agentScript(0)], {
    cwd: limited,
  });
  assert.is(capped.code, 1);
  assert.match(
    capped.stdout,
    /^iteration 1: continue\niteration 2: max_reached\nloop-\S+: max_reached — reached the limit of 2 iterations\n/,
  );
  assert.match(capped.stdout, /\nNext: forge logs --run-id loop-\S+\n$/);
  const missing = await forge(['loop', 'run', '--prompt', 'x', '--', 'no-such-agent-xyz'], { cwd: tempRepo() });
  assert.equal([missing.code, missing.stderr.split('\n')[0]], [1, "Error: the agent command 'no-such-agent-xyz' could not start (ENOENT)"]);
  assert.is((await forge(['loop', 'run', '--prompt', 'x'], { cwd: tempRepo() })).code, 2, 'no agent after --');
});

test('Ctrl-C pauses a run loop and stops the agent’s process group; forge loop resume continues it', async () => {
  const dir = tempRepo();
  const agent = join(tempDir('forge-agent-'), 'slow.js');
  // Iteration 1 starts a grandchild and waits; once resumed, iteration 1 (again) completes.
  writeFileSync(
    agent,
    `
const fs = require('fs');
const { spawn } = require('child_process');
process.stdin.resume();
process.stdin.on('end', () => {
  if (fs.existsSync('resumed')) { console.log('FORGE_COMPLETE'); return; }
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  fs.writeFileSync('pids.tmp', process.pid + ' ' + child.pid);
  fs.renameSync('pids.tmp', 'pids');
  setInterval(() => {}, 1 << 30);
});
`,
  );
  const child = ownChild(
    spawn(process.execPath, [FORGE, 'loop', 'run', '--prompt', 'slow work', '--', process.execPath, agent], {
      cwd: dir,
      env: forgeEnv(),
    }),
  );
  let stdout = '';
  child.stdout.on('data', (b) => (stdout += b));
  // The agent and its grandchild run; only Ctrl-C ends them.
  await until(() => existsSync(join(dir, 'pids')));
  const pids = readFileSync(join(dir, 'pids'), 'utf8').split(' ').map(Number);
  child.kill('SIGINT');
  const code = await new Promise<number | null>((r) => child.on('close', r));
  assert.is(code, 130, 'a run Ctrl-C ended exits as a shell reports it');
  assert.match(stdout, /paused — interrupted during iteration 1; the iteration was not counted\n[\s\S]*Next: forge loop resume\n/);
  // Unbounded (a zombie counts as gone): the harness's timeout is the failure if one was missed.
  await until(() => !pids.some(running));
  const s = await status(dir);
  assert.equal([s.status, s.iteration, s.runnerPid], ['paused', 0, null]);
  appendFileSync(join(dir, 'resumed'), '');
  const resumed = await forge(['loop', 'resume'], { cwd: dir });
  assert.is(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stdout, /complete — the agent signalled FORGE_COMPLETE at iteration 1\n/);
});

test.run();
