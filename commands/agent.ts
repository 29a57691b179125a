// forge agent: a thin agent — a model proposing calls of forge's own commands, until the task is done.
import { join, relative } from 'node:path';
import { defineCommand, type ArgsOf, type ArgsSpec, type Outcome, type RunContext } from '../lib/cli/declare';
import { InvalidInputError, NotAGitRepoError, RefusedError } from '../lib/errors';
import { workTreeRoot } from '../lib/git/repo';
import type { AgentEvent, AgentRun } from '../lib/agent/agent';
import type { Attachments } from '../lib/agent/attach';
import type { RetryPolicy } from '../lib/agent/chat';
import { ModelError } from '../lib/agent/chat-failures';
import type { GitContextMode, ModelConfig } from '../lib/agent/config-types';
import type { ModelContext } from '../lib/agent/context';
import { describeEvent } from '../lib/agent/events';
import { PLAN_MARKDOWN, type AgentPlan } from '../lib/agent/plan';
import type { PlanModeEnd } from '../lib/agent/plan-mode';
import { emitSweep, hooksThenCommit } from '../lib/agent/report';
import type { AgentSession } from '../lib/agent/sessions';
import type { AgentTools } from '../lib/agent/tools';
import type { Workbench } from '../lib/agent/workbench';
import { CONFINEMENT_ERRORS } from '../lib/files/workspace';

const ARGS = {
  task: {
    type: 'string',
    tool: '',
    positional: true,
    rest: true,
    placeholder: 'TASK',
    description: 'What the model is to do, in plain words (the words after the options are joined: quoting is optional).',
  },
  endpoint: {
    type: 'string',
    placeholder: 'URL',
    tool: 'API URL',
    description: 'The OpenAI-compatible API base URL, e.g. http://localhost:11434/v1.',
  },
  model: {
    type: 'string',
    placeholder: 'NAME',
    tool: '',
    description:
      "The model, as the endpoint names it (ollama list, or the provider's model id); else FORGE_MODEL, the profile's model, or one detected.",
  },
  profile: {
    type: 'string',
    placeholder: 'NAME',
    tool: '',
    description:
      'A profile of ~/.config/forge/config.json (endpoint, model, budget, hooks, MCP servers…); else FORGE_PROFILE, else the default one.',
  },
  'api-key-env': {
    type: 'string',
    placeholder: 'VAR',
    tool: 'Key env var',
    description: 'The environment variable that holds the API key (its name, never the key itself), e.g. OPENROUTER_API_KEY.',
  },
  'max-turns': {
    type: 'integer',
    min: 1,
    max: 500,
    default: 30,
    placeholder: 'N',
    tool: 'Max model calls',
    description: 'Stop after N model calls (per plan step with --plan); a run stopped by it did not finish and exits 1.',
  },
  quick: {
    type: 'boolean',
    alias: 'q',
    tool: 'One call, no tools',
    description: 'Ask the model once, without tools: for a question, not a change.',
  },
  'stall-seconds': {
    type: 'integer',
    min: 1,
    default: 120,
    placeholder: 'S',
    tool: 'Stall timeout',
    description: 'A streamed reply that sends no byte for S seconds is given up and retried, with backoff.',
  },
  budget: {
    type: 'integer',
    min: 500,
    placeholder: 'TOKENS',
    tool: 'Token budget',
    description:
      "The most tokens one request may hold, schemas and framing included (default 12000, lowered to fit the model's context); older tool results are compressed to stay under it.",
  },
  'dry-run': {
    type: 'boolean',
    tool: 'Print the request only',
    description: 'Print the first request exactly as it would be sent, and its size in tokens, without calling the model.',
  },
  continue: {
    type: 'boolean',
    alias: 'c',
    tool: 'Continue last session',
    description: "Start with a summary of the most recent session's turns (on the state ref), and add this task to it.",
  },
  session: { type: 'string', placeholder: 'ID', tool: '', description: 'Continue this session (an id from --list).' },
  list: { type: 'boolean', tool: '', description: 'List the sessions on the state ref.' },
  rollback: {
    type: 'integer',
    min: -500,
    max: 500,
    placeholder: 'N',
    personOnly: true,
    description:
      'Move the session back N turns (the most recent session, or --session ID): a later --continue builds on the turns before them. Nothing is deleted; --rollback -N restores N rolled-back turns, until a new turn follows them. forge undo takes the files back.',
  },
  plan: {
    type: 'boolean',
    alias: 'p',
    tool: 'Plan first',
    description:
      'Have the planner model write a module plan first, review it, then run each step in a fresh context, verified by forge validate.',
  },
  resume: {
    type: 'boolean',
    tool: 'Resume the plan',
    description: 'Go on with the newest plan that paused (a failed step, or one saved without approval): that step again, then the rest.',
  },
  yes: { type: 'boolean', alias: 'y', tool: 'Approve every step', description: 'Approve every step of the plan without asking.' },
  'planner-model': {
    type: 'string',
    placeholder: 'NAME',
    tool: '',
    description: "The model that writes the plan (default: the profile's planner_model, else the model).",
  },
  parallel: {
    type: 'integer',
    min: 1,
    max: 8,
    placeholder: 'N',
    personOnly: true,
    description:
      "With --plan: run up to N steps at once when they share no file and none depends on another, each in its own git worktree, merged back in step order (default: the profile's parallel_steps, else 1).",
  },
  'save-hooks': {
    type: 'boolean',
    personOnly: true,
    description:
      'Write the hooks detected in this repository into the profile of the config file (all five events), so later runs find them there; without it they serve this run only.',
  },
  attach: {
    type: 'array',
    placeholder: 'PATH',
    tool: '',
    description:
      'Pin these files (repeat the flag): their current content is in the system prompt of every call, read again when it changes, never compressed; --continue keeps them.',
  },
  detach: {
    type: 'array',
    placeholder: 'PATH',
    personOnly: true,
    description: 'Unpin these files of the session continued (--continue, --session): this task and the next go without them.',
  },
  image: {
    type: 'array',
    placeholder: 'PATH',
    tool: '',
    description:
      'Send these images with the task, as image_url parts (base64 data URLs), for a vision model; the first thing left out when a request is over --budget.',
  },
  mechanical: {
    type: 'boolean',
    tool: '',
    description: 'A plain replacement ("replace X with Y in src/"), done by forge replace with no model call.',
  },
} as const satisfies ArgsSpec;

export default defineCommand({
  name: 'agent',
  summary: "Run a task with a model and forge's commands as tools",
  description: [
    "Sends the task to an OpenAI-compatible chat endpoint (streaming; Ollama, OpenAI, OpenRouter, vLLM…) with forge's own commands as tools — read, edit, patch, write, search, ls, replace, validate, memory (lean views of their declarations, described for the model; a near-miss argument name such as file_path is taken as path and the result says so) — plus bash (120 s timeout; long output keeps its head, tail and error lines). Each call the model makes runs exactly as the command would on the command line; its hints come back written as tool calls (Next: read {\"path\":\"a.ts\",\"start\":151}). --mechanical does a plain replacement task (replace|rename|change OLD with|to NEW [in PATH, …]) with forge replace and no model call at all. The conventions of AGENTS.md, CLAUDE.md or .forge/conventions.md (forge init) go into the system prompt. A tool call identical to an earlier one (argument order aside), with no write, edit, patch or bash in between, does not run again: the model gets a one-line note naming the turn of the first, and a third identical call ends the run (LOOP_DETECTED); so does an edit that puts a file back as it was earlier in the task for the second time (the first time, the result says so). A re-read of a file unchanged since it was read (same size and mtime) is served from cache. Replies are read for what they are, and a final answer may not hold an action not taken: tool calls an open model writes as text run as calls, in any dialect of forge's table (Hermes/Qwen <tool_call> tags, Qwen3-Coder's <function=…><parameter=…> XML, Llama 3.1's <function=…> and <|python_tag|>, Llama 3.2's pythonic [edit(path=…)], Mistral's [TOOL_CALLS], gpt-oss harmony's to=functions.…<|message|>, FunctionGemma's call:…, Gemma's tool_code, DeepSeek's call tokens, <tool>/<function_call> tags, fenced or bare JSON objects and arrays naming an offered tool, a tool's name followed by its JSON arguments), also when written in the reasoning; a name with a functions. prefix or a control token, arguments encoded twice or under args are read as meant; an edit pasted into the answer (a unified diff, SEARCH/REPLACE blocks, a Codex patch) that is not in the files yet runs through the patch tool; an answer sent only in the reasoning field is the answer. A marked call that cannot be read is neither run nor taken as the answer: the model is asked once to send it again, then the run fails (MODEL_UNREADABLE_CALL). A task asks for a change when its first word, after please / can you and the like, is a verb of change (add, fix, remove, rename, change, update, write, create, refactor…); such a task is not done by an answer alone: with no file changed since the task's checkpoint and no words saying none was needed (already…, no change needed, nothing to change, there are no…, does not exist…), the model is asked once to make the change, then the run fails (TASK_NOT_DONE). A server whose reported prompt tokens fall far below what was sent, at a context size, or fill the whole context forge learned of the model, cut the conversation to fit its context (MODEL_CONTEXT_TRUNCATED: the message names the setting that raises that model's context, the fix a --budget that fits); arguments that are not valid JSON are repaired (trailing commas, single quotes, unquoted keys — jsonrepair) and the result says how they were read, while a cut-off object is refused with the reason and the tool's schema; <think> blocks are shown but never sent back. A reply cut off by the length limit is never used — the model is asked once to send it again, shorter, then the run fails (MODEL_TRUNCATED); an empty reply (Ollama sends one when it drops streamed tool calls) gets one nudge, then fails (MODEL_EMPTY_REPLY). A run that did not finish its task never exits 0. The budget defaults to 12000 tokens, lowered to fit the model's context with room for the reply (a quarter of it, at most 4096): the profile's context_window, else, for an endpoint that needs no API key, what Ollama says (POST /api/show, GET /api/ps: a loaded model's context, else the Modelfile's num_ctx, else Ollama's default of 4096 tokens below 24 GiB of VRAM, which it cuts longer requests to silently); a budget lowered so is said once on stderr, with how to raise the context (with --json also a notice record of kind note). A --budget that cannot fit gets one warning saying how to raise the context (OLLAMA_CONTEXT_LENGTH=N ollama serve) or which budget fits. Before every model call the whole request — messages with their framing (roles, tool call ids and arguments) and the tool schemas, counted as JSON in o200k_base — is brought under --budget tokens, never touching the system prompt or the task: older tool results become one-line stubs, oldest first, in one block down to 75% of the budget (so the next calls only append and a prefix cache stays valid); then long arguments of earlier calls are shortened; then the latest results are cut, saying so; then the oldest turns are dropped. The recall tool gives a compressed result back as the model last saw it: whole, or as far as it had been cut to fit. A budget that cannot hold the system prompt, the task and the schemas (or the latest turn) fails with BUDGET_TOO_SMALL before anything is sent. When the server reports no usage, the tokens are counted here and marked estimated (in the summary, telemetry and forge stats).",
    'The model and endpoint come from --endpoint / --model / --profile / --api-key-env, then FORGE_ENDPOINT / FORGE_MODEL / FORGE_PROFILE, then a profile of ~/.config/forge/config.json, then detection (Ollama on localhost, OPENAI_API_KEY, OPENROUTER_API_KEY); the text output says what was chosen and how to change it. 429, 5xx and stalled streams (no byte for --stall-seconds) are retried with backoff. --quick makes one call without tools. With --json the events stream as NDJSON items — config, text, tool_call, tool_result, compressed, usage, done — before the summary record. --dry-run prints the first request exactly as it would be sent and its size in tokens (o200k_base), without calling the model.',
    "--attach PATH (repeatable) pins a text file to the task: its content goes into the system prompt of every call, read again before each call when its size or mtime changed (so an edit the task makes is what the next call sees), and the budget never compresses it; a budget the system prompt, pinned files, task and schemas cannot hold fails with BUDGET_TOO_SMALL before anything is sent, saying when the pinned files alone are over it (a larger --budget, or fewer files). The session keeps its pinned files: --continue and --session pin them again (one that is gone is left out, with a warning). --image PATH (repeatable) sends a PNG, JPEG, GIF or WebP image with the task as an image_url content part holding a base64 data URL, as the OpenAI chat API and Ollama's take it; each counts as 1000 tokens, and images are the first thing left out of a request over --budget (the compressed record says how many). A model or endpoint that refuses images fails with MODEL_NO_VISION; its fix names a model of the endpoint's list whose name says it takes images, else the task without --image. Both take paths as the file tools do — inside the work tree, never git's own files, regular files — capped at 64 KiB for a pinned file and 5 MiB for an image; an image's type is read from its bytes (IMAGE_UNSUPPORTED otherwise), a pinned file must be text. --detach PATH unpins a file of the session (or the plan) continued. With --plan the pinned files go into the planner's request and every call of every step (a step that runs in its own worktree reads that worktree's copy; the plan's estimate counts them), and the plan keeps them: --resume pins them again (--attach and --detach change them); images go with the planner's request only (a step works from its instruction), so --image does not go with --resume. None of them goes with --mechanical.",
    "Each task appends a line to the telemetry on the state ref (.forge/telemetry/, segments of at most 256 KiB; the task's first 200 characters, model, endpoint, tokens, tool calls, cache hits, duration, cost when the profile has rates); forge stats sums it up. Each task is saved as a turn of a session on the state ref (.forge/agent/sessions/<id>.json: task, answer, files changed); --continue (or --session ID) starts the next task with a summary of the earlier turns of the session, capped at 1,500 characters, newest kept; --list shows the sessions. In a continued session a short reply (yes, ok, go ahead, no, 2) reaches the model with the previous turn's task and answer (a reply_to record says so). --rollback N moves the session's active turn pointer back N turns, deleting nothing: the next --continue builds on the turns before; --rollback -N restores them (until a new turn follows, which keeps them in the file's abandoned list); the hint is the forge undo N that takes their files back; more than there are is ROLLBACK_OUT_OF_RANGE. In a repository the system prompt opens with the git state — branch, git status --short (30 files), the last 5 commits, the staged diff (3,000 bytes; the whole in at most an eighth of the budget) — or, with the profile's \"git_context\": \"tool\", a git_context tool gives it (\"off\": neither); in plan mode the planner's request and each step's calls get it too, read where and when the step starts (a step in its own worktree sees that worktree's state). The text output says what is recorded. Outside a git repository nothing is.",
    'What is recorded is shared with every clone that runs forge state sync, so no secret goes in: the endpoint is recorded (and shown) without user, password, query string or fragment, and every file forge writes on the state ref — telemetry, sessions, agent plans, memory, logs — passes through a redactor that replaces API keys (sk-…, sk-proj-…, sk-ant-…, ghp_…, gho_…, github_pat_…, xoxb-…, AKIA…), Bearer tokens, passwords in URLs, private key blocks and the values of *_KEY=, *_TOKEN=, *SECRET=, *PASSWORD= (or key: value) with a marker such as [REDACTED:openai-key]; the model itself still gets the task as typed. Turn recording off with FORGE_NO_TELEMETRY=1 (or DO_NOT_TRACK=1) and FORGE_NO_SESSIONS=1, or in the profile with "telemetry_disabled": true and "sessions_disabled": true; off wins wherever it is said. A plan (--plan) is always kept on the state ref, redacted: --resume needs it.',
    "With --plan the task is planned first: one call to the planner model (planner_model of the profile, or --planner-model; else the model) returns a JSON module plan — steps with an objective, files, optional symbols, verify commands, doneWhen and dependsOn — checked exactly as forge plan check checks .forge/plans/*.json; a plan with errors goes back to the planner once with the findings, a second bad plan is refused (PLAN_INVALID). The plan is shown with an estimate: each step's first request counted in tokens (o200k_base) times the 3 to 6 calls a step usually takes, plus the planning tokens, and dollars when the profile has cost_per_mtok. On a terminal each step is reviewed: a approves it, e adds a note to its instruction, c cancels the plan. --yes approves every step; without a terminal and without --yes the plan is saved as proposed and not run (forge agent --resume --yes runs it).",
    "Each step then runs with a fresh context holding only its instruction, its files as anchored windows (for symbols the planner named, their definitions, found through the symbol index) and the carry-forward summary of the steps done — the files each changed and their top symbols, computed from the files without a model call — and is verified with forge validate (its verify commands and its files) under the plan's run id. A step that fails its check, or whose run hits --max-turns, pauses the plan there; forge agent --resume runs that step again with its failure in the instruction, then the rest. The plan and its progress are on the state ref: .forge/agent/plans/<id>.json, and .forge/plan.md for people (git show refs/forge/state:.forge/plan.md). Every call of the plan — tool calls, preflights, validations — is logged under the plan's id as its run id (or --run-id): forge logs --run-id <plan id>. With --parallel N (or the profile's parallel_steps) steps that share no file and depend on none of each other run at once, up to N, each in its own git worktree of one checkpoint (the work tree's ignored top-level entries linked in), gated and checked there; their changes go into the work tree in step order, each whole or not at all (git apply; the index and HEAD untouched). A step that calls bash or an MCP tool meanwhile stops before the call runs, and one whose changes conflict with an earlier step's is set aside: both run again on their own afterwards, saying why (step_sequential). The worktrees are removed afterwards, on Ctrl-C too. When the plan is made, files that the last 50 commits changed together with a step's files (in 60% of their commits or more) are shown under the step as hints (the step's cochange in the plan record).",
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
    (await import('../lib/agent/proxy')).useProxiesOf(ctx.env);
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
    const [{ agentTools }, { entries }] = await Promise.all([import('../lib/cli/agent-tools'), import('./index')]);
    const plainTools = agentTools({ entries, cwd: ctx.cwd, root, env });
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
        return await planModeOutcome({ args, ctx, config, root, env, bench, retry, view, plan: planArgs, agentTools, entries });
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

type Args = ArgsOf<typeof ARGS>;

/** Plan mode (--plan, --resume): the planner and every step get the git context the profile asks for, where and when each runs, and the pinned files. */
async function planModeOutcome({
  args,
  ctx,
  config,
  root,
  env,
  bench,
  retry,
  view,
  plan,
  agentTools,
  entries,
}: {
  args: Args;
  ctx: RunContext;
  config: ModelConfig;
  root: string;
  env: NodeJS.ProcessEnv;
  bench: Workbench;
  retry: Partial<RetryPolicy>;
  view: ReturnType<typeof liveView>;
  plan: {
    task: string;
    resumedPlan: AgentPlan | null;
    planId: string;
    runId: string;
    attachments: Attachments | undefined;
    budget: number;
    context: ModelContext | null;
  };
  agentTools: typeof import('../lib/cli/agent-tools').agentTools;
  entries: Parameters<typeof import('../lib/cli/agent-tools').agentTools>[0]['entries'];
}): Promise<Outcome> {
  const [{ runPlanMode }, { gitContext }, { gitContextTool, mergeTools }] = await Promise.all([
    import('../lib/agent/plan-mode'),
    import('../lib/git/context'),
    import('../lib/agent/tools'),
  ]);
  const mode = config.gitContext.value;
  // With git_context "tool", a step in its own worktree gets the tool reading that worktree.
  const gitToolAt = (tools: AgentTools, cwd: string) =>
    mode === 'tool' ? mergeTools(tools, gitContextTool({ cwd, read: (at) => gitContext({ cwd: at }) })) : tools;
  const { task, resumedPlan, planId, runId, attachments, budget, context } = plan;
  const end = await runPlanMode({
    args: {
      task,
      resume: resumedPlan,
      planId,
      runId,
      yes: args.yes,
      maxTurns: args['max-turns'],
      budget,
      modelContext: context,
      parallel: args.parallel ?? config.parallelSteps.value,
      ...(attachments ? { attachments } : {}),
      ...(mode === 'preamble' ? { gitAt: (cwd: string) => gitContext({ cwd, maxChars: budget / 2 }) } : {}),
    },
    io: ctx,
    repo: await ctx.repo(),
    store: await ctx.store(),
    cwd: ctx.cwd,
    config,
    root,
    env,
    bench,
    retry,
    onEvent: view.onEvent,
    // A step that runs at once with others works in its own worktree: the same tools, at that worktree.
    toolsAt: (dir) => gitToolAt(agentTools({ entries, cwd: join(dir, relative(root, ctx.cwd)), root: dir, env }), dir),
  }).catch((err: unknown) => {
    throw noVisionFix({ err, args, ctx, task, session: null, planner: true });
  });
  return planOutcome(end, ctx);
}

/**
 * The session a task continues (--continue, --session), its summary, and the task as the model gets
 * it: "yes" in a continued session answers the previous turn, so that turn goes with it.
 */
async function continuedSession(
  args: Args,
  ctx: RunContext,
  task: string,
): Promise<{ resumed: AgentSession | null; history: string | undefined; modelTask: string }> {
  if (!args.continue && args.session === undefined) return { resumed: null, history: undefined, modelTask: task };
  const { activeCount, findSession, replyInContext, sessionSummary } = await import('../lib/agent/sessions');
  const resumed = await findSession({ store: await ctx.store(), id: args.session ?? null });
  const reply = replyInContext(task, resumed);
  if (reply)
    await ctx.emit(
      { type: 'reply_to', session: resumed.id, turn: reply.turn },
      `'${task.trim()}' read as the reply to turn ${reply.turn} of session ${resumed.id}: the model gets that turn with it`,
    );
  // A session rolled back to its start has nothing to summarise: the task starts afresh in it.
  return { resumed, history: activeCount(resumed) ? sessionSummary(resumed) : undefined, modelTask: reply?.text ?? task };
}

/** The git context as the profile asks: the preamble's text, or the git_context tool added to forge's tools (outside a repository, neither). */
async function withGitContext({
  mode,
  inRepo,
  cwd,
  tools,
  budget,
}: {
  mode: GitContextMode;
  inRepo: boolean;
  cwd: string;
  tools: AgentTools;
  budget: number;
}): Promise<{ git: string | null; tools: AgentTools }> {
  if (!inRepo || mode === 'off') return { git: null, tools };
  const { gitContext } = await import('../lib/git/context');
  // The preamble is never compressed: at most an eighth of the budget (about 4 characters a token).
  if (mode === 'preamble') return { git: await gitContext({ cwd, maxChars: budget / 2 }), tools };
  const { gitContextTool, mergeTools } = await import('../lib/agent/tools');
  return { git: null, tools: mergeTools(tools, gitContextTool({ cwd, read: (at) => gitContext({ cwd: at }) })) };
}

/** --list: the sessions on the state ref, newest first. */
async function listOutcome(ctx: RunContext): Promise<Outcome> {
  const { activeCount, listSessions, SESSIONS_DIR } = await import('../lib/agent/sessions');
  const sessions = await listSessions({ store: await ctx.store(), warn: (text) => ctx.warn(text) });
  for (const x of sessions)
    await ctx.emit(
      { type: 'session', id: x.id, updatedAt: x.updatedAt, turns: x.turns.length, active: activeCount(x), first: x.turns[0]?.task ?? '' },
      `${x.id}  ${x.updatedAt}  ${x.turns.length} turn${x.turns.length === 1 ? '' : 's'}${activeCount(x) < x.turns.length ? ` (${x.turns.length - activeCount(x)} rolled back)` : ''}  ${(x.turns[0]?.task ?? '').slice(0, 60)}`,
    );
  return {
    data: { sessions: sessions.length },
    text: sessions.length ? `${sessions.length} session${sessions.length === 1 ? '' : 's'}` : 'no forge agent sessions yet',
    next: sessions.length ? ctx.cmd('state', 'show', `${SESSIONS_DIR}/${sessions[0]!.id}.json`) : null,
  };
}

/**
 * --rollback N: the session's active pointer N turns back (or forward, for -N), nothing deleted; the
 * hint names the forge undo that takes the rolled-back turns' files back, when their checkpoint is still kept.
 */
async function rollbackOutcome(args: Args, ctx: RunContext): Promise<Outcome> {
  const n = args.rollback!;
  const extra = args.task?.trim()
    ? 'task'
    : args.plan || args.resume
      ? '--plan or --resume'
      : args.quick || args.mechanical || args['dry-run']
        ? '--quick, --mechanical or --dry-run'
        : null;
  const onSession = args.session !== undefined ? ['--session', args.session] : [];
  const command = (k: number) => ctx.cmd('agent', '--rollback', k, ...onSession);
  if (extra)
    throw new InvalidInputError('CONFLICTING_ARGUMENTS', `--rollback moves a session's turns and runs nothing: it takes no ${extra}`, {
      fix: command(n),
    });
  const { findSession, rollbackSession, SESSIONS_DIR } = await import('../lib/agent/sessions');
  const store = await ctx.store();
  const session = await findSession({ store, id: args.session ?? null });
  const show = ctx.cmd('state', 'show', `${SESSIONS_DIR}/${session.id}.json`);
  const r = await rollbackSession({ store, session, n, now: ctx.now(), command, show });
  const first = Math.min(r.before, r.after) + 1;
  const listed = r.moved.map((t, i) => ({ turn: first + i, task: t.task, files: t.files }));
  for (const t of listed)
    await ctx.emit(
      { type: n > 0 ? 'rolled_back' : 'restored', ...t },
      `  turn ${t.turn}: ${t.task.replace(/\s+/g, ' ').slice(0, 70)}${t.files.length ? ` (${t.files.join(', ')})` : ''}`,
    );
  const turns = (k: number) => `${k} turn${k === 1 ? '' : 's'}`;
  const state = `${r.after} of ${r.session.turns.length} active`;
  const data = { session: session.id, active: r.after, turns: r.session.turns.length, moved: listed.length };
  if (n < 0)
    return {
      data,
      text: `session ${session.id}: restored ${turns(listed.length)} (${state}); the files are as they are now`,
      next: show,
      or: command(listed.length),
    };
  // The checkpoint before the earliest rolled-back turn holds the files as they were before it.
  const undo = await undoCommand({ ctx, turns: r.moved });
  return {
    data: { ...data, undo },
    text: `session ${session.id}: rolled back ${turns(listed.length)} (${state}); nothing is deleted: ${command(-listed.length)} restores ${listed.length === 1 ? 'it' : 'them'}${undo ? `; ${undo} takes ${listed.length === 1 ? 'its' : 'their'} files back` : ''}`,
    next: undo ?? show,
    or: command(-listed.length),
  };
}

/** The forge undo that restores the files as they were before these turns: their first checkpoint, by its number now; null when they changed no file. */
async function undoCommand({ ctx, turns }: { ctx: RunContext; turns: AgentSession['turns'] }): Promise<string | null> {
  if (!turns.some((t) => t.files.length)) return null;
  const oid = turns.find((t) => t.checkpoint)?.checkpoint;
  const { listCheckpoints } = await import('../lib/git/checkpoint');
  const kept = oid ? (await listCheckpoints({ cwd: ctx.cwd }).catch(() => [])).find((c) => c.oid === oid && c.n !== null) : undefined;
  return kept ? ctx.cmd('undo', kept.n!) : ctx.cmd('undo', '--list');
}

/** --mechanical: seed 004's mechanical mode — no model, no checkpoint of its own; forge replace writes all files or none. */
async function mechanicalOutcome(args: Args, ctx: RunContext): Promise<Outcome> {
  if (
    args.plan ||
    args.resume ||
    args.quick ||
    args.continue ||
    args.session !== undefined ||
    args.attach.length ||
    args.image.length ||
    args.detach.length
  )
    throw new InvalidInputError(
      'CONFLICTING_ARGUMENTS',
      '--mechanical runs no model: it goes with no --plan, --resume, --quick, --continue, --session, --attach or --image',
      {
        fix: args.task?.trim() ? ctx.cmd('agent', '--mechanical', args.task) : 'forge agent --help',
      },
    );
  const { parseMechanical } = await import('../lib/agent/mechanical');
  const m = parseMechanical(args.task ?? '');
  if (!m)
    throw new InvalidInputError(
      'NOT_MECHANICAL',
      `'${(args.task ?? '').slice(0, 80)}' is not a plain replacement: --mechanical reads "replace|rename|change OLD with|to NEW [in PATH, …]"`,
      { fix: args.task?.trim() ? ctx.cmd('agent', args.task) : 'forge agent --help' },
    );
  const { default: replace } = await import('./replace');
  return replace.run(
    { old: m.old, new: m.replacement, paths: m.paths, glob: m.glob, regex: false, 'ignore-case': false, check: false },
    ctx,
  );
}

function refuseConflicts(args: Args, ctx: RunContext): void {
  const conflict =
    args.plan && args.resume
      ? '--plan and --resume'
      : (args.plan || args.resume) && args.quick
        ? '--quick with a plan'
        : (args.plan || args.resume) && (args.continue || args.session !== undefined)
          ? '--continue/--session with a plan'
          : args.resume && args.image.length
            ? "--image with --resume (images go with the planner's request only)"
            : args.parallel !== undefined && !args.plan && !args.resume
              ? '--parallel without --plan or --resume'
              : null;
  if (conflict)
    throw new InvalidInputError('CONFLICTING_ARGUMENTS', `${conflict} do not go together`, {
      fix: args.resume ? ctx.cmd('agent', '--resume') : args.task?.trim() ? ctx.cmd('agent', '--plan', args.task) : 'forge agent --help',
    });
}

/**
 * Where the task runs: the work tree's top (null outside git), the plan to resume, and the run id
 * its calls are logged under — a run id given (flag or FORGE_RUN_ID), else a plan's own id.
 */
async function whereItRuns(args: Args, ctx: RunContext) {
  const top = await workTreeRoot({ cwd: ctx.cwd });
  const root = top?.root ?? ctx.cwd;
  if ((args.plan || args.resume) && !top && !args['dry-run'])
    throw new NotAGitRepoError(ctx.cwd, { why: 'plan mode keeps its plan on the state ref' });
  // A plan to resume is looked up before the model settings, so "nothing to resume" is the answer.
  const { newPlanId, resumablePlan } = await import('../lib/agent/plan');
  const resumedPlan = args.resume && top ? await resumablePlan({ store: await ctx.store() }) : null;
  const planId = newPlanId(ctx.now());
  const runId = resumedPlan?.runId ?? ctx.runId ?? (args.plan && !args['dry-run'] ? planId : undefined);
  const env = runId ? { ...ctx.env, FORGE_RUN_ID: runId } : ctx.env;
  return { top, root, resumedPlan, planId, runId, env };
}

/** --dry-run: the first request (the planner's with --plan) exactly as it would be sent, and its size. */
/** --dry-run: the first request with the git context the profile asks for, sized against --budget (or the default). */
async function dryRunWithGit({
  args,
  ctx,
  env,
  inRepo,
  tools,
  task,
  root,
  history,
  attachments,
}: {
  args: Args;
  ctx: RunContext;
  env: NodeJS.ProcessEnv;
  inRepo: boolean;
  tools: AgentTools;
  task: string;
  root: string;
  history: string | undefined;
  attachments: Attachments | undefined;
}): Promise<Outcome> {
  const [{ resolveAgentSettings }, { DEFAULT_BUDGET }] = await Promise.all([
    import('../lib/agent/config-resolve'),
    import('../lib/agent/context'),
  ]);
  const settings = await resolveAgentSettings({ flags: { profile: args.profile }, env });
  const budget = args.budget ?? DEFAULT_BUDGET;
  const dry = await withGitContext({ mode: settings.gitContext.value, inRepo, cwd: ctx.cwd, tools, budget });
  return dryRunOutcome({ plan: args.plan, task, root, history, git: dry.git, tools: dry.tools, ctx, attachments });
}

async function dryRunOutcome({
  plan,
  task,
  root,
  history,
  git,
  tools,
  ctx,
  attachments,
}: {
  plan: boolean;
  task: string;
  root: string;
  history: string | undefined;
  git: string | null;
  tools: AgentTools;
  ctx: RunContext;
  attachments: Attachments | undefined;
}): Promise<Outcome> {
  const { requestTokens } = await import('../lib/agent/context');
  if (plan) {
    const { plannerMessages } = await import('../lib/agent/planner');
    const messages = await plannerMessages({
      task,
      root,
      git,
      ...(attachments ? { pinned: attachments.pinned, images: attachments.images } : {}),
    });
    const tokens = await requestTokens({ messages });
    return {
      data: { request: { messages }, tokens },
      text: `${JSON.stringify({ messages }, null, 2)}\n${tokens} tokens (o200k_base): the planner's request`,
      next: ctx.cmd('agent', '--plan', task),
    };
  }
  const { firstRequest, fixedPromptTokens } = await import('../lib/agent/agent');
  const request = await firstRequest({ task, root, history, git, tools, attachments });
  const fixed = await fixedPromptTokens(request.tools);
  const tokens = await requestTokens(request);
  return {
    data: { request, tokens, fixedTokens: fixed },
    text: `${JSON.stringify(request, null, 2)}\n${tokens} tokens (o200k_base), ${fixed} of them the fixed prompt (system prompt and tool schemas, without conventions)`,
    next: ctx.cmd('agent', task),
  };
}

/** The model, endpoint and budget for this run, each said as it was chosen. */
async function chooseModel(
  args: Args,
  ctx: RunContext,
  env: NodeJS.ProcessEnv,
  inRepo: boolean,
): Promise<{ config: ModelConfig; budget: number; context: ModelContext | null }> {
  const [{ describeModelConfig, describeRecording }, { modelContext }, { resolveModelConfig }] = await Promise.all([
    import('../lib/agent/config-describe'),
    import('../lib/agent/config-probes'),
    import('../lib/agent/config-resolve'),
  ]);
  const config = await resolveModelConfig({
    flags: {
      endpoint: args.endpoint,
      model: args.model,
      profile: args.profile,
      apiKeyEnv: args['api-key-env'],
      plannerModel: args['planner-model'],
    },
    env,
  });
  if (config.firstRun)
    await ctx.emit(
      { type: 'config', line: 'first run: no model chosen by a profile, flag or FORGE_* setting' },
      `first run: no profile in ${config.configPath} sets a model, so forge chose for you; set endpoint and model in a profile there, or pass --endpoint/--model, to choose`,
    );
  for (const line of describeModelConfig(config)) await ctx.emit({ type: 'config', line }, `using ${line}`);
  if (inRepo) {
    const recording = describeRecording(config, args.plan || args.resume ? ['telemetry'] : undefined);
    await ctx.emit({ type: 'config', line: recording }, recording);
  }
  const { chooseBudget } = await import('../lib/agent/context');
  const context = await modelContext({ config });
  const { budget, warning, note } = chooseBudget({ flag: args.budget, context });
  // On stderr, where a person sees it whatever the output; with --json also a record in the stream.
  for (const [kind, text] of [
    ['warning', warning],
    ['note', note],
  ] as const) {
    if (!text) continue;
    await ctx.warn(text);
    await ctx.emit({ type: 'notice', kind, text }, '');
  }
  return { config, budget, context };
}

/** auto_quick: a short question goes to quick mode; the decision is said either way, as a warning when the task looks like a change. */
async function autoQuick(args: Args, ctx: RunContext, config: ModelConfig, task: string): Promise<Args> {
  if (!config.autoQuick.value || args.quick || args.plan || args.resume) return args;
  const { quickDecision } = await import('../lib/agent/routes');
  const d = quickDecision(task);
  await ctx.emit(
    { type: 'auto_quick', quick: d.quick, reason: d.reason, warning: d.warning },
    `${d.warning ? 'warning: ' : ''}auto_quick: ${d.quick ? 'quick mode' : 'not quick'}: ${d.reason}`,
  );
  return d.quick ? { ...args, quick: true } : args;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** How a run is shown as it goes: on a terminal a spinner while the model thinks and its text as it streams in; each event as its record or line. */
function liveView(ctx: RunContext) {
  let spinner: NodeJS.Timeout | null = null;
  let shown = Promise.resolve();
  let streamedText = false;
  const quiet = async () => {
    if (!spinner) return;
    clearInterval(spinner);
    spinner = null;
    await ctx.status(null);
  };
  const onDelta = (piece: string) => {
    shown = shown.then(async () => {
      await quiet();
      if (await ctx.live(piece)) streamedText = true;
    });
  };
  const onEvent = async (e: AgentEvent) => {
    if (e.type === 'request') {
      let frame = 0;
      spinner ??= setInterval(() => void ctx.status(`${SPINNER[frame++ % SPINNER.length]} waiting for ${e.model}`), 120);
      spinner.unref();
      return;
    }
    await shown;
    await quiet();
    if (e.type === 'text' && streamedText) {
      // Already on the screen as it streamed: end its line; the record still goes out with --json.
      streamedText = false;
      await ctx.live('\n');
      await ctx.emit({ type: 'text', text: e.text }, '');
      return;
    }
    const told = describeEvent(e);
    if (told) await ctx.emit(told.record, told.text);
    // Reasoning is for a person watching (dimmed on a terminal's stderr); with --json, a record.
    if (e.type === 'thinking')
      await ctx.progress(`(thinking) ${e.text.replace(/\s+/g, ' ').slice(0, 300)}${e.text.length > 300 ? '…' : ''}`);
  };
  return { onEvent, onDelta, quiet };
}

/** How plan mode ended, as the command's answer and its hint. */
function planOutcome(end: PlanModeEnd, ctx: RunContext): Outcome {
  const { plan } = end;
  const onTheRef = `git show refs/forge/state:${PLAN_MARKDOWN}`;
  if (end.ended === 'unapproved')
    return {
      data: { plan: plan.id, status: plan.status, estimate: plan.estimate },
      text: `plan ${plan.id} saved, not run: not approved (no terminal to ask on, or the review was closed)`,
      next: ctx.cmd('agent', '--resume', '--yes'),
      or: onTheRef,
    };
  if (end.ended === 'cancelled')
    return {
      data: { plan: plan.id, status: plan.status },
      text: `plan ${plan.id} cancelled; nothing was run`,
      exitCode: 1,
      next: ctx.cmd('agent', '--plan', plan.task),
    };
  if (end.ended === 'paused')
    return {
      data: end.data,
      text: `plan ${plan.id} paused: ${plan.reason}\n${end.tally}`,
      exitCode: 1,
      next: ctx.cmd('agent', '--resume'),
      or: onTheRef,
    };
  return {
    data: end.data,
    text: `plan ${plan.id} done: ${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'} passed their checks\n${end.tally}`,
    next: end.before ? ctx.cmd('diff', ...(end.before > 1 ? [end.before] : []), '--stat') : 'git diff --stat',
  };
}

/** One task (or --quick question): checkpoint, the model run, telemetry, the sweep, hooks, auto-commit, the session's turn. */
/** Whether the work tree is as the checkpoint took it: nothing the task did changed a file. */
function unchangedSince(cwd: string, checkpoint: string): () => Promise<boolean> {
  return async () => {
    const { workTreeChanges } = await import('../lib/git/checkpoint');
    return (await workTreeChanges({ cwd, base: checkpoint })).files.length === 0;
  };
}

async function taskOutcome({
  args,
  ctx,
  task,
  modelTask,
  history,
  git,
  resumed,
  inRepo,
  root,
  config: profileConfig,
  budget,
  context,
  retry,
  bench,
  view,
  attachments,
}: {
  args: Args;
  ctx: RunContext;
  task: string;
  /** The task as the model gets it: a short reply with the turn it answers. */
  modelTask: string;
  history: string | undefined;
  git: string | null;
  resumed: AgentSession | null;
  attachments: Attachments | undefined;
  inRepo: boolean;
  root: string;
  config: ModelConfig;
  budget: number;
  context: ModelContext | null;
  retry: Partial<RetryPolicy>;
  bench: Workbench;
  view: ReturnType<typeof liveView>;
}): Promise<Outcome> {
  const started = Date.now();
  const [{ configFor }, { describeSource }] = await Promise.all([import('../lib/agent/routes'), import('../lib/agent/config-describe')]);
  const category = args.quick ? 'quick' : 'standard';
  // model_routes: a quick task goes to the quick route, any other to the standard one.
  const config = configFor(profileConfig, category);
  if (config !== profileConfig)
    await ctx.emit(
      { type: 'config', line: `${category} route: model ${config.model.value}` },
      `using model ${config.model.value} for this ${category} task (${describeSource(config.model.source)})`,
    );
  // --quick answers from the prompt alone and changes no file: no checkpoint to take.
  const checkpoint = args.quick ? null : await bench.checkpoint(task, 'task');
  if (checkpoint)
    await ctx.emit({ type: 'checkpoint', commit: checkpoint }, `checkpoint ${checkpoint.slice(0, 10)} (forge undo restores it)`);
  const { runAgent } = await import('../lib/agent/agent');
  const run = await runAgent({
    config,
    task: modelTask,
    root,
    cwd: ctx.cwd,
    maxTurns: args.quick ? 1 : args['max-turns'],
    budget,
    modelContext: context,
    quick: args.quick,
    retry,
    history,
    git,
    onEvent: view.onEvent,
    onDelta: view.onDelta,
    tools: bench.toolsFor(category),
    guards: bench.guards,
    attachments,
    ...(checkpoint ? { changedNothing: unchangedSince(ctx.cwd, checkpoint) } : {}),
    signal: ctx.signal,
  })
    .catch((err: unknown) => {
      throw noVisionFix({ err, args, ctx, task, session: resumed?.id ?? null });
    })
    .finally(view.quiet);
  await afterTask({ ctx, args, task, run, started, checkpoint, inRepo, config, bench, category });
  const session =
    inRepo && config.recording.sessions.value
      ? await saveSession({ ctx, resumed, task, run, model: config.model.value, checkpoint, attached: attachments?.pinned.paths ?? [] })
      : null;
  const { SESSIONS_DIR } = await import('../lib/agent/sessions');
  const data = runData(run, session?.id ?? null, config.model.value);
  const tally = runTally(run);
  // A run that did not finish its task never exits 0: what changed is shown, the task can go on.
  if (run.stopped) {
    const again = session ? ctx.cmd('agent', '--continue', task) : ctx.cmd('agent', task);
    throw new RefusedError(run.stopped.code, `${run.stopped.message}; the task is not done (${tally})`, {
      fix:
        run.stopped.budget !== undefined
          ? ctx.cmd('agent', '--budget', String(run.stopped.budget), task)
          : run.files.length && checkpoint
            ? ctx.cmd('diff', '--stat')
            : again,
      data,
    });
  }
  if (run.exhausted)
    return {
      data,
      text: `stopped after ${tally}: the model had not answered`,
      exitCode: 1,
      next: ctx.cmd('agent', '--max-turns', args['max-turns'] * 2, task),
    };
  // With a checkpoint, forge diff shows the task's changes, untracked files included.
  // --quick changes no file: nothing to look at but the answer. The session's record is the other way on.
  const next = checkpoint ? ctx.cmd('diff', '--stat') : inRepo && !args.quick ? 'git diff --stat' : null;
  return {
    data,
    text: `(${tally}${session ? `; session ${session.id}` : ''})`,
    next,
    ...(session && next ? { or: ctx.cmd('state', 'show', `${SESSIONS_DIR}/${session.id}.json`) } : {}),
  };
}

/** The task's turn in its session (a new session, or the one continued). */
async function saveSession({
  ctx,
  resumed,
  task,
  run,
  model,
  checkpoint,
  attached,
}: {
  ctx: RunContext;
  resumed: AgentSession | null;
  task: string;
  run: AgentRun;
  model: string;
  checkpoint: string | null;
  attached: readonly string[];
}): Promise<AgentSession> {
  const { saveTurn } = await import('../lib/agent/sessions');
  return saveTurn({
    store: await ctx.store(),
    id: resumed?.id ?? null,
    turn: {
      timestamp: ctx.now().toISOString(),
      task,
      answer: run.answer,
      files: run.files,
      toolCalls: run.toolCalls,
      model,
      ...(checkpoint ? { checkpoint } : {}),
    },
    attached,
  });
}

/** A task's summary record. */
function runData(run: AgentRun, session: string | null, model: string): Record<string, unknown> {
  return {
    session,
    answer: run.answer,
    turns: run.turns,
    toolCalls: run.toolCalls,
    cacheHits: run.cacheHits,
    refused: run.refused,
    usage: run.usage,
    ...(run.estimatedCalls ? { usageEstimated: true } : {}),
    uncachedTokens: run.uncachedTokens,
    model,
    exhausted: run.exhausted,
  };
}

/** What a task cost: model calls, tool calls (refused ones said), tokens. */
function runTally(run: AgentRun): string {
  return `${run.turns} model call${run.turns === 1 ? '' : 's'}, ${run.toolCalls} tool call${run.toolCalls === 1 ? '' : 's'}${run.refused ? ` (${run.refused} refused by the plan contract)` : ''}, ${run.usage.input} tokens in / ${run.usage.output} out${run.estimatedCalls ? ' (estimated: the server sent no usage)' : ''}`;
}

/** After a task's run: its telemetry, what changed since its checkpoint, and — when it finished — on_task_done and auto-commit. */
async function afterTask({
  ctx,
  args,
  task,
  run,
  started,
  checkpoint,
  inRepo,
  config,
  bench,
  category,
}: {
  ctx: RunContext;
  args: Args;
  task: string;
  run: AgentRun;
  started: number;
  checkpoint: string | null;
  inRepo: boolean;
  /** With the model the task's calls went to. */
  config: ModelConfig;
  bench: Workbench;
  category: string;
}): Promise<void> {
  // Telemetry needs a repository to live in; outside one the run is simply not recorded.
  if (inRepo) {
    const { recordTelemetry } = await import('../lib/agent/telemetry');
    await recordTelemetry({ store: await ctx.store(), config, task, run, started, now: ctx.now(), category });
  }
  if (checkpoint) await emitSweep({ io: ctx, checkpoint, ...(await bench.sweep(checkpoint)) });
  if (!run.exhausted && !run.stopped && !args.quick) {
    await hooksThenCommit({ io: ctx, bench, event: 'on_task_done', at: 'task', message: task.split('\n')[0]!.slice(0, 72) });
  }
}

/** The flags of --attach and --image as given, but for `without`: the command line a fix runs. */
/** The flags that chose the endpoint and model, so a Fix runs against the same one (`--model` left out where the Fix names another). */
function endpointFlags(args: Args, { model = true }: { model?: boolean } = {}): string[] {
  return [
    ...(args.endpoint !== undefined ? ['--endpoint', args.endpoint] : []),
    ...(args.profile !== undefined ? ['--profile', args.profile] : []),
    ...(args['api-key-env'] !== undefined ? ['--api-key-env', args['api-key-env']] : []),
    ...(model && args.model !== undefined ? ['--model', args.model] : []),
  ];
}

function attachFlags(args: Args, without?: string): string[] {
  return [
    ...args.attach.filter((p) => p !== without).flatMap((p) => ['--attach', p]),
    ...args.image.filter((p) => p !== without).flatMap((p) => ['--image', p]),
  ];
}

/** --attach, --image and the files a continued session pinned, checked; each pinned file and image said. */
async function openTaskAttachments({
  args,
  ctx,
  task,
  resumed,
  resumedPlan = null,
}: {
  args: Args;
  ctx: RunContext;
  task: string;
  resumed: AgentSession | null;
  /** A plan --resume goes on with: its pinned files are pinned again. */
  resumedPlan?: AgentPlan | null;
}): Promise<Attachments | undefined> {
  const before = resumedPlan?.attached ?? resumed?.attached ?? [];
  if (!args.attach.length && !args.image.length && !args.detach.length && !before.length) return undefined;
  const { openAttachments } = await import('../lib/agent/attach');
  const keep = resumed ? ['--session', resumed.id] : args.plan ? ['--plan'] : args.resume ? ['--resume'] : [];
  const attachments = await openAttachments({
    cwd: ctx.cwd,
    attach: args.attach,
    images: args.image,
    sessionPinned: before,
    detach: args.detach,
    again: (without) => ctx.cmd('agent', ...endpointFlags(args), ...keep, ...attachFlags(args, without), ...(task ? [task] : [])),
  });
  const of = resumedPlan ? `plan ${resumedPlan.id}` : 'the session';
  const warnings = [
    ...attachments.dropped.map((path) => `pinned file '${path}' of ${of} is gone or no longer allowed: left out`),
    ...attachments.notPinned.map((path) => `--detach '${path}': not pinned, nothing to unpin`),
  ];
  for (const text of warnings) await ctx.emit({ type: 'notice', kind: 'warning', text }, text);
  const pinned = attachments.pinned.paths;
  const images = attachments.images.map((i) => i.path);
  if (pinned.length || images.length)
    await ctx.emit(
      { type: 'attached', pinned, images },
      [pinned.length ? `pinned ${pinned.join(', ')}` : '', images.length ? `image ${images.join(', ')}` : ''].filter(Boolean).join('; '),
    );
  return attachments;
}

/** A model that takes no images: the fix names a vision model of the endpoint when it has one, else the task without its images. */
function noVisionFix({
  err,
  args,
  ctx,
  task,
  session,
  planner = false,
}: {
  err: unknown;
  args: Args;
  ctx: RunContext;
  task: string;
  session: string | null;
  /** With --plan only the planner gets the images: the fix names a --planner-model. */
  planner?: boolean;
}): unknown {
  if (!(err instanceof ModelError) || err.code !== 'MODEL_NO_VISION') return err;
  // chat.ts (finalError) found a model of the endpoint's list whose name says it takes images, or none.
  const suggested = err.visionModel;
  const keep = session ? ['--session', session] : planner ? ['--plan'] : [];
  const pinned = args.attach.flatMap((p) => ['--attach', p]);
  err.fix = suggested
    ? ctx.cmd(
        'agent',
        ...endpointFlags(args, { model: planner }),
        planner ? '--planner-model' : '--model',
        suggested,
        ...keep,
        ...attachFlags(args),
        task,
      )
    : ctx.cmd('agent', ...endpointFlags(args), ...keep, ...pinned, task);
  return err;
}
