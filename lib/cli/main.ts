// The CLI entry: resolve the command, read flags or NDJSON, run each request, render text or records, exit code.
import { basename } from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import { ForgeError, InvalidInputError, type ExitCode } from '../errors';
import {
  type CallContext,
  type CallIo,
  createContext,
  errorRecord,
  errorText,
  hintOf,
  outcomeRecord,
  outcomeText,
  runCall,
  toForgeError,
} from './call';
import type { ArgsSpec, CommandSpec, Entry, Outcome } from './declare';
import { type InputLine, maxInput, readAll, readStdin, sizeText, type StdinSource, tooLarge } from './input';
import { Output, PLAIN, type Hint, type Stream } from './output';
import { groupHelp, topHelp } from './overview';
import { colorOption, isLeadingOption, leadingWithoutValue, splitWords } from './leading';
import { pagerCommand, startPager, type Pager, type PagerEnd } from './pager';
import { helpText, parseArgv, type ParsedArgv } from './parse';
import { shellJoin } from '../quote';
import { programWords, resolve, suggest } from './registry';
import { versionOutput } from './version';

export const VERSION: string = pkg.version;

/** The values of --color, as git's. */
const COLORS = ['auto', 'always', 'never'];

export interface MainOptions {
  entries: readonly Entry[];
  /** process.argv: [node, program, ...args]. */
  argv: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdin: StdinSource;
  stdout: Stream;
  stderr: Stream;
  /** Aborted when the caller gives up on the call (an MCP client's cancel or disconnect): commands that run programs stop them. */
  signal?: AbortSignal;
  /** Progress for a caller that is not a terminal (an MCP client that sent a progressToken): each line a person would see. */
  onProgress?: (text: string) => void;
  /**
   * The reader stopped reading: stdout's pipe closed (`forge … | head -1`) or the person quit the
   * pager. The executable exits 0 there, as git does; an in-process caller is left to decide.
   */
  onReaderGone?: () => void;
  /** Every command, when `entries` is one bundle's few (RunContext.registry); `entries` by default. */
  registry?: () => readonly Entry[];
}

/** One request of a call: flags, or one NDJSON line (with why it could not be parsed). */
interface Request {
  raw: Record<string, unknown>;
  line?: number;
  error?: string;
  /** Why no request could be read here at all (stdin failed). */
  failure?: ForgeError;
}

/** INVALID_ARGUMENT for a --color that is not auto, always or never, its Fix the same words with --color=auto; null when it is one of them. */
function invalidColor(color: string, words: string[]): InvalidInputError | null {
  if (COLORS.includes(color)) return null;
  return new InvalidInputError('INVALID_ARGUMENT', `'--color' must be one of ${COLORS.join(', ')}, not '${color}'`, {
    fix: shellJoin(['forge', ...words.filter((w) => !w.startsWith('--color')), '--color=auto']),
    data: { field: 'color' },
  });
}

/** Help's width: the terminal's columns, else $COLUMNS (never below 40); unwrapped into a pipe that names none, so a script reads whole lines. */
function helpWidth({ stdout, env }: MainOptions): number {
  const columns = (stdout as { columns?: number }).columns ?? Number(env.COLUMNS);
  return Number.isFinite(columns) && columns > 0 ? Math.max(40, columns) : Infinity;
}

export async function main(opts: MainOptions): Promise<ExitCode> {
  const { entries, argv, env } = opts;
  const { leading, command: words } = splitWords([...programWords(entries, basename(argv[1] ?? 'forge')), ...argv.slice(2)]);
  // Until the command's parser has read its own options (which may take '--color' as a value), the
  // leading ones and a first look at the rest decide the colour of an early error.
  const early = colorOption([...leading, ...words]);
  const out = await Output.create({ stdout: opts.stdout, stderr: opts.stderr, env, color: COLORS.includes(early) ? early : 'never' });
  // `forge … | head -1`: a closed pipe is a normal way for a reader to stop.
  opts.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') return opts.onReaderGone?.();
    throw err;
  });
  const jsonWanted =
    [...leading, ...words.slice(0, (words.indexOf('--') + 1 || words.length + 1) - 1)].includes('--json') || env.FORGE_JSON === '1';
  const fail = async (err: ForgeError): Promise<ExitCode> => {
    await renderError(out, err, { json: jsonWanted, env, id: undefined, line: undefined });
    return err.exitCode;
  };
  const badColor = invalidColor(colorOption(leading), [...leading, ...words]);
  if (badColor) return fail(badColor);

  if (words[0] === '--version') return printVersion({ rest: words.slice(1), json: jsonWanted, out, fail });
  const r = resolve(entries, words);
  if (r.kind === 'none') {
    // `forge`, `forge --help`, or common options with no command after them (`forge -C dir`).
    const unknown = words.find((w) => w.startsWith('-') && !isLeadingOption(w));
    if (unknown) return fail(new InvalidInputError('UNKNOWN_OPTION', `unknown option '${unknown}'`, { fix: 'forge --help' }));
    const bare = leadingWithoutValue([...leading, ...words]);
    if (bare) return fail(new InvalidInputError('INVALID_ARGUMENT', `option '${bare}' needs a value`, { fix: 'forge --help' }));
    await out.write(opts.stdout, topHelp(entries, helpWidth(opts)));
    return 0;
  }
  if (r.kind === 'unknown') {
    const names = r.parent ? r.parent.commands.map((c) => c.name.split(' ')[1]!) : entries.map((e) => e.name);
    const guess = suggest(r.word, names);
    const prefix = r.parent ? `forge ${r.parent.name}` : 'forge';
    return fail(
      new InvalidInputError(
        'UNKNOWN_COMMAND',
        `unknown command '${r.parent ? `${r.parent.name} ` : ''}${r.word}'${guess ? `; did you mean '${guess}'?` : ''}`,
        {
          fix: guess ? `${prefix} ${guess} --help` : `${prefix} --help`,
        },
      ),
    );
  }
  if (r.kind === 'group') {
    // `forge plan` alone lists its subcommands, as `gh pr` does; so do common options alone.
    if (![...leading, ...r.rest].some((w) => w.startsWith('-') && !isLeadingOption(w))) {
      await out.write(opts.stdout, groupHelp(r.group, helpWidth(opts)));
      return 0;
    }
    return fail(
      new InvalidInputError(
        'MISSING_SUBCOMMAND',
        `'forge ${r.group.name}' needs a subcommand: ${r.group.commands.map((c) => c.name.split(' ')[1]).join(', ')}`,
        { fix: `forge ${r.group.name} --help` },
      ),
    );
  }
  // The leading options go ahead of the command's own arguments: before any value or `--` of theirs.
  return runCommand(r.spec, [...leading, ...r.rest], opts, out);
}

/**
 * `forge version` / `--version`: the version line, or the record with --json. The common options
 * were taken before and after it (lib/cli/leading.ts); any other word is refused.
 */
async function printVersion({
  rest,
  json,
  out,
  fail,
}: {
  rest: string[];
  json: boolean;
  out: Output;
  fail: (err: ForgeError) => Promise<ExitCode>;
}): Promise<ExitCode> {
  const word = rest[0];
  if (word === undefined) {
    await out.write(out.stdout, versionOutput({ version: VERSION, json }));
    return 0;
  }
  const fix = 'forge version';
  const bare = leadingWithoutValue(rest);
  if (bare && rest.length === 1) return fail(new InvalidInputError('INVALID_ARGUMENT', `option '${bare}' needs a value`, { fix }));
  if (word.startsWith('-') && word !== '-' && word !== '--')
    return fail(new InvalidInputError('UNKNOWN_OPTION', `unknown option '${word}'`, { fix }));
  return fail(new InvalidInputError('UNEXPECTED_ARGUMENT', `unexpected argument '${word}'`, { fix }));
}

async function runCommand(spec: CommandSpec<any>, rest: string[], opts: MainOptions, out: Output): Promise<ExitCode> {
  const { env } = opts;
  const helpFix = `forge ${spec.name} --help`;
  let parsed: ParsedArgv;
  try {
    parsed = parseArgv(spec, rest);
  } catch (err) {
    const e = toForgeError(err, helpFix);
    await renderError(out, e, { json: rest.includes('--json') || env.FORGE_JSON === '1', env, id: undefined, line: undefined });
    return spec.failsOpen ? 0 : e.exitCode;
  }
  let json = parsed.json || env.FORGE_JSON === '1';
  const badColor = invalidColor(parsed.color ?? 'auto', [spec.name, ...rest]);
  if (badColor) {
    await renderError(out, badColor, { json, env, id: undefined, line: undefined });
    return badColor.exitCode;
  }
  // The parser's reading of --color is the one that counts: '--old --color' is a value, not a choice.
  if ((parsed.color ?? 'auto') !== colorOption(rest))
    out = await Output.create({ stdout: opts.stdout, stderr: opts.stderr, env, color: parsed.color ?? 'auto' });
  if (parsed.help) {
    await out.write(opts.stdout, (await helpText(spec, helpWidth(opts))) + '\n');
    return 0;
  }

  let requests: AsyncIterable<Request> | Request[];
  try {
    const read = await requestsOf({
      spec,
      parsed,
      stdin: opts.stdin,
      env: opts.env,
      command: shellJoin(['forge', ...spec.name.split(' '), ...rest]),
    });
    requests = read.requests;
    json ||= read.ndjson;
  } catch (err) {
    const e = toForgeError(err, helpFix);
    await renderError(out, e, { json, env, id: undefined, line: undefined });
    return e.exitCode;
  }

  const ctx = createContext({
    cwd: opts.cwd,
    env,
    ...(opts.argv[1] ? { program: opts.argv[1] } : {}),
    registry: opts.registry ?? (() => opts.entries),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  });
  let worst: ExitCode = 0;
  // A person reading a long answer on a terminal gets the pager; quitting it early ends the command, as in git.
  const pager = spec.pager && !json && opts.stdout.isTTY ? await openPager({ opts, out }) : null;
  const target = pager ? out.to(pager.stdin as Stream) : out;
  let paged: PagerEnd | undefined;
  try {
    for await (const req of requests) {
      const code = await runRequest({ spec, req, parsed, json, opts, out: target, ctx });
      if (code > worst) worst = code;
    }
  } finally {
    ctx.close();
    paged = await pager?.close();
  }
  if (paged?.kind !== 'failed') return worst;
  // Where git shows nothing and exits 0: the person is told, and how to see the output.
  await out.err(
    `${out.errPalette.error('Error:')} the pager '${paged.command}' ${paged.why}, so the output may not have been shown\n${out.errPalette.label('Fix:')} FORGE_PAGER=cat ${shellJoin(['forge', ...spec.name.split(' '), ...rest])}`,
  );
  return worst > 1 ? worst : 1;
}

/** The pager of $FORGE_PAGER, $PAGER or less, started; null when none is set or found. One that cannot run is a warning, and the text goes to the terminal. */
async function openPager({ opts, out }: { opts: MainOptions; out: Output }): Promise<Pager | null> {
  const command = pagerCommand(opts.env);
  if (!command) return null;
  return startPager({
    command,
    env: opts.env,
    stdout: opts.stdout,
    onQuit: () => opts.onReaderGone?.(),
    onUnstartable: (why) =>
      out.err(
        `${out.errPalette.label('warning:')} cannot run the pager '${command}': ${why}; the output follows without it (FORGE_PAGER=cat: no pager)`,
      ),
  });
}

/**
 * The requests of a call: its flags; the text of a text-input command read from stdin; or, with no
 * command arguments, stdin's NDJSON requests. BAD_INPUT for stdin that is not NDJSON, or that cannot
 * be read — except a blob the command parses itself (a hook's payload, `anyText`): an unreadable one
 * is handed on empty, for the command to judge as it judges an empty one (a gate: closed while a
 * plan is active, out of the way when none is).
 */
async function requestsOf({
  spec,
  parsed,
  stdin,
  env,
  command,
}: {
  spec: CommandSpec<any>;
  parsed: ParsedArgv;
  stdin: StdinSource;
  env: NodeJS.ProcessEnv;
  /** The command line, for the Fix of input over the limit. */
  command: string;
}): Promise<{ requests: AsyncIterable<Request> | Request[]; ndjson: boolean }> {
  const flags = { requests: [{ raw: parsed.raw }], ndjson: false };
  const textArg = spec.stdinText;
  const textElsewhere = (spec.stdinAlternatives ?? []).some((a) => parsed.raw[a] !== undefined);
  if (textArg && parsed.hasCommandArgs && parsed.raw[textArg] === undefined && !textElsewhere && !stdin.isTTY && !stdin.absent) {
    const text = await readAll(stdin, { limit: maxInput(env), command }).catch((err: unknown) => {
      if ((spec.args as ArgsSpec)[textArg]?.anyText && err instanceof ForgeError) return '';
      throw err;
    });
    return { requests: [{ raw: { ...parsed.raw, [textArg]: text } }], ndjson: false };
  }
  if (parsed.hasCommandArgs || stdin.isTTY || spec.ownsStdin) return flags;
  const bound = { limit: maxInput(env), command };
  const input = await readStdin(stdin, bound);
  if (input.kind === 'ndjson') return { requests: numbered(input.lines, bound), ndjson: true };
  if (input.kind === 'text' && textArg) return { requests: [{ raw: { ...parsed.raw, [textArg]: input.text } }], ndjson: false };
  if (input.kind === 'text')
    throw new InvalidInputError('BAD_INPUT', "stdin is not NDJSON: each request is one JSON object per line, starting with '{'");
  return flags;
}

/** stdin's NDJSON lines as requests, numbered; a failed read ends them with its BAD_INPUT as the last request. */
async function* numbered(lines: AsyncIterable<InputLine>, bound: { limit: number; command: string }): AsyncGenerator<Request> {
  let n = 0;
  const iterator = lines[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<InputLine>;
    try {
      next = await iterator.next();
    } catch (err) {
      if (!(err instanceof ForgeError)) throw err;
      yield { raw: {}, line: n + 1, failure: err };
      return;
    }
    if (next.done) return;
    const text = next.value;
    n++;
    // A line over the limit was let go of as it came: its error, and the lines after it go on.
    if (typeof text !== 'string') {
      yield { raw: {}, line: n, failure: tooLarge({ what: `line ${n} of stdin (${sizeText(text.over)})`, ...bound }) };
      continue;
    }
    if (!text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      yield { raw: {}, line: n, error: `stdin:${n}: ${(err as Error).message}` };
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      yield { raw: {}, line: n, error: `stdin:${n}: expected a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}` };
      continue;
    }
    yield { raw: value as Record<string, unknown>, line: n };
  }
}

/**
 * A request's id is echoed in every record it gets: only a string or a finite number is, as in
 * JSON-RPC (an id of any other shape — a deep array, say — is refused, not copied back).
 */
function requestId(raw: Record<string, unknown>): { id: unknown; badId: boolean } {
  const rawId = raw.id;
  const badId =
    rawId !== undefined &&
    rawId !== null &&
    !(typeof rawId === 'string' && rawId.length <= 1024) &&
    !(typeof rawId === 'number' && Number.isFinite(rawId));
  return { id: badId ? undefined : rawId, badId };
}

function badIdError(rawId: unknown, helpFix: string): InvalidInputError {
  return new InvalidInputError(
    'INVALID_ARGUMENT',
    `"id" must be a string (at most 1024 characters) or a number, got ${Array.isArray(rawId) ? 'an array' : typeof rawId === 'string' ? `a string of ${rawId.length} characters` : typeof rawId}`,
    { fix: helpFix },
  );
}

/** A question on the terminal; null when there is none to ask on, or nobody answers (Ctrl-D). */
async function ask({ question, opts }: { question: string; opts: MainOptions }): Promise<string | null> {
  const input = opts.stdin.isTTY && opts.stderr.isTTY ? opts.stdin.stream?.() : undefined;
  if (!input) return null;
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input, output: opts.stderr });
  // Ctrl-D closes the question unanswered: nobody is answering any more.
  const answer = await new Promise<string | null>((done) => {
    rl.on('close', () => done(null));
    rl.question(question, done);
  });
  rl.close();
  return answer;
}

/** The CLI's side of a call: items and progress to stdout and stderr as the call's mode and the terminal decide, questions on the terminal. */
function cliIo({ json, id, opts, out }: { json: boolean; id: unknown; opts: MainOptions; out: Output }): CallIo {
  return {
    paint: json ? PLAIN : out.outPalette,
    emit: async (item, text) => {
      if (json) await out.record(id === undefined ? item : { ...item, id });
      else if (text) await out.out(text);
    },
    progress: async (text) => {
      if (opts.stderr.isTTY) await out.err(out.errPalette.dim(text));
    },
    live: async (piece) => {
      if (json || !opts.stdout.isTTY) return false;
      await out.write(out.stdout, out.forTerminal(out.stdout, piece));
      return true;
    },
    relay: (chunk) => out.write(out.stderr, chunk),
    status: async (text) => {
      // Carriage return and erase-line: the line is redrawn in place, and cleared before other output.
      if (opts.stderr.isTTY)
        await out.write(out.stderr, text === null ? '\r\x1b[K' : `\r\x1b[K${out.errPalette.dim(out.forTerminal(out.stderr, text))}`);
    },
    warn: (text) => out.err(`${out.errPalette.label('warning:')} ${text}`),
    interactive: Boolean(opts.stdin.isTTY && opts.stderr.isTTY),
    ask: (question) => ask({ question, opts }),
  };
}

/** The outcome as the call asked for it: raw output with the hint on stderr, one record, or text and its hint lines. */
async function renderOutcome({
  outcome,
  code,
  hint,
  streamed,
  json,
  id,
  out,
  dataOutput,
}: {
  /** The command's text is data (CommandSpec.dataOutput): it alone is printed. */
  dataOutput: boolean;
  outcome: Outcome;
  code: ExitCode;
  hint: Hint;
  streamed: boolean;
  json: boolean;
  id: unknown;
  out: Output;
}): Promise<void> {
  if (outcome.silent) return;
  if (json && outcome.raw === undefined) return out.record(outcomeRecord({ outcome, code, hint, streamed, id }));
  const { stdout, stderr } = outcomeText({ outcome, hint, dataOutput, outPaint: out.outPalette, errPaint: out.errPalette });
  for (const piece of stdout) await out.out(piece);
  for (const piece of stderr) await out.err(piece);
}

/** One request: refused here when it could not be read (bad NDJSON, a bad id), else run through the shared call path and rendered. */
async function runRequest({
  spec,
  req,
  parsed,
  json,
  opts,
  out,
  ctx,
}: {
  spec: CommandSpec<any>;
  req: Request;
  parsed: ParsedArgv;
  json: boolean;
  opts: MainOptions;
  out: Output;
  ctx: CallContext;
}): Promise<ExitCode> {
  const { env } = opts;
  const helpFix = `forge ${spec.name} --help`;
  const { id, badId } = requestId(req.raw);
  const unread =
    req.failure ??
    (req.error
      ? new InvalidInputError('BAD_NDJSON', req.error, { fix: helpFix, data: { line: req.line } })
      : badId
        ? badIdError(req.raw.id, helpFix)
        : null);
  if (unread) {
    const e = toForgeError(unread, helpFix);
    await renderError(out, e, { json, env, id, line: req.line });
    return spec.failsOpen ? 0 : e.exitCode;
  }
  const io = cliIo({ json, id, opts, out });
  const result = await runCall({ spec, raw: req.raw, ctx, io, flags: { cwd: parsed.cwd, runId: parsed.runId }, argv: opts.argv });
  if (result.outcome)
    await renderOutcome({
      outcome: result.outcome,
      code: result.code,
      hint: hintOf(result.outcome, result.context),
      streamed: result.streamed,
      json,
      id,
      out,
      dataOutput: spec.dataOutput === true,
    });
  else if (result.error) await renderError(out, result.error, { json, env, id, line: req.line });
  return result.code;
}

async function renderError(
  out: Output,
  err: ForgeError,
  { json, env, id, line }: { json: boolean; env: NodeJS.ProcessEnv; id: unknown; line: number | undefined },
): Promise<void> {
  if (json) await out.record(errorRecord(err, { id, line }));
  else await out.err(errorText(err, out.errPalette));
  if (env.FORGE_DEBUG === '1') await out.err(String((err.cause as Error | undefined)?.stack ?? err.stack));
}
