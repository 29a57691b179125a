// argv → a raw request through yargs-parser with options derived from the declaration; yargs renders --help.
// The entry without Node's libraries: the same parser, whose config files, env prefix and path
// normalising forge never asks for, without loading node:module (0.4 ms of every call) for them.
import yargsParser from 'yargs-parser/browser';
import type { Argv } from 'yargs';
import { InvalidInputError } from '../errors';
import { COMMON_ARGS, takesNextWord, type ArgSpec, type ArgsSpec, type CommandSpec } from './declare';
import { wrapText } from './overview';
import { optionText, positionals, synopsis } from './usage';
export interface ParsedArgv {
  /** Command arguments given on the command line, keyed by long name (not yet validated). */
  raw: Record<string, unknown>;
  /** True when any command argument (not a common option) was given. */
  hasCommandArgs: boolean;
  cwd?: string;
  runId?: string;
  json: boolean;
  /** --color's value as given (--no-color: never); undefined when not given. */
  color?: string;
  help: boolean;
  /** Words after `--`, for commands that run another program. */
  rest: string[];
}

function yargsType(spec: ArgSpec): 'string' | 'number' | 'boolean' {
  if (spec.type === 'boolean') return 'boolean';
  if (spec.type === 'number' || spec.type === 'integer') return 'number';
  return 'string';
}

function addOption(y: Argv, name: string, spec: ArgSpec, group: string): Argv {
  return y
    .option(name, {
      type: yargsType(spec),
      array: spec.type === 'array',
      alias: spec.alias,
      description: optionText(spec),
      requiresArg: spec.type !== 'boolean',
    })
    .group(name, group);
}

/** The help text: synopsis, description, arguments, options, examples, exit status. */
function usageBlock(spec: CommandSpec<any>, width: number): string {
  const lines = [...wrapText(synopsis(spec), width, '    '), '', spec.summary];
  const pos = positionals(spec.args);
  if (pos.length) {
    lines.push('', 'Arguments:');
    const width = Math.max(...pos.map(([n]) => n.length + 2));
    for (const [name, s] of pos) lines.push(`  ${`<${name}>`.padEnd(width)}  ${optionText(s)}`);
  }
  return lines.join('\n');
}

function exitEpilogue(spec: CommandSpec<any>): string {
  const exits = Object.entries(spec.exits).map(([code, text]) => `  ${code}  ${text}`);
  const page = `forge-${spec.name.split(' ')[0]}`;
  const findings = Object.keys(spec.findings ?? {});
  return [
    'Exit status:',
    ...exits,
    '',
    `Error codes: ${Object.keys(spec.errors).join(', ') || 'none'}`,
    ...(findings.length ? [`Finding codes: ${findings.join(', ')}`] : []),
    `See also: man ${page}`,
  ].join('\n');
}

/** yargs-parser settings shared by parsing and help: git-like, no surprises. */
const CONFIGURATION = {
  'camel-case-expansion': false,
  'dot-notation': false,
  'greedy-arrays': false,
  'duplicate-arguments-array': true,
  'parse-positional-numbers': false,
  'populate--': true,
  'strip-aliased': true,
};

function allArgs(spec: CommandSpec<any>): Array<[string, ArgSpec]> {
  return [...Object.entries(spec.args as ArgsSpec), ...Object.entries(COMMON_ARGS as ArgsSpec)];
}

/**
 * The yargs-parser options of a command. Full yargs is not loaded to parse: its string-width
 * dependency builds an emoji regex and an Intl.Segmenter at import, ~35 ms of every start-up.
 */
function parserOptions(spec: CommandSpec<any>): yargsParser.Options {
  const o = {
    string: [] as string[],
    number: [] as string[],
    boolean: [] as string[],
    array: [] as string[],
    alias: {} as Record<string, string>,
    narg: {} as Record<string, number>,
  };
  for (const [name, s] of allArgs(spec)) {
    o[yargsType(s)].push(name);
    if (s.type === 'array') o.array.push(name);
    if (s.alias) o.alias[name] = s.alias;
    if (s.type !== 'boolean' && s.type !== 'array') o.narg[name] = 1;
  }
  return { ...o, configuration: CONFIGURATION };
}

async function helpParser(spec: CommandSpec<any>, width: number): Promise<Argv> {
  const { yargs } = await import('./yargs');
  let y = yargs([])
    .scriptName(`forge ${spec.name}`)
    .usage(usageBlock(spec, width))
    .parserConfiguration(CONFIGURATION)
    .help(false)
    .version(false)
    .exitProcess(false)
    .wrap(Number.isFinite(width) ? width : null);
  for (const [name, s] of Object.entries(spec.args as ArgsSpec)) y = addOption(y, name, s, 'Options:');
  for (const [name, s] of Object.entries(COMMON_ARGS)) y = addOption(y, name, s as ArgSpec, 'Common options:');
  for (const ex of spec.examples) y = y.example(ex.command, ex.description);
  return y.epilogue(exitEpilogue(spec));
}

function usageError(spec: CommandSpec<any>, message: string): InvalidInputError {
  const fix = `forge ${spec.name} --help`;
  return new InvalidInputError(
    'INVALID_ARGUMENT',
    message.replace(/^Not enough arguments following: (.*)$/, "option '--$1' needs a value"),
    { fix },
  );
}

/**
 * An option that takes a value takes the next word whatever it looks like, as git's options do:
 * `--old -y` and `--new '--cwd x'` are values, not options (yargs-parser would read them as flags).
 * Bound here as `--old=-y`, which the parser keeps verbatim; nothing after `--` is touched.
 */
function bindValues(spec: CommandSpec<any>, argv: string[]): string[] {
  const takesValue = new Set(
    allArgs(spec)
      .filter(([n, s]) => takesNextWord(n, s))
      .flatMap(([n, s]) => [`--${n}`, ...(s.alias ? [s.alias.length === 1 ? `-${s.alias}` : `--${s.alias}`] : [])]),
  );
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return [...out, ...argv.slice(i)];
    // A bare --color is --color=always, as git's: it never takes the next word.
    if (word === '--color') out.push('--color=always');
    else if (takesValue.has(word) && i + 1 < argv.length) out.push(`${word}=${argv[++i]}`);
    else out.push(word);
  }
  return out;
}

/** Parses a command's argv into a raw request; throws INVALID input errors with the help as fix. */
export function parseArgv(spec: CommandSpec<any>, argv: string[]): ParsedArgv {
  const fix = `forge ${spec.name} --help`;
  const result = yargsParser.detailed(bindValues(spec, argv), parserOptions(spec));
  if (result.error) throw usageError(spec, result.error.message);
  const parsed = result.argv as Record<string, unknown>;
  const known = new Set(allArgs(spec).flatMap(([n, s]) => (s.alias ? [n, s.alias] : [n])));
  for (const key of Object.keys(parsed)) {
    if (key === '_' || key === '--' || known.has(key)) continue;
    // Named as it was typed, dashes and all (`--no-x` reaches us as x=false, `-z` as z).
    const spelt = [`--${key}`, `--no-${key}`].find((f) => argv.some((a) => a === f || a.startsWith(`${f}=`)));
    const typed = spelt ?? (key.length === 1 ? `-${key}` : `--${key}`);
    throw new InvalidInputError('UNKNOWN_OPTION', `unknown option '${typed}'`, { fix });
  }
  const raw: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(spec.args as ArgsSpec)) {
    let value = parsed[name];
    if (value === undefined) continue;
    // yargs collects repeated scalars into arrays; for a scalar the last one wins, as in git.
    if (s.type !== 'array' && Array.isArray(value)) value = value[value.length - 1];
    if (typeof value === 'number' && Number.isNaN(value)) {
      throw new InvalidInputError('INVALID_ARGUMENT', `'--${name}' must be a number`, { fix, data: { field: name } });
    }
    raw[name] = value;
  }
  // After `--` every word is an argument, as in git: `forge search -- --verbose` looks for
  // "--verbose". A command that runs another program (forge loop run) takes them whole instead.
  const dashed = ((parsed['--'] as unknown[]) ?? []).map(String);
  const target = Object.entries(spec.args as ArgsSpec).find(([, s]) => s.afterDashes);
  const words = [...((parsed._ as unknown[]) ?? []).map(String), ...(target ? [] : dashed)];
  const pos = positionals(spec.args);
  for (const [name, s] of pos) {
    if (!words.length) break;
    if (raw[name] !== undefined) continue;
    raw[name] = s.type === 'array' ? words.splice(0) : s.rest ? words.splice(0).join(' ') : words.shift();
  }
  if (words.length) {
    throw new InvalidInputError('UNEXPECTED_ARGUMENT', `unexpected argument '${words[0]}'`, { fix });
  }
  if (target && dashed.length) raw[target[0]] = dashed;
  const last = (v: unknown) => (Array.isArray(v) ? v[v.length - 1] : v);
  return {
    raw,
    hasCommandArgs: Object.keys(raw).length > 0,
    cwd: last(parsed.cwd) as string | undefined,
    runId: last(parsed['run-id']) as string | undefined,
    json: Boolean(last(parsed.json)),
    color: colorOf(last(parsed.color)),
    help: Boolean(parsed.help),
    rest: dashed,
  };
}

/** The --help text of a command at `width` columns, rendered by yargs from the same declaration. */
export async function helpText(spec: CommandSpec<any>, width = Infinity): Promise<string> {
  let text = '';
  (await helpParser(spec, width)).showHelp((s: string) => {
    text = s;
  });
  return text;
}

/** --color's value as yargs-parser leaves it: a string, or false for --no-color. */
const colorOf = (value: unknown): string | undefined => (value === false ? 'never' : typeof value === 'string' ? value : undefined);
