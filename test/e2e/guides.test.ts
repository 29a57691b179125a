// Every guide's examples, run as written: each ```sh block of README.md, CONTRIBUTING.md and docs/*.md, in a fresh repository per guide.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { FORGE, forgeEnv } from '../helpers/forge';
import { ownChild } from '../helpers/owner';
import { brokenLinks, guideFiles, inOrder, shellBlocks } from '../helpers/guides';
import { reply, startOpenAIServer, type OpenAIServer, type ScriptStep } from '../helpers/openai-server';
import { git, tempDir } from '../helpers/repo';

const PROGRAMS = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).bin as Record<string, string>);

/** The project every guide starts in: a small Node package with a test, committed. */
function project(): string {
  const dir = tempDir('forge-guide-');
  git(dir, 'init', '-q', '-b', 'main');
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify({ name: 'greet', type: 'module', scripts: { test: 'node --test' } }, null, 2)}\n`,
    'src/greet.js': "export function greet(name) {\n  return 'Hello, ' + name;\n}\n",
    'test/greet.test.js':
      "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { greet } from '../src/greet.js';\n\ntest('greet', () => assert.equal(greet('Ada'), 'Hello, Ada'));\n",
    'README.md': '# greet\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

/**
 * One step through bash from the top of the project, stdin closed; the test owns its process group.
 * Asynchronous, so that the scripted model server in this process can answer the step's requests.
 */
function step(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = ownChild(spawn('bash', ['-c', command], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true }), { group: true });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (b: string) => (stdout += b));
    child.stderr.setEncoding('utf8').on('data', (b: string) => (stderr += b));
    child.on('error', fail);
    child.on('close', (status) => {
      done({ status, output: `${stdout}${stderr}` });
    });
    child.stdin.end();
  });
}

/**
 * What a guide's examples talk to besides forge: the model a guide's `http://localhost:11434` stands
 * for is a scripted server, answering as Ollama does, with the replies the guide's tasks need.
 */
const MODEL_SCRIPTS: Record<string, ScriptStep[]> = {
  'README.md': [
    reply({
      toolCalls: [
        {
          name: 'write',
          arguments: { path: 'src/farewell.js', content: "export function farewell(name) {\n  return 'Goodbye, ' + name;\n}\n" },
        },
      ],
    }),
    reply({ text: 'Added farewell(name) in src/farewell.js.' }),
  ],
  // forge eval's own task: the model adds the function in one call.
  'docs/eval.md': [
    reply({
      toolCalls: [
        {
          name: 'write',
          arguments: {
            path: 'src/greet.js',
            content:
              "export function greet(name) {\n  return 'Hello, ' + name;\n}\n\nexport function farewell(name) {\n  return 'Goodbye, ' + name;\n}\n",
            overwrite: true,
          },
        },
      ],
    }),
    reply({ text: 'Added farewell(name).' }),
  ],
  // forge agent under an active plan: its read of README.md is refused by the contract.
  'docs/plans.md': [
    reply({ toolCalls: [{ name: 'read', arguments: { path: 'README.md' } }] }),
    reply({ text: 'README.md is outside the plan.' }),
  ],
};

/** docs/agent.md: the farewell task, a quick question twice, a question back then `--continue yes`, and a 2-step plan. */
MODEL_SCRIPTS['docs/agent.md'] = [
  reply({
    toolCalls: [
      {
        name: 'edit',
        arguments: {
          path: 'src/greet.js',
          old: "  return 'Hello, ' + name;\n}\n",
          new: "  return 'Hello, ' + name;\n}\n\nexport function farewell(name) {\n  return 'Goodbye, ' + name;\n}\n",
        },
      },
    ],
  }),
  reply({ text: 'Added farewell(name) to src/greet.js.' }),
  reply({ text: "greet(name) returns 'Hello, ' followed by the name." }),
  reply({ text: "greet(name) returns 'Hello, ' followed by the name." }),
  reply({ text: 'Should I add it to test/greet.test.js?' }),
  reply({
    toolCalls: [
      {
        name: 'write',
        arguments: {
          path: 'test/farewell.test.js',
          content:
            "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { farewell } from '../src/greet.js';\n\ntest('farewell', () => assert.equal(farewell('Ada'), 'Goodbye, Ada'));\n",
        },
      },
    ],
  }),
  reply({ text: 'Added test/farewell.test.js.' }),
  reply({
    text: `\`\`\`json\n${JSON.stringify({
      modules: [
        {
          id: 'M1',
          title: 'Add shout',
          objective: "Add shout(name) to src/greet.js: greet(name) upper-cased, with '!'.",
          files: ['src/greet.js'],
          verify: ['npm test'],
          doneWhen: 'npm test passes',
        },
        {
          id: 'M2',
          title: 'Document',
          objective: 'List greet, farewell and shout in README.md, one line each.',
          files: ['README.md'],
          verify: ['grep -q shout README.md'],
          doneWhen: 'README.md names shout',
          dependsOn: ['M1'],
        },
      ],
    })}\n\`\`\``,
  }),
  reply({
    toolCalls: [
      {
        name: 'edit',
        arguments: {
          path: 'src/greet.js',
          old: 'export function farewell',
          new: "export function shout(name) {\n  return greet(name).toUpperCase() + '!';\n}\n\nexport function farewell",
        },
      },
    ],
  }),
  reply({ text: 'Added shout(name).' }),
  reply({
    toolCalls: [
      {
        name: 'write',
        arguments: {
          path: 'README.md',
          overwrite: true,
          content:
            "# greet\n\n- `greet(name)`: 'Hello, ' + name\n- `farewell(name)`: 'Goodbye, ' + name\n- `shout(name)`: greet(name) upper-cased, with '!'\n",
        },
      },
    ],
  }),
  reply({ text: 'Documented greet, farewell and shout in README.md.' }),
];

/** A server for the guides that name a model endpoint; the script is the guide's, then plain answers. */
async function modelFor(guide: string, text: string): Promise<OpenAIServer | null> {
  if (!text.includes('localhost:11434')) return null;
  const script = [...(MODEL_SCRIPTS[guide] ?? []), ...Array.from({ length: 20 }, () => reply({ text: 'Done.' }))];
  return startOpenAIServer({ script, models: ['qwen3:14b'], ollama: { contextLength: 40960, numCtx: 16384 } });
}

for (const guide of guideFiles()) {
  test(`${guide}: its examples run as written, and its links stay inside the repository`, async () => {
    const text = readFileSync(guide, 'utf8');
    assert.equal(brokenLinks(guide), [], 'links that leave the repository or lead nowhere');
    const blocks = shellBlocks(text).filter((b) => b.run && b.steps.length);
    if (!blocks.length) return;
    const dir = project();
    const bin = tempDir('forge-guide-bin-');
    for (const program of PROGRAMS) symlinkSync(FORGE, join(bin, program));
    const server = await modelFor(guide, text);
    const origin = server ? new URL(server.url).origin : '';
    // Each guide its own home: the agents' files (~/.claude, ~/.codex, ~/.gemini, ~/.config) are where a guide says they are, and one guide's --user install is not another's.
    const env = forgeEnv({
      PATH: `${bin}:${process.env.PATH}`,
      HOME: tempDir('forge-guide-home-'),
      CLAUDE_CONFIG_DIR: undefined,
      CODEX_HOME: undefined,
      GEMINI_CLI_HOME: undefined,
      XDG_CONFIG_HOME: undefined,
      XDG_DATA_HOME: undefined,
    });
    try {
      for (const { command, exit, shown, line } of blocks.flatMap((b) => b.steps)) {
        const r = await step(server ? command.replaceAll('http://localhost:11434', origin) : command, dir, env);
        const where = `${guide}:${line}: $ ${command}`;
        assert.is(r.status, exit, `${where}\n${r.output}`);
        assert.ok(inOrder(r.output, shown), `${where}\nthe guide shows\n${shown.join('\n')}\nbut it printed\n${r.output}`);
      }
    } finally {
      await server?.close();
    }
  });
}

test('no user document tells development history: no stop, sitting or issue numbers', () => {
  const told: string[] = [];
  for (const file of [...guideFiles(), ...PROGRAMS.map((p) => `man/${p}.1`)].filter((f) => f !== 'CONTRIBUTING.md'))
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/\b(stop|sitting) [0-9]+|issue [0-9]+/i.test(line)) told.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  assert.equal(told, []);
});

test('the guide harness reads steps, continuations, exits and shown output, and skips no-run blocks', () => {
  const md = [
    '```sh',
    '$ forge plan check   # exit 1: a finding',
    'plan.md:1:1: error X',
    '$ printf a \\',
    '  b',
    "$ cat > f <<'EOF'  # a here-document",
    'x  # not a comment',
    'EOF',
    "$ printf '<<<<<<< SEARCH\\n'",
    '<<<<<<< SEARCH',
    '```',
    '```sh no-run',
    '$ claude -p hi',
    '```',
  ].join('\n');
  const [ran, shown] = shellBlocks(md);
  assert.equal(ran!.steps, [
    { command: 'forge plan check', exit: 1, shown: ['plan.md:1:1: error X'], line: 2 },
    { command: 'printf a \\\n  b', exit: 0, shown: [], line: 4 },
    { command: "cat > f <<'EOF'\nx  # not a comment\nEOF", exit: 0, shown: [], line: 6 },
    { command: "printf '<<<<<<< SEARCH\\n'", exit: 0, shown: ['<<<<<<< SEARCH'], line: 9 },
  ]);
  assert.equal([ran!.run, shown!.run], [true, false]);
  assert.ok(inOrder('x\nplan.md:1:1: error X: more (y)\n', ['plan.md:1:1: error X…']));
  assert.ok(inOrder('{"a":{"b":1},"c":2}\n', ['{"a":{…},"c":2}']), 'an elision inside a line');
  assert.not.ok(inOrder('b\na\n', ['a', 'b']), 'order counts');
});

test.run();
