// Every file derived from the declarations (man pages, completions, the catalog, the bin map), for `make docs` and the drift test.
import { bashCompletion, fishCompletion, programs, zshCompletion } from './completions';
import { type ArgsSpec, COMMON_ARGS, isGroup, type Entry } from './declare';
import { manPage, overviewPage, pageDate } from './man';
import { ERROR_CODES, FINDING_CODES } from '../error-codes';

/**
 * Path → content of every generated file. A man page is dated the day its text last changed:
 * `previous` reads the page as it is (undefined when there is none), and a page whose text is the
 * same but for the date keeps its date; any other is dated `today` (YYYY-MM-DD).
 */
export function generatedFiles(
  entries: readonly Entry[],
  version: string,
  previous: (path: string) => string | undefined = () => undefined,
  today: string = new Date().toISOString().slice(0, 10),
): Map<string, string> {
  const files = new Map<string, string>();
  const dated = (path: string, page: (date: string) => string) => {
    const old = previous(path);
    const date = old === undefined ? undefined : pageDate(old);
    files.set(path, date !== undefined && page(date) === old ? old : page(today));
  };
  dated('man/forge.1', (date) => overviewPage(entries, version, date));
  for (const e of entries) dated(`man/forge-${e.name}.1`, (date) => manPage(e, version, date));
  files.set('completions/forge.bash', bashCompletion(entries));
  files.set('completions/_forge', zshCompletion(entries));
  files.set('completions/forge.fish', fishCompletion(entries));
  files.set('commands/catalog.ts', catalogSource(entries));
  files.set('lib/mcp/served.gen.ts', servedSource(entries));
  files.set('lib/plans/forge-args.gen.ts', forgeArgsSource(entries));
  return files;
}

/**
 * commands/catalog.ts: where each command's module is, by the one convention of the tree — `forge x`
 * in commands/x.ts, `forge g s` in commands/g/s.ts — so adding a command is its file and one line
 * in the registry (commands/index.ts, or its group's index.ts); `make docs` writes the rest.
 */
export function catalogSource(entries: readonly Entry[]): string {
  const lines = entries.map((e) =>
    isGroup(e)
      ? `  ${key(e.name)}: {\n${e.commands
          .map((c) => {
            const sub = c.name.split(' ')[1]!;
            return `    ${key(sub)}: '${e.name}/${sub}',\n`;
          })
          .join('')}  },`
      : `  ${key(e.name)}: '${e.name}',`,
  );
  return [
    "// Where each command's module is (under commands/): the build makes one bundle of each, and the executable loads only the one it runs.",
    '// Generated from the registry (commands/index.ts) by `make docs`; do not edit. A test keeps it current.',
    '',
    'export const catalog: Readonly<Record<string, string | Readonly<Record<string, string>>>> = {',
    ...lines,
    '};',
    '',
  ].join('\n');
}

/**
 * lib/mcp/served.gen.ts: each command's `mcp` from its declaration, so forge mcp can pick toolsets
 * without loading every command, and a new command's toolset is said in its own file.
 */
export function servedSource(entries: readonly Entry[]): string {
  const leaves = entries.flatMap((e) => (isGroup(e) ? e.commands : [e]));
  const served = leaves.flatMap((c) =>
    c.mcp
      ? [
          `  ${key(c.name)}: { ${Object.entries(c.mcp)
            // The title is the tool's, read from its declaration where the tool is made (mcpTools).
            .filter(([k]) => k !== 'title')
            .map(([k, v]) => `${k}: ${typeof v === 'string' ? `'${v}'` : v}`)
            .join(', ')} },`,
        ]
      : [],
  );
  const notServed = leaves.filter((c) => !c.mcp).map((c) => `'${c.name}'`);
  return [
    "// Each command's toolset and MCP behaviour, and the commands never served, from the declarations' `mcp`.",
    '// Generated from the registry (commands/index.ts) by `make docs`; do not edit. A test keeps it current.',
    "import type { Served } from './served';",
    '',
    "export const SERVED: Readonly<Record<string, Omit<Served, 'title'>>> = {",
    ...served,
    '};',
    '',
    `export const NOT_SERVED: readonly string[] = [${notServed.join(', ')}];`,
    '',
  ].join('\n');
}

/**
 * lib/plans/forge-args.gen.ts: how each command's words read, so the plan gate can read a forge
 * command line an agent runs (which word is a path, which is a verify command) without loading the
 * commands: the options that take a value (long and short), the positionals in order, the one that
 * takes every remaining word, and the one filled from the words after `--`.
 */
export function forgeArgsSource(entries: readonly Entry[]): string {
  const leaves = entries.flatMap((e) => (isGroup(e) ? e.commands : [e]));
  const list = (xs: string[]) => `[${xs.map((x) => `'${x}'`).join(', ')}]`;
  const valued = (args: ArgsSpec) =>
    Object.entries(args)
      .filter(([, s]) => s.type !== 'boolean' && !s.afterDashes)
      .flatMap(([name, s]) => [`--${name}`, ...(s.alias ? [`-${s.alias}`] : [])]);
  // A short flag that takes a value, by the name it stands for: -C is --cwd.
  const shortNames = (args: ArgsSpec) => {
    const pairs = Object.entries(args).filter(([, s]) => s.alias && s.type !== 'boolean');
    return pairs.length ? `{ ${pairs.map(([n, s]) => `'-${s.alias}': '${n}'`).join(', ')} }` : '';
  };
  const rows = leaves.map((c) => {
    const args = c.args as ArgsSpec;
    const positional = Object.entries(args).filter(([, s]) => s.positional);
    const rest = positional.find(([, s]) => s.rest || s.type === 'array')?.[0];
    const dashes = Object.entries(args).find(([, s]) => s.afterDashes)?.[0];
    const fields = [
      `valued: ${list(valued(args))}`,
      ...(shortNames(args) ? [`short: ${shortNames(args)}`] : []),
      `positionals: ${list(positional.map(([n]) => n))}`,
      ...(rest ? [`rest: '${rest}'`] : []),
      ...(dashes ? [`afterDashes: '${dashes}'`] : []),
    ];
    return `  ${key(c.name)}: { ${fields.join(', ')} },`;
  });
  return [
    "// How each forge command's words read, from the declarations: options that take a value, positionals in order, where the words after `--` go.",
    '// Generated from the registry (commands/index.ts) by `make docs`; do not edit. A test keeps it current.',
    '',
    'export interface ForgeArgs {',
    '  valued: readonly string[];',
    '  /** Short flags that take a value, by the name they stand for. */',
    '  short?: Readonly<Record<string, string>>;',
    '  positionals: readonly string[];',
    '  /** The positional that takes every remaining word (a rest of text, or a list). */',
    '  rest?: string;',
    '  /** The array filled from the words after `--`. */',
    '  afterDashes?: string;',
    '}',
    '',
    '/** The options every command takes that hold a value. */',
    `export const COMMON_VALUED: readonly string[] = ${list(valued(COMMON_ARGS))};`,
    `export const COMMON_SHORT: Readonly<Record<string, string>> = ${shortNames(COMMON_ARGS) || '{}'};`,
    '',
    'export const FORGE_ARGS: Readonly<Record<string, ForgeArgs>> = {',
    ...rows,
    '};',
    '',
  ].join('\n');
}

const key = (name: string) => (/^[a-z]+$/.test(name) ? name : `'${name}'`);

/** package.json "man": every page, so `npm install -g` makes `man forge-memory` work. */
export function manList(entries: readonly Entry[]): string[] {
  return ['man/forge.1', ...entries.map((e) => `man/forge-${e.name}.1`)];
}

/** package.json "bin": forge and forge-<cmd> are the same program. */
export function binMap(entries: readonly Entry[]): Record<string, string> {
  return Object.fromEntries(programs(entries).map((p) => [p, 'dist/forge.js']));
}

/** The README's command index: every command, what it does, its subcommands and its man page. */
export function commandIndex(entries: readonly Entry[]): string {
  const rows = entries.map((e) => {
    const subs = isGroup(e) ? ` (${e.commands.map((c) => `\`${c.name.split(' ')[1]}\``).join(', ')})` : '';
    return `| \`forge ${e.name}\`${subs} | ${e.summary.replace(/\|/g, '\\|')} | [forge-${e.name}(1)](man/forge-${e.name}.1) |`;
  });
  return ['| command | what it does | manual |', '|---|---|---|', ...rows].join('\n');
}

/** Every error code: its exit status and meaning, as the man pages list them. */
export function errorTable(): string {
  const rows = Object.entries(ERROR_CODES)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([code, row]) => `| \`${code}\` | ${row.exit} | ${row.meaning.replace(/\|/g, '\\|')} |`);
  return ['| code | exit | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** Every plan finding code and its meaning. */
export function findingTable(): string {
  const rows = Object.entries(FINDING_CODES).map(([code, row]) => `| \`${code}\` | ${row.meaning.replace(/\|/g, '\\|')} |`);
  return ['| code | meaning |', '|---|---|', ...rows].join('\n');
}

/** The parts of user documents that make docs writes from the declarations and tables, each between its markers. */
export function generatedSections(entries: readonly Entry[]): Array<{ file: string; name: string; content: string }> {
  return [
    { file: 'README.md', name: 'commands', content: commandIndex(entries) },
    { file: 'docs/contract.md', name: 'errors', content: errorTable() },
    { file: 'docs/contract.md', name: 'findings', content: findingTable() },
  ];
}

/** `text` with the section `name` (between `<!-- name:start (generated by make docs) -->` and `<!-- name:end -->`) replaced by `content`. */
export function withSection(text: string, name: string, content: string, file: string): string {
  const start = `<!-- ${name}:start (generated by make docs) -->`;
  const end = `<!-- ${name}:end -->`;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${file} has no ${start} … ${end} markers`);
  return `${text.slice(0, a)}${start}\n${content}\n${text.slice(b)}`;
}

/** Each document with generated sections, as make docs writes it from `read(file)`. */
export function withGeneratedSections(entries: readonly Entry[], read: (file: string) => string): Map<string, string> {
  const out = new Map<string, string>();
  for (const { file, name, content } of generatedSections(entries))
    out.set(file, withSection(out.get(file) ?? read(file), name, content, file));
  return out;
}
