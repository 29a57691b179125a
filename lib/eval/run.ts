// One eval run: the task's fixture made in a fresh repository, the agent run in it through the recording proxy, the task's verify commands deciding success.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RefusedError } from '../errors';
import { runShell, startProgram } from '../process/program';
import { shellQuote } from '../quote';
import { uncachedTokens } from '../agent/context';
import { GIT_LOCATION_ENV } from '../git/repo';
import { toolInfo } from '../plans/tools';
import { type AgentCall, EVAL_AGENTS, type EvalAgentName } from './agents';
import { startRecordingProxy, type RecordedCall } from './proxy';
import type { EvalTask } from './tasks';

export interface RunResult {
  type: 'run';
  task: string;
  run: number;
  agent: EvalAgentName;
  model: string;
  /** Decided by the task's verify commands, never by what the agent said. */
  success: boolean;
  /** The first verify command that failed, with the end of its output; or why the run did not get that far. */
  failure: string | null;
  agentExit: number | null;
  timedOut: boolean;
  requests: number;
  toolCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** Tokens of each request after its longest common prefix with the one before: what a prefix cache could not reuse. */
  uncachedTokens: number;
  largestRequest: number;
  /** Whether the server counted the tokens (true) or some were estimated here (o200k_base). */
  usageReported: boolean;
  /** The same tool call with the same arguments three times or more. */
  looped: boolean;
  /** Reads of a file the run had read already and not changed since (through the agent's read and write tools, as the plan gate names them). */
  reReads: number;
  wallMs: number;
}

export type CountTokens = (text: string) => number;

/** The keys the agents' file tools name their path with (forge's, Claude Code's, Gemini CLI's, OpenCode's). */
const PATH_KEYS = ['path', 'file_path', 'filePath', 'absolute_path'];

/** Re-reads among a run's tool calls: a read of a path already read, with no change to it by the agent's own tools in between. */
function reReads(calls: RecordedCall[], agent: EvalAgentName): number {
  const toolAgent = agent === 'aider' ? undefined : agent;
  const read = new Set<string>();
  let again = 0;
  for (const call of calls.flatMap((c) => c.toolCalls)) {
    let args: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(call.args);
      if (parsed && typeof parsed === 'object') args = parsed as Record<string, unknown>;
    } catch {
      // Arguments that are no JSON object name no path.
    }
    const path = PATH_KEYS.map((k) => args[k]).find((v): v is string => typeof v === 'string' && v !== '');
    if (!path) continue;
    const info = toolInfo(call.name, toolAgent);
    if (info.word === 'read') {
      if (read.has(path)) again++;
      read.add(path);
    } else if (info.mutates) read.delete(path);
  }
  return again;
}

/** The figures of a run's model calls, as the proxy recorded them. */
export function meterCalls(
  calls: RecordedCall[],
  count: CountTokens,
  agent: EvalAgentName = 'forge',
): Omit<RunResult, 'type' | 'task' | 'run' | 'agent' | 'model' | 'success' | 'failure' | 'agentExit' | 'timedOut' | 'wallMs'> {
  let previous: string | null = null;
  const figures = {
    requests: calls.length,
    toolCalls: 0,
    promptTokens: 0,
    completionTokens: 0,
    uncachedTokens: 0,
    largestRequest: 0,
    usageReported: true,
    looped: false,
    reReads: reReads(calls, agent),
  };
  const seen = new Map<string, number>();
  for (const call of calls) {
    const prompt = call.promptTokens ?? count(call.body);
    if (call.promptTokens === null || call.completionTokens === null) figures.usageReported = false;
    figures.promptTokens += prompt;
    figures.completionTokens += call.completionTokens ?? count(call.text + call.toolCalls.map((t) => t.name + t.args).join(''));
    figures.largestRequest = Math.max(figures.largestRequest, prompt);
    figures.uncachedTokens += uncachedTokens(previous, call.body, count);
    previous = call.body;
    figures.toolCalls += call.toolCalls.length;
    for (const t of call.toolCalls) {
      const key = `${t.name}\u0000${t.args}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      if (seen.get(key)! >= 3) figures.looped = true;
    }
  }
  return figures;
}

/**
 * Variables that would point the fixture's git, or forge inside it, somewhere else: forge eval run
 * from a git hook (GIT_DIR set) or with FORGE_CWD exported must not touch the user's repository.
 */
const ELSEWHERE = ['FORGE_CWD', 'GIT_INDEX_FILE', 'GIT_PREFIX', ...GIT_LOCATION_ENV];

/**
 * The agents' own settings a user may have exported (a base URL, a key, Vertex AI for Gemini CLI, a
 * config directory): any of them could send an agent past the proxy, or load the user's hooks and
 * servers into the measurement. Each agent gets only what its row of the agents table sets.
 */
const AGENT_SETTINGS = /^(GEMINI_|GOOGLE_|OPENAI_|ANTHROPIC_|CLAUDE|CODEX_|OPENCODE|AIDER_)/i;

/** An agent's environment: the fixture's, without the agents' settings, in a home of its own, the loopback proxy reached directly, then what its row sets. */
export function agentProcessEnv(env: NodeJS.ProcessEnv, home: string, own: Record<string, string>): NodeJS.ProcessEnv {
  const kept = Object.fromEntries(Object.entries(fixtureEnv(env)).filter(([name]) => !AGENT_SETTINGS.test(name)));
  // The proxy is on loopback: an agent that honours HTTP(S)_PROXY must not send it there.
  const noProxy = [env.NO_PROXY ?? env.no_proxy, '127.0.0.1', 'localhost'].filter(Boolean).join(',');
  return { ...kept, HOME: home, NO_PROXY: noProxy, no_proxy: noProxy, ...own };
}

/** The caller's environment with nothing in it that leads out of the fixture. */
export function fixtureEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of ELSEWHERE) delete out[name];
  return out;
}

/** A git repository holding the task's fixture, committed, in a temp directory of its own. */
async function makeFixture(task: EvalTask, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<{ dir: string; home: string }> {
  const root = await mkdtemp(join(env.TMPDIR || tmpdir(), `forge-eval-${task.name}-`));
  const dir = join(root, 'repo');
  const home = join(root, 'home');
  const q = shellQuote;
  // One shell: the setup, then the fixture committed as the repository's first commit, by a name of its own.
  const identity = '-c user.name="forge eval" -c user.email=eval@forge.invalid -c commit.gpgsign=false';
  const setup = await runShell({
    command: [
      `mkdir -p ${q(dir)} ${q(home)} && cd ${q(dir)}`,
      `sh ${q(join(task.dir, 'setup.sh'))}`,
      'git init -q -b main',
      'git add -A',
      `git ${identity} commit -q --allow-empty --no-verify -m ${q(`fixture: ${task.name}`)}`,
    ].join(' && '),
    cwd: root,
    env,
    timeoutMs: 120_000,
    signal,
  });
  if (setup.exitCode !== 0) {
    await rm(root, { recursive: true, force: true });
    throw new RefusedError(
      'EVAL_SETUP_FAILED',
      `${task.name}: setup.sh failed (exit ${setup.exitCode ?? setup.signal}): ${setup.tail.trim().slice(-500)}`,
      { fix: `sh ${q(join(task.dir, 'setup.sh'))}` },
    );
  }
  return { dir, home };
}

/**
 * Runs `agent` on `task` once, against `upstream` through a recording proxy of its own, then the
 * task's verify commands in the fixture. The fixture is removed afterwards unless `keep`.
 */
export async function runTask({
  task,
  run,
  agent,
  model,
  upstream,
  env,
  forge,
  count,
  apiKey,
  signal,
  keep = false,
}: {
  task: EvalTask;
  run: number;
  agent: EvalAgentName;
  model: string;
  upstream: string;
  env: NodeJS.ProcessEnv;
  forge: string[];
  count: CountTokens;
  /** The upstream's key, put in by the proxy (the agent only ever gets a placeholder). */
  apiKey?: string;
  signal?: AbortSignal;
  keep?: boolean;
}): Promise<RunResult & { fixture: string | null }> {
  const started = Date.now();
  env = fixtureEnv(env);
  const { dir, home } = await makeFixture(task, env, signal);
  const proxy = await startRecordingProxy({ upstream, apiKey, signal });
  try {
    const call: AgentCall = { prompt: task.prompt, model, url: proxy.url, home, forge };
    const { argv, env: agentEnv } = await EVAL_AGENTS[agent].prepare(call);
    const program = startProgram({ argv, cwd: dir, env: agentProcessEnv(env, home, agentEnv) });
    let timedOut = false;
    const stopAt = setTimeout(() => {
      timedOut = true;
      program.stop('SIGTERM');
    }, task.timeoutSeconds * 1000);
    const abort = () => program.stop('SIGINT');
    signal?.addEventListener('abort', abort, { once: true });
    const ended = await program.done;
    clearTimeout(stopAt);
    signal?.removeEventListener('abort', abort);
    let failure: string | null = ended.spawnError
      ? `${argv[0]} could not start: ${ended.spawnError}`
      : timedOut
        ? `stopped after ${task.timeoutSeconds} s`
        : null;
    if (!failure && !signal?.aborted)
      for (const command of task.verify) {
        const r = await runShell({ command, cwd: dir, env, timeoutMs: 300_000, signal });
        if (r.exitCode !== 0) {
          failure = `${command}: exit ${r.exitCode ?? r.signal}${r.tail.trim() ? `\n${r.tail.trim().split('\n').slice(-5).join('\n')}` : ''}`;
          break;
        }
      }
    if (signal?.aborted) failure ??= 'cancelled';
    return {
      type: 'run',
      task: task.name,
      run,
      agent,
      model,
      success: failure === null,
      failure,
      agentExit: ended.exitCode,
      timedOut,
      ...meterCalls(proxy.calls, count, agent),
      wallMs: Date.now() - started,
      fixture: keep ? dir : null,
    };
  } finally {
    await proxy.close();
    if (!keep) await rm(join(dir, '..'), { recursive: true, force: true });
  }
}
