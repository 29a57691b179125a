// forge agent --attach and --image, on the wire against the scripted server: pinned files in every request, images as content parts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { failWith, reply, startOpenAIServer, type ChatRequestBody } from '../helpers/openai-server';
import { repoWith, tempDir } from '../helpers/repo';

const system = (b: ChatRequestBody) => String(b.messages[0]!.content);
const agent = (url: string, ...rest: string[]) => ['agent', '--endpoint', url, '--model', 'test-model', '--json', ...rest];

/** A real PNG: its signature, an IHDR chunk (1×1, RGBA) and the NUL bytes any PNG has. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
  'hex',
);

test('--attach puts the file in the system prompt of every request, as it is at each call; the session keeps it for --continue', async () => {
  const dir = repoWith({ 'notes.md': 'Rule: every function has a doc comment.\n', 'a.txt': 'alpha\n' });
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] }),
      reply({ toolCalls: [{ name: 'edit', arguments: { path: 'notes.md', old: 'doc comment', new: 'doc comment and a test' } }] }),
      reply({ text: 'Done.' }),
      reply({ text: 'Still pinned.' }),
      reply({ text: 'Unpinned.' }),
    ],
  });
  try {
    const r = await forge(agent(server.url, '--attach', 'notes.md', 'follow the notes'), { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    assert.equal(
      r.records.find((x) => x.type === 'attached'),
      { type: 'attached', pinned: ['notes.md'], images: [] },
    );
    const bodies = server.chatBodies();
    assert.is(bodies.length, 3);
    for (const b of bodies.slice(0, 2))
      assert.match(system(b), /--- notes\.md ---\nRule: every function has a doc comment\.\n--- end of notes\.md ---/);
    assert.match(system(bodies[2]!), /--- notes\.md ---\nRule: every function has a doc comment and a test\.\n--- end of notes\.md ---/);
    assert.not.match(system(bodies[2]!), /has a doc comment\.\n/, 'the changed file replaces the old content');
    const session = r.records.at(-1)!.session as string;
    const saved = JSON.parse(
      (await forge(['state', 'show', `.forge/agent/sessions/${session}.json`, '--json'], { cwd: dir })).records.at(-1)!.content as string,
    );
    assert.equal(saved.attached, ['notes.md']);
    const next = await forge(agent(server.url, '--continue', 'is it still there'), { cwd: dir });
    assert.is(next.code, 0, next.stderr);
    assert.match(system(server.chatBodies()[3]!), /--- notes\.md ---\nRule: every function has a doc comment and a test\./);
    const unpinned = await forge(agent(server.url, '--continue', '--detach', 'notes.md', 'and now without'), { cwd: dir });
    assert.is(unpinned.code, 0, unpinned.stderr);
    assert.not.match(system(server.chatBodies()[4]!), /Pinned files|--- notes\.md ---/, '--detach unpins it');
    const after = JSON.parse(
      (await forge(['state', 'show', `.forge/agent/sessions/${session}.json`, '--json'], { cwd: dir })).records.at(-1)!.content as string,
    );
    assert.equal(after.attached, [], 'and the session keeps it unpinned');
  } finally {
    await server.close();
  }
});

test('a pinned file replaced during the task by a symlink out of the work tree is not read into the prompt', async () => {
  const outside = join(tempDir(), 'secret.txt');
  writeFileSync(outside, 'SECRET-OUTSIDE-THE-REPOSITORY\n');
  const dir = repoWith({ 'notes.md': 'the rules\n' });
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [{ name: 'bash', arguments: { command: `rm notes.md && ln -s ${outside} notes.md` } }] }),
      reply({ text: 'Done.' }),
    ],
  });
  try {
    const r = await forge(agent(server.url, '--attach', 'notes.md', 'follow the notes'), { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    const [first, second] = server.chatBodies();
    assert.match(system(first!), /--- notes\.md ---\nthe rules\n/);
    assert.not.match(system(second!), /SECRET-OUTSIDE/, 'the file outside is never sent');
    assert.match(system(second!), /--- notes\.md ---\n\[no longer pinned: .*outside the repository/);
  } finally {
    await server.close();
  }
});

test('pinned files are never compressed, and a budget they alone exceed is refused before anything is sent, with the budget that fits', async () => {
  const lines = (n: number, what: string) =>
    Array.from({ length: n }, (_, i) => `${what} line ${i + 1}: words to fill the context up`).join('\n') + '\n';
  const dir = repoWith({ 'spec.md': lines(20, 'spec'), 'big.txt': lines(300, 'big'), 'huge.md': lines(800, 'huge') });
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [{ name: 'read', arguments: { path: 'big.txt' } }] }),
      reply({ toolCalls: [{ name: 'read', arguments: { path: 'big.txt', start: 100 } }] }),
      reply({ text: 'Read.' }),
    ],
  });
  try {
    const budget = 2500;
    const r = await forge(agent(server.url, '--budget', String(budget), '--attach', 'spec.md', 'read big.txt'), { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    assert.ok(
      r.records.some((x) => x.type === 'compressed'),
      'the budget compressed the context',
    );
    const bodies = server.chatBodies();
    for (const b of bodies) {
      assert.ok(countTokens(JSON.stringify({ messages: b.messages, tools: b.tools })) <= budget);
      assert.ok(system(b).includes(lines(20, 'spec').trimEnd()), 'the pinned file is whole in every request');
    }
    const none = await forge(agent(server.url, '--budget', '3000', '--attach', 'huge.md', 'read it'), { cwd: dir });
    const error = none.records.at(-1)!.error;
    assert.equal([none.code, error.code], [2, 'BUDGET_TOO_SMALL']);
    assert.match(
      error.message,
      /^a token budget of 3000 cannot hold the request: the pinned file \(huge\.md\) alone is \d+ tokens; with the prompt, the task and the tool schemas, the request is \d+ tokens: pass a larger --budget, or attach fewer files$/,
    );
    assert.match(none.records.at(-1)!._next_action, /^forge agent --budget \d+ --attach huge\.md 'read it'$/);
    assert.ok(error.data.pinned > 3000);
    assert.is(server.chatBodies().length, 3, 'nothing was sent');
  } finally {
    await server.close();
  }
});

test('--image sends the image as an image_url part with a base64 data URL; a file that is not an image by its bytes, too large or outside the repository is refused', async () => {
  const dir = repoWith({ 'shot.png': PNG, 'fake.png': 'not an image\n' });
  writeFileSync(join(dir, 'large.gif'), Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(5 * 1024 * 1024)]));
  const outside = join(tempDir(), 'x.png');
  writeFileSync(outside, PNG);
  const server = await startOpenAIServer({ script: [reply({ text: 'A single transparent pixel.' })] });
  try {
    const r = await forge(agent(server.url, '--image', 'shot.png', 'what is in the picture'), { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    assert.equal(server.chatBodies()[0]!.messages[1]!.content, [
      { type: 'text', text: 'what is in the picture' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${readFileSync(join(dir, 'shot.png')).toString('base64')}` } },
    ]);
    const refusals: Array<[string, number, string, RegExp]> = [
      ['fake.png', 2, 'IMAGE_UNSUPPORTED', /^--image 'fake\.png' is not a PNG, JPEG, GIF or WebP image \(by its bytes\)$/],
      ['large.gif', 2, 'ATTACHMENT_TOO_LARGE', /^--image 'large\.gif' is 5242886 bytes, over the cap of 5242880$/],
      [outside, 2, 'PATH_OUTSIDE_REPO', /is outside the repository/],
      ['.git/HEAD', 1, 'PATH_IN_GIT_DIR', /inside git's own files/],
      ['missing.png', 1, 'FILE_NOT_FOUND', /^--image 'missing\.png': no such file$/],
    ];
    for (const [path, code, errorCode, message] of refusals) {
      const bad = await forge(agent(server.url, '--image', 'shot.png', '--image', path, 'look'), { cwd: dir });
      const last = bad.records.at(-1)!;
      assert.equal([bad.code, last.error.code], [code, errorCode], path);
      assert.match(last.error.message, message);
      assert.is(
        last._next_action,
        `forge agent --endpoint ${server.url} --model test-model --image shot.png look`,
        'the fix is the same command (the same endpoint and model) without the bad file',
      );
    }
    assert.is(server.chatBodies().length, 1, 'nothing was sent for a refused file');
  } finally {
    await server.close();
  }
});

test('images are the first thing left out of a request over the budget, and the run says so', async () => {
  const dir = repoWith({ 'shot.png': PNG });
  const server = await startOpenAIServer({ script: [reply({ text: 'No picture to see.' })] });
  try {
    const dry = await forge(['agent', '--dry-run', '--json', 'describe it'], { cwd: dir });
    const budget = (dry.records.at(-1)!.tokens as number) + 300;
    const r = await forge(agent(server.url, '--budget', String(budget), '--image', 'shot.png', 'describe it'), { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    assert.equal(server.chatBodies()[0]!.messages[1]!.content, [
      { type: 'text', text: 'describe it' },
      { type: 'text', text: '[an attached image was left out to fit the token budget]' },
    ]);
    assert.is(r.records.find((x) => x.type === 'compressed')!.images, 1);
  } finally {
    await server.close();
  }
});

test('a model that refuses images is MODEL_NO_VISION, with a fix naming a vision model the endpoint has, else the task without its images', async () => {
  const dir = repoWith({ 'shot.png': PNG, 'notes.md': 'notes\n' });
  const refusal = failWith(400, { error: { message: 'this model does not support image input', type: 'invalid_request_error' } });
  const withVision = await startOpenAIServer({ script: [refusal], models: ['test-model', 'llava:7b'] });
  const without = await startOpenAIServer({ script: [refusal], models: ['test-model'] });
  try {
    const r = await forge(agent(withVision.url, '--attach', 'notes.md', '--image', 'shot.png', 'what is wrong here'), { cwd: dir });
    const last = r.records.at(-1)!;
    assert.equal([r.code, last.error.code], [2, 'MODEL_NO_VISION']);
    assert.match(
      last.error.message,
      /^model 'test-model' at '.*' does not take image input \(400\): this model does not support image input$/,
    );
    assert.is(
      last._next_action,
      `forge agent --endpoint ${withVision.url} --model llava:7b --attach notes.md --image shot.png 'what is wrong here'`,
    );
    const plain = await forge(agent(without.url, '--attach', 'notes.md', '--image', 'shot.png', 'what is wrong here'), { cwd: dir });
    assert.equal([plain.code, plain.records.at(-1)!.error.code], [2, 'MODEL_NO_VISION']);
    assert.is(
      plain.records.at(-1)!._next_action,
      `forge agent --endpoint ${without.url} --model test-model --attach notes.md 'what is wrong here'`,
    );
    const noImage = await startOpenAIServer({ script: [refusal] });
    try {
      const text = await forge(agent(noImage.url, 'what is wrong here'), { cwd: dir });
      assert.is(text.records.at(-1)!.error.code, 'MODEL_REQUEST_REJECTED', 'without images the same words are not about vision');
    } finally {
      await noImage.close();
    }
  } finally {
    await withVision.close();
    await without.close();
  }
});

test('--attach refuses a binary file, a directory and one inside .git; --image goes with no --resume', async () => {
  const dir = repoWith({ 'shot.png': PNG, 'src/a.ts': 'export const a = 1;\n' });
  const cases: Array<[string[], number, string]> = [
    [['--attach', 'shot.png'], 1, 'BINARY_FILE'],
    [['--attach', 'src'], 2, 'IS_A_DIRECTORY'],
    [['--attach', '.git/config'], 1, 'PATH_IN_GIT_DIR'],
    [['--attach', 'shot.png', '--plan'], 1, 'BINARY_FILE'],
    [['--image', 'shot.png', '--resume'], 2, 'CONFLICTING_ARGUMENTS'],
  ];
  for (const [flags, code, errorCode] of cases) {
    const r = await forge(['agent', '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm', '--json', ...flags, 'task'], { cwd: dir });
    assert.equal([r.code, r.records.at(-1)!.error.code], [code, errorCode], flags.join(' '));
  }
});

test.run();
