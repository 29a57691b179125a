// `make bench`, plans: forge plan check over 1,000 generated plan contracts — total time, plans per
// second, and the ratio to node -e 0, measured side by side in this run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { planTemplate } from '../lib/plans/template';
import { FORGE, forgeEnv } from '../test/helpers/forge';
import { median } from './stats';
import { tempRepo } from '../test/helpers/repo';

const PLANS = 1000;
const env = forgeEnv();
const dir = tempRepo();
mkdirSync(join(dir, 'docs', 'plans'), { recursive: true });
for (let i = 0; i < PLANS; i++) {
  const slug = `generated-plan-${i}`;
  writeFileSync(join(dir, 'docs', 'plans', `2026-01-01-${slug}-plan.md`), planTemplate({ slug, date: '2026-01-01' }));
}

const time = (args: string[]) => {
  const s = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: dir, env, encoding: 'utf8' });
  return { ms: Number(process.hrtime.bigint() - s) / 1e6, r };
};
const runs = { node: [] as number[], check: [] as number[] };
let last = '';
for (let i = 0; i < 5; i++) {
  runs.node.push(time(['-e', '0']).ms);
  const c = time([FORGE, 'plan', 'check']);
  if (c.r.status !== 0) throw new Error(`plan check failed: ${c.r.stdout}${c.r.stderr}`);
  last = c.r.stdout.split('\n')[0]!;
  runs.check.push(c.ms);
}
const [n, c] = [median(runs.node), median(runs.check)];
console.log(`\nforge plan check over ${PLANS} generated plan contracts (median of 5): ${last}`);
console.log(`  node -e 0           ${n.toFixed(1).padStart(8)} ms   1.00×`);
console.log(`  forge plan check    ${c.toFixed(1).padStart(8)} ms   ${(c / n).toFixed(2)}×   ${((PLANS / c) * 1000).toFixed(0)} plans/s`);

// The live gate: what one tool call pays when every call of an agent passes forge plan preflight.
const gated = tempRepo();
mkdirSync(join(gated, 'docs', 'plans'), { recursive: true });
writeFileSync(join(gated, 'docs', 'plans', 'p.md'), planTemplate({ slug: 'bench', date: '2026-01-01' }));
const activated = spawnSync(process.execPath, [FORGE, 'plan', 'activate', '--path', 'docs/plans/p.md'], {
  cwd: gated,
  env,
  encoding: 'utf8',
});
if (activated.status !== 0) throw new Error(`plan activate failed: ${activated.stderr}`);
const payload = JSON.stringify({ session_id: 'bench', tool_name: 'Read', tool_input: { file_path: join(gated, 'src/a.ts') } });
// Codex's documented PreToolUse payload for apply_patch (U1 allows patch on src/; its shell, Bash, waits for U2).
const codexPayload = JSON.stringify({
  session_id: 'bench',
  turn_id: 't1',
  cwd: gated,
  hook_event_name: 'PreToolUse',
  model: 'gpt-5-codex',
  tool_name: 'apply_patch',
  tool_use_id: 'u1',
  tool_input: { command: '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** End Patch\n' },
});
// Gemini CLI's documented BeforeTool payload, and what forge's OpenCode plugin sends for tool.execute.before.
const geminiPayload = JSON.stringify({
  session_id: 'bench',
  transcript_path: '/tmp/t.json',
  cwd: gated,
  hook_event_name: 'BeforeTool',
  timestamp: '2026-01-01T00:00:00.000Z',
  tool_name: 'read_file',
  tool_input: { file_path: join(gated, 'src/a.ts') },
});
const openCodePayload = JSON.stringify({
  tool: 'read',
  sessionID: 'bench',
  callID: 'c1',
  args: { filePath: join(gated, 'src/a.ts') },
  directory: gated,
});
const cases: Array<[string, string[], number, string?]> = [
  ['node -e 0', ['-e', '0'], 0],
  ['allowed, nothing to record', [FORGE, 'plan', 'preflight', '--tool', 'read', '--path', 'src/a.ts'], 0],
  ['allowed, tokens recorded', [FORGE, 'plan', 'preflight', '--tool', 'edit', '--path', 'src/a.ts', '--tokens', '1'], 0],
  ['refused, journaled', [FORGE, 'plan', 'preflight', '--tool', 'bash', '--command', 'git push'], 1],
  // A shell command read by the parser: a pipeline that only reads is allowed as a read and a search.
  [
    'shell read, parsed, allowed',
    [FORGE, 'plan', 'preflight', '--tool', 'bash', '--command', "cd src && cat a.ts | grep -n 'x' && ls -la"],
    0,
  ],
  ['Claude Code hook, allowed', [FORGE, 'plan', 'preflight', '--hook', 'claude'], 0, payload],
  ['Codex CLI hook, allowed', [FORGE, 'plan', 'preflight', '--hook', 'codex'], 0, codexPayload],
  ['Gemini CLI hook, allowed', [FORGE, 'plan', 'preflight', '--hook', 'gemini'], 0, geminiPayload],
  ['OpenCode plugin, allowed', [FORGE, 'plan', 'preflight', '--hook', 'opencode'], 0, openCodePayload],
];
const gateRuns = cases.map(() => [] as number[]);
for (let i = 0; i < 11; i++) {
  cases.forEach(([label, args, status, input], k) => {
    const s = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { cwd: gated, env, encoding: 'utf8', input: input ?? '' });
    gateRuns[k]!.push(Number(process.hrtime.bigint() - s) / 1e6);
    if (r.status !== status) throw new Error(`${label}: exit ${r.status}: ${r.stderr}`);
    // A hook's allow is an empty answer: anything else would be a refusal timed as an allow.
    if (input && r.stdout.trim()) throw new Error(`${label}: not allowed: ${r.stdout}`);
  });
}
const base = median(gateRuns[0]!);
console.log('\nforge plan preflight, one tool call (median of 11, interleaved)');
cases.forEach(([label], k) => {
  const m = median(gateRuns[k]!);
  console.log(`  ${label.padEnd(28)} ${m.toFixed(1).padStart(8)} ms   ${(m / base).toFixed(2)}×`);
});
