// `make bench`, agent: the tokens a scripted 3-step task sends in plan mode (per step, fresh contexts)
// beside the same task run as one conversation — counted in the requests themselves (o200k_base).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { anchorOf } from '../lib/files/anchor';
import { forge } from '../test/helpers/forge';
import { reply, startOpenAIServer, type ChatRequestBody, type ScriptStep } from '../test/helpers/openai-server';
import { repoWith } from '../test/helpers/repo';

/** Three modules of ~120 lines each: one function in each is to change. */
const MODULES = ['billing', 'shipping', 'invoices'];
const source = (name: string) =>
  Array.from({ length: 40 }, (_, i) => `export function ${name}Helper${i}(value: number): number {\n  return value * ${i + 1};\n}\n`).join('') + `export function ${name}Total(items: number[]): number {\n  return items.length;\n}\n`;
const files = Object.fromEntries(MODULES.map((m) => [`src/${m}.ts`, source(m)]));
const fix = (m: string) => {
  const text = files[`src/${m}.ts`]!;
  const lines = text.split('\n');
  const n = lines.indexOf('  return items.length;') + 1;
  return { name: 'edit', arguments: { path: `src/${m}.ts`, lines: anchorOf(n, lines[n - 1]!), new: '  return items.reduce((a, b) => a + b, 0);' } };
};
const verify = (m: string) => `grep -q "items.reduce" src/${m}.ts`;
const plan = { modules: MODULES.map((m, i) => ({ id: `M${i + 1}`, title: `Fix ${m}Total`, objective: `${m}Total must sum the items.`, files: [`src/${m}.ts`], symbols: [`${m}Total`], verify: [verify(m)], doneWhen: `${m}Total sums` })) };

const tokensOf = (b: ChatRequestBody) => countTokens(JSON.stringify({ messages: b.messages, tools: b.tools }));

async function run(script: ScriptStep[], args: string[]): Promise<number[]> {
  const dir = repoWith(files);
  const server = await startOpenAIServer({ script });
  try {
    // Asynchronously: the scripted server answers from this same process.
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'bench', ...args], { cwd: dir });
    if (r.code !== 0) throw new Error(`forge agent ${args.join(' ')}: exit ${r.code}\n${r.stdout}${r.stderr}`);
    for (const m of MODULES) if (!readFileSync(join(dir, `src/${m}.ts`), 'utf8').includes('items.reduce')) throw new Error(`${m} was not fixed`);
    return server.chatBodies().map(tokensOf);
  } finally {
    await server.close();
  }
}

// Plan mode: the planner, then per step the edit (the step starts with the symbol's definition) and an answer.
const planned = await run([reply({ text: JSON.stringify(plan) }), ...MODULES.flatMap((m) => [reply({ toolCalls: [fix(m)] }), reply({ text: `Fixed ${m}Total.` })])], ['--plan', '--yes', 'make every *Total function sum its items']);
// One conversation: the model reads each file, edits it, and answers at the end.
const single = await run([...MODULES.flatMap((m) => [reply({ toolCalls: [{ name: 'read', arguments: { path: `src/${m}.ts` } }] }), reply({ toolCalls: [fix(m)] })]), reply({ text: 'Fixed all three.' })], ['make every *Total function sum its items']);

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
console.log('\nforge agent, tokens sent for a scripted 3-step task (o200k_base, counted in the requests)');
console.log(`  plan mode   planner ${planned[0]}`);
MODULES.forEach((m, i) => console.log(`              step ${i + 1} (${m})  ${sum(planned.slice(1 + 2 * i, 3 + 2 * i))} over 2 calls (first request ${planned[1 + 2 * i]})`));
console.log(`              total ${sum(planned)} over ${planned.length} calls; largest request ${Math.max(...planned)}`);
console.log(`  one context total ${sum(single)} over ${single.length} calls; largest request ${Math.max(...single)}`);
console.log(`  plan mode / one context: ${(sum(planned) / sum(single)).toFixed(2)}× the tokens, largest request ${(Math.max(...planned) / Math.max(...single)).toFixed(2)}×`);
