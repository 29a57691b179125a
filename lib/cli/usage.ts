// Synopsis and option lines derived from a declaration: shared by --help, man pages and completions.
import { COMMON_ARGS, type ArgSpec, type ArgsSpec, type CommandSpec } from './declare';

export function placeholder(name: string, spec: ArgSpec): string {
  return spec.placeholder ?? name.toUpperCase().replace(/-/g, '_');
}

function flagWord(name: string, spec: ArgSpec): string {
  if (spec.afterDashes) return `-- ${placeholder(name, spec)}...`;
  if (spec.type === 'boolean') return `--${name}`;
  return `--${name} ${placeholder(name, spec)}`;
}

/** Positional arguments in declaration order. */
export function positionals(args: ArgsSpec): Array<[string, ArgSpec]> {
  return Object.entries(args).filter(([, s]) => s.positional);
}

/** One synopsis line: `forge memory recall [<query>] [--category CATEGORY] [--limit N]`. */
export function synopsis(spec: CommandSpec<any>): string {
  const words = [`forge ${spec.name}`];
  for (const [name, s] of positionals(spec.args)) {
    const w = `<${name}>${s.type === 'array' || s.rest ? '...' : ''}`;
    words.push(s.required ? w : `[${w}]`);
  }
  const args = Object.entries(spec.args as ArgsSpec);
  for (const [name, s] of args) {
    if (s.positional || s.afterDashes) continue;
    const w = flagWord(name, s);
    words.push(s.required ? w : `[${w}]${s.type === 'array' ? '...' : ''}`);
  }
  // A program to run comes last, after `--`, so its own flags are not forge's.
  for (const [name, s] of args) if (s.afterDashes) words.push(s.required ? flagWord(name, s) : `[${flagWord(name, s)}]`);
  return words.join(' ');
}

/** The left column of an option line: `-h, --help` or `--limit N`. */
export function optionLabel(name: string, spec: ArgSpec): string {
  const flag = flagWord(name, spec);
  return spec.alias ? `-${spec.alias}, ${flag}` : flag;
}

/** The description column, with choices and default appended. */
export function optionText(spec: ArgSpec): string {
  const extra: string[] = [];
  if (spec.choices) extra.push(`one of: ${spec.choices.join(', ')}`);
  if (spec.default !== undefined) extra.push(`default: ${spec.default}`);
  if (spec.type === 'array') extra.push('repeatable');
  if (spec.required && !spec.positional) extra.push('required');
  return extra.length ? `${spec.description} (${extra.join('; ')})` : spec.description;
}

/** All long option names a command accepts, common ones included (for completions). */
export function optionNames(spec: CommandSpec<any>): string[] {
  return [...Object.keys(spec.args), ...Object.keys(COMMON_ARGS)].map((n) => `--${n}`);
}
