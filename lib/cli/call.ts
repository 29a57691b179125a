// One call of one command, whatever door it came by: validation in front, the run, then its outcome or its error; the CLI streams it, every other caller takes records and text.
import { statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve as resolvePath } from 'node:path';
import { assertId, CwdNotFoundError, ForgeError, RefusedError, type ExitCode } from '../errors';
import { xdgBase } from '../fs/xdg';
import { openRepo, type Repo } from '../git/repo';
import { StateStore } from '../git/state';
import { recordEvents, toolCallEvent } from '../logs/events';
import { shellJoin, shellSplit } from '../quote';
import type { CommandSpec, Entry, Item, Outcome, RunContext } from './declare';
import { hintFields, hintLines, PLAIN, type Hint, type Palette } from './output';
import { validateRequest } from './validate';

/** One repository discovery and one state store per directory, for as long as a context lives. */
class RepoCache {
  private repos = new Map<string, Promise<Repo>>();
  private stores = new Map<string, StateStore>();

  repo(cwd: string): Promise<Repo> {
    if (!this.repos.has(cwd)) this.repos.set(cwd, openRepo({ cwd }));
    return this.repos.get(cwd)!;
  }

  async store(cwd: string, env: NodeJS.ProcessEnv): Promise<StateStore> {
    const repo = await this.repo(cwd);
    if (!this.stores.has(repo.commonDir)) {
      const identity = { name: env.GIT_AUTHOR_NAME || 'forge', email: env.GIT_AUTHOR_EMAIL || 'forge@localhost' };
      this.stores.set(repo.commonDir, new StateStore(repo, identity));
    }
    return this.stores.get(repo.commonDir)!;
  }

  close(): void {
    for (const s of this.stores.values()) s.close();
    this.stores.clear();
    this.repos.clear();
  }
}

/** The signal of a call nobody cancels. */
const NEVER = new AbortController().signal;

/** Where calls run and who may stop them: made once, used for any number of calls, closed after the last. */
export interface CallContext {
  /** The directory calls run in, unless a call names another (--cwd, FORGE_CWD). */
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Aborted when the caller gives up (Ctrl-C, an MCP cancel): commands that run programs stop them. */
  readonly signal: AbortSignal;
  /** Progress for a caller that is not a terminal (an MCP client that sent a progressToken). */
  readonly onProgress?: (text: string) => void;
  /** The forge executable the calls run under (RunContext.program). */
  readonly program: string;
  /** Every command (RunContext.registry). */
  readonly registry: () => readonly Entry[];
  readonly repos: RepoCache;
  /** Ends the state stores the calls opened (their git processes). */
  close(): void;
}

export function createContext({
  cwd,
  env,
  signal,
  onProgress,
  program = process.argv[1] ?? 'forge',
  registry = noRegistry,
}: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  onProgress?: (text: string) => void;
  /** Default: this process's script, the executable when forge runs as itself. */
  program?: string;
  /** Default: none (a command that needs every command, completion or schema, fails as a bug of the caller). */
  registry?: () => readonly Entry[];
}): CallContext {
  const repos = new RepoCache();
  return { cwd, env, signal: signal ?? NEVER, ...(onProgress ? { onProgress } : {}), program, registry, repos, close: () => repos.close() };
}

/** The registry of a caller that gave none. */
function noRegistry(): readonly Entry[] {
  throw new Error('no registry: the caller of createContext passes the registry its commands may describe');
}

/** How a call's streamed output reaches whoever made it: the CLI's terminal and pipes, or a collector. */
export interface CallIo {
  /** Colours for text output; PLAIN for records. */
  paint: Palette;
  /** One streamed item of a listing command, as a record and as its text line. */
  emit(item: Item, text: string): Promise<void>;
  progress(text: string): Promise<void>;
  live(piece: string): Promise<boolean>;
  relay(chunk: Uint8Array | string): Promise<void>;
  status(text: string | null): Promise<void>;
  warn(text: string): Promise<void>;
  /** Whether a person can be asked (stdin and stderr are a terminal): off one, confirm() is null. */
  interactive: boolean;
  ask(question: string): Promise<string | null>;
}

/** What a hint must carry to run against the same repository and run as the call that gave it. */
export interface HintContext {
  /** The directory --cwd named (not FORGE_CWD, which the next call in the same shell still has). */
  cwd?: string;
  /**
   * The run id, from --run-id or FORGE_RUN_ID: `FORGE_RUN_ID=r1 forge iter update m3` is often one
   * command's environment, and a hint without the id would look in another run.
   */
  runId?: string;
}

/**
 * Adds the context to a hint, so it runs against the same repository and run: a forge command gets
 * --cwd / --run-id (not help, not after `--`, not a flag it already sets), a git command `-C DIR`.
 */
export function withContext(command: string | null | undefined, context: HintContext): string | null {
  if (!command) return command ?? null;
  if (command.startsWith('git ') && context.cwd !== undefined && !command.startsWith('git -C '))
    return `git -C ${shellJoin([context.cwd])} ${command.slice(4)}`;
  if (!command.startsWith('forge ') || command.endsWith(' --help')) return command;
  const words = shellSplit(command);
  if (!words) return command;
  // Before a `--`: what follows it is arguments (a pattern, an agent's command line), never options.
  const own = words.indexOf('--') === -1 ? words : words.slice(0, words.indexOf('--'));
  const extra: string[] = [];
  if (context.cwd !== undefined && !own.includes('--cwd')) extra.push('--cwd', context.cwd);
  if (context.runId !== undefined && !own.includes('--run-id')) extra.push('--run-id', context.runId);
  return extra.length ? shellJoin([...own, ...extra, ...words.slice(own.length)]) : command;
}

/** The outcome's hint, with the context its commands need. */
export function hintOf(outcome: Outcome, context: HintContext): Hint {
  return { next: withContext(outcome.next, context), or: withContext(outcome.or, context) ?? undefined, wait: outcome.wait };
}

/** The outcome as one NDJSON record: ok, the command's data and the hint fields (`type: summary` after streamed items). */
export function outcomeRecord({
  outcome,
  code,
  hint,
  streamed,
  id,
}: {
  outcome: Outcome;
  code: ExitCode;
  hint: Hint;
  streamed: boolean;
  id: unknown;
}): Record<string, unknown> {
  return {
    ...(id === undefined ? {} : { id }),
    ok: code === 0,
    ...(streamed ? { type: 'summary' } : {}),
    ...outcome.data,
    ...hintFields(hint),
  };
}

/**
 * The outcome as text, the one rule every door renders by: what goes to stdout, then what goes to
 * stderr, each piece one write. Data (CommandSpec.dataOutput) is the text alone; a raw answer (a
 * hook's) is stdout with the hint on stderr; otherwise the text, then the hint where the outcome says.
 */
export function outcomeText({
  outcome,
  hint,
  dataOutput,
  outPaint = PLAIN,
  errPaint = PLAIN,
}: {
  outcome: Outcome;
  hint: Hint;
  dataOutput: boolean;
  outPaint?: Palette;
  errPaint?: Palette;
}): { stdout: string[]; stderr: string[] } {
  const text = (s: string | undefined) => (s ? [s] : []);
  if (outcome.silent) return { stdout: [], stderr: [] };
  if (dataOutput) return { stdout: text(outcome.text), stderr: [] };
  const lines = (p: Palette) => hintLines({ ...hint, nextText: outcome.nextText }, p).join('\n');
  if (outcome.raw !== undefined) return { stdout: text(outcome.raw), stderr: [lines(errPaint)] };
  if (outcome.hintOnStderr) return { stdout: text(outcome.text), stderr: [lines(errPaint)] };
  return { stdout: [...text(outcome.text), lines(outPaint)], stderr: [] };
}

/** The error as one NDJSON record, `_next_action` its Fix. */
export function errorRecord(err: ForgeError, { id, line }: { id?: unknown; line?: number | undefined } = {}): Record<string, unknown> {
  return {
    ...(id === undefined ? {} : { id }),
    ok: false,
    error: { code: err.code, message: err.message, ...(Object.keys(err.data).length ? { data: err.data } : {}) },
    ...(line === undefined ? {} : { line }),
    _next_action: err.fix ?? 'forge --help',
  };
}

/** The error as text: `Error:` and `Fix:` lines. */
export function errorText(err: ForgeError, p: Palette = PLAIN): string {
  return `${p.error('Error:')} ${err.message}\n${p.label('Fix:')} ${err.fix ?? 'forge --help'}`;
}

/** Anything not a ForgeError is a bug: exit 1, and the fix re-runs the same call with stack traces on. */
export function toForgeError(err: unknown, helpFix: string, env: NodeJS.ProcessEnv = {}, argv: string[] = []): ForgeError {
  if (err instanceof ForgeError) {
    if (!err.fix) err.fix = helpFix;
    return err;
  }
  const message = err instanceof Error ? err.message : String(err);
  const again = argv.length > 2 ? `FORGE_DEBUG=1 ${shellJoin([basename(argv[1]!), ...argv.slice(2)])}` : `FORGE_DEBUG=1 ${helpFix}`;
  const e = new ForgeError('INTERNAL', `internal error: ${message}`, { fix: again, cause: err });
  if (env.FORGE_DEBUG === '1' && err instanceof Error) e.stack = err.stack;
  return e;
}

/** The --cwd / FORGE_CWD directory, absolute; missing is CWD_NOT_FOUND unless the command reports it itself. */
function resolveCwd(
  base: string,
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  allowMissing: boolean,
): { dir: string; exists: boolean } {
  const chosen = flag ?? env.FORGE_CWD ?? base;
  const dir = isAbsolute(chosen) ? chosen : resolvePath(base, chosen);
  let exists = false;
  try {
    exists = statSync(dir).isDirectory();
  } catch {
    exists = false;
  }
  if (!exists && !allowMissing) throw new CwdNotFoundError(dir);
  return { dir, exists };
}

/** What one call settled, read when it fails (the Fix, the log) as well as when it succeeds. */
interface Settled {
  context: HintContext;
  /** The directory state and hints are about, once resolved. */
  cwd: string | undefined;
  /** The run id, once checked: the call is logged under it even when it fails. */
  runId: string | undefined;
  /** Whether the command emitted items before its outcome (the outcome is then a summary). */
  streamed: boolean;
}

/** What came of one call: its exit code, and its outcome or its error (its Fix already carrying --cwd / --run-id). */
export interface CallResult {
  code: ExitCode;
  outcome?: Outcome;
  error?: ForgeError;
  /** What the outcome's hint must carry (hintOf). */
  context: HintContext;
  /** Whether items were emitted before the outcome. */
  streamed: boolean;
}

/**
 * Runs one request of `spec`: its raw arguments validated (keys as long flag names or camelCase,
 * values coerced as from flags or NDJSON), its directory and run id settled (the request's own
 * fields, then the CLI's flags, then FORGE_CWD / FORGE_RUN_ID), the command run, its call logged
 * when a run id is set. Never throws for a command's failure: the error comes back as a ForgeError.
 */
export async function runCall({
  spec,
  raw,
  ctx,
  io,
  flags = {},
  argv,
}: {
  spec: CommandSpec<any>;
  raw: Record<string, unknown>;
  ctx: CallContext;
  io: CallIo;
  /** --cwd and --run-id as the command line gave them. */
  flags?: { cwd?: string | undefined; runId?: string | undefined };
  /** The process's argv, for an internal error's Fix (the same command line again). */
  argv?: string[];
}): Promise<CallResult> {
  const started = Date.now();
  const helpFix = `forge ${spec.name} --help`;
  const settled: Settled = { context: {}, cwd: undefined, runId: undefined, streamed: false };
  let result: CallResult;
  try {
    const { args, common } = validateRequest({ spec: spec.args, raw, fix: helpFix });
    const cwdFlag = common.cwd ?? flags.cwd;
    const target = resolveCwd(ctx.cwd, cwdFlag, ctx.env, spec.allowMissingCwd === true);
    // A missing directory the command reports itself: state goes to the repository forge started
    // in, and hints leave out a --cwd that would only fail.
    settled.cwd = target.exists ? target.dir : ctx.cwd;
    const requested = common['run-id'] ?? flags.runId ?? (ctx.env.FORGE_RUN_ID || undefined);
    // Kept only once valid: the call is logged under runId even when it fails, and an invalid id
    // must never name a spool file, a log or anything else.
    if (requested !== undefined) settled.runId = assertId({ kind: 'run id', value: requested });
    if (cwdFlag !== undefined && target.exists) settled.context.cwd = settled.cwd;
    settled.context.runId = settled.runId;
    // A call cancelled before it starts does nothing: a caller's abort is never answered with work done.
    if (ctx.signal.aborted)
      throw new RefusedError('CANCELLED', `forge ${spec.name} was cancelled before it started: nothing was done`, { fix: helpFix });
    const outcome = await spec.run(args, runContext({ target, settled, ctx, io }));
    result = { code: outcome.exitCode ?? 0, outcome, context: settled.context, streamed: settled.streamed };
  } catch (err) {
    const e = toForgeError(err, helpFix, ctx.env, argv);
    const { cwd, context } = settled;
    e.fix =
      e.code === 'NOT_A_GIT_REPO' && cwd && cwd !== ctx.cwd ? shellJoin(['git', 'init', cwd]) : (withContext(e.fix, context) ?? undefined);
    result = { code: spec.failsOpen ? 0 : e.exitCode, error: e, context: settled.context, streamed: settled.streamed };
  }
  const { cwd, runId } = settled;
  if (runId !== undefined && cwd !== undefined && spec.recordsToolCall !== false)
    await recordToolCall({ ctx, cwd, runId, name: spec.name, code: result.code, errorCode: result.error?.code, started, io });
  return result;
}

/** What a command's run gets: the repository and store of its directory, and the caller's io. */
function runContext({
  target,
  settled,
  ctx,
  io,
}: {
  target: { dir: string; exists: boolean };
  settled: Settled;
  ctx: CallContext;
  io: CallIo;
}): RunContext {
  const { env } = ctx;
  const dir = settled.cwd!;
  const run: RunContext = {
    cwd: target.dir,
    cwdMissing: !target.exists,
    runId: settled.runId,
    paint: io.paint,
    env,
    // A getter: node:os (0.3 ms) only for the commands that keep data outside the repository.
    get dataHome() {
      const home =
        xdgBase(env.XDG_DATA_HOME) ??
        join(env.HOME || (process.getBuiltinModule('node:os') as typeof import('node:os')).homedir(), '.local', 'share');
      return join(home, 'forge');
    },
    program: ctx.program,
    registry: ctx.registry,
    repo: () => ctx.repos.repo(dir),
    store: () => ctx.repos.store(dir, env),
    cmd: (...w) => shellJoin(['forge', ...w.map(String)]),
    emit: (item, text) => {
      settled.streamed = true;
      return io.emit(item, text);
    },
    signal: ctx.signal,
    progress: (text) => {
      ctx.onProgress?.(text);
      return io.progress(text);
    },
    live: async (piece) => {
      const shown = await io.live(piece);
      if (shown) settled.streamed = true;
      return shown;
    },
    relay: (chunk) => io.relay(chunk),
    status: (text) => {
      if (text !== null) ctx.onProgress?.(text);
      return io.status(text);
    },
    warn: (text) => io.warn(text),
    ask: (question) => io.ask(question),
    confirm: async (question) => {
      if (!io.interactive) return null;
      // Unanswered (Ctrl-D) is a no.
      return /^y(es)?$/i.test((await io.ask(`${question} [y/N] `))?.trim() ?? '');
    },
    now: () => new Date(),
  };
  return run;
}

/** Every call of an active run lands in its log as a tool_call event (spooled, flushed in batches). */
async function recordToolCall({
  ctx,
  cwd,
  runId,
  name,
  code,
  errorCode,
  started,
  io,
}: {
  ctx: CallContext;
  cwd: string;
  runId: string;
  name: string;
  code: ExitCode;
  errorCode: string | undefined;
  started: number;
  io: CallIo;
}): Promise<void> {
  try {
    const repo = await ctx.repos.repo(cwd);
    const event = toolCallEvent({ runId, name, exitCode: code, error: errorCode, durationMs: Date.now() - started, now: new Date() });
    await recordEvents({ repo, store: () => ctx.repos.store(cwd, ctx.env), runId, events: [event] });
  } catch (err) {
    // Logging must never fail the call it records; outside a repository there is no log.
    if (ctx.env.FORGE_DEBUG === '1') await io.warn(`forge: could not record tool_call: ${(err as Error).message}`);
  }
}
