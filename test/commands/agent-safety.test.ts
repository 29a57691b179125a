// forge agent made safe: the plan-contract gate on every tool call, checkpoints and undo, the change-impact sweep, hooks, MCP servers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { forgeBinDir } from '../helpers/claude';
import { forge } from '../helpers/forge';
import { reply, startOpenAIServer } from '../helpers/openai-server';
import { git, repoWith } from '../helpers/repo';

/** Rails take in docs/ to read, the blast radius only src/ and test/; the first unit only src/. */
const CONTRACT = `---
envelope:
  plan_id: agent-gate
  plan_contract_version: 1
  parent_rails:
    allowed_tools: [read, edit, write, bash, search, ls]
    allowed_paths: ["src/**", "test/**", "docs/**"]
    surface: local_branch
  parent_blast_radius:
    path_globs: ["src/**", "test/**"]
  requirements: [R1]
---

# agent gate

### U1 — change src

\`\`\`envelope
allowed_tools: [read, edit, bash]
allowed_paths: ["src/**"]
surface: artifacts_only
requirements: [R1]
\`\`\`
`;

test('a contract refuses the agent: hard refusals stop the call, a soft one is acked through bash and then runs', async () => {
  const dir = repoWith({ 'docs/plans/gate.md': CONTRACT, 'src/a.ts': 'export const a = 1;\n', 'test/a.test.ts': "import { a } from '../src/a';\n", 'docs/notes.md': 'notes\n' });
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/gate.md'], { cwd: dir })).code, 0);
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [{ name: 'edit', arguments: { path: 'docs/notes.md', old: 'notes', new: 'changed' } }, { name: 'edit', arguments: { path: 'test/a.test.ts', old: "'../src/a'", new: "'../src/a.js'" } }] }),
      reply({ toolCalls: [{ name: 'bash', arguments: { command: 'forge plan ack' } }] }),
      reply({ toolCalls: [{ name: 'edit', arguments: { path: 'test/a.test.ts', old: "'../src/a'", new: "'../src/a.js'" } }, { name: 'edit', arguments: { path: 'src/a.ts', old: '= 1', new: '= 2' } }] }),
      reply({ text: 'Done within the plan.' }),
    ],
  });
  try {
    const r = await forge(['agent', '--endpoint', server.url, '--model', 'm', '--json', 'tidy the imports'], { cwd: dir, env: { PATH: `${forgeBinDir()}:${process.env.PATH}` } });
    assert.is(r.code, 0, r.stderr);
    const results = server.chatBodies().map((b) => b.messages.filter((m) => m.role === 'tool').map((m) => String(m.content)));
    const [hard, soft] = results[1]!;
    assert.match(hard!, /^Refused by the active plan contract \(PLAN_BREACH_BLAST_RADIUS, hard\): .*docs\/notes\.md/);
    assert.match(hard!, /This call cannot run under the plan; nothing was done\./);
    assert.match(soft!, /^Refused by the active plan contract \(PLAN_BREACH_PATHS, soft\): /);
    assert.match(soft!, /run bash \{"command": "forge plan ack"\} and then repeat exactly this call/);
    assert.match(results[2]!.at(-1)!, /acknowledged/i);
    const [retried, inUnit] = results[3]!.slice(-2);
    assert.match(retried!, /test\/a\.test\.ts/);
    assert.not.match(retried!, /Refused/);
    assert.not.match(inUnit!, /Refused/);
    assert.is(readFileSync(join(dir, 'docs/notes.md'), 'utf8'), 'notes\n', 'the hard-refused edit never ran');
    assert.is(readFileSync(join(dir, 'test/a.test.ts'), 'utf8'), "import { a } from '../src/a.js';\n");
    assert.is(readFileSync(join(dir, 'src/a.ts'), 'utf8'), 'export const a = 2;\n');
    assert.is(r.records.at(-1)!.refused, 2);
    const journal = git(dir, 'show', 'refs/forge/state:.forge/plans/journal.jsonl').split('\n').map((l) => JSON.parse(l).verb);
    assert.equal(journal.filter((v: string) => v === 'plan_breach_refused').length, 2);
    assert.ok(journal.includes('plan_breach_acknowledged'));
  } finally {
    await server.close();
  }
});

test.run();
