// forge agent: a thin agent — a model proposing calls of forge's own commands, until the task is done.
import { defineCommand } from '../lib/cli/declare';
import { InvalidInputError } from '../lib/errors';
import { workTreeRoot } from '../lib/git/repo';

export default defineCommand({
  name: 'agent',
  summary: 'Run a task with a model that uses forge commands as its tools',
  description: [
    'Sends the task to an OpenAI-compatible chat endpoint (streaming; Ollama, OpenAI, OpenRouter, vLLM…) with forge\'s own commands as tools — read, edit, patch, write, search, ls, validate, memory (lean views of their declarations) — plus bash (120 s timeout; long output keeps its head, tail and error lines). Each call the model makes runs exactly as the command would on the command line, hints included. The conventions of AGENTS.md, CLAUDE.md or .forge/conventions.md (forge init) go into the system prompt. A tool call identical to an earlier one, with no write, edit, patch or bash in between, is answered from the earlier result with a note instead of running again; a re-read of a file unchanged since it was read (same size and mtime) is served from cache too. Before every model call the context is brought under --budget tokens (o200k_base) by compressing older tool results to one-line stubs, oldest first — never the system prompt, the task or the latest results; the recall tool gives a compressed result back whole.',
    'The model and endpoint come from --endpoint / --model / --profile / --api-key-env, then FORGE_ENDPOINT / FORGE_MODEL / FORGE_PROFILE, then a profile of ~/.config/forge/config.json, then detection (Ollama on localhost, OPENAI_API_KEY, OPENROUTER_API_KEY); the text output says what was chosen and how to change it. 429, 5xx and stalled streams (no byte for --stall-seconds) are retried with backoff. --quick makes one call without tools. With --json the events stream as NDJSON items — config, text, tool_call, tool_result, compressed, usage, done — before the summary record. --dry-run prints the first request exactly as it would be sent and its size in tokens (o200k_base), without calling the model.',
    'Each task appends a line to .forge/telemetry.jsonl on the state ref (model, tokens, tool calls, cache hits, duration, cost when the profile has rates); forge stats sums it up. Each task is saved as a turn of a session on the state ref (.forge/agent/sessions/<id>.json: task, answer, files changed); --continue (or --session ID) starts the next task with a summary of the earlier turns of the session, capped at 1,500 characters, newest kept; --list shows the sessions. Plan mode is not built yet.',
  ].join('\n\n'),
  args: {
    task: { type: 'string', positional: true, rest: true, placeholder: 'TASK', description: 'What to do.' },
    endpoint: { type: 'string', placeholder: 'URL', description: 'The OpenAI-compatible API base.' },
    model: { type: 'string', placeholder: 'NAME', description: 'The model.' },
    profile: { type: 'string', placeholder: 'NAME', description: 'A config profile.' },
    'api-key-env': { type: 'string', placeholder: 'VAR', description: 'The variable holding the API key.' },
    'max-turns': { type: 'integer', min: 1, max: 500, default: 30, placeholder: 'N', description: 'Model calls allowed.' },
    quick: { type: 'boolean', alias: 'q', description: 'One call, no tools.' },
    'stall-seconds': { type: 'integer', min: 1, default: 120, placeholder: 'S', description: 'Silence that means a stall.' },
    budget: { type: 'integer', min: 500, default: 12000, placeholder: 'TOKENS', description: 'Context token budget.' },
    'dry-run': { type: 'boolean', description: 'Print the first request; call nothing.' },
    continue: { type: 'boolean', alias: 'c', description: 'Continue the latest session.' },
    session: { type: 'string', placeholder: 'ID', description: 'Continue this session instead.' },
    list: { type: 'boolean', description: 'List the saved sessions.' },
  },
  examples: [
    { command: 'forge agent --dry-run "add a --verbose flag"', description: 'The exact first request and its token count.' },
    { command: 'forge agent --dry-run --json "fix the failing test" | jq .fixedTokens', description: 'How many tokens every call starts with.' },
  ],
  errors: { NO_SESSION: 'nothing to continue, or no session with that id', MODEL_UNREACHABLE: 'the endpoint does not answer', MODEL_NOT_FOUND: 'the endpoint has no such model', MODEL_AUTH: 'the API key is missing or refused', MODEL_RATE_LIMITED: 'still rate-limited after the retries', MODEL_SERVER_ERROR: 'the endpoint kept failing', MODEL_STALLED: 'the stream stopped sending', NO_MODEL: 'no endpoint configured or detected', EMPTY_TASK: 'a blank task' },
  exits: { 0: 'the model answered', 1: 'the turn limit ended the run', 2: 'invalid input, or model settings that do not work (unreachable endpoint, unknown model, missing key)' },
  mutates: true,
  async run(args, ctx) {
    const { findSession, listSessions, saveTurn, sessionSummary } = await import('../lib/agent/sessions');
    if (args.list) {
      const sessions = await listSessions({ store: await ctx.store() });
      for (const x of sessions) await ctx.emit({ type: 'session', id: x.id, updatedAt: x.updatedAt, turns: x.turns.length, first: x.turns[0]?.task ?? '' }, `${x.id}  ${x.updatedAt}  ${x.turns.length} turn${x.turns.length === 1 ? '' : 's'}  ${(x.turns[0]?.task ?? '').slice(0, 60)}`);
      return { data: { sessions: sessions.length }, text: sessions.length ? `${sessions.length} session${sessions.length === 1 ? '' : 's'}` : 'no forge agent sessions yet', next: sessions.length ? ctx.cmd('agent', '--session', sessions[0]!.id, 'next task') : null };
    }
    const task = args.task ?? '';
    if (!task.trim()) throw new InvalidInputError('EMPTY_TASK', 'which task? give it as the argument', { fix: ctx.cmd('agent', 'describe the task') });
    const resumed = args.continue || args.session !== undefined ? await findSession({ store: await ctx.store(), id: args.session ?? null }) : null;
    const history = resumed ? sessionSummary(resumed) : undefined;
    const [{ firstRequest, runAgent, SYSTEM_PROMPT }, { describeModelConfig, resolveModelConfig }, { entries }] = await Promise.all([import('../lib/agent/agent'), import('../lib/agent/config'), import('./index')]);
    const top = await workTreeRoot({ cwd: ctx.cwd });
    const root = top?.root ?? ctx.cwd;
    // The agent's tool calls land in the run's log when a run id is set (flag or FORGE_RUN_ID).
    const env = ctx.runId ? { ...process.env, FORGE_RUN_ID: ctx.runId } : process.env;
    if (args['dry-run']) {
      const request = await firstRequest({ entries, task, root, cwd: ctx.cwd, env, history });
      const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
      const body = JSON.stringify({ messages: request.messages, tools: request.tools });
      const fixed = countTokens(JSON.stringify({ messages: [{ role: 'system', content: SYSTEM_PROMPT }], tools: request.tools }));
      const tokens = countTokens(body);
      return { data: { request, tokens, fixedTokens: fixed }, text: `${JSON.stringify(request, null, 2)}\n${tokens} tokens (o200k_base), ${fixed} of them the fixed prompt (system prompt and tool schemas, without conventions)`, next: ctx.cmd('agent', task) };
    }
    const started = Date.now();
    const config = await resolveModelConfig({ flags: { endpoint: args.endpoint, model: args.model, profile: args.profile, apiKeyEnv: args['api-key-env'] }, env });
    if (config.firstRun) await ctx.emit({ type: 'config', line: 'first run: no config file, flags or FORGE_* settings' }, `first run: no ${config.configPath}, so forge chose for you; write that file (profiles) or pass --endpoint/--model to choose`);
    for (const line of describeModelConfig(config)) await ctx.emit({ type: 'config', line }, `using ${line}`);
    const run = await runAgent({
      entries, config, task, root, cwd: ctx.cwd, env, maxTurns: args['quick'] ? 1 : args['max-turns'], budget: args.budget, quick: args.quick, retry: { stallMs: args['stall-seconds'] * 1000 }, history,
      onEvent: async (e) => {
        if (e.type === 'tool_call') await ctx.emit({ type: 'tool_call', name: e.name, arguments: e.arguments, cached: e.cached }, `→ ${e.name} ${e.arguments}${e.cached ? ' (repeated: answered from the earlier result)' : ''}`);
        else if (e.type === 'tool_result') await ctx.emit({ type: 'tool_result', name: e.name, ok: e.ok, chars: e.chars }, `  ${e.ok ? 'ok' : 'failed'} (${e.chars} chars)`);
        else if (e.type === 'compressed') await ctx.emit({ type: 'compressed', results: e.results, before: e.before, after: e.after }, `  (context ${e.before} → ${e.after} tokens: ${e.results} older result${e.results === 1 ? '' : 's'} compressed)`);
        else if (e.type === 'text') await ctx.emit({ type: 'text', text: e.text }, e.text.trim());
        else if (e.type === 'done') await ctx.emit({ type: 'done', turns: e.turns }, '');
        else if (e.type === 'usage') await ctx.emit({ type: 'usage', input: e.input, output: e.output }, `  (${e.input} tokens in, ${e.output} out)`);
      },
    });
    // Telemetry needs a repository to live in; outside one the run is simply not recorded.
    if (top) {
      const cost = config.cost.value ? (run.usage.input * config.cost.value.input + run.usage.output * config.cost.value.output) / 1e6 : null;
      const { recordTelemetry } = await import('../lib/agent/telemetry');
      await recordTelemetry({ store: await ctx.store(), entry: { timestamp: ctx.now().toISOString(), task: task.slice(0, 200), model: config.model.value, endpoint: config.endpoint.value, turns: run.turns, inputTokens: run.usage.input, outputTokens: run.usage.output, toolCalls: run.toolCalls, cacheHits: run.cacheHits, compressionRatio: run.compression.before ? run.compression.after / run.compression.before : null, durationMs: Date.now() - started, exhausted: run.exhausted, cost } });
    }
    const session = top ? await saveTurn({ store: await ctx.store(), id: resumed?.id ?? null, turn: { timestamp: ctx.now().toISOString(), task, answer: run.answer, files: run.files, toolCalls: run.toolCalls, model: config.model.value } }) : null;
    const data = { session: session?.id ?? null, answer: run.answer, turns: run.turns, toolCalls: run.toolCalls, cacheHits: run.cacheHits, usage: run.usage, model: config.model.value, exhausted: run.exhausted };
    const tally = `${run.turns} model call${run.turns === 1 ? '' : 's'}, ${run.toolCalls} tool call${run.toolCalls === 1 ? '' : 's'}, ${run.usage.input} tokens in / ${run.usage.output} out`;
    if (run.exhausted) return { data, text: `stopped after ${tally}: the model had not answered`, exitCode: 1, next: ctx.cmd('agent', '--max-turns', args['max-turns'] * 2, task) };
    return { data, text: `(${tally}${session ? `; session ${session.id}` : ''})`, next: 'git diff --stat', ...(session ? { or: ctx.cmd('agent', '--continue', 'next task') } : {}) };
  },
});
