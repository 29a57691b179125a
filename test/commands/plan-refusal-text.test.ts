// How a refusal reads to each agent (no doubled or trailing period) and what forge plan ack says to do next (retry the same call).
import * as assert from 'uvu/assert';
import { callHook } from '../helpers/claude';
import { forge } from '../helpers/forge';
import { test } from '../helpers/harness';
import { oneUnitPlan } from '../helpers/plans';
import { repoWith } from '../helpers/repo';

const PLAN = oneUnitPlan({
  id: 'text-demo',
  title: 'text demo',
  parentTools: ['read', 'edit', 'patch', 'bash'],
  unitTools: ['read', 'edit'],
});

/** Each agent's hook, and its payload for a shell command or an edit. */
const AGENTS = {
  claude: {
    hook: 'forge plan preflight --hook claude',
    shell: (dir: string, command: string) => ({ session_id: 's', cwd: dir, tool_name: 'Bash', tool_input: { command } }),
    edit: (dir: string, file: string) => ({ session_id: 's', cwd: dir, tool_name: 'Edit', tool_input: { file_path: file } }),
  },
  codex: {
    hook: 'forge plan preflight --hook codex',
    shell: (dir: string, command: string) => ({ session_id: 's', turn_id: 't', cwd: dir, tool_name: 'Bash', tool_input: { command } }),
    edit: (dir: string, file: string) => ({
      session_id: 's',
      turn_id: 't',
      cwd: dir,
      tool_name: 'apply_patch',
      tool_input: { command: `*** Begin Patch\n*** Add File: ${file}\n+x\n*** End Patch\n` },
    }),
  },
  gemini: {
    hook: 'forge plan preflight --hook gemini',
    shell: (dir: string, command: string) => ({ session_id: 's', cwd: dir, tool_name: 'run_shell_command', tool_input: { command } }),
    edit: (dir: string, file: string) => ({ session_id: 's', cwd: dir, tool_name: 'replace', tool_input: { file_path: file } }),
  },
  opencode: {
    hook: 'forge plan preflight --hook opencode',
    shell: (dir: string, command: string) => ({ tool: 'bash', sessionID: 's', callID: 'c', args: { command }, directory: dir }),
    edit: (dir: string, file: string) => ({ tool: 'edit', sessionID: 's', callID: 'c', args: { filePath: file }, directory: dir }),
  },
} as const;

async function activeRepo(): Promise<string> {
  const dir = repoWith({ 'docs/plans/p.md': PLAN, 'src/a.ts': 'export const a = 1;\n' });
  const r = await forge(['plan', 'activate', '--path', 'docs/plans/p.md'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  return dir;
}

/** The reason the agent's hook answer carries. */
async function reason(dir: string, hook: string, payload: Record<string, unknown>): Promise<string> {
  const r = await callHook({ dir, command: hook, payload });
  assert.is(r.status, 0, r.stderr);
  const answer = JSON.parse(r.stdout);
  return answer.hookSpecificOutput?.permissionDecisionReason ?? answer.reason;
}

test("every agent's refusal ends without a period and never doubles one, also as Codex CLI shows it", async () => {
  const dir = await activeRepo();
  for (const [agent, a] of Object.entries(AGENTS)) {
    const soft = await reason(dir, a.hook, a.shell(dir, 'npm test'));
    assert.match(soft, /\. Run `forge plan ack`, then retry this exact call once; it will run under the parent rails$/, agent);
    const hard = await reason(dir, a.hook, a.edit(dir, 'docs/new.md'));
    assert.match(
      hard,
      /^plan breach: blast radius — .*\. A hard refusal: no acknowledgement applies\. Stay within the plan \(`forge plan status`\)$/,
      agent,
    );
    // Codex CLI's own words around the reason (codex-rs hook_runtime: "…hook: {reason}. Command: {command}").
    for (const r of [soft, hard]) assert.not.match(`Command blocked by PreToolUse hook: ${r}. Command: npm test`, /\.\./, agent);
  }
});

test('plan ack: the text says to retry the same call once; _next_action stays the command that makes that retry through the gate', async () => {
  const dir = await activeRepo();
  assert.match(await reason(dir, AGENTS.claude.hook, AGENTS.claude.shell(dir, 'npm test')), /plan breach: tools/);
  const text = await forge(['plan', 'ack'], { cwd: dir });
  assert.is(text.code, 0, text.stderr);
  assert.match(text.stdout, /\nNext: retry the same call \(Bash\) once; its gate lets it through\n$/);
  assert.not.match(text.stdout, /forge plan preflight/, 'no preflight for the agent to run: it would use the acknowledgement up');
  assert.is(
    (await callHook({ dir, command: AGENTS.claude.hook, payload: AGENTS.claude.shell(dir, 'npm test') })).stdout,
    '',
    'the retry runs',
  );

  const read = await forge(['plan', 'preflight', '--tool', 'read', '--path', 'docs/guide.md', '--json'], { cwd: dir });
  assert.is(read.records[0]!.error.code, 'PLAN_BREACH_PATHS');
  const json = await forge(['plan', 'ack', '--json'], { cwd: dir });
  assert.equal(
    [json.records[0]!.tool, json.records[0]!.paths, json.records[0]!._next_action],
    ['read', ['docs/guide.md'], 'forge plan preflight --tool read --path docs/guide.md'],
  );
  const retry = await forge(['plan', 'preflight', '--tool', 'read', '--path', 'docs/guide.md', '--json'], { cwd: dir });
  assert.equal([retry.code, retry.records[0]!.allowed, retry.records[0]!.acked], [0, true, true]);
});

test.run();
