// `make bench`, routes: the model and the tool-schema tokens of each plan step's request (o200k_base), with an MCP server scoped to one category and without the scope, through forge agent --plan against a scripted server.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { forge } from '../test/helpers/forge';
import { reply, startOpenAIServer } from '../test/helpers/openai-server';
import { repoWith, tempDir } from '../test/helpers/repo';

const CATEGORIES = ['search', 'quick', 'standard', 'deep'] as const;
const ROUTES = { deep: 'deep-model', standard: 'std-model', quick: 'quick-model', search: 'search-model' };
const PLAN = {
  modules: CATEGORIES.map((category, i) => ({
    id: `M${i + 1}`,
    title: `A ${category} step`,
    objective: 'Confirm README.md is there.',
    files: ['README.md'],
    verify: ['test -f README.md'],
    doneWhen: 'README.md exists',
    ...(i ? { dependsOn: [`M${i}`] } : {}),
    category,
  })),
};

/** Each request of one plan run: its model, its tool count and the tokens of its tool schemas. */
async function planRequests(scope: string[] | undefined): Promise<Array<{ model: string; tools: number; tokens: number }>> {
  const server = await startOpenAIServer({
    script: [reply({ text: JSON.stringify(PLAN) }), ...CATEGORIES.map(() => reply({ text: 'Done.' }))],
  });
  try {
    const home = tempDir('forge-bench-config-');
    mkdirSync(join(home, 'forge'));
    const docs = { name: 'docs', command: [process.execPath, resolve('test/fixtures/mcp/echo-server.mjs')], ...(scope ? { scope } : {}) };
    writeFileSync(
      join(home, 'forge', 'config.json'),
      JSON.stringify({ profiles: { b: { endpoint: server.url, model_routes: ROUTES, mcp_servers: [docs] } } }),
    );
    const r = await forge(['agent', '--plan', '--yes', '--json', 'confirm the readme'], {
      cwd: repoWith({ 'README.md': '# bench\n' }),
      env: { XDG_CONFIG_HOME: home },
    });
    if (r.code !== 0) throw new Error(`forge agent --plan failed: ${r.stderr}`);
    return server
      .chatBodies()
      .map((b) => ({ model: b.model, tools: b.tools?.length ?? 0, tokens: b.tools ? countTokens(JSON.stringify(b.tools)) : 0 }));
  } finally {
    await server.close();
  }
}

const scoped = await planRequests(['search']);
const everywhere = await planRequests(undefined);
console.log(
  '\nforge agent --plan, model routes and an MCP server (10 tools) scoped to search: each request (tool schemas in o200k_base tokens)',
);
console.log(`  ${'call'.padEnd(16)}${'model'.padEnd(14)}${'scoped'.padStart(18)}${'no scope'.padStart(18)}`);
const cell = (x: { tools: number; tokens: number }) => `${x.tools} tools ${String(x.tokens).padStart(5)}`.padStart(18);
for (const [i, s] of scoped.entries()) {
  const label = i === 0 ? 'planner (deep)' : `M${i} ${CATEGORIES[i - 1]}`;
  console.log(`  ${label.padEnd(16)}${s.model.padEnd(14)}${cell(s)}${cell(everywhere[i]!)}`);
}
const sum = (xs: Array<{ tokens: number }>) => xs.slice(1).reduce((a, x) => a + x.tokens, 0);
console.log(
  `  steps' schema tokens: ${sum(scoped)} scoped, ${sum(everywhere)} without scope (${(sum(scoped) / sum(everywhere)).toFixed(2)}×)`,
);
