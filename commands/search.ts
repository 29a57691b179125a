// forge search: regex search, .gitignore-aware, grouped by file, every match with its anchor; capped.
import { dirname } from 'node:path';
import type { Palette } from '../lib/cli/output';
import { withArguments } from '../lib/quote';
import { defineCommand } from '../lib/cli/declare';
import { AFTER_A_CRASH } from '../lib/files/journal';
import { CONFINEMENT_ERRORS, assertWalkable, openWorkspace, resolveWalkPath } from '../lib/files/workspace';
import { compilePattern, searchWorkspace } from '../lib/files/search';
import { searchEngineOf } from '../lib/files/sweep';
import { byCodeUnit } from '../lib/order';

export default defineCommand({
  name: 'search',
  summary: 'Search files for a regex (.gitignore-aware), matches grouped by file with anchors',
  tool: 'Regex search; matches show N#HASH anchors edit takes',
  description: [
    'Searches every file git would consider (tracked, and untracked ones .gitignore does not exclude; outside a repository, all but .git and node_modules) under the given paths, skipping binary files, git\'s own files, and symlinks that resolve outside the repository or into git\'s files (the files forge read refuses). Each match prints as "<n>#<hash>: line", ready for forge edit, as soon as it is found. At most --limit matches are shown (--limit 0: all); the summary says how many were cut and the hint narrows to where most of them are. "N files searched" counts every file under the paths, binary ones included. "no matches" is a definite, terminal answer: a replacement that leaves no matches is finished.',
    "Patterns are JavaScript regular expressions in Unicode mode (\\d, \\w, \\b, lookarounds, named groups, \\p{…}), matched one line at a time, or plain text with --literal. They are never handed to git as regexes: forge lists the files with one git ls-files, reads each file once, decodes only those holding the plain text every match must contain (console.log in console\\.log, TODO and FIXME in TODO|FIXME), and matches the lines itself, so git's regex dialects never change an answer. FORGE_SEARCH_ENGINE=git has one threaded git grep -F pick the tracked files holding that text instead (the answer is the same; on a machine with many cores it can take less wall time and more CPU).",
    AFTER_A_CRASH,
  ].join('\n\n'),
  args: {
    pattern: { type: 'string', tool: '', positional: true, required: true, placeholder: 'REGEX', description: 'What to look for.' },
    paths: {
      type: 'array',
      tool: '',
      positional: true,
      placeholder: 'PATH',
      description: 'Files or directories to search (default: the working directory).',
    },
    glob: {
      type: 'string',
      tool: "e.g. '*.ts'",
      placeholder: 'GLOB',
      description: "Only files matching this glob ('*.ts' matches names anywhere).",
    },
    'ignore-case': { type: 'boolean', tool: '', alias: 'i', description: 'Match regardless of case.' },
    literal: { type: 'boolean', tool: 'Pattern is plain text', alias: 'F', description: 'Treat the pattern as plain text.' },
    limit: {
      type: 'integer',
      tool: 'Max matches (0: all)',
      min: 0,
      default: 50,
      placeholder: 'N',
      description: 'Show at most N matches (0: all of them).',
    },
  },
  examples: [
    { command: "forge search 'console\\.log' src", description: 'Every console.log under src/.' },
    { command: "forge search TODO --glob '*.md' --json", description: 'TODOs in Markdown files, one record per match.' },
  ],
  errors: {
    INVALID_REGEX: 'the pattern is not a valid regular expression',
    PATH_ABOVE_CWD: 'a path is above the working directory (the walk lists only what is under it)',
    NOT_A_REGULAR_FILE: 'a path is a FIFO, socket or device',
    CANCELLED: 'the MCP client cancelled the call or went away: the search stopped where it was',
    ...CONFINEMENT_ERRORS,
  },
  exits: {
    0: 'searched (with or without matches)',
    1: "refused: a path is in git's own files, or not a regular file",
    2: 'invalid pattern, or a path outside the repository or above the working directory',
  },
  mutates: false,
  mcp: { title: 'Search files', toolset: 'files', effect: 'read' },
  async run(args, ctx) {
    const ws = await openWorkspace({ cwd: ctx.cwd, warn: ctx.warn });
    assertWalkable({ ws });
    const paths: string[] = [];
    for (const p of args.paths) paths.push((await resolveWalkPath({ ws, path: p })).path);
    const regex = compilePattern({ pattern: args.pattern, literal: args.literal, ignoreCase: args['ignore-case'] });
    let current = '';
    const started = Date.now();
    const r = await searchWorkspace({
      ws,
      regex,
      paths,
      glob: args.glob,
      limit: args.limit,
      engine: searchEngineOf(ctx.env),
      onMatch: async (m) => {
        await ctx.status(null);
        const heading = m.path !== current ? `${ctx.paint.path(m.path)}\n` : '';
        current = m.path;
        await ctx.emit({ type: 'match', ...m }, `${heading}  ${m.line}#${m.hash}: ${highlight(m.text, regex, ctx.paint)}`);
      },
      // A person at a terminal sees how far a long search is; nothing is drawn for a quick one.
      onProgress: async (done, of) => (Date.now() - started > 300 ? ctx.status(`searching: ${done} of ${of} files`) : undefined),
      signal: ctx.signal,
    });
    await ctx.status(null);
    const cut = r.total - r.matches.length;
    const flags = [
      ...(args.glob ? ['--glob', args.glob] : []),
      ...(args['ignore-case'] ? ['-i'] : []),
      ...(args.literal ? ['--literal'] : []),
    ];
    let next: string | null = null;
    if (cut > 0) {
      // Narrow to the directory (or file) holding most of what was cut.
      const byDir = new Map<string, number>();
      for (const [file, n] of r.cutByFile) byDir.set(dirname(file), (byDir.get(dirname(file)) ?? 0) + n);
      const [dir] = [...byDir].sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0]))[0]!;
      const [file] = [...r.cutByFile].sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0]))[0]!;
      const narrower = dir !== '.' && !args.paths.includes(dir) ? dir : file;
      next = ctx.cmd(...withArguments(['search'], [args.pattern, narrower], flags));
    }
    const where = `${r.searched} file${r.searched === 1 ? '' : 's'}`;
    return {
      data: { pattern: args.pattern, matches: r.total, files: r.files, shown: r.matches.length, cut, searched: r.searched },
      text:
        r.total === 0
          ? `no matches for /${args.pattern}/ in ${where}`
          : `${r.total} match${r.total === 1 ? '' : 'es'} in ${r.files} file${r.files === 1 ? '' : 's'} (${where} searched)${cut ? `; showing ${r.matches.length}, ${cut} cut — narrow the paths or the pattern` : ''}`,
      next,
    };
  },
});

/** The line with what the pattern matched in it painted (the first match: the one the snippet is cut around). */
function highlight(text: string, regex: RegExp, paint: Palette): string {
  const m = regex.exec(text);
  if (!m?.[0]) return text;
  return `${text.slice(0, m.index)}${paint.match(m[0])}${text.slice(m.index + m[0].length)}`;
}
