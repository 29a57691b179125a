// forge agent --plan with --attach, --image and the git context, on the wire against the scripted server: the planner's request and every step's calls carry them.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { failWith, reply, startOpenAIServer, type ChatRequestBody, type ReplyStep } from '../helpers/openai-server';
import { git, repoWith, tempDir } from '../helpers/repo';

const usage = { prompt_tokens: 300, completion_tokens: 10 };

/** A real PNG: its signature, an IHDR chunk (1×1, RGBA) and the NUL bytes any PNG has. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
  'hex',
);

const module = (id: string, file: string, verify = [`node ${file}`]) => ({
  id,
  title: `Add ${file}`,
  objective: `Create ${file} printing ${id}.`,
  files: [file],
  verify,
  doneWhen: `${file} runs`,
});

const planReply = (modules: unknown[]) => reply({ text: JSON.stringify({ modules }), usage, when: (b) => !b.tools });
const userText = (b: ChatRequestBody) => {
  const content = b.messages.find((m) => m.role === 'user')?.content;
  return Array.isArray(content) ? String((content[0] as { text?: string }).text ?? '') : String(content ?? '');
};
const system = (b: ChatRequestBody) => String(b.messages[0]!.content);
const toolResults = (b: ChatRequestBody) => b.messages.filter((m) => m.role === 'tool').length;
const forStep = (n: number, total: number, results: number, step: Omit<ReplyStep, 'type' | 'when'>) =>
  reply({ ...step, usage, when: (b) => !!b.tools && userText(b).startsWith(`Step ${n} of ${total}:`) && toolResults(b) === results });
const write = (path: string, content: string) => ({ name: 'write', arguments: { path, content } });
const edit = (path: string, old: string, now: string) => ({ name: 'edit', arguments: { path, old, new: now } });
const planner = (server: { chatBodies(): ChatRequestBody[] }) => server.chatBodies().find((b) => !b.tools)!;
const stepBody = (server: { chatBodies(): ChatRequestBody[] }, n: number, total: number, results: number) =>
  server.chatBodies().find((b) => !!b.tools && userText(b).startsWith(`Step ${n} of ${total}:`) && toolResults(b) === results)!;

function fixture(): string {
  return repoWith({
    'package.json': '{ "type": "module" }\n',
    'notes.md': 'Rule: indent with tabs.\n',
    'src/keep.js': 'console.log("keep");\n',
  });
}

function profile(settings: Record<string, unknown>): string {
  const home = tempDir('forge-config-');
  mkdirSync(join(home, 'forge'));
  writeFileSync(join(home, 'forge', 'config.json'), JSON.stringify({ profiles: { default: settings } }));
  return home;
}

test('--plan --attach: the planner and every call of every step get the pinned file as it is then and the git state when the step starts; the plan keeps it for --resume', async () => {
  const dir = fixture();
  const server = await startOpenAIServer({
    script: [
      planReply([module('M1', 'src/a.js'), module('M2', 'src/b.js')]),
      forStep(1, 2, 0, { toolCalls: [edit('notes.md', 'tabs', 'spaces')] }),
      forStep(1, 2, 1, { toolCalls: [write('src/a.js', 'console.log("M1");\n')] }),
      forStep(1, 2, 2, { text: 'Added a.' }),
      // Step 2 does nothing: it fails its check and the plan pauses.
      forStep(2, 2, 0, { text: 'Nothing to do.' }),
    ],
  });
  const resumed = await startOpenAIServer({
    script: [forStep(2, 2, 0, { toolCalls: [write('src/b.js', 'console.log("M2");\n')] }), forStep(2, 2, 1, { text: 'Added b.' })],
  });
  try {
    const opts = ['--endpoint', server.url, '--model', 'm', '--json'];
    const r = await forge(['agent', '--plan', '--yes', '--attach', 'notes.md', ...opts, 'add a and b'], { cwd: dir });
    assert.is(r.code, 1, r.stderr + r.stdout);
    assert.is(server.remaining(), 0, 'every scripted reply was used');
    assert.equal(
      r.records.find((x) => x.type === 'attached'),
      { type: 'attached', pinned: ['notes.md'], images: [] },
    );
    const plan = system(planner(server));
    assert.match(plan, /Pinned files/);
    assert.match(plan, /--- notes\.md ---\nRule: indent with tabs\.\n--- end of notes\.md ---/);
    assert.match(plan, /Git: on main\nStatus: clean/, "the planner's request has the git preamble");
    assert.match(system(stepBody(server, 1, 2, 0)), /Rule: indent with tabs\./);
    assert.match(system(stepBody(server, 1, 2, 1)), /Rule: indent with spaces\./, "the step's next call sees its edit");
    const second = system(stepBody(server, 2, 2, 0));
    assert.match(second, /Rule: indent with spaces\./, 'a later step sees it too');
    assert.match(second, /Git: on main\nStatus \(git status --short\):\n M notes\.md\n\?\? src\/a\.js/, 'git state as the step starts');
    const id = r.records.find((x) => x.type === 'plan')!.id;
    const saved = JSON.parse(git(dir, 'show', `refs/forge/state:.forge/agent/plans/${id}.json`));
    assert.equal(saved.attached, ['notes.md'], 'the plan records the pinned paths');

    writeFileSync(join(dir, 'notes.md'), 'Rule: indent with two spaces.\n');
    const again = await forge(['agent', '--resume', '--yes', '--endpoint', resumed.url, '--model', 'm', '--json'], { cwd: dir });
    assert.is(again.code, 0, again.stderr + again.stdout);
    assert.is(resumed.remaining(), 0);
    assert.equal(again.records.find((x) => x.type === 'attached')?.pinned, ['notes.md'], '--resume pins it again');
    for (const b of resumed.chatBodies()) assert.match(system(b), /--- notes\.md ---\nRule: indent with two spaces\.\n/);
    assert.match(system(resumed.chatBodies()[0]!), /Git: on main/);
  } finally {
    await server.close();
    await resumed.close();
  }
});

test('steps at once read the pinned file and the git state of their own worktree', async () => {
  const dir = fixture();
  const server = await startOpenAIServer({
    script: [
      planReply([module('M1', 'src/a.js'), module('M2', 'src/b.js')]),
      forStep(1, 2, 0, { toolCalls: [edit('notes.md', 'tabs', 'spaces'), write('src/a.js', 'console.log("M1");\n')] }),
      forStep(1, 2, 2, { text: 'Added a.' }),
      // Step 2 waits until step 1 has edited the note in its own worktree.
      forStep(2, 2, 0, { toolCalls: [write('src/b.js', 'console.log("M2");\n')], holdUntilChats: 3 }),
      forStep(2, 2, 1, { text: 'Added b.' }),
    ],
  });
  try {
    const args = [
      'agent',
      '--plan',
      '--yes',
      '--parallel',
      '2',
      '--attach',
      'notes.md',
      '--endpoint',
      server.url,
      '--model',
      'm',
      '--json',
    ];
    const r = await forge([...args, 'add a and b'], { cwd: dir });
    assert.is(r.code, 0, r.stderr + r.stdout);
    assert.is(server.remaining(), 0);
    assert.equal(r.records.find((x) => x.type === 'steps_together')?.steps, ['M1', 'M2'], 'the steps ran at once');
    assert.match(system(stepBody(server, 1, 2, 2)), /Rule: indent with spaces\./, "step 1 reads its worktree's edited copy");
    assert.match(system(stepBody(server, 2, 2, 1)), /Rule: indent with tabs\./, "step 2 reads its own worktree's copy, not step 1's");
    for (const n of [1, 2])
      assert.match(system(stepBody(server, n, 2, 0)), /Git: on detached HEAD at [0-9a-f]+/, 'the git state of the worktree');
    assert.match(system(planner(server)), /Git: on main/);
    assert.is(readFileSync(join(dir, 'notes.md'), 'utf8'), 'Rule: indent with spaces.\n', "step 1's edit landed");
  } finally {
    await server.close();
  }
});

test('--plan --image: the image goes with the planner only; git_context "tool" gives each step the tool, reading its own worktree', async () => {
  const dir = repoWith({ 'package.json': '{ "type": "module" }\n', 'shot.png': PNG, 'src/keep.js': 'console.log("keep");\n' });
  const home = profile({ git_context: 'tool' });
  const gitTool = { name: 'git_context', arguments: {} };
  const server = await startOpenAIServer({
    script: [
      planReply([module('M1', 'src/a.js'), module('M2', 'src/b.js')]),
      forStep(1, 2, 0, { toolCalls: [gitTool] }),
      forStep(1, 2, 1, { toolCalls: [write('src/a.js', 'console.log("M1");\n')] }),
      forStep(1, 2, 2, { text: 'Added a.' }),
      forStep(2, 2, 0, { toolCalls: [write('src/b.js', 'console.log("M2");\n')] }),
      forStep(2, 2, 1, { text: 'Added b.' }),
    ],
  });
  try {
    const args = ['agent', '--plan', '--yes', '--parallel', '2', '--image', 'shot.png', '--endpoint', server.url, '--model', 'm', '--json'];
    const r = await forge([...args, 'build what the picture shows'], { cwd: dir, env: { XDG_CONFIG_HOME: home } });
    assert.is(r.code, 0, r.stderr + r.stdout);
    assert.is(server.remaining(), 0);
    const first = planner(server);
    assert.equal((first.messages[1]!.content as unknown[])[1], {
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` },
    });
    assert.not.match(system(first), /Git: on/, 'with "tool" the planner gets no preamble');
    const steps = server.chatBodies().filter((b) => b.tools);
    for (const b of steps) {
      assert.ok(
        b.messages.every((m) => typeof m.content !== 'object' || m.content === null),
        'no step request carries an image',
      );
      assert.ok(
        b.tools!.some((t) => (t as { function: { name: string } }).function.name === 'git_context'),
        'each step has the git_context tool',
      );
      assert.not.match(system(b), /Git: on/);
    }
    assert.not.ok(
      r.records.some((x) => x.type === 'step_sequential'),
      'git_context does not stop a step in its worktree',
    );
    const said = stepBody(server, 1, 2, 1).messages.find((m) => m.role === 'tool')!;
    assert.match(String(said.content), /Git: on detached HEAD at/, "the tool reads the step's worktree");
  } finally {
    await server.close();
  }
});

test('a plan whose pinned files the budget cannot hold is refused before anything is sent; --image does not go with --resume', async () => {
  const lines = Array.from({ length: 800 }, (_, i) => `huge line ${i + 1}: words to fill the context up`).join('\n');
  const dir = repoWith({ 'huge.md': `${lines}\n` });
  const home = profile({ git_context: 'off' });
  const server = await startOpenAIServer({ script: [planReply([module('M1', 'src/a.js')])] });
  try {
    const opts = ['--endpoint', server.url, '--model', 'm', '--json'];
    const r = await forge(['agent', '--plan', '--yes', '--budget', '3000', '--attach', 'huge.md', ...opts, 'plan it'], {
      cwd: dir,
      env: { XDG_CONFIG_HOME: home },
    });
    const error = r.records.at(-1)!.error;
    assert.equal([r.code, error.code], [2, 'BUDGET_TOO_SMALL']);
    assert.match(error.message, /the pinned file \(huge\.md\) alone is \d+ tokens/);
    assert.match(r.records.at(-1)!._next_action, /^forge agent --budget \d+ --plan --attach huge\.md 'plan it'$/);
    assert.is(server.chatBodies().length, 0, 'nothing was sent');
    writeFileSync(join(dir, 'shot.png'), PNG);
    const resume = await forge(['agent', '--resume', '--image', 'shot.png', ...opts], { cwd: dir });
    assert.equal([resume.code, resume.records.at(-1)!.error.code], [2, 'CONFLICTING_ARGUMENTS']);
  } finally {
    await server.close();
  }
});

test("the plan's estimate counts the pinned files in every step's first request", async () => {
  const spec = Array.from({ length: 100 }, (_, i) => `spec line ${i + 1}: words that every step carries`).join('\n');
  const dir = repoWith({ 'spec.md': `${spec}\n` });
  const modules = [module('M1', 'src/a.js'), module('M2', 'src/b.js')];
  const server = await startOpenAIServer({ script: [planReply(modules), planReply(modules)] });
  try {
    const opts = ['--endpoint', server.url, '--model', 'm', '--json'];
    const low = async (...flags: string[]) => {
      // Without a terminal and without --yes the plan is saved, not run.
      const r = await forge(['agent', '--plan', ...flags, ...opts, 'add a and b'], { cwd: dir });
      assert.is(r.code, 0, r.stderr + r.stdout);
      return r.records.find((x) => x.type === 'plan')!.estimate.low as number;
    };
    const bare = await low();
    const pinned = await low('--attach', 'spec.md');
    // Two steps, each at least 3 calls, each carrying the spec (about 1,000 tokens).
    assert.ok(pinned - bare > 2 * 3 * 900, `${bare} → ${pinned}`);
  } finally {
    await server.close();
  }
});

test('a step whose request the budget cannot hold with the pinned files stops the plan with BUDGET_TOO_SMALL, its fix --resume with a budget that fits', async () => {
  const spec = Array.from({ length: 150 }, (_, i) => `spec line ${i + 1}: words that every step carries`).join('\n');
  const dir = repoWith({ 'package.json': '{ "type": "module" }\n', 'spec.md': `${spec}\n` });
  const home = profile({ git_context: 'off' });
  const server = await startOpenAIServer({ script: [planReply([module('M1', 'src/a.js')])] });
  const resumed = await startOpenAIServer({
    script: [forStep(1, 1, 0, { toolCalls: [write('src/a.js', 'console.log("M1");\n')] }), forStep(1, 1, 1, { text: 'Added a.' })],
  });
  try {
    const env = { XDG_CONFIG_HOME: home };
    const dry = await forge(['agent', '--dry-run', '--json', '--attach', 'spec.md', 'x'], { cwd: dir, env });
    // The planner's request (no tool schemas) fits; a step's (the same file and forge's tools) does not.
    const budget = String((dry.records.at(-1)!.tokens as number) - 200);
    const opts = ['--endpoint', server.url, '--model', 'm', '--json'];
    const r = await forge(['agent', '--plan', '--yes', '--budget', budget, '--attach', 'spec.md', ...opts, 'add a'], { cwd: dir, env });
    const last = r.records.at(-1)!;
    assert.equal([r.code, last.error?.code], [2, 'BUDGET_TOO_SMALL'], r.stdout);
    assert.match(last._next_action, /^forge agent --resume --budget \d+$/);
    assert.is(server.chatBodies().length, 1, 'only the planner was asked');
    const fix = last._next_action.split(' ').slice(2);
    const again = await forge(['agent', ...fix, '--yes', '--endpoint', resumed.url, '--model', 'm', '--json'], { cwd: dir, env });
    assert.is(again.code, 0, again.stderr + again.stdout);
    assert.match(system(resumed.chatBodies()[0]!), /--- spec\.md ---/, 'the fix pins the file again');
  } finally {
    await server.close();
    await resumed.close();
  }
});

test("--plan --dry-run shows the pinned file and the image in the planner's request; a planner that refuses images is MODEL_NO_VISION, its fix a --planner-model that takes them", async () => {
  const dir = repoWith({ 'notes.md': 'Rule: indent with tabs.\n', 'shot.png': PNG });
  const dry = await forge(['agent', '--plan', '--dry-run', '--json', '--attach', 'notes.md', '--image', 'shot.png', 'plan it'], {
    cwd: dir,
  });
  assert.is(dry.code, 0, dry.stderr + dry.stdout);
  const messages = dry.records.at(-1)!.request.messages;
  assert.match(messages[0].content, /--- notes\.md ---\nRule: indent with tabs\./);
  assert.match(messages[0].content, /Git: on main/);
  assert.is(messages[1].content[1].type, 'image_url');
  const refusal = failWith(400, { error: { message: 'this model does not support image input', type: 'invalid_request_error' } });
  const server = await startOpenAIServer({ script: [refusal], models: ['m', 'llava:7b'] });
  try {
    const r = await forge(
      [
        'agent',
        '--plan',
        '--yes',
        '--endpoint',
        server.url,
        '--model',
        'm',
        '--json',
        '--attach',
        'notes.md',
        '--image',
        'shot.png',
        'plan it',
      ],
      {
        cwd: dir,
      },
    );
    const last = r.records.at(-1)!;
    assert.equal([r.code, last.error.code], [2, 'MODEL_NO_VISION']);
    assert.is(
      last._next_action,
      `forge agent --endpoint ${server.url} --model m --planner-model llava:7b --plan --attach notes.md --image shot.png 'plan it'`,
    );
  } finally {
    await server.close();
  }
});

test.run();
