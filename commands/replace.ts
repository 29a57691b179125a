// forge replace: a literal or a regex replaced across files (.gitignore-aware), previewed with --check, written to all files or none.
import { defineCommand } from '../lib/cli/declare';
import { AFTER_A_CRASH, commitChanges } from '../lib/files/journal';
import { planReplace, SHOWN_IN_ALL, SHOWN_PER_FILE, type ReplacedFile } from '../lib/files/replace';
import { searchEngineOf } from '../lib/files/sweep';
import { CONFINEMENT_ERRORS, CONFINEMENT_RULE, assertWalkable, openWorkspace, resolveWalkPath } from '../lib/files/workspace';
import { crashAt } from '../lib/process/crash';

/** A file's changed regions as text: old lines with -, new lines with +, each with its anchor. */
function render(f: ReplacedFile): string {
  const lines = [`${f.display}: ${f.replacements} replacement${f.replacements === 1 ? '' : 's'}`];
  for (const h of f.hunks) {
    for (const l of h.old) lines.push(`  -${l.n}#${l.hash}: ${l.text}`);
    for (const l of h.new) lines.push(`  +${l.n}#${l.hash}: ${l.text}`);
  }
  if (f.cut) lines.push(`  … ${f.cut} more changed region${f.cut === 1 ? '' : 's'}`);
  return lines.join('\n');
}

/** OLD and NEW as words of a command: positional, unless one would read as a flag. */
const texts = (old: string, replacement: string) =>
  old.startsWith('-') || replacement.startsWith('-') ? ['--old', old, '--new', replacement] : [old, replacement];

export default defineCommand({
  name: 'replace',
  summary: 'Replace text or a regex across files (.gitignore-aware): all files or none; --check previews',
  tool: 'Replace text in many files at once, all or none',
  description: [
    "Replaces every occurrence of OLD with NEW in the files git would consider (tracked, and untracked ones .gitignore does not exclude; outside a repository, all but .git and node_modules) under the given paths and matching --glob ('*.ts' matches names anywhere, 'src/**/*.ts' paths), as forge search lists them: binary files, git's own files and symlinks that leave the repository are skipped. OLD is plain text, matched case-sensitively unless -i; in a file whose lines end in CRLF, its line breaks and NEW's are written as the file's. With --regex OLD is a JavaScript regular expression (Unicode and multiline mode: ^ and $ are line starts and ends; a CRLF file's line breaks are \\r\\n, and a match that would split one is refused) and NEW may use $1, $<name> and $&; $$ is a dollar. Example: forge replace --regex '^\\s*console\\.log\\(.*\\);?\\n' '' src removes every console.log line under src/.",
    `Each changed file prints its count and its changed lines: the old ones (-N#HASH, numbered as before) and what they became (+N#HASH, anchors of the new file, ready for forge edit), at most ${SHOWN_PER_FILE} regions a file and ${SHOWN_IN_ALL} in all. --check prints the same and writes nothing. Files keep their encoding, BOM, line endings and final newline; only the matched text changes.`,
    'All files change or none do: every file is replaced in memory first, then the originals are journaled and each file is renamed into place, as forge patch writes; a failed write restores every file, and a process killed midway is rolled back by the next forge file command. No match in any file is refused (NO_MATCH, exit 1) and nothing is written.',
    CONFINEMENT_RULE,
    AFTER_A_CRASH,
  ].join('\n\n'),
  args: {
    old: {
      type: 'string',
      tool: 'Text, or a regex if regex',
      positional: true,
      required: true,
      placeholder: 'OLD',
      description: 'The text to replace (a regex with --regex).',
    },
    new: {
      type: 'string',
      tool: "'' deletes",
      positional: true,
      required: true,
      placeholder: 'NEW',
      description: "What replaces it ('' deletes it).",
    },
    paths: {
      type: 'array',
      tool: '',
      positional: true,
      placeholder: 'PATH',
      description: 'Files or directories to change (default: the working directory).',
    },
    glob: {
      type: 'string',
      tool: "e.g. '*.ts'",
      placeholder: 'GLOB',
      description: "Only files matching this glob ('*.ts' matches names anywhere).",
    },
    regex: {
      type: 'boolean',
      tool: 'new may use $1',
      alias: 'E',
      description: 'OLD is a regular expression; NEW may use $1, $<name>, $&.',
    },
    'ignore-case': { type: 'boolean', tool: '', alias: 'i', description: 'Match regardless of case.' },
    check: { type: 'boolean', tool: 'Dry run', description: 'Dry run: show what would change, write nothing.' },
  },
  env: {
    FORGE_TEST_CRASH_AT:
      'Tests only: a fraction F (0 < F ≤ 1), or SIGINT@F (SIGTERM, SIGHUP) to send that signal instead, once; the process kills itself (SIGKILL) after that fraction of the steps of writing the files, to prove that a crash at any step is recovered.',
  },
  examples: [
    {
      command: "forge replace 'greet(' 'welcome(' --check",
      description: 'Rename a function everywhere: what would change, without writing.',
    },
    {
      command: "forge replace --regex '\\(docs/([\\w-]+)\\.md\\)' '(guide/$1.md)' --glob '*.md'",
      description: 'Point the links to docs/NAME.md at guide/NAME.md: a regex with a group, in Markdown files only.',
    },
  ],
  errors: {
    NO_MATCH: 'OLD matches nothing in the files searched: nothing was written',
    INVALID_REGEX: 'OLD is not a valid regular expression (with --regex)',
    INVALID_ARGUMENT: 'OLD is empty',
    SPLIT_LINE_ENDING:
      "a regex match starts or ends inside a CRLF line ending (JavaScript's ^ and $ match between \\r and \\n): nothing was written",
    PATH_ABOVE_CWD: 'a path is above the working directory (the walk lists only what is under it)',
    NOT_A_REGULAR_FILE: 'a path is a FIFO, socket or device',
    CANCELLED: 'the MCP client cancelled the call or went away before anything was written: nothing was',
    ...CONFINEMENT_ERRORS,
  },
  exits: {
    0: 'replaced (or would replace, with --check)',
    1: "refused: no match anywhere, a match splits a CRLF line ending, or a path is in git's own files; nothing was written",
    2: 'invalid input: an empty or invalid OLD, a path outside the repository or above the working directory',
  },
  mutates: true,
  mcp: { title: 'Replace across files', toolset: 'files', effect: 'destructive' },
  async run(args, ctx) {
    const ws = await openWorkspace({ cwd: ctx.cwd, warn: ctx.warn });
    assertWalkable({ ws });
    const paths: string[] = [];
    for (const p of args.paths) paths.push((await resolveWalkPath({ ws, path: p })).path);
    const started = Date.now();
    const plan = await planReplace({
      ws,
      old: args.old,
      replacement: args.new,
      regex: args.regex,
      ignoreCase: args['ignore-case'],
      paths,
      glob: args.glob,
      engine: searchEngineOf(ctx.env),
      // As search does: a person at a terminal (or an MCP client that asked) sees how far a long scan is.
      onProgress: async (done, of) => (Date.now() - started > 300 ? ctx.status(`scanning: ${done} of ${of} files`) : undefined),
      signal: ctx.signal,
    });
    await ctx.status(null);
    if (!args.check) {
      await commitChanges({
        root: ws.journalRoot,
        changes: plan.files.map((f) => ({ abs: f.abs, data: f.data })),
        onStep: crashAt(ctx.env.FORGE_TEST_CRASH_AT),
        signal: ctx.signal,
      });
    }
    const n = plan.files.length;
    const summary = `${args.check ? 'would replace' : 'replaced'} ${plan.replacements} occurrence${plan.replacements === 1 ? '' : 's'} in ${n} file${n === 1 ? '' : 's'} (${plan.searched} searched)`;
    const flags = [...(args.glob ? ['--glob', args.glob] : []), ...(args.regex ? ['--regex'] : []), ...(args['ignore-case'] ? ['-i'] : [])];
    return {
      data: {
        applied: !args.check,
        check: args.check,
        replacements: plan.replacements,
        searched: plan.searched,
        files: plan.files.map((f) => ({ path: f.display, replacements: f.replacements, hunks: f.hunks, cut: f.cut })),
      },
      text: [...plan.files.map(render), summary].join('\n'),
      next: args.check ? ctx.cmd('replace', ...texts(args.old, args.new), ...args.paths, ...flags) : ws.inRepo ? 'git diff --stat' : null,
    };
  },
});
