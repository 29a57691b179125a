// The one declaration of a command, from which parsing, help, man pages, completions and tool schemas derive.
import type { ErrorCode, FindingCode } from '../error-codes';
import type { ExitCode } from '../errors';
import type { Repo } from '../git/repo';
import type { StateStore } from '../git/state';
import type { Served } from '../mcp/served';
import type { Palette } from './output';

/** 'array' is a list of strings (a repeatable flag); 'objects' a list of JSON objects (one JSON flag). */
export type ArgType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'objects';

export interface ArgSpec {
  type: ArgType;
  description: string;
  /** The description a model gets in a tool schema when the CLI's names flags or stdin; '' for none (the name says it). */
  tool?: string;
  /** A choice for the person at the command line, never offered to a model: left out of the tool schema (forge agent --save-hooks writes the user's config). */
  personOnly?: boolean;
  /** Taken from positional words, in declaration order; still accepted as a flag and NDJSON key. */
  positional?: boolean;
  /** A string positional that takes every remaining word, joined by spaces (`recall test command`). */
  rest?: boolean;
  required?: boolean;
  choices?: readonly string[];
  /** Completed with every command's name, as a tool names it (memory_save): for a positional that names commands. */
  completesCommands?: boolean;
  default?: string | number | boolean;
  min?: number;
  max?: number;
  /** One-letter short flag. */
  alias?: string;
  /**
   * For 'objects': the keys an item may have and their JSON types. An item with another key, or a
   * key of another type, is refused; the tool schema types the items (additionalProperties: false),
   * as the strict tool modes of OpenAI and Anthropic require.
   */
  fields?: Readonly<Record<string, 'string' | 'boolean' | 'integer'>>;
  /** Value name shown in the synopsis and man page (`--limit N`). */
  placeholder?: string;
  /** An array filled from the words after `--` (a program and its arguments: `forge loop run -- claude -p`). */
  afterDashes?: boolean;
  /**
   * A blob the command parses itself (a hook's payload), taken as sent: not refused for bytes that
   * are not UTF-8, which only text written to a file or used as a path must never hold.
   */
  anyText?: boolean;
}

export type ArgsSpec = Record<string, ArgSpec>;

type ValueOf<S extends ArgSpec> = S['type'] extends 'string'
  ? S['choices'] extends readonly (infer C)[]
    ? C
    : string
  : S['type'] extends 'number' | 'integer'
    ? number
    : S['type'] extends 'boolean'
      ? boolean
      : S['type'] extends 'array'
        ? string[]
        : S['type'] extends 'objects'
          ? Array<Record<string, unknown>>
          : Record<string, unknown>;

/** The typed arguments a command's run receives: required, defaulted and boolean args are always set. */
export type ArgsOf<R extends ArgsSpec> = {
  [K in keyof R]: R[K] extends { required: true } | { default: string | number | boolean } | { type: 'boolean' | 'array' }
    ? ValueOf<R[K]>
    : ValueOf<R[K]> | undefined;
};

export interface Example {
  command: string;
  description: string;
}

/** One streamed item of a listing command: a typed JSON record and its text line. */
export interface Item {
  type: string;
  [field: string]: unknown;
}

/** What a command returns; the CLI renders it as text or as one NDJSON record. */
export interface Outcome {
  /** Fields of the JSON record (besides ok, id and the hint fields). */
  data: Record<string, unknown>;
  /** Human rendering, without the hint lines. */
  text: string;
  /** The next command, or null when the response is terminal (`Done.`). */
  next: string | null;
  /**
   * The next step in words, when it is the caller's own call rather than a command (retry the call
   * just refused): the text's Next: line says this, and `_next_action` in JSON keeps `next`.
   */
  nextText?: string;
  or?: string;
  wait?: string;
  /** 1 when a check failed or an action was refused without an error. */
  exitCode?: 0 | 1;
  /** For raw-content output (state show): the hint goes to stderr so stdout stays the content. */
  hintOnStderr?: boolean;
  /**
   * For hook adapters (Claude Code): stdout is exactly this, in the caller's format, text or --json
   * alike; the hint goes to stderr.
   */
  raw?: string;
  /** Nothing at all is printed, not even the hint: a server whose stdout was its protocol (forge mcp) ends without a word. */
  silent?: boolean;
}

export interface RunContext {
  /** Absolute working directory after --cwd / FORGE_CWD. */
  cwd: string;
  /** True only for a command with allowMissingCwd, when that directory does not exist. */
  cwdMissing: boolean;
  /** The run id set by --run-id or FORGE_RUN_ID, if any. */
  runId: string | undefined;
  /** The environment of this call: the process's, or the one an in-process caller (forge mcp, the agent's tools) gave. */
  env: NodeJS.ProcessEnv;
  /** Colours for text output (match, path, ok, fail…): plain unless stdout gets colour (--color, a terminal) and the output is text. */
  paint: Palette;
  /** Where global (cross-project) data lives: $XDG_DATA_HOME/forge. */
  dataHome: string;
  /** The forge executable this call runs under (a path), for what must run forge again later: a git hook. */
  program: string;
  /** Every command forge has, for the commands that describe them all (completion, schema): given by the caller, since the registry holds those commands too. */
  registry(): readonly Entry[];
  /** The repository holding cwd; throws NOT_A_GIT_REPO outside one. */
  repo(): Promise<Repo>;
  /** The state store of that repository. */
  store(): Promise<StateStore>;
  /**
   * A quoted `forge …` command line for hints. The CLI adds to every hint what it needs to run in
   * the same repository and run: --cwd when the user gave it, --run-id when a run id was given (flag
   * or FORGE_RUN_ID); `-C DIR` to a `git …` hint under --cwd.
   */
  cmd(...words: Array<string | number>): string;
  /** Streams one item of a listing command; an empty text line is not printed (a JSON-only item). */
  emit(item: Item, text: string): Promise<void>;
  /** A progress line for a person watching: written to stderr only when stderr is a terminal (and to an MCP client that asked for progress). */
  progress(text: string): Promise<void>;
  /**
   * Aborted when the caller gives up on the call (Ctrl-C, SIGTERM or SIGHUP on forge, an MCP client's cancel, or its disconnect): a
   * command that runs programs ends them and refuses with CANCELLED, leaving files as a refusal does.
   */
  signal: AbortSignal;
  /**
   * Text as it arrives, for a person watching: written to stdout as it is (no newline added) only in
   * text mode on a terminal. False when nothing was written, so the caller prints the whole text later.
   */
  live(piece: string): Promise<boolean>;
  /** Another program's output passed through to stderr as it comes, byte for byte (a driven agent's, say). */
  relay(chunk: Uint8Array | string): Promise<void>;
  /** A transient status line on a terminal's stderr (a spinner), redrawn in place; null clears it. Nothing off a terminal. */
  status(text: string | null): Promise<void>;
  /**
   * A warning that must reach whoever runs forge, on a terminal or not (a killed command's change
   * rolled back, say): one `warning: …` line on stderr, never on stdout, so records stay clean.
   */
  warn(text: string): Promise<void>;
  /**
   * Asks a person a question on the terminal (prompt on stderr, answer from stdin) and returns the
   * answer; null when stdin or stderr is not a terminal (so scripts and CI are never held waiting) or the person closed it (Ctrl-D).
   */
  ask(question: string): Promise<string | null>;
  /** A yes/no question through ask (`<question> [y/N] `): true for y/yes, false otherwise (Ctrl-D too), null off a terminal. */
  confirm(question: string): Promise<boolean | null>;
  now(): Date;
}

export interface CommandSpec<R extends ArgsSpec = ArgsSpec> {
  /** Words after `forge`: 'logs', 'memory save'. */
  name: string;
  summary: string;
  /** The summary a model gets in a tool schema, when the CLI's names flags or stdin. */
  tool?: string;
  description: string;
  args: R;
  examples: Example[];
  /**
   * The error codes this command can raise, each with when (in this command's words); the man page
   * adds each code's exit status from the table (lib/error-codes.ts), where a misspelt code fails to compile.
   */
  errors: Partial<Record<ErrorCode, string>>;
  /** The codes of the findings a checking command reports as records (forge plan check), with when. */
  findings?: Partial<Record<FindingCode, string>>;
  exits: Partial<Record<ExitCode, string>>;
  /** Writes state or files (drives docs and the MCP destructive hint). */
  mutates: boolean;
  /**
   * As an MCP tool (forge mcp, and forge agent's tools): its toolset and what a call does, which
   * MCP's annotations tell the client; false for a command a model never gets (mcp, completion).
   */
  mcp: Served | false;
  /**
   * The argument that raw text on stdin fills (write's content, patch's diff) when it is not
   * given as a flag. With command arguments on the command line stdin is always that text; with
   * none, stdin is NDJSON when its first non-blank byte is `{` and that text otherwise.
   */
  stdinText?: string;
  /** Arguments that replace stdin as the text's source (patch's --file): given one, stdin is not read. */
  stdinAlternatives?: string[];
  /** The command speaks a protocol on stdin itself (forge mcp): the CLI never reads requests from it. */
  ownsStdin?: boolean;
  /** Long text for a person (a diff, a log): on a terminal it goes through the pager, as git's diff and log do. */
  pager?: boolean;
  /**
   * Its text output is data a program reads (a completion script, a tool schema): nothing follows
   * it, no hint on stdout or stderr, so `eval "$(forge completion bash)"` and `forge schema read >
   * tool.json` hold only the data. NDJSON records still carry `_next_action`; an error still has its Fix.
   */
  dataOutput?: boolean;
  /**
   * The command reports a missing --cwd / FORGE_CWD directory itself (validate's cwd_check) instead
   * of failing with CWD_NOT_FOUND: ctx.cwd is that path, ctx.cwdMissing is true, and ctx.repo(),
   * ctx.store() and the run log use the directory forge was started in.
   */
  allowMissingCwd?: boolean;
  /**
   * A hook that drives an agent (Claude Code's Stop hook): an error the CLI itself reports before
   * the command runs — bad flags, an invalid FORGE_RUN_ID — still exits 0, with the error on
   * stderr, since exit 2 would tell the agent to keep going. Drivers fail open (DESIGN.md, I/O 9).
   */
  failsOpen?: boolean;
  /** False for commands that read the run log itself (recording those reads would only add noise). */
  recordsToolCall?: boolean;
  /** Extra environment variables the command reads. */
  env?: Record<string, string>;
  run(args: ArgsOf<R>, ctx: RunContext): Promise<Outcome>;
}

export interface GroupSpec {
  name: string;
  summary: string;
  description: string;
  commands: CommandSpec<any>[];
}

export type Entry = CommandSpec<any> | GroupSpec;

export function isGroup(entry: Entry): entry is GroupSpec {
  return 'commands' in entry;
}

/** Declares a command; `const` keeps literal arg types so run() gets precise argument types. */
export function defineCommand<const R extends ArgsSpec>(spec: CommandSpec<R>): CommandSpec<R> {
  return spec;
}

export function defineGroup(spec: GroupSpec): GroupSpec {
  return spec;
}

/** Options every command takes; declared once here, rendered in every help and man page. */
export const COMMON_ARGS = {
  cwd: {
    type: 'string',
    alias: 'C',
    placeholder: 'DIR',
    description:
      'Run as if started in DIR (precedence: flag > FORGE_CWD > current directory); -C DIR as in git. Like the other common options it may come before the command: forge -C DIR memory recall x.',
  },
  'run-id': {
    type: 'string',
    placeholder: 'ID',
    description:
      "The run this call belongs to (flag > FORGE_RUN_ID); when set, the call is recorded in that run's log, and the hint carries it as --run-id.",
  },
  json: { type: 'boolean', description: 'Print NDJSON records instead of text (also FORGE_JSON=1 or NDJSON input).' },
  color: {
    type: 'string',
    choices: ['auto', 'always', 'never'],
    placeholder: 'WHEN',
    description:
      'Colour the text output: auto (on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it), always (a bare --color), never (--no-color). NDJSON is never coloured.',
  },
  help: { type: 'boolean', alias: 'h', description: 'Show this help.' },
} as const satisfies ArgsSpec;

/**
 * Whether an option takes the word after it as its value (`--limit 5`, `-C dir`): every option but
 * a boolean, and --color, which is --color=always when bare, as git's (its value only as --color=WHEN).
 * The parser binds values by it, and the completions skip values by it.
 */
export function takesNextWord(name: string, spec: ArgSpec): boolean {
  return spec.type !== 'boolean' && name !== 'color';
}

/** Codes the CLI raises around any command (parsing, NDJSON, --cwd, --run-id; a bug): every man page lists them with the table's meaning. */
export const COMMON_ERRORS = [
  'UNKNOWN_OPTION',
  'UNKNOWN_FIELD',
  'UNEXPECTED_ARGUMENT',
  'INVALID_ARGUMENT',
  'MISSING_ARGUMENT',
  'BAD_NDJSON',
  'BAD_INPUT',
  'INPUT_TOO_LARGE',
  'CWD_NOT_FOUND',
  'INVALID_ID',
  'CANCELLED',
  'INTERNAL',
] as const satisfies readonly ErrorCode[];

/**
 * Codes of the repository and its state ref themselves, which any command that opens them may
 * raise (git failing, a repository git refuses, the state ref locked, racing or damaged): forge(1)
 * lists them once, and a command's declaration lists them only when it has more to say.
 */
export const REPOSITORY_ERRORS = [
  'GIT_FAILED',
  'UNSAFE_REPOSITORY',
  'LOCKED',
  'STATE_CONFLICT',
  'STATE_CORRUPT',
] as const satisfies readonly ErrorCode[];

export const COMMON_ENV: Record<string, string> = {
  FORGE_CWD: 'Working directory when --cwd is not given.',
  FORGE_RUN_ID: 'Run id when --run-id is not given.',
  FORGE_JSON: 'Set to 1 to print NDJSON records.',
  FORGE_DEBUG: 'Set to 1 to print stack traces of errors.',
  FORGE_MAX_INPUT:
    'The most stdin, a --file or one NDJSON line may hold, in bytes or with K, M or G (default 64M): more is INPUT_TOO_LARGE, refused as it arrives.',
  NO_COLOR: 'Disable colour (colour is only used on a terminal); --color=always overrides it.',
  FORCE_COLOR: 'Colour the text output even when it is not a terminal (0 or false: never); --color overrides it.',
  FORGE_PAGER:
    'The pager for long text on a terminal (forge diff, logs, state log), as git pages: else PAGER, else less with LESS=FRX; cat or empty means none. Never used off a terminal or with --json.',
};
