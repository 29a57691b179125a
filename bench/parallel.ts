// `make bench`, parallel: the wall time of a scripted 4-step plan whose first 2 steps are independent, at parallel_steps 1 and 2 (each model reply takes 400 ms, as a remote model's would).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { forge } from '../test/helpers/forge';
import { reply, startOpenAIServer, type ChatRequestBody, type ScriptStep } from '../test/helpers/openai-server';
import { repoWith } from '../test/helpers/repo';

const DELAY_MS = 400;
const FILES = ['src/a.js', 'src/b.js', 'src/c.js', 'src/d.js'];
const plan = {
  modules: FILES.map((file, i) => ({
    id: `M${i + 1}`,
    title: `Add ${file}`,
    objective: `Create ${file} printing M${i + 1}.`,
    files: [file],
    verify: [`node ${file}`],
    doneWhen: `${file} runs`,
    // M1 and M2 are independent; M3 needs both, M4 needs M3.
    ...(i === 2 ? { dependsOn: ['M1', 'M2'] } : i === 3 ? { dependsOn: ['M3'] } : {}),
  })),
};

const userText = (b: ChatRequestBody) => String(b.messages.find((m) => m.role === 'user')?.content ?? '');
const answered = (b: ChatRequestBody) => b.messages.some((m) => m.role === 'tool');

/** Each step writes its file, then answers; replies are matched to their step, as steps at once ask in any order. */
function script(): ScriptStep[] {
  return [
    reply({ text: JSON.stringify(plan), delayMs: DELAY_MS, when: (b) => !b.tools }),
    ...FILES.flatMap((file, i) => {
      const mine = (b: ChatRequestBody) => !!b.tools && userText(b).startsWith(`Step ${i + 1} of 4:`);
      return [
        reply({
          toolCalls: [{ name: 'write', arguments: { path: file, content: `console.log("M${i + 1}");\n` } }],
          delayMs: DELAY_MS,
          when: (b) => mine(b) && !answered(b),
        }),
        reply({ text: `Added ${file}.`, delayMs: DELAY_MS, when: (b) => mine(b) && answered(b) }),
      ];
    }),
  ];
}

async function wall(parallel: number): Promise<number> {
  const dir = repoWith({ 'package.json': '{ "type": "module" }\n' });
  const server = await startOpenAIServer({ script: script() });
  try {
    const started = performance.now();
    const r = await forge(
      ['agent', '--plan', '--yes', '--parallel', String(parallel), '--endpoint', server.url, '--model', 'bench', 'add four files'],
      { cwd: dir },
    );
    const ms = performance.now() - started;
    if (r.code !== 0) throw new Error(`forge agent --parallel ${parallel}: exit ${r.code}\n${r.stdout}${r.stderr}`);
    for (const f of FILES) readFileSync(join(dir, f), 'utf8');
    return ms;
  } finally {
    await server.close();
  }
}

// Once to warm the caches, then measured side by side.
await wall(1);
const one = await wall(1);
const two = await wall(2);
console.log(`\nforge agent --plan, a 4-step plan with 2 independent steps, each model reply ${DELAY_MS} ms (scripted server)`);
console.log(`  parallel_steps 1  ${(one / 1000).toFixed(2)} s`);
console.log(`  parallel_steps 2  ${(two / 1000).toFixed(2)} s  (${(two / one).toFixed(2)}× the time of one step at a time)`);
