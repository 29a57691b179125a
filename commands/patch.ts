// forge patch: apply a diff as models write it — all files or none, sloppy but unambiguous hunks located by context.
import { resolve } from 'node:path';
import { defineCommand } from '../lib/cli/declare';
import { decodeBytes, maxInput, sizeText, tooLarge } from '../lib/cli/input';
import { InvalidInputError, RefusedError } from '../lib/errors';
import { commitChanges } from '../lib/files/journal';
import { readBounded } from '../lib/fs/bounded';
import { planPatch } from '../lib/files/patch-apply';
import { parsePatch, reversePatch } from '../lib/files/patch-parse';
import { CONFINEMENT_ERRORS, CONFINEMENT_RULE, openWorkspace } from '../lib/files/workspace';
import { crashAt } from '../lib/process/crash';
import { shellJoin } from '../lib/quote';

export default defineCommand({
  name: 'patch',
  summary: 'Apply a diff (unified/git, *** Begin Patch, SEARCH/REPLACE) to all files or none',
  tool: 'Apply a unified diff or SEARCH/REPLACE blocks, all files or none',
  description: [
    'Reads a patch from stdin, --file or the diff field of an NDJSON request, in any of the forms models write, told apart by the first line that starts one. Prose around a patch is skipped; a patch that mixes forms, is cut short, or holds a line inside a hunk that starts with none of space, - and + is refused (INVALID_PATCH, exit 2) and nothing changes.',
    "Unified and git diffs: several files; new, deleted and renamed files; a/ b/ prefixes or none; git's quoted names (\"caf\\303\\251.txt\"); wrong or missing line numbers and counts, bare @@, a section after the numbers (@@ -3,2 +3,2 @@ def main():); blank context lines whose space was dropped (right before the next @@ too, as many as the header's counts still owe; under a bare @@ such a run separates hunks). The counts are not trusted to say where a patch ends: a last hunk that promises more lines than it holds is whole when it ends on a context line (that context is checked against the file, as git apply --recount reads it) and refused as cut off when it ends on an added or removed line, with what to send. A line that is not a hunk line ends the hunk where a diff meets prose, but with hunk lines right under it, it is a corrupt patch, as git says, unless the header's counts were all read before it. Example: printf -- '--- a/app.py\\n+++ b/app.py\\n@@ -2,2 +2,2 @@ def main():\\n     x = 1\\n-    return x\\n+    return x + 1\\n' | forge patch",
    "The *** Begin Patch envelope (Codex, OpenCode): *** Update File: <path> (with *** Move to: <path>), *** Add File: <path> (every line starting with +) and *** Delete File: <path> sections, then *** End Patch — an envelope without it was cut short and is refused as truncated. Markers may be indented, and sections without *** Begin Patch are read too. In an update, @@ <line> names a line the hunk comes after (several @@ lines in a row nest: a class, then its method), a bare @@ none; *** End of File under a hunk says its last line is the file's last. An update with no hunk is refused. Example: printf '*** Begin Patch\\n*** Update File: app.py\\n@@ def main():\\n-    return x\\n+    return x + 1\\n*** End of File\\n*** End Patch\\n' | forge patch",
    "SEARCH/REPLACE blocks (Aider): <<<<<<< SEARCH, the old lines, =======, the new lines, >>>>>>> REPLACE, under the file's path alone on the line above the block or above its opening fence (```, or <source>python … </source> and Aider's other fences: <code>, <pre>, <codeblock>, <sourcecode>; a fence such as ```app.py names the file itself). A block with nothing but fences, a ... line or prose above it changes the previous block's file; a first block without a path is refused. An empty SEARCH creates the file. A block without its closing marker is refused as truncated, one with a second ======= line is refused. Example: printf 'app.py\\n```python\\n<<<<<<< SEARCH\\n    return x\\n=======\\n    return x + 1\\n>>>>>>> REPLACE\\n```\\n' | forge patch",
    "Cline's blocks: ------- SEARCH, the old lines, =======, the new lines, +++++++ REPLACE, read as Aider's (the markers of both may be mixed), under a file name the same way. Example: printf 'app.py\\n------- SEARCH\\n    return x\\n=======\\n    return x + 1\\n+++++++ REPLACE\\n' | forge patch",
    "Roo's blocks: Aider's markers, with :start_line:N (and :end_line:N) and a ------- line at the top of the SEARCH part. Those lines are not content; N is the line the old text starts at, which picks one place when the old text is found at several. A marker line of the file itself is written escaped (\\=======, \\-------) and read unescaped. Example: printf 'app.py\\n<<<<<<< SEARCH\\n:start_line:3\\n-------\\n    return x\\n=======\\n    return x + 1\\n>>>>>>> REPLACE\\n' | forge patch",
    "Each hunk is located by its context and removed lines: exactly, else comparing lines with whitespace folded (at the ends, then each run between words made one space outside quotes), else with Unicode quotes, dashes and spaces folded to ASCII; failing those, as the model probably meant it — without the line-number prefixes it copied from a read (12#a3f0: , 12 | , cat -n) and without a blank first or last line the file lacks. Numbers: of several places, the one nearest the hunk's @@ -N line (plus the drift the hunk before showed) wins, as git apply searches outward; two equally near, or no number, is refused as ambiguous. An @@ <line> of a *** Begin Patch hunk is sought first and the hunk taken below it; a unified header's section text (@@ -n,m +n,m @@ class B:) rules out places with no such line above them (the number chooses among the rest); *** End of File, or \\ No newline on the old side, anchors a hunk at the end; a numbered hunk with less context after than before prefers a place at the end (GNU patch's rule), a bare @@ hunk only when it has no context after at all (git apply's). Unified and envelope hunks are located in the original file, in order and apart; SEARCH/REPLACE blocks apply one after another, each searched in the whole file as the blocks before left it.",
    "Whitespace: context lines keep the file's own text, indentation, trailing whitespace and line ending. Added lines are written as given when their hunk matched exactly; when it matched only with whitespace folded, forge infers the one indentation transform that maps every old line onto the file's — tabs and spaces at a tab width of 2, 4 or 8, space levels re-scaled between units (old lines at two depths prove it), a constant dedent or over-indent, a literal prefix — and applies it to every added line, keeping its depth relative to the old lines (an added line led by a character only the file uses, a tab where the model indents with spaces, was copied from the file and stays). Several transforms that place the added lines differently are told apart by the units the model's whole patch and the file show, then by the simplest (a literal prefix, no shift, no re-scaling); a file with no indentation keeps the model's characters. Old and new lines with no indentation at all, where the file indents the old lines at several depths: when every change replaces one line by one other line, each new line takes the depth of the line it replaces. No transform explains every old line, or nothing tells them apart: refused, with the region. Line endings: a changed line keeps its own; an added line takes that of the line it replaces, else of the line before it. The file keeps its final-newline state unless the patch says otherwise with \\ No newline at end of file. Before anything is written, a self-check re-derives every hunk from the result and refuses on any difference (SELF_CHECK_FAILED).",
    "Names: a git diff (diff --git, or a/ and b/ prefixes) names paths from the top of the repository, also when forge runs in a subdirectory, as git apply reads them; git's C-quoted names are unquoted.",
    'All files change or none do. Every hunk of every file is applied in memory first; a hunk that does not apply, or matches several places, refuses the whole patch and shows the mismatched region. Then the originals are journaled in the git dir (outside a repository, in .forge-journal/, removed again) before the first write, and each file is replaced by a rename: if a write fails, every file is restored. A process killed at any instant — before, between or after its writes, or while cleaning up — leaves every file all old or all new: the next forge file command (read, edit, write, patch, search, ls) rolls a change cut short back, removes the temp files it left, and says so on stderr (warning: …). --check says what would change and writes nothing; --reverse applies the patch backwards.',
    CONFINEMENT_RULE,
  ].join('\n\n'),
  args: {
    diff: { type: 'string', tool: '', placeholder: 'TEXT', description: 'The patch text (default: stdin).' },
    file: { type: 'string', tool: 'Patch file', placeholder: 'PATH', description: 'Read the patch from this file.' },
    check: { type: 'boolean', tool: 'Dry run', description: 'Dry run: say what would change, write nothing.' },
    reverse: { type: 'boolean', tool: '', alias: 'R', description: 'Apply the patch backwards.' },
  },
  stdinText: 'diff',
  stdinAlternatives: ['file'],
  env: {
    FORGE_TEST_CRASH_AT:
      'Tests only: a fraction F (0 < F ≤ 1), or SIGINT@F (SIGTERM, SIGHUP) to send that signal instead, once; the process kills itself (SIGKILL) after that fraction of the steps of writing the patch (saving the originals, each write, the cleanup), to prove that a crash at any step is recovered.',
  },
  examples: [
    {
      command:
        'printf -- \'--- a/src/app.ts\\n+++ b/src/app.ts\\n@@ @@\\n export function greet(name: string): string {\\n-  return "Hello, " + name;\\n+  return "Hello, " + name + "!";\\n }\\n\' | forge patch --check',
      description: 'What a sloppy diff (a bare @@, no line numbers) would change in src/app.ts, without writing.',
    },
    {
      command:
        'printf -- \'--- a/src/app.ts\\n+++ b/src/app.ts\\n@@ -40,3 +40,3 @@\\n export function greet(name: string): string {\\n-  return "Hello, " + name;\\n+  return "Hello, " + name + "!";\\n }\\n\' | forge patch',
      description: 'Apply it with the line numbers a model got wrong (the function is at line 6): the context finds the place.',
    },
  ],
  errors: {
    PATCH_CONFLICT:
      'a hunk does not apply or matches several places; a file to create exists or one to change does not (the region is in the message)',
    INVALID_PATCH: 'the input is not a patch in a known format',
    SELF_CHECK_FAILED: "forge's own check found the result differs from what the patch says; nothing was written",
    MISSING_ARGUMENT: 'no patch on stdin, --diff or --file',
    NOT_A_DIRECTORY: 'a file is where a parent directory of a file to create must be (nothing is changed)',
    ...CONFINEMENT_ERRORS,
    FILE_NOT_FOUND: 'no such --file',
    IS_A_DIRECTORY: '--file names a directory',
    NOT_A_REGULAR_FILE: 'a file the patch names, or --file, is a FIFO, socket or device',
  },
  exits: {
    0: 'applied (or would apply, with --check)',
    1: "refused (a hunk does not apply, a file is in git's own files): nothing was changed",
    2: 'invalid input or a file outside the repository',
  },
  mutates: true,
  mcp: { title: 'Apply a patch', toolset: 'files', effect: 'destructive' },
  async run(args, ctx) {
    let text = args.diff;
    if (args.file !== undefined) {
      if (text !== undefined)
        throw new InvalidInputError('INVALID_ARGUMENT', 'give the patch on stdin, --diff or --file, not two of them', {
          fix: 'forge patch --help',
        });
      text = patchFile({ file: args.file, cwd: ctx.cwd, limit: maxInput(ctx.env), command: ctx.cmd('patch', '--file', args.file) });
    }
    if (text === undefined || !text.trim())
      throw new InvalidInputError('MISSING_ARGUMENT', 'no patch: pipe it on stdin, or pass --file PATH or --diff TEXT', {
        fix: 'forge patch --help',
      });
    const ws = await openWorkspace({ cwd: ctx.cwd, warn: ctx.warn });
    const parsed = parsePatch(text);
    const files = await planPatch({ ws, patches: args.reverse ? reversePatch(parsed) : parsed });
    if (!args.check) {
      await commitChanges({
        root: ws.journalRoot,
        changes: files.map((f) => ({ abs: f.abs, data: f.data, ...(f.removeAbs ? { removeAbs: f.removeAbs } : {}) })),
        onStep: crashAt(ctx.env.FORGE_TEST_CRASH_AT),
        signal: ctx.signal,
      });
    }
    const verb = (k: string) =>
      (args.check
        ? { modify: 'would patch', create: 'would create', delete: 'would delete', rename: 'would move' }
        : { modify: 'patched', create: 'created', delete: 'deleted', rename: 'moved' })[k as 'modify'];
    const lines = files.map((f) => {
      const fuzzy = f.strategies.filter((s) => s !== 'exact');
      const how = fuzzy.length ? `; located by ${[...new Set(fuzzy)].join(', ')}` : '';
      const name = f.kind === 'rename' ? `${f.removeDisplay} → ${f.display}` : f.display;
      return `${verb(f.kind)} ${name}${f.hunks && f.kind !== 'create' && f.kind !== 'delete' ? ` (${f.hunks} hunk${f.hunks === 1 ? '' : 's'}${how})` : ''}`;
    });
    const retry = args.file !== undefined ? ctx.cmd('patch', '--file', args.file, ...(args.reverse ? ['--reverse'] : [])) : null;
    return {
      data: {
        applied: !args.check,
        check: args.check,
        files: files.map((f) => ({
          path: f.display,
          kind: f.kind,
          hunks: f.hunks,
          strategies: f.strategies,
          ...(f.removeDisplay && f.kind === 'rename' ? { from: f.removeDisplay } : {}),
        })),
      },
      text: lines.join('\n'),
      next: args.check ? retry : ws.inRepo ? 'git diff --stat' : null,
    };
  },
});

/** The text of --file: a regular file of at most `limit` bytes (FORGE_MAX_INPUT), never a FIFO or a device read until memory runs out. */
function patchFile({ file, cwd, limit, command }: { file: string; cwd: string; limit: number; command: string }): string {
  const r = readBounded(resolve(cwd, file), limit);
  if (r.ok) return decodeBytes(r.bytes);
  const fix = shellJoin(['ls', '-l', file]);
  if (r.why === 'directory') throw new InvalidInputError('IS_A_DIRECTORY', `'${file}' is a directory`, { fix });
  if (r.why === 'not-regular')
    throw new RefusedError(
      'NOT_A_REGULAR_FILE',
      `'${file}' is not a regular file (a FIFO, socket or device): a patch is read from a file or stdin`,
      {
        fix,
        data: { path: file },
      },
    );
  if (r.why === 'too-large') throw tooLarge({ what: `'${file}'${r.size ? ` (${sizeText(r.size)})` : ''}`, limit, command });
  const why =
    r.code === 'ENOENT' || r.code === 'ENOTDIR' ? `no such file '${file}'` : `cannot read '${file}': ${r.code ?? 'unknown error'}`;
  throw new RefusedError('FILE_NOT_FOUND', why, { fix, data: { path: file } });
}
