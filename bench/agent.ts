// `make bench`, agent: the tokens a scripted 3-step task sends in plan mode (per step, fresh contexts)
// beside the same task run as one conversation — counted in the requests themselves (o200k_base).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatMessage, ToolSchema } from '../lib/agent/chat-types';
import { prefixText, uncachedTokens } from '../lib/agent/context';
import { anchorOf } from '../lib/files/anchor';
import { forge } from '../test/helpers/forge';
import { reply, startOpenAIServer, type ChatRequestBody, type ScriptStep } from '../test/helpers/openai-server';
import { repoWith } from '../test/helpers/repo';

/** Three modules of ~120 lines each: one function in each is to change. */
const MODULES = ['billing', 'shipping', 'invoices'];
const source = (name: string) =>
  Array.from({ length: 40 }, (_, i) => `export function ${name}Helper${i}(value: number): number {\n  return value * ${i + 1};\n}\n`).join(
    '',
  ) + `export function ${name}Total(items: number[]): number {\n  return items.length;\n}\n`;
const files = Object.fromEntries(MODULES.map((m) => [`src/${m}.ts`, source(m)]));
const fix = (m: string) => {
  const text = files[`src/${m}.ts`]!;
  const lines = text.split('\n');
  const n = lines.indexOf('  return items.length;') + 1;
  return {
    name: 'edit',
    arguments: { path: `src/${m}.ts`, lines: anchorOf(n, lines[n - 1]!), new: '  return items.reduce((a, b) => a + b, 0);' },
  };
};
const verify = (m: string) => `grep -q "items.reduce" src/${m}.ts`;
const plan = {
  modules: MODULES.map((m, i) => ({
    id: `M${i + 1}`,
    title: `Fix ${m}Total`,
    objective: `${m}Total must sum the items.`,
    files: [`src/${m}.ts`],
    symbols: [`${m}Total`],
    verify: [verify(m)],
    doneWhen: `${m}Total sums`,
  })),
};

const tokensOf = (b: ChatRequestBody) => countTokens(JSON.stringify({ messages: b.messages, tools: b.tools }));

async function run(script: ScriptStep[], args: string[]): Promise<number[]> {
  const dir = repoWith(files);
  const server = await startOpenAIServer({ script });
  try {
    // Asynchronously: the scripted server answers from this same process.
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'bench', ...args], { cwd: dir });
    if (r.code !== 0) throw new Error(`forge agent ${args.join(' ')}: exit ${r.code}\n${r.stdout}${r.stderr}`);
    for (const m of MODULES)
      if (!readFileSync(join(dir, `src/${m}.ts`), 'utf8').includes('items.reduce')) throw new Error(`${m} was not fixed`);
    return server.chatBodies().map(tokensOf);
  } finally {
    await server.close();
  }
}

// Plan mode: the planner, then per step the edit (the step starts with the symbol's definition) and an answer.
const planned = await run(
  [reply({ text: JSON.stringify(plan) }), ...MODULES.flatMap((m) => [reply({ toolCalls: [fix(m)] }), reply({ text: `Fixed ${m}Total.` })])],
  ['--plan', '--yes', 'make every *Total function sum its items'],
);
// One conversation: the model reads each file, edits it, and answers at the end.
const single = await run(
  [
    ...MODULES.flatMap((m) => [
      reply({ toolCalls: [{ name: 'read', arguments: { path: `src/${m}.ts` } }] }),
      reply({ toolCalls: [fix(m)] }),
    ]),
    reply({ text: 'Fixed all three.' }),
  ],
  ['make every *Total function sum its items'],
);

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
console.log('\nforge agent, tokens sent for a scripted 3-step task (o200k_base, counted in the requests)');
console.log(`  plan mode   planner ${planned[0]}`);
MODULES.forEach((m, i) =>
  console.log(
    `              step ${i + 1} (${m})  ${sum(planned.slice(1 + 2 * i, 3 + 2 * i))} over 2 calls (first request ${planned[1 + 2 * i]})`,
  ),
);
console.log(`              total ${sum(planned)} over ${planned.length} calls; largest request ${Math.max(...planned)}`);
console.log(`  one context total ${sum(single)} over ${single.length} calls; largest request ${Math.max(...single)}`);
console.log(
  `  plan mode / one context: ${(sum(planned) / sum(single)).toFixed(2)}× the tokens, largest request ${(Math.max(...planned) / Math.max(...single)).toFixed(2)}×`,
);

// Two everyday tasks on a fixture repository, each driven twice through the scripted server: by a
// model that makes one call per turn, as small models do, and by one that batches. Counted on the
// wire: requests, Σ prompt tokens, Σ uncached tokens (after the longest common prefix with the
// request before, what a prefix cache cannot reuse), the largest request, tool calls.
const SERVICES = ['cart', 'checkout', 'orders', 'invoices', 'refunds'];
const service = (name: string) =>
  [
    `import { formatPrice } from './format';`,
    '',
    ...Array.from(
      { length: 12 },
      (_, i) => `export function ${name}Step${i}(total: number): string {\n  return formatPrice(total * ${i + 1});\n}\n`,
    ),
    `export function ${name}Summary(items: number[]): string {`,
    `  console.log('${name} summary', items.length);`,
    '  const total = items.reduce((a, b) => a + b, 0);',
    `  return \`${name}: \${formatPrice(total)}\`;`,
    '}',
    '',
  ].join('\n');
const taskFiles: Record<string, string> = {
  'src/format.ts': 'export function formatPrice(value: number): string {\n  return `$${value.toFixed(2)}`;\n}\n',
  ...Object.fromEntries(SERVICES.map((s) => [`src/${s}.ts`, service(s)])),
};
const lineOf = (path: string, text: string) => taskFiles[path]!.split('\n').findIndex((l) => l.includes(text)) + 1;
const anchorIn = (path: string, text: string) => anchorOf(lineOf(path, text), taskFiles[path]!.split('\n')[lineOf(path, text) - 1]!);

interface TaskScript {
  name: string;
  task: string;
  done: (dir: string) => boolean;
  oneByOne: ScriptStep[];
  /** One call per turn that reads each file before editing it and searches again at the end, as small models do. */
  reading?: ScriptStep[];
  /** The same, reading a window of lines around each match instead of the whole file. */
  readingWindow?: ScriptStep[];
  batched: ScriptStep[];
}

const TASKS: TaskScript[] = [
  {
    name: 'remove all console.log calls from src/ (5 files)',
    task: 'remove all console.log calls from src/',
    done: (dir) => SERVICES.every((s) => !readFileSync(join(dir, `src/${s}.ts`), 'utf8').includes('console.log')),
    oneByOne: [
      reply({ toolCalls: [{ name: 'search', arguments: { pattern: 'console.log', paths: ['src'] } }] }),
      ...SERVICES.map((s) =>
        reply({
          toolCalls: [{ name: 'edit', arguments: { path: `src/${s}.ts`, lines: anchorIn(`src/${s}.ts`, 'console.log'), new: '' } }],
        }),
      ),
      reply({ text: 'Removed the 5 console.log calls.' }),
    ],
    reading: [
      reply({ toolCalls: [{ name: 'search', arguments: { pattern: 'console.log', paths: ['src'] } }] }),
      ...SERVICES.flatMap((s) => [
        reply({ toolCalls: [{ name: 'read', arguments: { path: `src/${s}.ts` } }] }),
        reply({
          toolCalls: [{ name: 'edit', arguments: { path: `src/${s}.ts`, lines: anchorIn(`src/${s}.ts`, 'console.log'), new: '' } }],
        }),
      ]),
      reply({ toolCalls: [{ name: 'search', arguments: { pattern: 'console.log', paths: ['src'] } }] }),
      reply({ text: 'Removed the 5 console.log calls; none is left.' }),
    ],
    readingWindow: [
      reply({ toolCalls: [{ name: 'search', arguments: { pattern: 'console.log', paths: ['src'] } }] }),
      ...SERVICES.flatMap((s) => {
        const at = lineOf(`src/${s}.ts`, 'console.log');
        return [
          reply({ toolCalls: [{ name: 'read', arguments: { path: `src/${s}.ts`, start: at - 5, end: at + 5 } }] }),
          reply({
            toolCalls: [{ name: 'edit', arguments: { path: `src/${s}.ts`, lines: anchorIn(`src/${s}.ts`, 'console.log'), new: '' } }],
          }),
        ];
      }),
      reply({ toolCalls: [{ name: 'search', arguments: { pattern: 'console.log', paths: ['src'] } }] }),
      reply({ text: 'Removed the 5 console.log calls; none is left.' }),
    ],
    batched: [
      reply({
        toolCalls: [{ name: 'replace', arguments: { old: '^\\s*console\\.log\\(.*\\);\\n', new: '', regex: true, glob: 'src/**' } }],
      }),
      reply({ text: 'Removed every console.log call in src/.' }),
    ],
  },
  {
    name: 'rename formatPrice to formatAmount (used in 5 files)',
    task: 'rename the function formatPrice to formatAmount everywhere',
    done: (dir) =>
      ['src/format.ts', ...SERVICES.map((s) => `src/${s}.ts`)].every((p) => !readFileSync(join(dir, p), 'utf8').includes('formatPrice')),
    oneByOne: [
      reply({ toolCalls: [{ name: 'search', arguments: { pattern: 'formatPrice', paths: ['src'] } }] }),
      reply({
        toolCalls: [{ name: 'edit', arguments: { path: 'src/format.ts', old: 'function formatPrice(', new: 'function formatAmount(' } }],
      }),
      ...SERVICES.map((s) =>
        reply({ toolCalls: [{ name: 'bash', arguments: { command: `sed -i 's/\\bformatPrice\\b/formatAmount/g' src/${s}.ts` } }] }),
      ),
      reply({ text: 'Renamed formatPrice to formatAmount in 6 files.' }),
    ],
    batched: [
      reply({
        toolCalls: [{ name: 'replace', arguments: { old: '\\bformatPrice\\b', new: 'formatAmount', regex: true, glob: 'src/**' } }],
      }),
      reply({ text: 'Renamed it everywhere.' }),
    ],
  },
];

/** Tokens of each request after its longest common prefix with the one before (tools first, as chat templates put them). */
function uncached(bodies: ChatRequestBody[]): number[] {
  let previous: string | null = null;
  return bodies.map((b) => {
    const text = prefixText({ messages: b.messages as unknown as ChatMessage[], tools: b.tools as unknown as ToolSchema[] });
    const n = uncachedTokens(previous, text, countTokens);
    previous = text;
    return n;
  });
}

/**
 * Requests after the first whose prefix held: no more uncached than the messages from the previous
 * request's last one on (that one may change: a read retired by the edit it led to, a result cut).
 */
function prefixHeld(bodies: ChatRequestBody[], perRequest: number[]): number {
  return bodies.filter((b, i) => {
    if (i === 0) return false;
    const tail = b.messages.slice(bodies[i - 1]!.messages.length - 1) as unknown as ChatMessage[];
    return perRequest[i]! <= countTokens(prefixText({ messages: tail, tools: [] }));
  }).length;
}

interface TaskFigures {
  requests: number;
  prompt: number;
  uncached: number;
  held: number;
  largest: number;
  toolCalls: number;
}

async function taskRun(t: TaskScript, script: ScriptStep[], flags: string[] = []): Promise<TaskFigures> {
  const dir = repoWith(taskFiles);
  const server = await startOpenAIServer({ script });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'bench', ...flags, '--json', t.task], { cwd: dir });
    if (r.code !== 0 || !t.done(dir))
      throw new Error(`${t.name}: exit ${r.code}, done ${t.done(dir)}\n${r.stdout.slice(-2000)}${r.stderr}`);
    const bodies = server.chatBodies();
    const sizes = bodies.map(tokensOf);
    const perRequest = uncached(bodies);
    return {
      requests: bodies.length,
      prompt: sum(sizes),
      uncached: sum(perRequest),
      held: prefixHeld(bodies, perRequest),
      largest: Math.max(...sizes),
      toolCalls: r.records.at(-1)!.toolCalls as number,
    };
  } finally {
    await server.close();
  }
}

console.log('\nforge agent, two tasks on a fixture repository (o200k_base, counted in the requests; goals from seed 004 and issue 15)');
console.log(`  ${'task / model'.padEnd(86)} requests  Σ prompt  Σ uncached  largest  tool calls  prefix held`);
const row = (label: string, m: TaskFigures) =>
  console.log(
    `  ${label.padEnd(86)} ${String(m.requests).padStart(8)}  ${String(m.prompt).padStart(8)}  ${String(m.uncached).padStart(10)}  ${String(m.largest).padStart(7)}  ${String(m.toolCalls).padStart(10)}  ${`${m.held} of ${m.requests - 1}`.padStart(11)}`,
  );
for (const t of TASKS) {
  for (const [how, script] of [
    ['one call per turn', t.oneByOne],
    ...(t.readingWindow ? ([['one call per turn, reading 11 lines first', t.readingWindow]] as const) : []),
    ...(t.reading ? ([['one call per turn, reading whole files first', t.reading]] as const) : []),
    ['batching', t.batched],
  ] as const)
    row(`${t.name}, ${how}`, await taskRun(t, script));
}
// Small budgets (Ollama's default context of 4096 leaves 3072): compression then runs on most
// calls, and a prefix cache helps only while each request extends the one before.
const reading = TASKS[0]!;
for (const budget of [3072, 2000, 1500])
  row(
    `  the same, reading whole files first, at --budget ${budget}`,
    await taskRun(reading, reading.reading!, ['--budget', String(budget)]),
  );
console.log(
  '  goals: console.log task batching ≤ 5 tool calls and < 5k tokens summed; one call per turn ≤ 15k summed and ≤ 6k uncached; reading first ≤ 25k summed and ≤ 4k uncached (issue 37)',
);
console.log(
  '  prefix held: requests that only appended to the one before (the last result of which may change: a read retired by its edit, a cut result)',
);
