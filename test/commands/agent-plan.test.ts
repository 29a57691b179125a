// forge agent --plan / --resume against a scripted OpenAI-compatible server: planning, isolated steps, verification, pause and resume.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { plantState } from '../helpers/state';
import { reply, startOpenAIServer, type ChatRequestBody } from '../helpers/openai-server';
import { git, repoWith, tempDir } from '../helpers/repo';
import { forgeOnTty } from '../helpers/tty';

const usage = { prompt_tokens: 500, completion_tokens: 20 };

const PLAN = {
  modules: [
    {
      id: 'M1',
      title: 'Add greet',
      objective: 'Create src/greet.js exporting greet(name) that returns "hi <name>".',
      files: ['src/greet.js'],
      verify: ['node src/greet.js'],
      doneWhen: 'src/greet.js runs',
    },
    {
      id: 'M2',
      title: 'Add shout',
      objective: 'Create src/shout.js exporting shout(s) that returns s upper-cased with "!".',
      files: ['src/shout.js'],
      symbols: ['shout'],
      verify: ['node test/shout.test.js'],
      doneWhen: 'the shout test passes',
    },
    {
      id: 'M3',
      title: 'Use both',
      objective: 'Create src/main.js printing shout(greet("you")).',
      files: ['src/main.js'],
      verify: ['node src/main.js'],
      doneWhen: 'src/main.js prints HI YOU!',
      dependsOn: ['M1', 'M2'],
    },
  ],
};

/** Unique text in step 1's file: step 3 must see the file's name and symbols, never its contents. */
const STEP_ONE_BODY = 'export function greet(name) {\n  // step-one-private-body\n  return `hi ${name}`;\n}\n';

function fixture(): string {
  return repoWith({
    'package.json': '{ "type": "module" }\n',
    'test/shout.test.js':
      "import { shout } from '../src/shout.js';\nif (shout('a') !== 'A!') {\n  console.error(`shout('a') gave ${shout('a')}`);\n  process.exit(1);\n}\n",
  });
}

const write = (path: string, content: string, overwrite = false) => ({
  name: 'write',
  arguments: { path, content, ...(overwrite ? { overwrite: true } : {}) },
});
const userMessage = (body: ChatRequestBody) => String(body.messages.find((m) => m.role === 'user')!.content);

test('a 3-step plan: step 2 fails its check and pauses the plan; --resume redoes it with the failure and finishes; step 3 carries the summary, not the files', async () => {
  const dir = fixture();
  const server = await startOpenAIServer({
    script: [
      reply({ text: `Here is the plan:\n\`\`\`json\n${JSON.stringify(PLAN)}\n\`\`\``, usage }),
      reply({ toolCalls: [write('src/greet.js', STEP_ONE_BODY)], usage }),
      reply({ text: 'Added greet.', usage }),
      reply({ toolCalls: [write('src/shout.js', 'export function shout(s) {\n  return s.toUpperCase();\n}\n')], usage }),
      reply({ text: 'Added shout.', usage }),
      // --resume: step 2 again, then step 3.
      reply({ toolCalls: [write('src/shout.js', "export function shout(s) {\n  return s.toUpperCase() + '!';\n}\n", true)], usage }),
      reply({ text: 'Fixed shout.', usage }),
      reply({
        toolCalls: [
          write(
            'src/main.js',
            "import { greet } from './greet.js';\nimport { shout } from './shout.js';\nconsole.log(shout(greet('you')));\n",
          ),
        ],
        usage,
      }),
      reply({ text: 'Wired main.', usage }),
    ],
  });
  // The view an earlier forge kept beside the activated contracts goes when a plan is saved.
  plantState(dir, { '.forge/plan.md': '# an old plan view\n' });
  try {
    const opts = ['--endpoint', server.url, '--model', 'step-model', '--planner-model', 'plan-model', '--json'];
    const first = await forge(['agent', '--plan', '--yes', ...opts, 'add greet and shout and use them'], { cwd: dir });
    assert.is(first.code, 1, first.stderr);
    const planRecord = first.records.find((r) => r.type === 'plan')!;
    assert.equal(
      planRecord.steps.map((s: any) => s.id),
      ['M1', 'M2', 'M3'],
    );
    assert.ok(planRecord.estimate.low > 0 && planRecord.estimate.high > planRecord.estimate.low, 'an estimate in tokens');
    const failed = first.records.find((r) => r.type === 'step_failed')!;
    assert.is(failed.step, 'M2');
    assert.match(failed.failure, /shout\('a'\) gave A\b/);
    const summary = first.records.at(-1)!;
    assert.equal([summary.status, summary._next_action], ['paused', 'forge agent --resume']);
    assert.equal(
      summary.steps.map((s: any) => s.status),
      ['done', 'failed', 'pending'],
    );
    const md = git(dir, 'show', 'refs/forge/state:.forge/agent/plan.md');
    assert.not.ok(git(dir, 'ls-tree', '--name-only', 'refs/forge/state', '.forge/').split('\n').includes('.forge/plan.md'));
    assert.match(md, /- \[x\] \*\*Step 1 \(M1\): Add greet\*\*/);
    assert.match(md, /- \[!\] \*\*Step 2 \(M2\): Add shout\*\*/);
    assert.match(md, /Result: modified src\/greet\.js \[greet\]/);

    const bodies = server.chatBodies();
    assert.is(bodies[0]!.model, 'plan-model', 'the planner model plans');
    assert.is(bodies[0]!.tools, undefined, 'the planner gets no tools');
    assert.is(bodies[1]!.model, 'step-model', 'the model runs the steps');
    assert.equal(
      bodies[3]!.messages.map((m) => m.role),
      ['system', 'user'],
      'step 2 starts a fresh context',
    );
    assert.not.ok(userMessage(bodies[3]!).includes('step-one-private-body'), "step 2 does not get step 1's file");

    const second = await forge(['agent', '--resume', ...opts], { cwd: dir });
    assert.is(second.code, 0, second.stderr + JSON.stringify(second.records.at(-1)));
    const after = server.chatBodies();
    const retry = userMessage(after[5]!);
    assert.match(retry, /An earlier attempt at this step failed its check:\n.*node test\/shout\.test\.js/);
    assert.match(retry, /shout\('a'\) gave A\b/);
    assert.match(retry, /shout:\n.*src\/shout\.js/, 'the symbol the planner named is shown from its definition');
    const step3 = userMessage(after[7]!);
    assert.equal(
      after[7]!.messages.map((m) => m.role),
      ['system', 'user'],
    );
    assert.match(
      step3,
      /Earlier steps \(done\):\n- M1 Add greet: modified src\/greet\.js \[greet\]\n- M2 Add shout: modified src\/shout\.js \[shout\]/,
    );
    assert.not.ok(step3.includes('step-one-private-body'), "step 3's request has step 1's summary, not its file contents");
    assert.not.ok(
      after.slice(7).some((b) => JSON.stringify(b.messages).includes('step-one-private-body')),
      'no step-3 call sees step 1 contents',
    );
    assert.is(readFileSync(join(dir, 'src/main.js'), 'utf8').includes("shout(greet('you'))"), true);
    const done = second.records.at(-1)!;
    assert.equal(
      [done.status, done.steps.map((s: any) => [s.id, s.status, s.attempts])],
      [
        'done',
        [
          ['M1', 'done', 1],
          ['M2', 'done', 2],
          ['M3', 'done', 1],
        ],
      ],
    );
    assert.equal(
      done.steps.map((s: any) => s.input),
      [1000, 2000, 1000],
      'tokens per step, both attempts of step 2 counted',
    );
    assert.equal(done.total, { input: 4500, output: 180 });
    assert.match(git(dir, 'show', 'refs/forge/state:.forge/agent/plan.md'), /^.* · done · 3 steps/m);
    const logged = await forge(['logs', '--run-id', planRecord.id, '--json'], { cwd: dir });
    const events = logged.records.filter((e) => e.type === 'event').map((e) => e.event);
    assert.is(events.filter((e) => e === 'write').length, 4, "every write of the plan's steps, both runs, is in the plan's run log");
    assert.ok(events.includes('validate'), "the steps' validations too");
    const again = await forge(['agent', '--resume', ...opts], { cwd: dir });
    assert.is(again.code, 1);
    assert.match(again.stdout, /"code":"NO_PLAN"/);
  } finally {
    await server.close();
  }
});

test('a plan that fails forge plan check goes back to the planner once with the findings; off a terminal, without --yes, it is saved, not run', async () => {
  const dir = fixture();
  const bad = { modules: [{ id: 'M1', title: 'Add greet', objective: 'x', files: ['src/greet.js'], doneWhen: 'y' }] };
  const good = { modules: [PLAN.modules[0]] };
  const server = await startOpenAIServer({
    script: [reply({ text: JSON.stringify(bad), usage }), reply({ text: JSON.stringify(good), usage })],
  });
  try {
    const home = tempDir('forge-config-');
    mkdirSync(join(home, 'forge'));
    writeFileSync(join(home, 'forge', 'config.json'), JSON.stringify({ profiles: { paid: { cost_per_mtok: { input: 3, output: 15 } } } }));
    const r = await forge(['agent', '--plan', '--endpoint', server.url, '--model', 'm', 'add greet'], {
      cwd: dir,
      env: { XDG_CONFIG_HOME: home },
    });
    assert.is(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^1 step · est\. [\d.]+k?–[\d.]+k? tokens · ~\$\d+\.\d{4}–\$\d+\.\d{4}$/m,
      'the estimate, in dollars with rates',
    );
    assert.match(r.stdout, /the first plan failed forge plan check \(MISSING_FIELD/);
    assert.match(r.stdout, /saved, not run: not approved \(no terminal to ask on, or the review was closed\)/);
    assert.match(r.stdout, /Next: forge agent --resume --yes/);
    const [, correction] = server.chatBodies();
    const feedback = String(correction!.messages.at(-1)!.content);
    assert.match(feedback, /^forge plan check refused this plan:\nplan\.json:\d+:\d+ error MISSING_FIELD: .*verify/);
    assert.is(server.chatBodies().length, 2, 'no step ran');
    assert.match(git(dir, 'show', 'refs/forge/state:.forge/agent/plan.md'), /proposed/);
  } finally {
    await server.close();
  }
});

test('a planner whose server sends no usage still costs tokens: counted here, the telemetry marked estimated', async () => {
  const dir = fixture();
  const server = await startOpenAIServer({ script: [reply({ text: JSON.stringify({ modules: [PLAN.modules[0]] }) })] });
  try {
    const r = await forge(['agent', '--plan', '--endpoint', server.url, '--model', 'm', '--json', 'add greet'], { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    const plan = r.records.find((x) => x.type === 'plan')!;
    const saved = JSON.parse(git(dir, 'show', `refs/forge/state:.forge/agent/plans/${plan.id}.json`));
    assert.ok(saved.plannerTokens.input > 100 && saved.plannerTokens.output > 10, JSON.stringify(saved.plannerTokens));
    const stats = await forge(['stats', '--json'], { cwd: dir });
    assert.equal(
      stats.records.filter((x) => x.type === 'model').map((x) => [x.tasks, x.estimatedTasks, x.inputTokens > 100]),
      [[1, 1, true]],
    );
  } finally {
    await server.close();
  }
});

test('a planner that is wrong twice is refused with the findings; --plan with --resume is refused; --plan --dry-run shows the planner request', async () => {
  const dir = fixture();
  const bad = JSON.stringify({ modules: [{ id: 'M1' }] });
  const server = await startOpenAIServer({ script: [reply({ text: bad }), reply({ text: 'no plan today' })] });
  try {
    const r = await forge(['agent', '--plan', '--yes', '--endpoint', server.url, '--model', 'm', '--json', 'add greet'], { cwd: dir });
    assert.is(r.code, 1);
    const err = r.records.at(-1)!;
    assert.is(err.error.code, 'PLAN_INVALID');
    assert.match(err.error.message, /failed forge plan check twice:\nplan\.json:1:1 error MISSING_FIELD/);
    assert.is(err._next_action, "forge agent --plan 'add greet'", 'a plan is drawn anew: the same command, no placeholder');
    const conflict = await forge(['agent', '--plan', '--resume', 'x'], { cwd: dir });
    assert.is(conflict.code, 2);
    assert.match(conflict.stderr, /--plan and --resume do not go together\nFix: forge agent --resume/);
    // What the run would refuse before sending anything, the dry run refuses too.
    const small = await forge(['agent', '--dry-run', '--budget', '600', 'add greet'], { cwd: dir });
    assert.is(small.code, 2);
    assert.match(
      small.stderr,
      /^Error: a token budget of 600 cannot hold the request: the system prompt, the task and the tool schemas alone are \d+ tokens\nFix: forge agent --budget \d+ 'add greet'\n/,
    );
    const dry = await forge(['agent', '--plan', '--dry-run', '--json', 'add greet'], { cwd: dir });
    assert.is(dry.code, 0, dry.stderr);
    assert.match(
      dry.records[0]!.request.messages[1].content,
      /^Task: add greet\n\nFiles in the repository:\nREADME\.md\npackage\.json\ntest\/shout\.test\.js$/,
    );
  } finally {
    await server.close();
  }
});

test('on a terminal each step is reviewed: a note joins its instruction; cancelling runs nothing', async () => {
  const dir = fixture();
  const twoSteps = { modules: PLAN.modules.slice(0, 2).map((m) => ({ ...m, symbols: undefined })) };
  const server = await startOpenAIServer({
    script: [
      reply({ text: JSON.stringify(twoSteps) }),
      reply({ toolCalls: [write('src/greet.js', STEP_ONE_BODY)] }),
      reply({ text: 'Added greet.' }),
      reply({ toolCalls: [write('src/shout.js', "export function shout(s) {\n  return s.toUpperCase() + '!';\n}\n")] }),
      reply({ text: 'Added shout.' }),
      reply({ text: JSON.stringify(twoSteps) }),
    ],
  });
  try {
    const opts = ['--endpoint', server.url, '--model', 'm'];
    const reviewed = await forgeOnTty(['agent', '--plan', ...opts, 'add greet and shout'], {
      cwd: dir,
      prompt: String.raw`\[c\]ancel the plan\? |Note for this step: `,
      answers: ['e', 'keep it to one line', 'a', 'a'],
    });
    assert.is(reviewed.code, 0, reviewed.output);
    assert.match(reviewed.output, /Step 1\/2 \(M1\): Add greet\r?\n.*\r?\n.*files: src\/greet\.js/);
    assert.match(reviewed.output, /note: keep it to one line/, 'the step is shown again with its note');
    assert.match(userMessage(server.chatBodies()[1]!), /User note: keep it to one line/);
    assert.not.match(userMessage(server.chatBodies()[3]!), /User note/);
    const cancelled = await forgeOnTty(['agent', '--plan', ...opts, 'add greet and shout'], {
      cwd: dir,
      prompt: String.raw`\[c\]ancel the plan\? `,
      answers: ['c'],
    });
    assert.is(cancelled.code, 1, cancelled.output);
    assert.match(cancelled.output, /cancelled; nothing was run/);
    assert.is(server.chatBodies().length, 6, 'only the planner was called');
    assert.match(git(dir, 'show', 'refs/forge/state:.forge/agent/plan.md'), / · cancelled \(cancelled in review\)/);
  } finally {
    await server.close();
  }
});

test.run();
