// `make bench`, attach: the tokens a scripted 5-call task sends with a spec pinned (--attach), beside the same task reading it once with a tool, and without it.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { forge } from '../test/helpers/forge';
import { reply, startOpenAIServer, type ChatRequestBody, type ScriptStep } from '../test/helpers/openai-server';
import { repoWith } from '../test/helpers/repo';

/** A spec of ~60 lines the task follows, and the module it changes. */
const spec =
  Array.from({ length: 60 }, (_, i) => `- Rule ${i + 1}: handlers validate their input and return a typed result.`).join('\n') + '\n';
const files = {
  'docs/spec.md': spec,
  'src/api.ts': Array.from({ length: 30 }, (_, i) => `export function handler${i}(x: string): string {\n  return x;\n}\n`).join(''),
};

const tokensOf = (b: ChatRequestBody) => countTokens(JSON.stringify({ messages: b.messages, tools: b.tools }));

/** The task's calls after the spec is known: read the module, two edits, an answer. */
const work: ScriptStep[] = [
  reply({ toolCalls: [{ name: 'read', arguments: { path: 'src/api.ts', start: 1, end: 12 } }] }),
  reply({
    toolCalls: [
      {
        name: 'edit',
        arguments: {
          path: 'src/api.ts',
          old: 'handler0(x: string): string {\n  return x;',
          new: 'handler0(x: string): string {\n  return x.trim();',
        },
      },
    ],
  }),
  reply({
    toolCalls: [
      {
        name: 'edit',
        arguments: {
          path: 'src/api.ts',
          old: 'handler1(x: string): string {\n  return x;',
          new: 'handler1(x: string): string {\n  return x.trim();',
        },
      },
    ],
  }),
  reply({ text: 'Both handlers trim their input.' }),
];

async function run(script: ScriptStep[], args: string[]): Promise<number[]> {
  const dir = repoWith(files);
  const server = await startOpenAIServer({ script });
  try {
    // Asynchronously: the scripted server answers from this same process.
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'bench', ...args, 'make handler0 and handler1 follow the spec'], {
      cwd: dir,
    });
    if (r.code !== 0) throw new Error(`forge agent ${args.join(' ')}: exit ${r.code}\n${r.stdout}${r.stderr}`);
    return server.chatBodies().map(tokensOf);
  } finally {
    await server.close();
  }
}

const none = await run(work, []);
const read = await run([reply({ toolCalls: [{ name: 'read', arguments: { path: 'docs/spec.md' } }] }), ...work], []);
const pinned = await run(work, ['--attach', 'docs/spec.md']);

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const row = (name: string, xs: number[]) =>
  console.log(`  ${name.padEnd(28)} ${String(xs.length).padStart(2)} calls  ${String(sum(xs)).padStart(6)} tokens  (${xs.join(' + ')})`);
console.log(
  `\nforge agent --attach, tokens sent for a scripted task (o200k_base, counted in the requests; spec ${countTokens(spec)} tokens)`,
);
row('no spec', none);
row('spec read once with a tool', read);
row('spec pinned (--attach)', pinned);
console.log(
  `  pinned / read once: ${(sum(pinned) / sum(read)).toFixed(2)}×; the pinned spec costs ${Math.round((sum(pinned) - sum(none)) / pinned.length)} tokens per call, and cannot be compressed away`,
);
