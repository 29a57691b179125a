// The top-level and group help pages, built from the registry.
import { isGroup, type Entry, type GroupSpec } from './declare';
import { synopsis } from './usage';

export const TAGLINE = 'composable commands for driving coding agents, with state on refs/forge/state';

/** Words of `text` in lines of at most `width` columns (a longer word stands alone), each but the first after `indent`. */
export function wrapText(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const lead = lines.length ? indent : '';
    if (line && lead.length + line.length + 1 + word.length > width) {
      lines.push(lead + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push((lines.length ? indent : '') + line);
  return lines;
}

function table(rows: Array<[string, string]>, width: number): string[] {
  const left = Math.max(...rows.map(([l]) => l.length));
  const pad = ' '.repeat(left + 4);
  // A column too narrow to read puts each summary under its name instead.
  return rows.flatMap(([l, r]) =>
    width - left - 4 >= 30
      ? wrapText(r, width - left - 4, pad).map((t, i) => (i ? t : `  ${l.padEnd(left)}  ${t}`))
      : [`  ${l}`, ...wrapText(r, width - 6, '      ').map((t, i) => (i ? t : `      ${t}`))],
  );
}

const paragraph = (text: string, width: number) => wrapText(text, width);

/** The overview: every command with its summary, at `width` columns (the terminal's; Infinity: unwrapped). */
export function topHelp(entries: readonly Entry[], width = Infinity): string {
  const rows: Array<[string, string]> = entries.flatMap((e) =>
    isGroup(e) ? e.commands.map((c): [string, string] => [c.name, c.summary]) : [[e.name, e.summary]],
  );
  return [
    ...paragraph(`forge — ${TAGLINE}`, width),
    '',
    ...wrapText('Usage: forge [-C DIR] [--json] [--run-id ID] [--color[=WHEN]] <command> [<args>]', width, '         '),
    '       forge help [<command>]',
    '       forge version [--json]',
    '       forge-<command> [<args>]',
    '',
    'Commands:',
    ...table(rows, width),
    '',
    ...paragraph(
      'Input is flags, or NDJSON requests on stdin (one JSON object per line, keys are the long flag names). Output is text, or NDJSON with --json, FORGE_JSON=1 or NDJSON input; every response ends with a hint (Next:, Or:, Wait:, Done. or Error:/Fix:), and JSON records carry _next_action. Common options go before or after the command; after -- every word is an argument.',
      width,
    ),
    '',
    ...paragraph("Run 'forge help <command>' or 'man forge-<command>' for details.", width),
    '',
  ].join('\n');
}

/** A group's page (`forge plan`): its subcommands' synopses and summaries, at `width` columns. */
export function groupHelp(group: GroupSpec, width = Infinity): string {
  return [
    ...paragraph(`forge ${group.name} — ${group.summary}`, width),
    '',
    'Usage:',
    ...group.commands.flatMap((c) => wrapText(synopsis(c), width - 2, '      ').map((t, i) => (i ? t : `  ${t}`))),
    '',
    'Commands:',
    ...table(
      group.commands.map((c) => [c.name, c.summary]),
      width,
    ),
    '',
    ...paragraph(`Run 'forge help ${group.name} <command>' or 'man forge-${group.name}' for details.`, width),
    '',
  ].join('\n');
}
