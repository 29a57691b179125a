// What a forge command does, read from its arguments: the paths it reads and changes, the shell code and programs it runs, the surface it reaches — one reading for every door (a shell command line, forge's MCP tools, forge agent's tools).
import { parsePatch } from '../files/patch-parse';
import { COMMON_SHORT, COMMON_VALUED, FORGE_ARGS } from './forge-args.gen';
import type { Surface } from './markdown';
import { FORGE_LIFECYCLE } from './shell-commands';
import { literalDir } from './tools';

/** How the gate reads one command's arguments (by their declared names); a command without a row cannot be judged. */
export interface EffectRow {
  /** Arguments naming paths it reads, and those naming paths it changes. */
  reads?: readonly string[];
  writes?: readonly string[];
  /** Its paths are directories (or globs) taken whole; with none given it takes its working directory. */
  whole?: boolean;
  /** Paths it changes whatever its arguments say (plan new writes under docs/plans/). */
  fixedWrites?: readonly string[];
  /** Arguments holding shell code it runs through sh (validate --cmd; a loop's --done-when, run later by its hook). */
  code?: readonly string[];
  /** The argument holding a program and its arguments that it runs (loop run -- AGENT…). */
  program?: string;
  /** The surface it reaches, unless the argument `unless` is given (state sync --dry-run). */
  surface?: Surface;
  unless?: string;
  /** Why what it does cannot be read from its arguments; `unless` given, it does nothing the gate judges. */
  cannot?: string;
}

const NOTHING: EffectRow = {};

/** Every command, by name; a test holds it to the registry, so a new command is judged on purpose. */
export const EFFECTS: Readonly<Record<string, EffectRow>> = {
  read: { reads: ['path'] },
  write: { writes: ['path'] },
  edit: { writes: ['path'] },
  patch: { writes: ['diff'] },
  replace: { writes: ['paths'], whole: true },
  search: { reads: ['paths'], whole: true },
  ls: { reads: ['glob'], whole: true },
  validate: { code: ['cmd'], reads: ['file', 'plan'] },
  'loop run': { code: ['done-when'], program: 'agent', reads: ['prompt-file'] },
  'loop start': { code: ['done-when'], reads: ['prompt-file'] },
  'plan new': { fixedWrites: ['docs/plans/'] },
  'plan check': { reads: ['path'] },
  'state export': { writes: ['dir'], whole: true },
  'state sync': { surface: 'remote_branch_pr', unless: 'dry-run' },
  undo: { cannot: 'forge undo (puts back the files of a checkpoint)', unless: 'list' },
  agent: { cannot: 'forge agent (what its model will do, and its profile’s hooks and servers)' },
  eval: { cannot: 'forge eval (runs agents on its tasks and records the results)', unless: 'list' },
  mcp: { cannot: 'forge mcp (its tool calls come from its input)' },
  init: { cannot: 'forge init (writes the project’s conventions)' },
  'hooks install': { cannot: 'forge hooks install (changes git’s hooks)' },
  'loop install': { cannot: 'forge loop install (changes an agent’s settings)' },
  'plan install-hook': { cannot: 'forge plan install-hook (changes an agent’s settings)' },
  'loop hook': { cannot: 'forge loop hook (an agent’s Stop hook: runs the loop’s check)' },
  ...Object.fromEntries(
    [
      'checkpoint',
      'completion',
      'diff',
      'schema',
      'stats',
      'logs',
      'iter get',
      'iter reset',
      'iter update',
      'memory recall',
      'memory save',
      'session list',
      'session load',
      'session save',
      'state log',
      'state show',
      'loop status',
      'loop pause',
      'loop resume',
      'loop cancel',
      'hooks list',
      'plan ack',
      'plan advance',
      'plan journal',
      'plan preflight',
      'plan status',
      // The lifecycle is judged by name (FORGE_LIFECYCLE), before any of its arguments.
      ...FORGE_LIFECYCLE,
    ].map((c) => [c, NOTHING]),
  ),
};

export interface ForgeEffects {
  /** Paths as given; a directory taken whole ends in '/' (its working directory as './'). */
  reads: string[];
  writes: string[];
  code: string[];
  programs: string[][];
  surface: Surface;
  lifecycle: string | null;
  cannot: string | null;
}

/** The command a tool or command-line name means: `plan_ack`, `plan-ack` and `plan ack` alike; null for none of forge's. */
export function forgeCommand(name: string): string | null {
  if (FORGE_ARGS[name]) return name;
  const spaced = name.replace(/[_-]/, ' ');
  return FORGE_ARGS[spaced] ? spaced : null;
}

/** An argument's strings: one, or those of a list. */
export const list = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** The arguments whose words the gate judges: one made by an expansion there cannot be judged. */
export function judgedArgs(command: string): string[] {
  const row = EFFECTS[command] ?? NOTHING;
  return [...(row.reads ?? []), ...(row.writes ?? []), ...(row.code ?? []), ...(row.program ? [row.program] : [])];
}

/** What `command` (a name FORGE_ARGS has) does with `args` (by declared name: strings, lists, flags). */
export function forgeEffects(command: string, args: Readonly<Record<string, unknown>>): ForgeEffects {
  const effects: ForgeEffects = { reads: [], writes: [], code: [], programs: [], surface: 'artifacts_only', lifecycle: null, cannot: null };
  const lifecycle = FORGE_LIFECYCLE.find((c) => c === command);
  if (lifecycle) return { ...effects, lifecycle: `forge ${lifecycle}` };
  const row = EFFECTS[command];
  if (!row) return { ...effects, cannot: `forge ${command} (a command the gate has no reading of)` };
  const given = row.unless !== undefined && args[row.unless] !== undefined && args[row.unless] !== false;
  if (row.cannot) return given ? effects : { ...effects, cannot: row.cannot };
  if (row.surface && !given) effects.surface = row.surface;
  const paths = (names: readonly string[] = []) => {
    if (!names.length) return [];
    const found = names.flatMap((n) => (command === 'patch' && n === 'diff' ? patchPaths(args.diff) : list(args[n])));
    if (!row.whole) return found;
    const dirs = found.map((p) => (command === 'ls' || /[*?[{]/.test(p) ? globRoot(p) : `${p.replace(/\/+$/, '')}/`));
    return dirs.length ? dirs : [typeof args.glob === 'string' && args.glob ? globRoot(args.glob) : './'];
  };
  effects.reads = paths(row.reads);
  effects.writes = [...paths(row.writes), ...(row.fixedWrites ?? [])];
  if (command === 'patch' && args.diff === undefined)
    effects.cannot = `forge patch reading its diff from ${args.file !== undefined ? 'a file' : 'its input'}`;
  effects.code = (row.code ?? []).flatMap((n) => list(args[n]));
  const program = row.program ? list(args[row.program]) : [];
  if (program.length) effects.programs.push(program);
  return effects;
}

/** A glob's literal directory, taken whole. */
function globRoot(glob: string): string {
  const dir = literalDir(glob);
  return dir === '.' ? './' : `${dir.replace(/\/+$/, '')}/`;
}

/** The files a diff names; a diff that does not parse changes nothing (patch refuses it). */
function patchPaths(diff: unknown): string[] {
  try {
    return [...new Set(parsePatch(typeof diff === 'string' ? diff : '').flatMap((p) => [p.oldPath, p.newPath]))].filter(
      (p): p is string => p !== null,
    );
  } catch {
    return [];
  }
}

/**
 * A flag word as a flag and its inline value: `--path=x`, and a valued short flag with its value
 * attached (`-Cdocs`, as forge's parser reads it); the value is null when none is inline.
 */
export function splitFlag(word: string, valued: ReadonlySet<string>): [string, string | null] {
  const eq = word.indexOf('=');
  if (word.startsWith('--')) return eq > 0 ? [word.slice(0, eq), word.slice(eq + 1)] : [word, null];
  const short = word.slice(0, 2);
  if (word.length > 2 && valued.has(short)) return [short, word.slice(2).replace(/^=/, '')];
  return eq > 0 ? [word.slice(0, eq), word.slice(eq + 1)] : [word, null];
}

/** A forge command line's words (after `forge` and its common options) read by the declarations: the command and its named arguments. */
export function forgeArgsOf(words: readonly string[]): { command: string | null; args: Record<string, unknown>; at: number } {
  const two = `${words[0] ?? ''} ${words[1] ?? ''}`;
  const command = FORGE_ARGS[two] ? two : FORGE_ARGS[words[0] ?? ''] ? words[0]! : null;
  const args: Record<string, unknown> = {};
  if (!command) return { command, args, at: 0 };
  const spec = FORGE_ARGS[command]!;
  const valued = new Set([...spec.valued, ...COMMON_VALUED]);
  const add = (name: string, value: unknown) => {
    const prior = args[name];
    args[name] = prior === undefined ? value : [...list(prior), ...list(value)];
  };
  const positional: string[] = [];
  const rest = words.slice(command.split(' ').length);
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i]!;
    if (w === '--') {
      if (spec.afterDashes) args[spec.afterDashes] = rest.slice(i + 1);
      else positional.push(...rest.slice(i + 1));
      break;
    }
    if (w.startsWith('-') && w !== '-') {
      const [flag, inline] = splitFlag(w, valued);
      const name = spec.short?.[flag] ?? COMMON_SHORT[flag] ?? flag.replace(/^--?/, '');
      if (inline !== null) add(name, inline);
      else if (valued.has(flag)) add(name, rest[++i] ?? '');
      else args[name.replace(/^no-/, '')] = !name.startsWith('no-');
      continue;
    }
    positional.push(w);
  }
  spec.positionals.forEach((name, i) => {
    const words = name === spec.rest ? positional.slice(i) : positional.slice(i, i + 1);
    if (words.length) add(name, name === spec.rest ? words : words[0]);
  });
  return { command, args, at: command.split(' ').length };
}
