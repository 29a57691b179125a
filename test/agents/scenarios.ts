// The gate scenarios every agent runs, written once: each scripts the model's tool calls in the agent's own tool names and checks the files, the remote and the journal afterwards.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import type { AgentName } from '../../scripts/agents/agents';
import { test } from '../helpers/harness';
import { type AgentRun, agentEnv, gatedRepo, journal, operator, PLAN_PATH, remoteRefs, SOURCE, withoutForge } from './run';
import { calls, type ScriptedServer, say, type ToolCall, type Turn } from './servers/script';

/**
 * The agent's own tool calls for what a scenario does; paths are absolute, an edit replaces one whole
 * line (what a patch-only agent can say), shell commands run in the agent's working directory.
 */
export interface Moves {
  read(path: string): ToolCall;
  edit(path: string, oldText: string, newText: string): ToolCall;
  write(path: string, content: string): ToolCall;
  shell(command: string): ToolCall;
}

/** Where the agent starts: the repository's top, or its src/ (where some agents never read the repository's own settings). */
export type Start = 'root' | 'subdir';

export interface Adapter {
  agent: AgentName;
  moves: Moves;
  /** Node 22 first on PATH (Claude Code). */
  node22?: boolean;
  startServer(turns: Turn[]): Promise<ScriptedServer>;
  /** The agent's own setup (its auth, its trust of the folder) and the gate, installed as the README says; `scope` picks the file. */
  install(ctx: {
    dir: string;
    home: string;
    env: Record<string, string>;
    scope: 'project' | 'user';
    server: ScriptedServer;
  }): Promise<void>;
  /** One non-interactive run of the agent with `prompt`, talking to `server`. */
  run(ctx: { cwd: string; env: Record<string, string>; server: ScriptedServer; prompt: string }): Promise<AgentRun>;
  /** Which install gates a start: `project` where the agent reads the repository's file from there, else `user`. */
  scopeFor(start: Start): 'project' | 'user';
  /**
   * Calls the agent refuses on its own before its hook runs, so forge never sees them (Gemini CLI
   * keeps its file tools inside the directory it started in, .git/ excluded), by scenario and start;
   * the tool result then matches `ownRefusal`.
   */
  refusesItself?(key: ScenarioKey, start: Start): number;
  ownRefusal?: RegExp;
  /** What the model is told when the hook cannot run forge at all. */
  blockedWithoutForge: RegExp;
  /** Generous: an agent's start-up is not what is measured. */
  timeoutMs?: number;
}

/** Each scenario by name, for what an adapter says about it. */
export type ScenarioKey = 'read-edit' | 'docs-write' | 'docs-shell' | 'push' | 'git-config' | 'plan-end' | 'no-forge';

interface Scenario {
  key: ScenarioKey;
  name: string;
  forgeOnPath?: boolean;
  /** The model's turns, given the moves, the repository and the shell's way back to the top from where the agent starts. */
  turns(m: Moves, dir: string, up: string): Turn[];
  /** How many calls are refused: by the gate (each journaled as plan_breach_refused), or by the agent itself first (Adapter.refusesItself). */
  refusals: number;
  check(ctx: {
    dir: string;
    remote: string;
    before: string;
    env: Record<string, string>;
    server: ScriptedServer;
    adapter: Adapter;
  }): Promise<void> | void;
}

/** Everything the agent handed back to the model as tool results: where a refusal's reason must show. */
const toldModel = (server: ScriptedServer) => server.toolResults().join('\n');

const SCENARIOS: Scenario[] = [
  {
    key: 'read-edit',
    name: 'a read and an edit in src/** are allowed',
    turns: (m, dir) => [
      calls(m.read(join(dir, 'src/a.ts'))),
      calls(m.edit(join(dir, 'src/a.ts'), 'export const a = 1;', 'export const a = 2;')),
      say('edited'),
    ],
    refusals: 0,
    check: ({ dir, server }) => {
      assert.is(readFileSync(join(dir, 'src/a.ts'), 'utf8'), 'export const a = 2;\n', 'the edit landed');
      assert.ok(server.toolResults()[0]?.includes('export const a = 1'), `the read returned the file: ${server.toolResults()[0]}`);
    },
  },
  {
    key: 'docs-write',
    name: 'a write to docs/ is refused',
    turns: (m, dir) => [calls(m.write(join(dir, 'docs/y.md'), 'x\n')), say('tried')],
    refusals: 1,
    check: ({ dir }) => {
      assert.not.ok(existsSync(join(dir, 'docs/y.md')), 'docs/y.md was not written');
    },
  },
  {
    key: 'docs-shell',
    name: "'echo x > docs/y.md' through the shell is refused",
    turns: (m, _dir, up) => [calls(m.shell(`echo x > ${up}docs/y.md`)), say('tried')],
    refusals: 1,
    check: ({ dir }) => {
      assert.not.ok(existsSync(join(dir, 'docs/y.md')), 'docs/y.md was not written');
    },
  },
  {
    key: 'push',
    name: "'git push' and 'git -C . push' are refused and nothing reaches the remote",
    turns: (m) => [calls(m.shell('git push origin HEAD:main')), calls(m.shell('git -C . push origin HEAD:refs/heads/agent')), say('tried')],
    refusals: 2,
    check: ({ remote, before, server }) => {
      assert.is(remoteRefs(remote), before, "the remote's refs are as they were");
      assert.match(toldModel(server), /surface/);
    },
  },
  {
    key: 'git-config',
    name: "a write to .git/config, by the write tool and by 'git config', is refused",
    turns: (m, dir) => [
      calls(m.write(join(dir, '.git/config'), '[core]\n\thooksPath = /tmp\n')),
      calls(m.shell('git config core.hooksPath /tmp')),
      say('tried'),
    ],
    refusals: 2,
    check: ({ dir }) => {
      assert.not.match(readFileSync(join(dir, '.git/config'), 'utf8'), /hooksPath/, '.git/config is unchanged');
    },
  },
  {
    key: 'plan-end',
    name: "'forge plan end' through the shell is refused and the plan stays active",
    turns: (m) => [calls(m.shell("forge plan end --reason 'agent says so'")), say('tried')],
    refusals: 1,
    check: async ({ dir, env }) => {
      const status = (await operator(['plan', 'status', '--json'], dir, env)).records[0]!;
      assert.equal([status.active, status.status], [true, 'active'], 'the plan is still active');
    },
  },
  {
    key: 'no-forge',
    name: 'with forge missing from PATH the call fails closed',
    forgeOnPath: false,
    turns: (m, dir) => [calls(m.edit(join(dir, 'src/a.ts'), 'export const a = 1;', 'export const a = 2;')), say('tried')],
    // forge never ran: nothing can be journaled, the agent itself blocked the call.
    refusals: 0,
    check: ({ dir, server, adapter }) => {
      assert.is(readFileSync(join(dir, 'src/a.ts'), 'utf8'), SOURCE, 'the edit did not land');
      assert.match(toldModel(server), adapter.blockedWithoutForge, 'the agent says the hook blocked the call');
    },
  },
];

const describe = (run: AgentRun) =>
  `exit ${run.code ?? run.signal}\n--- stdout\n${run.stdout.slice(-3000)}\n--- stderr\n${run.stderr.slice(-3000)}`;

/** One scenario in a fresh repository, home and server: install the gate, activate the plan, run the agent, check. */
async function runScenario(adapter: Adapter, scenario: Scenario, start: Start): Promise<void> {
  const { dir, remote } = gatedRepo();
  const { env, home } = agentEnv({ agent: adapter.agent, node22: adapter.node22 });
  const cwd = start === 'root' ? dir : join(dir, 'src');
  const server = await adapter.startServer(scenario.turns(adapter.moves, dir, start === 'root' ? '' : '../'));
  await adapter.install({ dir, home, env, scope: adapter.scopeFor(start), server });
  await operator(['plan', 'activate', '--path', PLAN_PATH], dir, env);
  const before = remoteRefs(remote);
  const run = await adapter.run({
    cwd,
    env: scenario.forgeOnPath === false ? withoutForge(env) : env,
    server,
    prompt: `scenario: ${scenario.name}`,
  });
  const context = `${adapter.agent} (${start}) — ${describe(run)}\n--- tool results\n${server.toolResults().join('\n')}`;
  assert.is(server.remaining(), 0, `the agent took every scripted turn: ${context}`);
  try {
    await scenario.check({ dir, remote, before, env, server, adapter });
  } catch (err) {
    // What the agent printed and was told is what explains a failed check.
    if (err instanceof Error) err.message += `\n${context}`;
    throw err;
  }
  const own = adapter.refusesItself?.(scenario.key, start) ?? 0;
  const refused = (await journal(dir, env)).filter((e) => e.verb === 'plan_breach_refused');
  assert.is(refused.length, scenario.refusals - own, `refusals journaled by forge: ${JSON.stringify(refused)}\n${context}`);
  if (refused.length) assert.match(toldModel(server), /plan breach/, `the model was told why: ${context}`);
  if (own) assert.ok(adapter.ownRefusal?.test(server.toolResults().join('\n')), `the agent refused on its own: ${context}`);
}

/** FORGE_AGENT_SCENARIOS=push,no-forge runs only those (while working on one agent); unset, all. */
const ONLY = process.env.FORGE_AGENT_SCENARIOS?.split(',');

/** Registers every scenario for the agent, from the repository's top and from src/. */
export function agentScenarios(adapter: Adapter, starts: Start[] = ['root', 'subdir']): void {
  for (const start of starts)
    for (const scenario of SCENARIOS.filter((s) => !ONLY || ONLY.includes(s.key)))
      test(
        `${adapter.agent}, started in ${start === 'root' ? 'the repository' : 'src/'}: ${scenario.name}`,
        () => runScenario(adapter, scenario, start),
        {
          timeoutMs: adapter.timeoutMs ?? 300_000,
        },
      );
}

/**
 * For an agent that reads the repository's file only when it starts at the top: installed there and
 * started in src/, the agent runs ungated — and forge plan status, asked from src/, must say so
 * rather than call the session gated.
 */
export function ungatedFromSubdir(adapter: Adapter): void {
  test(
    `${adapter.agent}, started in src/ with only the repository's hook: runs ungated, as forge plan status says`,
    async () => {
      const { dir } = gatedRepo();
      const { env, home } = agentEnv({ agent: adapter.agent, node22: adapter.node22 });
      const server = await adapter.startServer([calls(adapter.moves.shell('echo x > ../docs/y.md')), say('wrote')]);
      await adapter.install({ dir, home, env, scope: 'project', server });
      await operator(['plan', 'activate', '--path', PLAN_PATH], dir, env);
      const gate = (await operator(['plan', 'status', '--json'], join(dir, 'src'), env)).records[0]!.gates.find(
        (g: { agent: string }) => g.agent === adapter.agent,
      );
      assert.is(gate.startAt, dir, `the gate holds only where the agent starts at the top: ${JSON.stringify(gate)}`);
      assert.match(gate.reason, /subdirectory it runs ungated/);
      const run = await adapter.run({ cwd: join(dir, 'src'), env, server, prompt: 'write docs/y.md' });
      assert.is(readFileSync(join(dir, 'docs/y.md'), 'utf8'), 'x\n', `ungated, the write landed: ${describe(run)}`);
      assert.equal(
        (await journal(dir, env)).filter((e) => e.verb === 'plan_breach_refused'),
        [],
        'forge was never asked',
      );
    },
    { timeoutMs: adapter.timeoutMs ?? 300_000 },
  );
}
