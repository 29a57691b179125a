// forge eval: the same tasks run by any agent against any model, every token counted by one recording proxy, success decided by each task's own verify commands.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ArgsOf, type ArgsSpec, defineCommand, type Outcome, type RunContext } from '../lib/cli/declare';
import type { ModelConfig } from '../lib/agent/config-types';
import { resolveModelConfig } from '../lib/agent/config-resolve';
import { tokenizer } from '../lib/agent/context';
import { InvalidInputError, RefusedError } from '../lib/errors';
import { evalReport } from '../lib/eval/report';
import { EVAL_AGENT_NAMES, EVAL_AGENTS, type EvalAgentName } from '../lib/eval/agents';
import { type EvalRecord, loadEvals, saveEval, summarize, type TaskSummary } from '../lib/eval/results';
import { type RunResult, runTask } from '../lib/eval/run';
import { type EvalTask, loadSuite, pickTasks } from '../lib/eval/tasks';
import { onPath } from '../lib/plans/modules';
import { shellJoin } from '../lib/quote';
import { recordableEndpoint } from '../lib/redact';

const ARGS = {
  task: {
    type: 'array',
    tool: '',
    positional: true,
    placeholder: 'TASK',
    description: 'Tasks to run (all of the suite when none); with --compare, the evals to compare (all when none).',
  },
  agent: {
    type: 'array',
    tool: '',
    choices: EVAL_AGENT_NAMES,
    placeholder: 'AGENT',
    description: 'The agent to run each task with (default forge); given twice or more, each runs every task.',
  },
  runs: {
    type: 'integer',
    tool: '',
    min: 1,
    default: 1,
    placeholder: 'N',
    description: 'Runs of each task by each agent: a success rate.',
  },
  parallel: {
    type: 'integer',
    tool: '',
    min: 1,
    max: 16,
    default: 1,
    placeholder: 'N',
    description: 'Runs at once, each in its own fixture with its own proxy (a local model may serve one request at a time).',
  },
  endpoint: {
    type: 'string',
    tool: '',
    placeholder: 'URL',
    description: 'The model endpoint (else as forge agent finds it: FORGE_ENDPOINT, a profile, Ollama).',
  },
  model: { type: 'string', tool: '', placeholder: 'NAME', description: 'The model, as the endpoint names it.' },
  profile: { type: 'string', tool: '', placeholder: 'NAME', description: 'A profile of the forge agent config file.' },
  suite: { type: 'string', tool: '', placeholder: 'DIR', description: 'A folder of tasks (default: the suite forge ships).' },
  list: { type: 'boolean', tool: '', description: 'List the tasks of the suite and run nothing.' },
  compare: { type: 'boolean', tool: '', description: 'Put recorded evals side by side, task by task.' },
  keep: { type: 'boolean', tool: '', description: "Keep each run's fixture repository (its path is in the run's record)." },
  report: {
    type: 'string',
    tool: '',
    placeholder: 'FILE',
    description: 'Also write a chart of the results (this eval, or with --compare those compared) as one self-contained HTML file.',
  },
} as const satisfies ArgsSpec;

type Args = ArgsOf<typeof ARGS>;

/** The suite forge ships: eval/tasks of the package, found up from this module (dist/commands/ or the source tree). */
function shippedSuite(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'eval', 'tasks')) && existsSync(join(dir, 'package.json'))) return join(dir, 'eval', 'tasks');
    const up = dirname(dir);
    if (up === dir) return join(dirname(fileURLToPath(import.meta.url)), '..', 'eval', 'tasks');
    dir = up;
  }
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const k = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(0)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));

/** One line per task, agent and model: the table a person reads. */
function table(rows: TaskSummary[], header = true): string {
  const lines = rows.map((r) =>
    [
      r.task.padEnd(24),
      `${r.agent}/${r.model}`.padEnd(28),
      `${r.passed}/${r.runs} ${pct(r.successRate)}`.padStart(9),
      String(r.toolCalls).padStart(6),
      String(r.reReads).padStart(7),
      String(r.requests).padStart(5),
      k(r.promptTokens).padStart(7),
      k(r.completionTokens).padStart(6),
      k(r.uncachedTokens).padStart(9),
      k(r.largestRequest).padStart(8),
      `${(r.wallMs / 1000).toFixed(1)}s`.padStart(7),
      r.looped ? ` looped ${r.looped}` : '',
    ].join(' '),
  );
  const head = `${'task'.padEnd(24)} ${'agent/model'.padEnd(28)} ${'success'.padStart(9)} ${'tools'.padStart(6)} ${'rereads'.padStart(7)} ${'reqs'.padStart(5)} ${'prompt'.padStart(7)} ${'compl'.padStart(6)} ${'uncached'.padStart(9)} ${'largest'.padStart(8)} ${'wall'.padStart(7)}`;
  return (header ? [head, ...lines] : lines).join('\n');
}

function runLine(r: RunResult): string {
  const verdict = r.success ? 'passed' : `FAILED: ${r.failure?.split('\n')[0]}`;
  return `${r.task} #${r.run} ${r.agent}/${r.model}: ${verdict} — ${r.toolCalls} tool calls${r.reReads ? ` (${r.reReads} re-read${r.reReads === 1 ? '' : 's'})` : ''}, ${r.requests} requests, ${r.promptTokens} prompt + ${r.completionTokens} completion tokens${r.usageReported ? '' : ' (some estimated)'}${r.looped ? ', looped' : ''}, ${(r.wallMs / 1000).toFixed(1)} s`;
}

/** The command that runs forge itself for --agent forge: this very program. */
function forgeArgv(ctx: RunContext): string[] {
  return ctx.program.endsWith('.js') ? [process.execPath, ctx.program] : [ctx.program];
}

/** Refuses a --report path whose directory is missing or not writable (INVALID_PATH), before anything runs. */
async function writableReport(file: string, ctx: RunContext): Promise<void> {
  const { access, constants } = await import('node:fs/promises');
  await access(dirname(resolve(ctx.cwd, file)), constants.W_OK).catch((err: NodeJS.ErrnoException) => {
    throw reportRefused(file, err, ctx);
  });
}

/** INVALID_PATH for a report that cannot be written, and what mends it: the directory made, or looked at. */
function reportRefused(file: string, err: NodeJS.ErrnoException, ctx: RunContext): InvalidInputError {
  const dir = dirname(resolve(ctx.cwd, file));
  return new InvalidInputError('INVALID_PATH', `cannot write the report to '${file}': ${err.code ?? err.message}`, {
    fix: err.code === 'ENOENT' ? shellJoin(['mkdir', '-p', dir]) : shellJoin(['ls', '-ld', dir]),
  });
}

/** Writes the HTML report where --report says (relative to the working directory); its path as given. */
async function writeReport(file: string, records: EvalRecord[], ctx: RunContext): Promise<string> {
  const { writeFile } = await import('node:fs/promises');
  await writeFile(resolve(ctx.cwd, file), evalReport({ records, generatedAt: ctx.now().toISOString() })).catch(
    (err: NodeJS.ErrnoException) => {
      throw reportRefused(file, err, ctx);
    },
  );
  return file;
}

/** --list: the suite's tasks, one line each. */
async function listSuite(tasks: EvalTask[], suiteDir: string, ctx: RunContext): Promise<Outcome> {
  for (const t of tasks)
    await ctx.emit(
      { type: 'task', name: t.name, prompt: t.prompt, verify: t.verify, targets: t.targets, source: t.source },
      `${t.name.padEnd(28)} ${t.prompt}`,
    );
  return {
    data: { suite: suiteDir, tasks: tasks.length },
    text: `${tasks.length} task${tasks.length === 1 ? '' : 's'} in ${suiteDir}`,
    next: ctx.cmd('eval', '--help'),
  };
}

/** The agents asked for that are installed; each one that is not is said, with its install command, and none at all is refused. */
async function installedAgents(asked: EvalAgentName[], ctx: RunContext): Promise<EvalAgentName[]> {
  const wanted = [...new Set(asked)];
  const agents: EvalAgentName[] = [];
  for (const name of wanted) {
    const { program, install } = EVAL_AGENTS[name];
    if (program && !(await onPath({ program, cwd: ctx.cwd, path: ctx.env.PATH ?? '' })))
      await ctx.emit({ type: 'skipped', agent: name, install }, `skipped ${name}: not installed (${install})`);
    else agents.push(name);
  }
  if (!agents.length)
    throw new RefusedError('AGENT_NOT_FOUND', `${wanted.join(', ')} ${wanted.length === 1 ? 'is' : 'are'} not installed`, {
      fix: EVAL_AGENTS[wanted[0]!].install,
    });
  return agents;
}

/**
 * Every task by every agent, `runs` times, up to `parallel` at once (each run has its fixture, its
 * proxy and its agent's home to itself); each run is printed as it ends and kept in `record` in the
 * order it was asked for. A cancelled run starts no other.
 */
async function runAll({
  tasks,
  agents,
  runs,
  parallel,
  keep,
  config,
  record,
  ctx,
}: {
  tasks: EvalTask[];
  agents: EvalAgentName[];
  runs: number;
  parallel: number;
  keep: boolean;
  config: ModelConfig;
  record: EvalRecord;
  ctx: RunContext;
}): Promise<void> {
  const count = await tokenizer();
  const queue = tasks.flatMap((task) => agents.flatMap((agent) => Array.from({ length: runs }, (_, i) => ({ task, agent, run: i + 1 }))));
  const done: Array<{ at: number; result: RunResult }> = [];
  let next = 0;
  const worker = async () => {
    while (next < queue.length && !ctx.signal.aborted) {
      const at = next++;
      const { task, agent, run } = queue[at]!;
      const spent = done.reduce((n, d) => n + d.result.promptTokens + d.result.completionTokens, 0);
      await ctx.progress(`[${at + 1}/${queue.length}] ${task.name} #${run} with ${agent}… (${spent} tokens so far)`);
      const { fixture, ...result } = await runTask({
        task,
        run,
        agent,
        model: config.model.value,
        upstream: config.endpoint.value,
        apiKey: config.apiKey,
        env: ctx.env,
        forge: forgeArgv(ctx),
        count,
        signal: ctx.signal,
        keep,
      });
      if (result.failure === 'cancelled') return;
      done.push({ at, result });
      await ctx.emit({ ...result, ...(fixture ? { fixture } : {}) }, `${runLine(result)}${fixture ? `\n  kept: ${fixture}` : ''}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, queue.length) }, worker));
  record.runs.push(...done.sort((a, b) => a.at - b.at).map((d) => d.result));
}

async function compare(args: Args, ctx: RunContext) {
  const evals = await loadEvals({ store: await ctx.store(), ids: args.task ?? [] });
  if (!evals.length)
    throw new RefusedError('NO_EVAL_RESULTS', 'no forge eval recorded on the state ref yet', { fix: ctx.cmd('eval', '--list') });
  const rows = evals.flatMap((e) => summarize(e)).sort((a, b) => (a.task < b.task ? -1 : a.task > b.task ? 1 : 0));
  for (const row of rows) await ctx.emit({ ...row }, '');
  const report = args.report ? await writeReport(args.report, evals, ctx) : null;
  return {
    data: { evals: evals.map((e) => e.id), rows: rows.length, ...(report ? { report } : {}) },
    text: `${table(rows)}\n${evals.length} eval${evals.length === 1 ? '' : 's'}: ${evals.map((e) => `${e.id} (${e.startedAt.slice(0, 16)})`).join(', ')}${report ? `\nreport: ${report}` : ''}`,
    next: null,
  };
}

export default defineCommand({
  name: 'eval',
  summary: 'Run a suite of tasks with any agent and model, tokens counted on the wire, success decided by each task',
  description:
    "Runs each task of a suite (the one forge ships, or --suite DIR: one folder per task holding task.json — {prompt, verify, targets?, source?, timeout?} — and setup.sh, which makes the task's fixture in an empty directory without the network) in a fresh git repository: the agent (--agent, default forge: forge agent) gets the task's prompt and the model endpoint (as forge agent finds it: --endpoint, FORGE_ENDPOINT, a profile, a local Ollama), and between the agent and the endpoint sits a recording proxy of forge's own, so every agent's requests, tool calls and tokens are counted the same way: prompt and completion tokens as the server counted them (o200k_base estimates when it sent none), uncached tokens (each request after its longest common prefix with the one before), the largest request, and whether the same tool call was made three times or more (looped). A task succeeded when every one of its verify commands exits 0 in the fixture afterwards — never on the agent's word. --runs N runs each task N times: a success rate. Each run is printed as it ends, then one line per task, agent and model (means per run); the eval is recorded on the state ref (.forge/eval/<id>.json), and --compare puts recorded evals side by side. An agent that is not installed is skipped, with its install command. Ctrl-C stops the run in progress and keeps what finished. Codex speaks the Responses API, Claude Code Anthropic's Messages API and Gemini CLI Gemini's: the endpoint must speak it too.",
  args: ARGS,
  examples: [
    { command: 'forge eval --list', description: 'The tasks of the suite forge ships.' },
    {
      command: 'forge eval rename-columns --runs 3 --model qwen3:14b',
      description: 'One task three times with forge agent, on the endpoint forge agent would use (a local Ollama, a profile).',
    },
    {
      command: 'forge eval remove-console-log --agent forge --agent opencode --model qwen3:14b',
      description: 'One task with forge agent and with OpenCode (skipped when not installed), the same model and meter.',
    },
    { command: 'forge eval --compare --report eval-report.html', description: 'Every recorded eval side by side, and as a chart.' },
  ],
  errors: {
    AGENT_NOT_FOUND: 'no agent asked for is installed',
    CANCELLED: 'stopped by Ctrl-C or a signal (what finished is recorded)',
    EVAL_SETUP_FAILED: "a task's setup.sh failed",
    EVAL_TASK_INVALID: 'a task folder is not as forge eval reads it',
    NO_EVAL_RESULTS: 'nothing recorded to compare',
    NOT_A_GIT_REPO: 'outside a git repository (the results go on its state ref)',
    UNKNOWN_TASK: 'a task the suite does not have',
    INVALID_PATH: '--report names a file that cannot be written',
    STATE_INVALID: 'a recorded eval on the state ref is not one forge can read',
    // Finding the endpoint and model, as forge agent does.
    NO_MODEL: 'no endpoint configured or detected',
    NO_MODEL_ENDPOINT: 'a model named without an endpoint, and none detected',
    INVALID_ENDPOINT: 'an --endpoint that is not an http(s) URL',
    INVALID_API_KEY_ENV: "a profile's api_key_env that is not a variable's name",
    API_KEY_MISSING: "the profile's API key variable is not set",
    PROFILE_NOT_FOUND: 'no such profile in the config file',
    PROFILE_NOT_CHOSEN: 'several profiles and none chosen',
    CONFIG_INVALID: 'the config file is not as forge agent reads it',
    CONFIG_UNREADABLE: 'the config file cannot be read',
    MODEL_UNREACHABLE: 'the endpoint does not answer',
    MODEL_NOT_FOUND: 'the endpoint has no such model',
    MODEL_AUTH: 'the API key is missing or refused',
    MODEL_BAD_ENDPOINT: 'the endpoint is not an OpenAI-compatible API',
    MODEL_CONTEXT_EXCEEDED: 'the endpoint refused a request as too long',
    MODEL_NO_VISION: 'the model takes no images',
    MODEL_QUOTA: "the account's quota is used up",
    MODEL_RATE_LIMITED: 'still rate-limited after the retries',
    MODEL_REQUEST_REJECTED: 'the endpoint refused the request',
    MODEL_SERVER_ERROR: 'the endpoint kept failing',
    MODEL_STALLED: 'the endpoint stopped sending',
  },
  exits: {
    0: 'every run succeeded (or the list, or the comparison)',
    1: 'a run failed, or no agent could run',
    2: 'bad arguments or task files',
  },
  mutates: true,
  mcp: false,
  async run(args, ctx) {
    const suiteDir = args.suite ? resolve(ctx.cwd, args.suite) : shippedSuite();
    if (args.compare) return compare(args, ctx);
    const all = await loadSuite({ suiteDir });
    if (args.list) return listSuite(all, suiteDir, ctx);
    const tasks = pickTasks({ tasks: all, names: args.task ?? [] });
    // A report that could not be written is refused before the runs, not after them.
    if (args.report) await writableReport(args.report, ctx);
    const store = await ctx.store();
    // The proxy reaches the endpoint as forge agent would: through the proxies the environment names.
    await (await import('../lib/agent/proxy')).useProxiesOf(ctx.env);
    const config = await resolveModelConfig({
      flags: { endpoint: args.endpoint, model: args.model, profile: args.profile },
      env: ctx.env,
      signal: ctx.signal,
    });
    const agents = await installedAgents((args.agent?.length ? args.agent : ['forge']) as EvalAgentName[], ctx);
    const now = ctx.now();
    const record: EvalRecord = {
      id: `eval-${now.toISOString().replace(/[-:]/g, '').slice(0, 15)}-${randomBytes(3).toString('hex')}`,
      startedAt: now.toISOString(),
      endpoint: recordableEndpoint(config.endpoint.value),
      model: config.model.value,
      agents,
      suite: args.suite ? suiteDir : 'shipped',
      targets: Object.fromEntries(tasks.map((t) => [t.name, t.targets])),
      runs: [],
    };
    await runAll({ tasks, agents, runs: args.runs, parallel: args.parallel, keep: args.keep, config, record, ctx });
    if (record.runs.length) await saveEval({ store, record });
    const report = args.report && record.runs.length ? await writeReport(args.report, [record], ctx) : null;
    // Stopped (Ctrl-C, a signal, a cancelled call): what finished is kept, and the exit says it was cut short.
    if (ctx.signal.aborted) {
      const n = record.runs.length;
      throw new RefusedError(
        'CANCELLED',
        n
          ? `cancelled: ${n} run${n === 1 ? '' : 's'} finished and ${n === 1 ? 'is' : 'are'} recorded as ${record.id}`
          : 'cancelled before any run finished: nothing was recorded',
        { fix: n ? ctx.cmd('eval', '--compare', record.id) : ctx.cmd('eval', '--list') },
      );
    }
    const rows = summarize(record);
    for (const row of rows) await ctx.emit({ ...row }, '');
    const passed = record.runs.filter((r) => r.success).length;
    return {
      data: { eval: record.id, runs: record.runs.length, passed, ...(report ? { report } : {}) },
      text: `${rows.length ? `${table(rows)}\n` : ''}${record.id}: ${passed} of ${record.runs.length} runs passed${report ? `\nreport: ${report}` : ''}`,
      next: ctx.cmd('eval', '--compare'),
      exitCode: passed === record.runs.length && record.runs.length > 0 ? 0 : 1,
    };
  },
});
