// `make bench`, git context: tokens per task when the model learns the git state from a preamble, a git_context tool, or bash (none).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { anchorOf } from '../lib/files/anchor';
import { forge } from '../test/helpers/forge';
import { reply, startOpenAIServer, type ChatRequestBody, type ScriptStep } from '../test/helpers/openai-server';
import { git, repoWith, tempDir } from '../test/helpers/repo';

type Mode = 'off' | 'tool' | 'preamble';
const MODES: Mode[] = ['off', 'tool', 'preamble'];

const source = (name: string) =>
  Array.from({ length: 20 }, (_, i) => `export function ${name}${i}(value: number): number {\n  return value * ${i + 1};\n}\n`).join('');
const FILES = { 'src/billing.ts': source('billing'), 'src/shipping.ts': source('shipping'), 'README.md': '# shop\n' };

/** A repository mid-work: eight commits, a staged change, an unstaged one and an untracked file. */
function fixture(): string {
  const dir = repoWith(FILES);
  for (let i = 1; i <= 7; i++) {
    writeFileSync(join(dir, 'README.md'), `# shop\n\nrelease ${i}\n`);
    git(dir, 'commit', '-qam', `release notes for ${i}`);
  }
  writeFileSync(join(dir, 'src/billing.ts'), FILES['src/billing.ts'].replace('value * 3', 'Math.round(value * 3)'));
  git(dir, 'add', 'src/billing.ts');
  writeFileSync(join(dir, 'src/shipping.ts'), `${FILES['src/shipping.ts']}// todo\n`);
  writeFileSync(join(dir, 'notes.txt'), 'scratch\n');
  return dir;
}

/** The one call a model makes to learn the git state, per mode (none with the preamble). */
const look: Record<Mode, ScriptStep[]> = {
  off: [
    reply({ toolCalls: [{ name: 'bash', arguments: { command: 'git status --short && git log --oneline -5 && git diff --cached' } }] }),
  ],
  tool: [reply({ toolCalls: [{ name: 'git_context', arguments: {} }] })],
  preamble: [],
};

const line = (path: string, text: string) => FILES[path as keyof typeof FILES].split('\n').indexOf(text) + 1;
const TASKS: Array<{ name: string; task: string; needsGit: boolean; script: ScriptStep[] }> = [
  {
    name: 'write a commit message for the staged change (needs the git state)',
    task: 'write a commit message for what is staged',
    needsGit: true,
    script: [reply({ text: 'Round billing2 to whole units' })],
  },
  {
    name: 'fix shipping4 (needs no git state)',
    task: 'make shipping4 return value * 50',
    needsGit: false,
    script: [
      reply({ toolCalls: [{ name: 'read', arguments: { path: 'src/shipping.ts', start: 13, end: 15 } }] }),
      reply({
        toolCalls: [
          {
            name: 'edit',
            arguments: {
              path: 'src/shipping.ts',
              lines: anchorOf(line('src/shipping.ts', '  return value * 5;'), '  return value * 5;'),
              new: '  return value * 50;',
            },
          },
        ],
      }),
      reply({ text: 'shipping4 returns value * 50.' }),
    ],
  },
];

const tokensOf = (b: ChatRequestBody) => countTokens(JSON.stringify({ messages: b.messages, tools: b.tools }));
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

async function run(mode: Mode, task: (typeof TASKS)[number]): Promise<{ tokens: number; calls: number }> {
  const dir = fixture();
  const home = tempDir('forge-bench-config-');
  mkdirSync(join(home, 'forge'));
  writeFileSync(join(home, 'forge', 'config.json'), JSON.stringify({ default: 'b', profiles: { b: { git_context: mode } } }));
  const server = await startOpenAIServer({ script: [...(task.needsGit ? look[mode] : []), ...task.script] });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'bench', '--json', task.task], {
      cwd: dir,
      env: { XDG_CONFIG_HOME: home },
    });
    if (r.code !== 0) throw new Error(`${mode} / ${task.name}: exit ${r.code}\n${r.stdout.slice(-2000)}${r.stderr}`);
    const bodies = server.chatBodies();
    return { tokens: sum(bodies.map(tokensOf)), calls: bodies.length };
  } finally {
    await server.close();
  }
}

console.log('\nforge agent, git context: tokens per task (o200k_base, counted in the requests), by how the model sees the git state');
const totals = new Map<Mode, number>(MODES.map((m) => [m, 0]));
for (const task of TASKS) {
  console.log(`  ${task.name}`);
  for (const mode of MODES) {
    const r = await run(mode, task);
    totals.set(mode, totals.get(mode)! + r.tokens);
    console.log(`    ${mode.padEnd(8)}  ${String(r.tokens).padStart(6)} tokens over ${r.calls} model call${r.calls === 1 ? '' : 's'}`);
  }
}
const best = [...totals].sort((a, b) => a[1] - b[1])[0]!;
console.log(
  `  both tasks: ${MODES.map((m) => `${m} ${totals.get(m)}`).join(', ')}; cheapest: ${best[0]} (${MODES.filter((m) => m !== best[0])
    .map((m) => `${(totals.get(m)! / best[1]).toFixed(2)}× for ${m}`)
    .join(', ')})`,
);
