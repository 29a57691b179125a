// Every code forge reports, as data: each error's exit status, meaning and data shape (ERROR_CODES), and each plan finding's (FINDING_CODES).

/** An error's structured details (the `data` of its JSON record). */
export type ErrorData = Record<string, unknown>;

/**
 * Names the type of a code's `data` in its row. The value is never read: the row is data, its type
 * is what the compiler checks each `new ForgeError(code, message, { data })` against.
 */
function shape<T extends ErrorData>(): T {
  return undefined as unknown as T;
}

/** A line of a file shown around a failed match: its number, its anchor hash (when shown as `n#hash`) and its text. */
interface RegionLine {
  n: number;
  hash?: string;
  text: string;
}

/** A plan finding as plan check reports it (lib/plans/yaml.ts Finding), carried by errors that refuse a plan. */
interface FindingData {
  file: string;
  line: number;
  col: number;
  severity: 'error' | 'warning';
  code: string;
  message: string;
}

/** What forge plan preflight says about a refused call (its record carries the same facts when it allows one). */
type GateData = {
  allowed: false;
  tool: string;
  plan_id: string | null;
  unit: string | null;
  paths: string[];
  surface: string;
  posture: 'hard' | 'soft' | 'allow';
  breach: string | null;
  reason: string;
  acked: boolean;
  budgetBreaches: string[];
};

/** A failure to talk to a model: the setting to change, and where (lib/agent/chat-failures.ts ModelError). */
type ModelData = {
  setting: 'endpoint' | 'model' | 'api_key_env';
  endpoint: string;
  model?: string;
  attempts?: number;
  status?: number;
};

/** forge agent's summary of a run that stopped before its task was done: the fields of its success record. */
type AgentRunData = { [field: string]: unknown };

interface ErrorRow {
  /** 1: understood but refused, or a check or an action failed; 2: bad invocation or input. */
  exit: 1 | 2;
  /** One line for the man pages: what the code means, whichever command raises it. */
  meaning: string;
  /** The type of the error's data (absent: it carries none). */
  data?: ErrorData;
}

/**
 * Every error code forge can raise. A code's exit status is decided here, not at the throw site; a
 * throw site's data must have the row's shape. Sorted; a new code is a new row (then `make docs`).
 */
export const ERROR_CODES = {
  AGENTS_MD_MARKERS: { exit: 1, meaning: "AGENTS.md has forge's start or end marker without the other, or twice" },
  AGENT_NOT_FOUND: { exit: 1, meaning: 'the agent command cannot be started' },
  AMBIGUOUS_MATCH: {
    exit: 1,
    meaning: 'the old text matches several places (their lines are named)',
    data: shape<{ path: string; lines: number[] }>(),
  },
  ANCHOR_MISMATCH: {
    exit: 1,
    meaning: 'an anchor is stale: the line changed since it was read',
    data: shape<{ path: string; anchor: string; region: RegionLine[] }>(),
  },
  API_KEY_MISSING: { exit: 2, meaning: 'the API key variable the endpoint needs is not set', data: shape<{ apiKeyEnv: string }>() },
  ATTACHMENT_TOO_LARGE: {
    exit: 2,
    meaning: 'an --attach file or --image over its size cap',
    data: shape<{ path: string; bytes: number; limit: number }>(),
  },
  AUTO_COMMIT_FAILED: { exit: 1, meaning: 'git commit of the result failed' },
  BAD_HOOK_PAYLOAD: { exit: 2, meaning: "a hook payload on stdin that is not the agent's JSON for that hook" },
  BAD_INPUT: { exit: 2, meaning: 'stdin that is not NDJSON, or that cannot be read' },
  BAD_NDJSON: { exit: 2, meaning: 'a stdin line that is not a JSON object (the message names the line)', data: shape<{ line?: number }>() },
  BAD_REVISION: { exit: 2, meaning: 'a revision that is not a commit or tree' },
  BINARY_FILE: { exit: 1, meaning: 'the file is binary' },
  BUDGET_CAP_REACHED: {
    exit: 1,
    meaning: "a hard budget cap of the active plan is reached (refused by the plan's gate)",
    data: shape<GateData>(),
  },
  BUDGET_TOO_SMALL: {
    exit: 2,
    meaning: 'a token budget that cannot hold the system prompt, the task and the tool schemas, or the latest turn',
    data: shape<{ budget: number; needed: number; suggested: number; pinned?: number }>(),
  },
  CANCELLED: {
    exit: 1,
    meaning:
      "the caller gave up on the call (Ctrl-C, SIGTERM or SIGHUP to forge, an MCP client's notifications/cancelled, or its disconnect): the programs it ran were ended, a change it was writing was put back, nothing was recorded; exit 130, 143 or 129 on a signal",
  },
  CONFIG_INVALID: { exit: 2, meaning: 'the config file is not valid JSON or a key has the wrong shape', data: shape<{ path: string }>() },
  CONFIG_UNREADABLE: { exit: 2, meaning: 'the config file cannot be read', data: shape<{ path: string }>() },
  CONFLICTING_ARGUMENTS: { exit: 2, meaning: 'two arguments that do not go together' },
  CONVENTIONS_EXIST: { exit: 1, meaning: '.forge/conventions.md exists already' },
  CWD_NOT_FOUND: { exit: 2, meaning: 'the --cwd or FORGE_CWD directory does not exist', data: shape<{ cwd: string }>() },
  EMPTY_PATTERN: { exit: 2, meaning: 'the pattern is blank' },
  EMPTY_PROMPT: { exit: 2, meaning: 'the prompt is blank' },
  EMPTY_REASON: { exit: 2, meaning: 'the reason is blank' },
  EMPTY_TASK: { exit: 2, meaning: 'the task is blank' },
  ENTRY_TOO_LARGE: { exit: 2, meaning: 'the serialized entry is over its size limit', data: shape<{ bytes: number; limit: number }>() },
  EVAL_SETUP_FAILED: { exit: 1, meaning: "an eval task's setup.sh failed, so its fixture could not be made" },
  EVAL_TASK_INVALID: { exit: 2, meaning: 'an eval suite or task folder that is not as forge eval reads it (task.json, setup.sh)' },
  EXPORT_TARGET_NOT_EMPTY: { exit: 1, meaning: 'the export directory is a file or is not empty' },
  FILE_EXISTS: { exit: 1, meaning: 'the file exists already', data: shape<{ path: string }>() },
  FILE_NOT_FOUND: { exit: 1, meaning: 'no such file (or it cannot be read)', data: shape<{ path: string; suggestions?: string[] }>() },
  GATE_NOT_LIVE: {
    exit: 1,
    meaning:
      'the hook is installed, but the agent will not run it (Codex: the hook or the project not trusted, hooks off, or too old a release)',
    data: shape<{ file: string; state: string; reason: string }>(),
  },
  GIT_BUSY: { exit: 1, meaning: 'a git operation (merge, rebase, cherry-pick, revert, bisect) is in progress' },
  GIT_FAILED: { exit: 1, meaning: 'a git command failed' },
  HOOK_CONFLICT: { exit: 1, meaning: 'a foreign git hook and its .local copy both exist' },
  IMAGE_UNSUPPORTED: {
    exit: 2,
    meaning: 'an --image that is not a PNG, JPEG, GIF or WebP image by its bytes',
    data: shape<{ path: string }>(),
  },
  INDENTATION_UNCLEAR: {
    exit: 1,
    meaning: 'the old text matches one place but for whitespace, and no one indentation change explains it',
    data: shape<{ path: string; region: RegionLine[] }>(),
  },
  INPUT_TOO_LARGE: {
    exit: 2,
    meaning:
      'stdin, a --file or one NDJSON line is over the most forge reads as input (64 MiB; FORGE_MAX_INPUT raises it): refused as it arrives, never read whole',
    data: shape<{ limit: number }>(),
  },
  INTERNAL: { exit: 1, meaning: 'a bug in forge (FORGE_DEBUG=1 shows the stack trace)' },
  INVALID_ANCHOR: { exit: 2, meaning: 'an anchor not written <line>#<hash>' },
  INVALID_API_KEY_ENV: { exit: 2, meaning: 'an API key variable name that is not an environment variable name' },
  INVALID_ARGUMENT: {
    exit: 2,
    meaning: 'a value of the wrong type, out of range, not one of the choices, or not what the command takes',
    data: shape<{ field?: string }>(),
  },
  INVALID_CONTRACT: {
    exit: 2,
    meaning: 'an import contract that is not EXPORTER:IMPORTER of JavaScript or TypeScript files',
    data: shape<{ ext?: string }>(),
  },
  INVALID_ENDPOINT: { exit: 2, meaning: 'a model endpoint that is not an http(s) URL', data: shape<{ endpoint: string }>() },
  INVALID_ID: {
    exit: 2,
    meaning: 'an id that is not 1-128 letters, digits, _ . - (or is . or ..)',
    data: shape<{ kind: string; value: string }>(),
  },
  INVALID_PATCH: { exit: 2, meaning: 'the input is not a patch in a known format' },
  INVALID_PATH: { exit: 2, meaning: 'a path forge cannot use (a NUL byte, .. in a state path)' },
  INVALID_RANGE: { exit: 2, meaning: 'a line range whose end is before its start' },
  INVALID_REGEX: { exit: 2, meaning: 'not a valid regular expression' },
  IS_A_DIRECTORY: { exit: 2, meaning: 'the path is a directory' },
  LEGACY_PLAN: { exit: 1, meaning: 'the plan has no envelopes', data: shape<{ findings: FindingData[] }>() },
  LINE_OUT_OF_RANGE: { exit: 2, meaning: 'a start line past the last line' },
  LOCKED: { exit: 1, meaning: 'a lock is held by another process (or was left by one that crashed)', data: shape<{ lock: string }>() },
  LOOP_ACTIVE: { exit: 1, meaning: 'another loop is active or paused' },
  LOOP_DETECTED: {
    exit: 1,
    meaning: 'the model repeated the same tool call, or undid its own edits, with nothing changed in between',
    data: shape<AgentRunData>(),
  },
  LOOP_ENDED: { exit: 1, meaning: 'the loop has ended' },
  LOOP_NOT_PAUSED: { exit: 1, meaning: 'the loop is not in the state the command needs (not paused, or not active)' },
  LOOP_REPLACED: { exit: 1, meaning: 'the loop was cancelled or replaced while it ran' },
  LOOP_RUNNING: { exit: 1, meaning: 'a forge loop run is driving the loop already' },
  MISSING_AGENT: { exit: 2, meaning: 'no agent command after --' },
  MISSING_ARGUMENT: { exit: 2, meaning: 'a required argument is missing or blank', data: shape<{ field?: string }>() },
  MISSING_PROMPT: { exit: 2, meaning: 'neither --prompt-file nor --prompt' },
  MISSING_SUBCOMMAND: { exit: 2, meaning: 'a command group without one of its commands' },
  MISSING_TOOL: { exit: 2, meaning: 'neither --tool nor --hook' },
  MODEL_AUTH: { exit: 2, meaning: 'the API key is missing or refused', data: shape<ModelData>() },
  MODEL_BAD_ENDPOINT: { exit: 2, meaning: 'the endpoint is not a usable OpenAI-compatible URL', data: shape<ModelData>() },
  MODEL_CONTEXT_EXCEEDED: { exit: 1, meaning: "the request is over the model's context window", data: shape<ModelData>() },
  MODEL_CONTEXT_TRUNCATED: {
    exit: 1,
    meaning: 'the server cut the conversation to fit its context: it counted far fewer prompt tokens than were sent',
    data: shape<AgentRunData>(),
  },
  MODEL_EMPTY_REPLY: { exit: 1, meaning: 'the model sent an empty reply twice in a row', data: shape<AgentRunData>() },
  MODEL_NO_VISION: { exit: 2, meaning: 'the model or endpoint does not take image input', data: shape<ModelData>() },
  MODEL_NOT_FOUND: { exit: 2, meaning: 'the endpoint has no such model', data: shape<ModelData>() },
  MODEL_QUOTA: { exit: 1, meaning: 'the account is out of quota', data: shape<ModelData>() },
  MODEL_RATE_LIMITED: { exit: 1, meaning: 'still rate-limited after the retries', data: shape<ModelData>() },
  MODEL_REQUEST_REJECTED: { exit: 1, meaning: 'the endpoint rejected the request', data: shape<ModelData>() },
  MODEL_SERVER_ERROR: { exit: 1, meaning: 'the endpoint kept failing', data: shape<ModelData>() },
  MODEL_STALLED: { exit: 1, meaning: 'the stream stopped sending', data: shape<ModelData>() },
  MODEL_TRUNCATED: { exit: 1, meaning: "the model's reply was cut off by the length limit twice in a row", data: shape<AgentRunData>() },
  MODEL_UNREACHABLE: { exit: 2, meaning: 'the endpoint does not answer', data: shape<ModelData>() },
  MODEL_UNREADABLE_CALL: {
    exit: 1,
    meaning: 'the model wrote a tool call forge could not read, twice in a row',
    data: shape<AgentRunData>(),
  },
  MODULE_NOT_FOUND: { exit: 2, meaning: 'the plan has no module with that id' },
  NOTHING_TO_CHECK: { exit: 2, meaning: 'nothing to check was given' },
  NOTHING_TO_REDO: { exit: 1, meaning: 'nothing to redo: no earlier undo' },
  NOT_A_DIRECTORY: { exit: 1, meaning: 'a file is where a parent directory must be', data: shape<{ path: string }>() },
  NOT_A_GIT_REPO: { exit: 2, meaning: 'a command that needs a git repository was run outside one', data: shape<{ dir: string }>() },
  NOT_A_REGULAR_FILE: {
    exit: 1,
    meaning: 'the path is a directory, FIFO, socket or device where a regular file must be',
    data: shape<{ path: string }>(),
  },
  NOT_MECHANICAL: { exit: 2, meaning: 'a --mechanical task that is not a plain replacement' },
  NOT_PAUSED: { exit: 1, meaning: 'the plan is not paused' },
  NO_ACTIVE_PLAN: { exit: 1, meaning: 'no plan is active' },
  NO_CHECKPOINT: { exit: 1, meaning: 'there is no checkpoint yet' },
  NO_EVAL_RESULTS: { exit: 1, meaning: 'no recorded forge eval results to compare' },
  NO_LOOP: { exit: 1, meaning: 'no loop was started' },
  NO_MATCH: {
    exit: 1,
    meaning: 'the text to change is not there (the nearest region, or what was searched, is in the message)',
    data: shape<{ path: string; region: RegionLine[] } | { searched: number }>(),
  },
  NO_MODEL: { exit: 2, meaning: 'no model is configured and the endpoint lists none', data: shape<{ endpoint: string }>() },
  NO_MODEL_ENDPOINT: { exit: 2, meaning: 'no endpoint is configured and none was detected', data: shape<{ probed: string }>() },
  NO_PLAN: { exit: 1, meaning: 'nothing to resume: no plan, or the plan is done or cancelled' },
  NO_SESSION: { exit: 1, meaning: 'nothing to continue, or no session with that id' },
  NO_SOFT_BREACH: { exit: 1, meaning: 'no soft refusal is waiting to be acknowledged' },
  NO_STOP_HOOK: { exit: 1, meaning: 'the agent has no stop-like hook' },
  NO_SUCH_CHECKPOINT: { exit: 2, meaning: 'no checkpoint of that name or number' },
  NO_WORK_TREE: {
    exit: 2,
    meaning: 'in a bare repository or inside the git dir: there is no work tree',
    data: shape<{ dir: string; gitDir: string }>(),
  },
  OVERLAPPING_EDITS: { exit: 2, meaning: 'two line edits touch the same lines' },
  PATCH_CONFLICT: {
    exit: 1,
    meaning: 'a hunk does not apply or matches several places; a file to create exists, or one to change does not',
    data: shape<{ path: string; hunk?: number; lines?: number[]; region?: RegionLine[] }>(),
  },
  PATH_ABOVE_CWD: {
    exit: 2,
    meaning: 'a path or glob above the working directory (a walk lists only what is under it)',
    data: shape<{ path: string }>(),
  },
  PATH_IN_GIT_DIR: {
    exit: 1,
    meaning: "the path is inside git's own files: never a file tool's to touch",
    data: shape<{ path: string }>(),
  },
  PATH_OUTSIDE_REPO: {
    exit: 2,
    meaning: 'the path leaves the repository (by .., an absolute path, or a symlink pointing out)',
    data: shape<{ path: string; root: string }>(),
  },
  PLAN_ALREADY_ACTIVE: { exit: 1, meaning: 'this plan or another is active or paused' },
  PLAN_BREACH_BLAST_RADIUS: { exit: 1, meaning: 'a change outside the blast radius (hard)', data: shape<GateData>() },
  PLAN_BREACH_PATHS: { exit: 1, meaning: 'a path outside the current unit (soft: forge plan ack)', data: shape<GateData>() },
  PLAN_BREACH_RAILS: { exit: 1, meaning: "outside the plan's rails (hard)", data: shape<GateData>() },
  PLAN_BREACH_SHELL: {
    exit: 1,
    meaning:
      'a shell command the gate cannot judge (a command name from a variable, eval of one, code inline), under a plan that limits paths or surface (hard)',
    data: shape<GateData>(),
  },
  PLAN_BREACH_SURFACE: { exit: 1, meaning: 'the call reaches a wider surface than the plan allows (hard)', data: shape<GateData>() },
  PLAN_BREACH_TOOLS: { exit: 1, meaning: 'a tool the current unit does not allow (soft: forge plan ack)', data: shape<GateData>() },
  PLAN_BREACH_UNIT: { exit: 1, meaning: 'the call belongs to a later unit: advance first', data: shape<GateData>() },
  PLAN_CHANGED: { exit: 1, meaning: 'the plan moved while the verification ran' },
  PLAN_COMPLETE: { exit: 1, meaning: 'every unit of the plan is done' },
  PLAN_ENDED: { exit: 1, meaning: 'the plan has ended' },
  PLAN_INVALID: {
    exit: 1,
    meaning: 'the plan does not pass forge plan check',
    data: shape<{ findings: FindingData[]; plan?: string }>(),
  },
  PLAN_NOT_FOUND: { exit: 2, meaning: 'no plan at that path, or no activated plan with that id' },
  PLAN_OPERATOR_ONLY: {
    exit: 1,
    meaning: "ending, pausing, resuming or replacing an active plan is the operator's: refused to an agent's call, or run inside an agent",
    data: shape<Partial<GateData>>(),
  },
  PLAN_PAUSED: { exit: 1, meaning: 'the kill switch is on: the plan is paused', data: shape<Partial<GateData>>() },
  PLAN_UNREADABLE: {
    exit: 1,
    meaning: 'a plan is active but its pointer or contract on the state ref cannot be read',
    data: shape<{ path: string; problem: string }>(),
  },
  PROFILE_NOT_CHOSEN: { exit: 2, meaning: 'several profiles, no "default", and no --profile', data: shape<{ profiles: string[] }>() },
  PROFILE_NOT_FOUND: { exit: 2, meaning: 'no profile of that name', data: shape<{ profile: string; profiles: string[] }>() },
  PROMPT_NOT_FOUND: { exit: 2, meaning: 'the prompt file cannot be read' },
  REMOTE_NOT_FOUND: { exit: 2, meaning: 'no such remote' },
  RESTORE_FAILED: { exit: 1, meaning: 'git could not write the files (the replaced tree is saved)', data: shape<{ saved: string }>() },
  ROLLBACK_OUT_OF_RANGE: {
    exit: 2,
    meaning: 'forge agent --rollback N: more turns than the session has active (or, for -N, rolled back), or 0',
    data: shape<{ session: string; active: number; turns: number; rollback: number }>(),
  },
  SELF_CHECK_FAILED: {
    exit: 1,
    meaning: "forge's own check found the result differs from what was asked; nothing was written",
    data: shape<{ path: string }>(),
  },
  SETTINGS_INVALID: {
    exit: 1,
    meaning: "an agent's settings file forge must merge into is not in the shape it expects; it is left as it is",
  },
  SPLIT_LINE_ENDING: { exit: 1, meaning: 'a regex match starts or ends inside a CRLF line ending', data: shape<{ path: string }>() },
  STATE_CONFLICT: { exit: 1, meaning: 'the state ref (or the remote) kept moving' },
  STATE_CORRUPT: { exit: 1, meaning: 'the state ref holds something forge did not write' },
  STATE_INVALID: {
    exit: 1,
    meaning: 'a state file the command needs is not in the shape forge writes (the Fix names its history)',
    data: shape<{ path: string; problem: string }>(),
  },
  STATE_PATH_NOT_FOUND: { exit: 1, meaning: 'no such file or directory in the state' },
  SYNC_FAILED: { exit: 1, meaning: 'fetch or push failed (network, permissions)' },
  TASK_NOT_DONE: {
    exit: 1,
    meaning: 'the task asked for a change and the model answered without making one or saying why none was needed',
    data: shape<AgentRunData>(),
  },
  TRANSCRIPT_UNREADABLE: { exit: 1, meaning: 'the transcript is missing, not a regular file, or too slow to read' },
  UNDO_IN_PROGRESS: { exit: 1, meaning: 'another forge undo is restoring this work tree now', data: shape<{ pid: number }>() },
  UNEXPECTED_ARGUMENT: { exit: 2, meaning: 'more positional words than the command takes' },
  UNKNOWN_COMMAND: { exit: 2, meaning: 'a name that is not a command' },
  UNKNOWN_FIELD: { exit: 2, meaning: 'an NDJSON key the command does not take', data: shape<{ field: string }>() },
  UNKNOWN_OPTION: { exit: 2, meaning: 'an option the command does not take' },
  UNKNOWN_TASK: { exit: 2, meaning: 'a task name the eval suite does not have' },
  UNKNOWN_TOOL: { exit: 2, meaning: 'an MCP tool call naming a tool this server does not serve' },
  UNSAFE_REPOSITORY: {
    exit: 2,
    meaning: "git refuses the repository: it belongs to another user (git's safe.directory)",
    data: shape<{ dir: string }>(),
  },
  VERIFICATION_FAILED: {
    exit: 1,
    meaning: "the unit's verification command failed",
    data: shape<{ unit: string; command: string; exitCode: number | null; timedOut: boolean; tail: string }>(),
  },
} as const satisfies Record<string, ErrorRow>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The exit status the table gives a code. */
export type ExitOf<C extends ErrorCode> = (typeof ERROR_CODES)[C]['exit'];

/** The codes that exit with `E`: what InvalidInputError (2) and RefusedError (1) may be given. */
export type CodeExiting<E extends 1 | 2> = { [C in ErrorCode]: ExitOf<C> extends E ? C : never }[ErrorCode];

/** An error that carries no data. */
type NoData = Record<string, never>;

/** The data of code C: its row's shape (for a union of codes, any of theirs); none when the row declares none. */
export type DataOf<C extends ErrorCode> = C extends ErrorCode ? RowData<(typeof ERROR_CODES)[C]> : never;
type RowData<R> = R extends { data: infer D } ? D : NoData;

/** Each plan finding's meaning (forge plan check prints them as file:line:col: severity CODE: message). */
export const FINDING_CODES = {
  BLAST_RADIUS_WIDER: { meaning: "a unit's paths leave the blast radius" },
  COMMAND_NOT_FOUND: { meaning: 'a verify command is not on PATH' },
  DEPENDENCY_CYCLE: { meaning: 'modules depend on each other in a cycle' },
  DUPLICATE_MODULE: { meaning: 'a module id appears twice' },
  DUPLICATE_UNIT: { meaning: 'a unit id appears twice' },
  EMPTY_PLAN: { meaning: 'a plan with no modules' },
  FILE_OVERLAP: { meaning: 'modules that could run in parallel change the same file (a warning)' },
  INVALID_ENCODING: { meaning: 'a plan that is not UTF-8' },
  INVALID_ID: { meaning: 'a plan_id or module id that is not a plain name' },
  INVALID_TOOL: { meaning: 'an allowed_tools entry that is no plan word, mcp:<server> or tool name' },
  INVALID_TYPE: { meaning: 'a field of the wrong type' },
  LEGACY_PLAN: { meaning: 'a plan without envelopes (an error with --strict)' },
  MISSING_ENVELOPE: { meaning: 'a unit heading without an envelope block' },
  MISSING_FIELD: { meaning: 'a required field is missing' },
  NO_UNITS: { meaning: 'an envelope but no units' },
  OLD_PLACE: { meaning: 'a module plan in .forge/plans/, where they were kept before .forge/modules/ (a warning)' },
  ORPHAN_ENVELOPE: { meaning: 'an envelope block outside any unit' },
  PATHS_WIDER: { meaning: 'a unit allows paths outside its parent' },
  PLAN_TOO_LARGE: { meaning: 'a plan over 1 MB' },
  SURFACE_WIDER: { meaning: 'a unit has a wider surface than its parent' },
  TEMPLATE_TEXT: { meaning: "a line still holds forge plan new's placeholder text (a warning)" },
  TOOLS_WIDER: { meaning: 'a unit allows tools its parent does not' },
  UNCOVERED_REQUIREMENT: { meaning: 'a requirement no unit covers' },
  UNKNOWN_CATEGORY: { meaning: 'a module category that is not deep, standard, quick or search (it runs as standard)' },
  UNKNOWN_DEPENDENCY: { meaning: 'dependsOn names no module' },
  UNKNOWN_FIELD: { meaning: 'a field the format does not have' },
  UNKNOWN_REQUIREMENT: { meaning: 'a unit requirement the plan does not list' },
  UNSUPPORTED_VERSION: { meaning: 'plan_contract_version is not 1' },
  YAML_ERROR: { meaning: 'the frontmatter or an envelope block is not valid YAML, or its aliases expand too far' },
} as const satisfies Record<string, { meaning: string }>;

export type FindingCode = keyof typeof FINDING_CODES;
