// Renders man/forge-<cmd>.1 (roff) from the declarations: NAME, SYNOPSIS, DESCRIPTION, OPTIONS, EXAMPLES, EXIT STATUS, ERRORS, ENVIRONMENT.
import { ERROR_CODES, FINDING_CODES, type ErrorCode, type FindingCode } from '../error-codes';
import {
  COMMON_ARGS,
  COMMON_ENV,
  COMMON_ERRORS,
  isGroup,
  REPOSITORY_ERRORS,
  type ArgSpec,
  type ArgsSpec,
  type CommandSpec,
  type Entry,
} from './declare';
import { TAGLINE } from './overview';
import { optionLabel, optionText, synopsis } from './usage';

/** What a signal to forge does, the same for every command (bin/interrupt.ts). */
const SIGNAL_EXITS =
  'Ctrl-C, SIGTERM or SIGHUP: the command stops as it stops for a cancelled MCP call (CANCELLED: the programs it started are ended with their process groups, a change of several files it was writing is put back, validate records no attempt, loop run pauses its loop), and forge exits 130, 143 or 129. A command still running 5 s later, or a second signal, ends at once, its programs killed.';
/** Escapes text for roff: backslashes, hyphens, and a leading dot or quote. */
export function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .split('\n')
    .map((l) => (/^[.']/.test(l) ? `\\&${l}` : l))
    .join('\n');
}

/** Undoes roff(): what a reader of the page sees, used by the SYNOPSIS-matches-help test. */
export function unroff(text: string): string {
  return text.replace(/\\&/g, '').replace(/\\-/g, '-').replace(/\\e/g, '\\');
}

function options(args: ArgsSpec): string[] {
  return Object.entries(args).flatMap(([name, spec]) => [
    '.TP',
    `.B ${roff(optionLabel(name, spec as ArgSpec))}`,
    roff(optionText(spec as ArgSpec)),
  ]);
}

/** The title line; `date` (YYYY-MM-DD) is the day the page last changed, which man(1) prints at its foot. */
function header(page: string, version: string, date: string): string[] {
  return [`.TH ${roff(page.toUpperCase())} 1 ${date} "forge ${version}" "forge manual"`];
}

/** The date of a page's title line, when it has one. */
export function pageDate(page: string): string | undefined {
  return /^\.TH \S+ 1 (\d{4}-\d{2}-\d{2}) /.exec(page)?.[1];
}

/**
 * ERRORS: each code the commands declare, bold, with its exit status from the table and the
 * command's own words for when; then the codes the CLI raises for any command; then, for a
 * checking command, the codes of its findings.
 */
function errorsSection(commands: readonly CommandSpec<any>[]): string[] {
  const lines = [
    '.SH ERRORS',
    roff(
      `Errors carry a stable code: in text, "Error: <message>" then "Fix: <command>" on stderr; in JSON, {"ok":false,"error":{"code":...,"message":...,"data":...},"_next_action":"<fix>"}. Each code always exits with the status shown. Where the repository or its state ref is opened, the errors of forge(1) may also occur (${REPOSITORY_ERRORS.join(', ')}).`,
    ),
  ];
  const codes = new Map<ErrorCode, string>();
  for (const c of commands)
    for (const [code, when] of Object.entries(c.errors) as [ErrorCode, string][]) if (!codes.has(code)) codes.set(code, when);
  for (const code of COMMON_ERRORS) {
    if (code === 'CWD_NOT_FOUND' && commands.every((c) => c.allowMissingCwd)) continue;
    if (!codes.has(code)) codes.set(code, ERROR_CODES[code].meaning);
  }
  for (const [code, when] of [...codes].sort()) lines.push('.TP', `.BR ${code} " (exit ${ERROR_CODES[code].exit})"`, roff(when));
  const findings = new Map<FindingCode, string>();
  for (const c of commands)
    for (const [code, when] of Object.entries(c.findings ?? {}) as [FindingCode, string][])
      if (!findings.has(code)) findings.set(code, when);
  if (findings.size) {
    lines.push(
      '.SS Findings',
      roff(
        'Each finding is one record (one file:line:col line in text) with a stable code; an error finding makes the command exit 1, a warning does not.',
      ),
    );
    for (const [code, when] of [...findings].sort()) lines.push('.TP', `.B ${code}`, roff(when || FINDING_CODES[code].meaning));
  }
  return lines;
}

/** One page per top-level entry: a group's page documents each of its commands. */
export function manPage(entry: Entry, version: string, date: string): string {
  const commands: CommandSpec<any>[] = isGroup(entry) ? entry.commands : [entry];
  const page = `forge-${entry.name}`;
  const lines = [
    ...header(page, version, date),
    '.SH NAME',
    `${roff(page)} \\- ${roff(entry.summary)}`,
    '.SH SYNOPSIS',
    '.nf',
    ...commands.map((c) => roff(synopsis(c))),
    '.fi',
    '.SH DESCRIPTION',
    roff(entry.description),
  ];
  if (isGroup(entry))
    for (const c of commands) lines.push(`.SS ${roff(`forge ${c.name}`)}`, roff(c.summary + '.'), '.PP', roff(c.description));
  lines.push('.SH OPTIONS');
  for (const c of commands) {
    if (!Object.keys(c.args).length) continue;
    if (isGroup(entry)) lines.push(`.SS ${roff(`forge ${c.name}`)}`);
    lines.push(...options(c.args));
  }
  lines.push('.SS Common options', ...options(COMMON_ARGS as ArgsSpec));
  lines.push('.SH EXAMPLES');
  for (const c of commands) for (const ex of c.examples) lines.push('.TP', roff(ex.command), roff(ex.description));
  lines.push('.SH EXIT STATUS');
  const exits = new Map<string, string[]>();
  for (const c of commands)
    for (const [code, text] of Object.entries(c.exits))
      exits.set(code, [...(exits.get(code) ?? []), isGroup(entry) ? `${c.name.split(' ')[1]}: ${text}` : text]);
  for (const [code, texts] of [...exits].sort()) lines.push('.TP', `.B ${code}`, roff(texts.join('; ')));
  lines.push('.PP', roff('For NDJSON input, the highest exit status of all requests.'), '.PP', roff(SIGNAL_EXITS));
  lines.push(...errorsSection(commands));
  lines.push('.SH ENVIRONMENT');
  const env = { ...COMMON_ENV, ...Object.assign({}, ...commands.map((c) => c.env ?? {})) } as Record<string, string>;
  for (const [name, text] of Object.entries(env)) lines.push('.TP', `.B ${name}`, roff(text));
  lines.push('.SH SEE ALSO', roff('forge(1), git(1)'));
  return `${lines.join('\n')}\n`;
}

/** forge.1: the overview page listing every command and its page. */
export function overviewPage(entries: readonly Entry[], version: string, date: string): string {
  const lines = [
    ...header('forge', version, date),
    '.SH NAME',
    `forge \\- ${roff(TAGLINE)}`,
    '.SH SYNOPSIS',
    '.nf',
    roff('forge [-C DIR] [--json] [--run-id ID] [--color[=WHEN]] <command> [<args>] [--] [<args>]'),
    roff('forge help [<command>]'),
    roff('forge version [--json]'),
    roff('forge-<command> [<args>]'),
    '.fi',
    '.SH DESCRIPTION',
    roff(
      'Each command does one step of a coding agent\'s work and speaks NDJSON on stdin/stdout: flags for one call, or one JSON object per line on stdin (keys are the long flag names; "id" is echoed). Output is text, or NDJSON records with --json, FORGE_JSON=1 or NDJSON input. Every response ends with a hint: Next:, Or:, Wait: or Done., and on error Error: then Fix:; JSON records carry _next_action. Machine state is committed under .forge/ on refs/forge/state and never touches the branch, index or work tree.',
    ),
    '.PP',
    roff(
      "The common options (-C/--cwd, --json, --run-id, --color) may come before the command or after it, as git's and gh's do; after -- every word is an argument (forge search -- --verbose). forge help <command> is forge <command> --help, and a group alone (forge plan) lists its commands. Help wraps to the terminal's width ($COLUMNS when it is not a terminal).",
    ),
    '.SH COMMANDS',
  ];
  for (const e of entries) lines.push('.TP', `.B ${roff(`forge ${e.name}`)}`, `${roff(e.summary)} \\- see ${roff(`forge-${e.name}`)}(1)`);
  lines.push(
    '.SH EXIT STATUS',
    '.TP',
    '.B 0',
    'success',
    '.TP',
    '.B 1',
    roff('a check failed or an action was refused'),
    '.TP',
    '.B 2',
    roff('invocation error: bad flags or input, not a git repository'),
    '.TP',
    '.B 130, 143, 129',
    roff(SIGNAL_EXITS),
  );
  lines.push(
    '.SH ERRORS',
    roff(
      "Each command's page lists its error codes. These come from the repository and its state ref, and any command that opens them may raise them:",
    ),
  );
  for (const code of REPOSITORY_ERRORS)
    lines.push('.TP', `.BR ${code} " (exit ${ERROR_CODES[code].exit})"`, roff(ERROR_CODES[code].meaning));
  lines.push('.SH ENVIRONMENT');
  for (const [name, text] of Object.entries(COMMON_ENV)) lines.push('.TP', `.B ${name}`, roff(text));
  return `${lines.join('\n')}\n`;
}
