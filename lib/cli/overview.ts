// The top-level and group help pages, built from the registry.
import { isGroup, type Entry, type GroupSpec } from './declare';
import { synopsis } from './usage';

export const TAGLINE = 'composable commands for driving coding agents, with state on refs/forge/state';

function table(rows: Array<[string, string]>): string[] {
  const width = Math.max(...rows.map(([l]) => l.length));
  return rows.map(([l, r]) => `  ${l.padEnd(width)}  ${r}`);
}

export function topHelp(entries: readonly Entry[]): string {
  const rows: Array<[string, string]> = entries.flatMap((e) => (isGroup(e) ? e.commands.map((c): [string, string] => [c.name, c.summary]) : [[e.name, e.summary]]));
  return [
    `forge — ${TAGLINE}`,
    '',
    'Usage: forge <command> [<args>] [--json] [--cwd DIR] [--run-id ID]',
    '       forge-<command> [<args>]',
    '',
    'Commands:',
    ...table(rows),
    '',
    'Input is flags, or NDJSON requests on stdin (one JSON object per line, keys are the long flag names).',
    'Output is text, or NDJSON with --json, FORGE_JSON=1 or NDJSON input; every response ends with a hint',
    '(Next:, Or:, Wait:, Done. or Error:/Fix:), and JSON records carry _next_action.',
    '',
    "Run 'forge <command> --help' or 'man forge-<command>' for details.",
    '',
  ].join('\n');
}

export function groupHelp(group: GroupSpec): string {
  return [
    `forge ${group.name} — ${group.summary}`,
    '',
    'Usage:',
    ...group.commands.map((c) => `  ${synopsis(c)}`),
    '',
    'Commands:',
    ...table(group.commands.map((c) => [c.name, c.summary])),
    '',
    `Run 'forge ${group.name} <command> --help' or 'man forge-${group.name}' for details.`,
    '',
  ].join('\n');
}
