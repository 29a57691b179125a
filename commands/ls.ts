// forge ls: the files git would consider (.gitignore respected), filtered by a glob, capped.
import { defineCommand } from '../lib/cli/declare';
import { AFTER_A_CRASH } from '../lib/files/journal';
import { globMatcher, listEngineOf, listFiles, underPaths } from '../lib/files/list';
import { byCodeUnit } from '../lib/order';
import { CONFINEMENT_ERRORS, assertWalkable, openWorkspace, resolveWalkPath } from '../lib/files/workspace';

export default defineCommand({
  name: 'ls',
  summary: 'List files (.gitignore-aware), optionally matching a glob; capped',
  tool: 'List files, optionally matching a glob',
  description: [
    "Lists the files under the working directory that git would consider — tracked, and untracked ones .gitignore does not exclude (outside a repository: all but .git and node_modules) — relative to the working directory, sorted. A glob without a slash matches file names anywhere ('*.ts'); with one it matches paths ('src/**/*.ts'); a directory's name lists the files under it. Never listed: git's own files, symlinks that resolve outside the repository or into git's files, and what is not a regular file (what forge read would refuse); a glob rooted outside the repository ('../x', '/etc/*') is refused. At most --limit entries are printed; the summary counts what was cut by top-level directory and the hint narrows to the largest. In a repository forge reads git's index and each directory that holds tracked files, and asks git only about names the index does not know (.gitignore is git's to apply); FORGE_LIST_ENGINE=git has one git ls-files look at every tracked file instead (the same answer).",
    AFTER_A_CRASH,
  ].join('\n\n'),
  args: {
    glob: { type: 'string', tool: '', positional: true, placeholder: 'GLOB', description: 'Only paths matching this glob.' },
    limit: {
      type: 'integer',
      tool: 'Max paths (0: all)',
      min: 0,
      default: 200,
      placeholder: 'N',
      description: 'Print at most N paths (0: all of them).',
    },
  },
  examples: [
    { command: 'forge ls', description: 'Every file, up to 200.' },
    { command: "forge ls '*.md' --json", description: 'Markdown files, one record each.' },
  ],
  errors: {
    PATH_ABOVE_CWD: 'the glob starts above the working directory (ls lists only what is under it)',
    NOT_A_REGULAR_FILE: 'the path is a FIFO, socket or device',
    ...CONFINEMENT_ERRORS,
  },
  exits: {
    0: 'listed (with or without matches)',
    1: "refused: the listing would start in git's own files, or the path is not a regular file",
    2: 'invalid input, or a path outside the repository or above the working directory',
  },
  mutates: false,
  mcp: { title: 'List files', toolset: 'files', effect: 'read' },
  async run(args, ctx) {
    const ws = await openWorkspace({ cwd: ctx.cwd, warn: ctx.warn });
    assertWalkable({ ws });
    // A glob rooted elsewhere (../x/*, /etc/*) is refused like a path; a plain directory name lists what is under it.
    const scan = args.glob ? (await import('picomatch')).default.scan(args.glob) : null;
    const base = scan?.base ? await resolveWalkPath({ ws, path: scan.base }) : null;
    const underDir = base?.isDirectory && !scan!.isGlob;
    const listed = await listFiles({ ws, engine: listEngineOf(ctx.env) });
    const files = underDir
      ? underPaths({ ws, files: listed, paths: [base.path] })
      : args.glob
        ? listed.filter(await globMatcher(args.glob))
        : listed;
    const shown = args.limit === 0 ? files : files.slice(0, args.limit);
    for (const path of shown) await ctx.emit({ type: 'file', path }, path);
    const cutByDir = new Map<string, number>();
    for (let i = shown.length; i < files.length; ) {
      const slash = files[i]!.indexOf('/');
      const top = slash < 0 ? './' : files[i]!.slice(0, slash + 1);
      // The files under one top-level directory are adjacent in sorted order: counted as a run.
      let next = i + 1;
      if (slash >= 0) while (next < files.length && files[next]!.startsWith(top)) next++;
      cutByDir.set(top, (cutByDir.get(top) ?? 0) + next - i);
      i = next;
    }
    const cut = files.length - shown.length;
    const biggest = [...cutByDir].sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0]))[0];
    const what = args.glob ? ` matching '${args.glob}'` : '';
    return {
      data: { files: files.length, shown: shown.length, cut, cutByDir: Object.fromEntries(cutByDir) },
      text: !files.length
        ? `no files${what}`
        : cut
          ? `${shown.length} of ${files.length} files${what}; cut ${cut}: ${[...cutByDir].map(([d, n]) => `${d} ${n}`).join(', ')}`
          : `${files.length} file${files.length === 1 ? '' : 's'}${what}`,
      next: !cut
        ? null
        : biggest && biggest[0] !== './'
          ? ctx.cmd('ls', `${biggest[0]}**`)
          : ctx.cmd('ls', ...(args.glob ? [args.glob] : []), '--limit', files.length),
    };
  },
});
