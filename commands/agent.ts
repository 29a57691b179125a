// forge agent: a thin agent — a model proposing calls of forge's own commands, until the task is done.
import { defineCommand } from '../lib/cli/declare';
import { InvalidInputError } from '../lib/errors';
import { CONFINEMENT_ERRORS } from '../lib/files/workspace';
import { ARGS } from './agent-modes/args';
import { dryRunWithGit } from './agent-modes/dry-run';
import { liveView } from './agent-modes/live-view';
import { mechanicalOutcome } from './agent-modes/mechanical';
import { planModeOutcome } from './agent-modes/plan';
import { listOutcome, rollbackOutcome } from './agent-modes/sessions';
import {
  autoQuick,
  chooseModel,
  continuedSession,
  openTaskAttachments,
  refuseConflicts,
  whereItRuns,
  withGitContext,
} from './agent-modes/setup';
import { taskOutcome } from './agent-modes/task';

export default defineCommand({
  name: 'agent',
  summary: "Run a task with a model and forge's commands as tools",
  description: [
    "Sends the task to an OpenAI-compatible chat endpoint (streaming; Ollama, OpenAI, OpenRouter, vLLM…) with forge's own commands as tools — read, edit, patch, write, search, ls, replace, validate, memory (lean views of their declarations, described for the model; a near-miss argument name such as file_path is taken as path and the result says so) — plus bash (120 s timeout; long output keeps its head, tail and error lines). Each call the model makes runs exactly as the command would on the command line; its hints come back written as tool calls (Next: read {\"path\":\"a.ts\",\"start\":151}). --mechanical does a plain replacement task (replace|rename|change OLD with|to NEW [in PATH, …]) with forge replace and no model call at all. The conventions of AGENTS.md, CLAUDE.md or .forge/conventions.md (forge init) go into the system prompt. A tool call identical to an earlier one (argument order aside), with no write, edit, patch or bash in between, does not run again: the model gets a one-line note naming the turn of the first, and a third identical call ends the run (LOOP_DETECTED); so does an edit that puts a file back as it was earlier in the task for the second time (the first time, the result says so). A re-read of a file unchanged since it was read (same size and mtime) is served from cache. Replies are read for what they are, and a final answer may not hold an action not taken: tool calls an open model writes as text run as calls, in any dialect of forge's table (Hermes/Qwen <tool_call> tags, Qwen3-Coder's <function=…><parameter=…> XML, Llama 3.1's <function=…> and <|python_tag|>, Llama 3.2's pythonic [edit(path=…)], Mistral's [TOOL_CALLS], gpt-oss harmony's to=functions.…<|message|>, FunctionGemma's call:…, Gemma's tool_code, DeepSeek's call tokens, <tool>/<function_call> tags, fenced or bare JSON objects and arrays naming an offered tool, a tool's name followed by its JSON arguments), also when written in the reasoning; a name with a functions. prefix or a control token, arguments encoded twice or under args are read as meant; an edit pasted into the answer (a unified diff, SEARCH/REPLACE blocks, a Codex patch) that is not in the files yet runs through the patch tool; an answer sent only in the reasoning field is the answer. A marked call that cannot be read is neither run nor taken as the answer: the model is asked once to send it again, then the run fails (MODEL_UNREADABLE_CALL). A task asks for a change when its first word, after please / can you and the like, is a verb of change (add, fix, remove, rename, change, update, write, create, refactor…); such a task is not done by an answer alone: with no file changed since the task's checkpoint and no words saying none was needed (already…, no change needed, nothing to change, there are no…, does not exist…), the model is asked once to make the change, then the run fails (TASK_NOT_DONE). A server whose reported prompt tokens fall far below what was sent, at a context size, or fill the whole context forge learned of the model, cut the conversation to fit its context (MODEL_CONTEXT_TRUNCATED: the message names the setting that raises that model's context, the fix a --budget that fits); arguments that are not valid JSON are repaired (trailing commas, single quotes, unquoted keys — jsonrepair) and the result says how they were read, while a cut-off object is refused with the reason and the tool's schema; <think> blocks are shown but never sent back. A reply cut off by the length limit is never used — the model is asked once to send it again, shorter, then the run fails (MODEL_TRUNCATED); an empty reply (Ollama sends one when it drops streamed tool calls) gets one nudge, then fails (MODEL_EMPTY_REPLY). A run that did not finish its task never exits 0. The budget defaults to 12000 tokens, lowered to fit the model's context with room for the reply (a quarter of it, at most 4096): the profile's context_window, else, for an endpoint that needs no API key, what Ollama says (POST /api/show, GET /api/ps: a loaded model's context, else the Modelfile's num_ctx, else Ollama's default of 4096 tokens below 24 GiB of VRAM, which it cuts longer requests to silently); a budget lowered so is said once on stderr, with how to raise the context (with --json also a notice record of kind note). A --budget that cannot fit gets one warning saying how to raise the context (OLLAMA_CONTEXT_LENGTH=N ollama serve) or which budget fits. Before every model call the whole request — messages with their framing (roles, tool call ids and arguments) and the tool schemas, counted as JSON in o200k_base — is brought under --budget tokens, never touching the system prompt or the task: older tool results become one-line stubs, oldest first, in one block down to 75% of the budget (so the next calls only append and a prefix cache stays valid); then long arguments of earlier calls are shortened; then the latest results are cut, saying so; then the oldest turns are dropped. The recall tool gives a compressed result back as the model last saw it: whole, or as far as it had been cut to fit. A budget that cannot hold the system prompt, the task and the schemas (or the latest turn) fails with BUDGET_TOO_SMALL before anything is sent. When the server reports no usage, the tokens are counted here and marked estimated (in the summary, telemetry and forge stats).",
    'The model and endpoint come from --endpoint / --model / --profile / --api-key-env, then FORGE_ENDPOINT / FORGE_MODEL / FORGE_PROFILE, then a profile of ~/.config/forge/config.json, then detection (Ollama on localhost, OPENAI_API_KEY, OPENROUTER_API_KEY); the text output says what was chosen and how to change it. 429, 5xx and stalled streams (no byte for --stall-seconds) are retried with backoff. --quick makes one call without tools. With --json the events stream as NDJSON items — config, text, tool_call, tool_result, compressed, usage, done — before the summary record. --dry-run prints the first request exactly as it would be sent and its size in tokens (o200k_base), without calling the model.',
    "--attach PATH (repeatable) pins a text file to the task: its content goes into the system prompt of every call, read again before each call when its size or mtime changed (so an edit the task makes is what the next call sees), and the budget never compresses it; a budget the system prompt, pinned files, task and schemas cannot hold fails with BUDGET_TOO_SMALL before anything is sent, saying when the pinned files alone are over it (a larger --budget, or fewer files). The session keeps its pinned files: --continue and --session pin them again (one that is gone is left out, with a warning). --image PATH (repeatable) sends a PNG, JPEG, GIF or WebP image with the task as an image_url content part holding a base64 data URL, as the OpenAI chat API and Ollama's take it; each counts as 1000 tokens, and images are the first thing left out of a request over --budget (the compressed record says how many). A model or endpoint that refuses images fails with MODEL_NO_VISION; its fix names a model of the endpoint's list whose name says it takes images, else the task without --image. Both take paths as the file tools do — inside the work tree, never git's own files, regular files — capped at 64 KiB for a pinned file and 5 MiB for an image; an image's type is read from its bytes (IMAGE_UNSUPPORTED otherwise), a pinned file must be text. --detach PATH unpins a file of the session (or the plan) continued. With --plan the pinned files go into the planner's request and every call of every step (a step that runs in its own worktree reads that worktree's copy; the plan's estimate counts them), and the plan keeps them: --resume pins them again (--attach and --detach change them); images go with the planner's request only (a step works from its instruction), so --image does not go with --resume. None of them goes with --mechanical.",
    "Each task appends a line to the telemetry on the state ref (.forge/telemetry/, segments of at most 256 KiB; the task's first 200 characters, model, endpoint, tokens, tool calls, cache hits, duration, cost when the profile has rates); forge stats sums it up. Each task is saved as a turn of a session on the state ref (.forge/agent/sessions/<id>.json: task, answer, files changed); --continue (or --session ID) starts the next task with a summary of the earlier turns of the session, capped at 1,500 characters, newest kept; --list shows the sessions. In a continued session a short reply (yes, ok, go ahead, no, 2) reaches the model with the previous turn's task and answer (a reply_to record says so). --rollback N moves the session's active turn pointer back N turns, deleting nothing: the next --continue builds on the turns before; --rollback -N restores them (until a new turn follows, which keeps them in the file's abandoned list); the hint is the forge undo N that takes their files back; more than there are is ROLLBACK_OUT_OF_RANGE. In a repository the system prompt opens with the git state — branch, git status --short (30 files), the last 5 commits, the staged diff (3,000 bytes; the whole in at most an eighth of the budget) — or, with the profile's \"git_context\": \"tool\", a git_context tool gives it (\"off\": neither); in plan mode the planner's request and each step's calls get it too, read where and when the step starts (a step in its own worktree sees that worktree's state). The text output says what is recorded. Outside a git repository nothing is.",
    'What is recorded is shared with every clone that runs forge state sync, so no secret goes in: the endpoint is recorded (and shown) without user, password, query string or fragment, and every file forge writes on the state ref — telemetry, sessions, agent plans, memory, logs — passes through a redactor that replaces API keys (sk-…, sk-proj-…, sk-ant-…, ghp_…, gho_…, github_pat_…, xoxb-…, AKIA…), Bearer tokens, passwords in URLs, private key blocks and the values of *_KEY=, *_TOKEN=, *SECRET=, *PASSWORD= (or key: value) with a marker such as [REDACTED:openai-key]; the model itself still gets the task as typed. Turn recording off with FORGE_NO_TELEMETRY=1 (or DO_NOT_TRACK=1) and FORGE_NO_SESSIONS=1, or in the profile with "telemetry_disabled": true and "sessions_disabled": true; off wins wherever it is said. A plan (--plan) is always kept on the state ref, redacted: --resume needs it.',
    "With --plan the task is planned first: one call to the planner model (planner_model of the profile, or --planner-model; else the model) returns a JSON module plan — steps with an objective, files, optional symbols, verify commands, doneWhen and dependsOn — checked exactly as forge plan check checks a module plan in .forge/modules/; a plan with errors goes back to the planner once with the findings, a second bad plan is refused (PLAN_INVALID). The plan is shown with an estimate: each step's first request counted in tokens (o200k_base) times the 3 to 6 calls a step usually takes, plus the planning tokens, and dollars when the profile has cost_per_mtok. On a terminal each step is reviewed: a approves it, e adds a note to its instruction, c cancels the plan. --yes approves every step; without a terminal and without --yes the plan is saved as proposed and not run (forge agent --resume --yes runs it).",
    "Each step then runs with a fresh context holding only its instruction, its files as anchored windows (for symbols the planner named, their definitions, found through the symbol index) and the carry-forward summary of the steps done — the files each changed and their top symbols, computed from the files without a model call — and is verified with forge validate (its verify commands and its files) under the plan's run id. A step that fails its check, or whose run hits --max-turns, pauses the plan there; forge agent --resume runs that step again with its failure in the instruction, then the rest. The plan and its progress are on the state ref: .forge/agent/plans/<id>.json, and .forge/agent/plan.md for people (git show refs/forge/state:.forge/agent/plan.md). Every call of the plan — tool calls, preflights, validations — is logged under the plan's id as its run id (or --run-id): forge logs --run-id <plan id>. With --parallel N (or the profile's parallel_steps) steps that share no file and depend on none of each other run at once, up to N, each in its own git worktree of one checkpoint (the work tree's ignored top-level entries linked in), gated and checked there; their changes go into the work tree in step order, each whole or not at all (git apply; the index and HEAD untouched). A step that calls bash or an MCP tool meanwhile stops before the call runs, and one whose changes conflict with an earlier step's is set aside: both run again on their own afterwards, saying why (step_sequential). The worktrees are removed afterwards, on Ctrl-C too. When the plan is made, files that the last 50 commits changed together with a step's files (in 60% of their commits or more) are shown under the step as hints (the step's cochange in the plan record).",
    'Around every run: a checkpoint of the work tree (untracked files included, ignored ones not) on refs/forge/checkpoints before the task and before each plan step — HEAD, the index and the branches untouched; forge undo restores it, forge diff shows what changed since. After the task come the files changed since the checkpoint and a change-impact sweep: symbols whose signature changed or that went away, with their references in files the task did not touch, as warnings. When a plan contract is active (forge plan activate), every tool call passes forge plan preflight first: a hard refusal is reported to the model and the call does not run; a soft one tells the model it may run forge plan ack through bash and repeat the call.',
    'The profile\'s hooks run: on_edit after each write, edit or patch that landed — its output (50 lines at most, 30 s timeout) is appended to that tool result, so the model sees a compiler error at once — and on_step_done, on_task_done, on_session_start, on_session_end. A profile without hooks gets them detected from Cargo.toml, tsconfig.json, go.mod or pyproject.toml/setup.py for the run; they are written into it (all five events, and hooks_detected_from) only with --save-hooks — forge never changes the user\'s config unasked (in a repository with other build files, its own detected hooks serve the run); a hook command the shell cannot find is reported once and not run again in the session; hooks_disabled turns them off; forge hooks list shows them. The profile\'s mcp_servers are started over stdio and their tools offered as <server>__<tool> (forge shows <server>.<tool>; OpenAI and Anthropic refuse dots in tool names); a server that fails to start is skipped with one warning; all are stopped at exit. auto_commit commits the result: "task", a commit per task and per plan step; "plan", a commit per task and one per plan; auto_commit_prefix starts the message.',
    "Model routes: the profile's model_routes name a model per category — deep, standard, quick, search. A plan step runs with its category's model (the planner gives each module a category; missing or unknown is standard), --quick with quick, a task with standard, the planner with deep unless --planner-model or planner_model names one; a category without a route takes standard's, else the model; --model or FORGE_MODEL runs every call on that one model. An MCP server's scope (a list of categories) offers its tools only to calls of those categories. auto_quick: true runs a task of fewer than 20 words that names no file and no plan word as --quick, and says so (an auto_quick record); refactor, implement, plan or several files keep the normal mode with a warning.",
  ].join('\n\n'),
  args: ARGS,
  examples: [
    { command: 'forge agent --dry-run "add a --verbose flag"', description: 'The exact first request and its token count.' },
    {
      command: 'forge agent --dry-run --json "fix the failing test" | jq .fixedTokens',
      description: 'How many tokens every call starts with.',
    },
    { command: 'forge agent --plan --dry-run "add a --verbose flag"', description: 'The request the planner would get.' },
    { command: 'forge agent --resume', description: 'Go on with a plan that paused at a failed step.' },
  ],
  errors: {
    NO_SESSION: 'nothing to continue, or no session with that id',
    ROLLBACK_OUT_OF_RANGE: '--rollback N beyond the turns the session has active (or -N beyond those rolled back), or 0',
    INVALID_ID: 'a --session id or run id that is not 1-128 letters, digits, _ . -',
    MODEL_UNREACHABLE: 'the endpoint does not answer',
    MODEL_NOT_FOUND: 'the endpoint has no such model',
    MODEL_AUTH: 'the API key is missing or refused',
    MODEL_RATE_LIMITED: 'still rate-limited after the retries',
    MODEL_SERVER_ERROR: 'the endpoint kept failing',
    MODEL_STALLED: 'the stream stopped sending',
    NO_MODEL: 'no endpoint configured or detected',
    EMPTY_TASK: 'a blank task',
    BUDGET_TOO_SMALL: 'a --budget that cannot hold the system prompt, the task and the tool schemas, or the latest turn',
    NO_PLAN: 'nothing to resume: no plan, or the plan is done or cancelled',
    STATE_INVALID: 'the session (--session) or the plan (--resume) on the state ref is not one forge can read',
    PLAN_INVALID: "the planner's plan failed forge plan check twice",
    CONFLICTING_ARGUMENTS:
      'flags that do not go together (--plan with --resume, --quick or --continue; --mechanical with any of them; --rollback with a task)',
    NOT_MECHANICAL: 'a --mechanical task that is not a plain replacement',
    NO_MATCH: 'with --mechanical: the text to replace is in no file (nothing was written)',
    ...CONFINEMENT_ERRORS,
    NOT_A_GIT_REPO: 'plan mode outside a git repository',
    MODEL_EMPTY_REPLY: 'the model sent an empty reply twice in a row (after one nudge)',
    MODEL_TRUNCATED: "the model's reply was cut off by the length limit twice in a row (a cut reply is never used)",
    MODEL_UNREADABLE_CALL:
      'the model wrote a <tool_call> forge could not read (cut short, or naming no tool) twice in a row; nothing of it ran',
    LOOP_DETECTED: 'the same tool call a third time with nothing changed in between, or edits that put a file back as it was a second time',
    TASK_NOT_DONE:
      'the task asks for a change and the model answered twice (after one nudge) with no file changed and no reason why none was needed, or pasted an edit with no patch tool to apply it',
    MODEL_CONTEXT_TRUNCATED:
      'the server counted far fewer prompt tokens than were sent: it cut the conversation to fit its context (Ollama does so silently)',
    MODEL_BAD_ENDPOINT: 'the endpoint is not a usable OpenAI-compatible URL',
    MODEL_QUOTA: 'the account is out of quota',
    MODEL_CONTEXT_EXCEEDED: "the request is over the model's context window",
    MODEL_REQUEST_REJECTED: 'the endpoint rejected the request',
    MODEL_NO_VISION: 'an --image sent to a model or endpoint that does not take images',
    ATTACHMENT_TOO_LARGE: 'an --attach file over 64 KiB or an --image over 5 MiB',
    IMAGE_UNSUPPORTED: 'an --image that is not a PNG, JPEG, GIF or WebP image by its bytes',
    FILE_NOT_FOUND: 'no such --attach or --image file',
    IS_A_DIRECTORY: 'an --attach or --image path that is a directory',
    BINARY_FILE: 'an --attach file that is binary (images go with --image)',
    NOT_A_REGULAR_FILE: 'an --attach or --image path that is a FIFO, socket or device',
    NO_MODEL_ENDPOINT: 'no --endpoint, no profile endpoint, and no Ollama found',
    INVALID_ENDPOINT: 'an --endpoint that is not an http(s) URL',
    API_KEY_MISSING: 'the API key variable the endpoint needs is not set',
    INVALID_API_KEY_ENV: 'an api_key_env that is not an environment variable name',
    CONFIG_UNREADABLE: 'the config file cannot be read',
    CONFIG_INVALID: 'the config file is not valid JSON or a key has the wrong shape',
    PROFILE_NOT_CHOSEN: 'several profiles, no "default", and no --profile',
    PROFILE_NOT_FOUND: 'no profile of that name',
    NO_WORK_TREE: 'in a bare repository or inside the git dir',
    AUTO_COMMIT_FAILED: 'auto_commit: git commit failed',
    GIT_BUSY: 'auto_commit: a merge, rebase, cherry-pick, revert or bisect is in progress',
    GIT_FAILED: "with --parallel: git could not make a step's worktree or read its changes",
  },
  exits: {
    0: 'the model answered; with --plan, every step passed its check, or the plan was saved for approval',
    1: "the turn limit ended the run, or the run failed (MODEL_EMPTY_REPLY, MODEL_TRUNCATED, MODEL_UNREADABLE_CALL, LOOP_DETECTED, TASK_NOT_DONE, MODEL_CONTEXT_TRUNCATED); with --plan, a step failed its check (the plan is paused), the plan was cancelled, or the planner's plan was invalid twice",
    2: 'invalid input, or model settings that do not work (unreachable endpoint, unknown model, missing key)',
  },
  env: {
    FORGE_ENDPOINT: 'The endpoint when --endpoint is not given.',
    FORGE_MODEL: 'The model when --model is not given.',
    FORGE_PROFILE: 'The profile of the config file when --profile is not given.',
    FORGE_OLLAMA_URL:
      'Where a first run looks for Ollama (default http://localhost:11434/v1, given 300 ms to answer; an address set here gets 3 s).',
    FORGE_NO_TELEMETRY: 'Set to 1: append nothing to .forge/telemetry/ (like "telemetry_disabled": true in the profile).',
    DO_NOT_TRACK: 'Set to 1: the same as FORGE_NO_TELEMETRY=1.',
    FORGE_NO_SESSIONS: 'Set to 1: save no session turns in .forge/agent/sessions/ (like "sessions_disabled": true in the profile).',
    XDG_CONFIG_HOME: 'Where forge/config.json is (default ~/.config).',
    HTTPS_PROXY: 'The proxy for an https endpoint, as curl reads it (https_proxy too; default: the HTTP one, then ALL_PROXY).',
    HTTP_PROXY:
      'The proxy for an http endpoint (http_proxy too; ALL_PROXY when neither is set). An unreachable endpoint behind one is reported with it.',
    NO_PROXY: 'Hosts reached directly, not through the proxy: comma-separated names, .domains, host:port, or * (no_proxy too).',
  },
  mutates: true,
  mcp: { title: 'Run a task with a model', toolset: 'agent', effect: 'destructive', openWorld: true },
  async run(args, ctx) {
    // The model endpoint as curl would reach it (the Fix of an unreachable one is a curl line); undici loads only here.
    await (await import('../lib/agent/proxy')).useProxiesOf(ctx.env);
    if (args.list) return listOutcome(ctx);
    if (args.rollback !== undefined) return rollbackOutcome(args, ctx);
    if (args.mechanical) return mechanicalOutcome(args, ctx);
    refuseConflicts(args, ctx);
    const task = args.task ?? '';
    if (!args.resume && !task.trim())
      throw new InvalidInputError('EMPTY_TASK', 'which task? give it as the argument', { fix: 'forge agent --help' });
    const { resumed, history, modelTask } = await continuedSession(args, ctx, task);
    const { top, root, resumedPlan, planId, runId, env } = await whereItRuns(args, ctx);
    const attachments = await openTaskAttachments({ args, ctx, task, resumed, resumedPlan });
    const [{ agentTools }, { toolCommands }] = await Promise.all([import('../lib/cli/agent-tools'), import('./agent-modes/tool-commands')]);
    const plainTools = agentTools({ entries: toolCommands, cwd: ctx.cwd, root, env });
    const inRepo = top !== null;
    if (args['dry-run']) return dryRunWithGit({ args, ctx, env, inRepo, tools: plainTools, task: modelTask, root, history, attachments });
    const { config, budget, context } = await chooseModel(args, ctx, env, inRepo);
    const { git, tools: forgeTools } = await withGitContext({
      mode: config.gitContext.value,
      inRepo,
      cwd: ctx.cwd,
      tools: plainTools,
      budget,
    });
    const retry = { stallMs: args['stall-seconds'] * 1000 };
    const view = liveView(ctx);
    const { openWorkbench } = await import('../lib/agent/workbench');
    const bench = await openWorkbench({
      forgeTools,
      config,
      root,
      cwd: ctx.cwd,
      env,
      state: top ? { repo: await ctx.repo(), store: await ctx.store(), runId: runId ?? null, now: ctx.now } : null,
      notice: (n) => ctx.emit({ type: 'notice', kind: n.kind, text: n.text }, n.text),
      // The user's config file is theirs: written only when they asked for it (a question at the
      // start of a run would stand in front of the plan review and of anything scripted on a terminal).
      saveHooks: async () => args['save-hooks'] === true,
    });
    try {
      if (args.plan || args.resume) {
        const planArgs = { task, resumedPlan, planId, runId: runId!, attachments, budget, context };
        return await planModeOutcome({
          args,
          ctx,
          config,
          root,
          env,
          bench,
          retry,
          view,
          plan: planArgs,
          agentTools,
          entries: toolCommands,
        });
      }
      const taskArgs = await autoQuick(args, ctx, config, task);
      return await taskOutcome({
        args: taskArgs,
        ctx,
        task,
        modelTask,
        history,
        git,
        resumed,
        inRepo,
        root,
        config,
        budget,
        context,
        retry,
        bench,
        view,
        attachments,
      });
    } finally {
      const report = await bench.close();
      if (report) await ctx.emit({ type: 'hooks', text: report }, report);
    }
  },
});
