// forge edit: replace text found exactly or by a safe fuzzy cascade, or edit lines by their anchors.
import { defineCommand } from '../lib/cli/declare';
import { InvalidInputError } from '../lib/errors';
import { applyLineOps, parseLineOp, replaceText, type EditResult } from '../lib/files/edit';
import { AFTER_A_CRASH } from '../lib/files/journal';
import { CONFINEMENT_ERRORS, CONFINEMENT_RULE, openWorkspace } from '../lib/files/workspace';
import { crashAt } from '../lib/process/crash';
import { shellJoin } from '../lib/quote';

export default defineCommand({
  name: 'edit',
  summary: 'Replace text (exact, then a safe fuzzy cascade) or edit lines by their anchors',
  tool: 'Replace old text with new in one file, or edit lines by anchor',
  description: [
    'Two ways to edit a text file; either way every anchor is checked first, nothing is written unless the whole request applies, and the write is atomic, keeping the encoding, BOM, line endings and final newline.',
    'Replace: --old TEXT --new TEXT. With --anchor N#HASH (from forge read) the line must still have that hash — a stale anchor is refused with fresh lines ±15 — and the match must cover that line. The cascade: the old text exactly (line endings aside: a CRLF file matches LF text); else whole lines compared with whitespace folded — at the ends, then each run between words made one space outside quotes (the spaces of a string are its own) — then with Unicode quotes, dashes and spaces folded to ASCII; else as the model probably meant it, without line-number prefixes copied from a read (12#a3f0: , 12 | ) and without a blank first or last line the file lacks. A forgiving match applies only when it finds exactly one place; several are refused naming their lines (unless --all); none is refused with the nearest region and its anchors.',
    "The inference rule (the same as forge patch): the lines a line diff of old and new leaves unchanged keep the file's own bytes; when the place was found only with whitespace folded, the one indentation transform that maps every old line onto the file's (tabs and spaces at a width of 2, 4 or 8, space levels re-scaled when old lines at two depths prove it, a constant dedent or over-indent, a literal prefix) is applied to the new lines, keeping their depth relative to the old lines; a new line led by a character only the file uses (a tab where the model indents with spaces) was copied from the file and stays. Old and new text written with no indentation at all, where the file indents the old lines at several depths, is read line for line when every change replaces one line by one other line: the new line takes the depth of the line it replaces. When no transform explains every old line, or several fit and place the new lines differently, the edit is refused (INDENTATION_UNCLEAR) rather than written by a guess. A changed line keeps its line ending, added lines take that of the line they replace; the final newline is as an exact replacement would leave it, whatever the match: when the old text reaches the file's last line, the new text's ending decides (old text ending with a newline), or adds one (old text without); otherwise the file's is kept. A self-check re-derives the edit from the result before writing (SELF_CHECK_FAILED).",
    'Anchored line edits: --lines A#H[..B#H] --new TEXT replaces lines A to B; --lines … --delete removes them; --after A#H / --before A#H --new TEXT inserts. --edits JSON takes several at once, e.g. [{"lines":"3#ab12","new":"x"},{"after":"9#cd34","new":"y"}]; overlapping edits are refused.',
    CONFINEMENT_RULE,
    AFTER_A_CRASH,
  ].join('\n\n'),
  args: {
    path: { type: 'string', tool: '', positional: true, required: true, description: 'The file to edit.' },
    old: { type: 'string', tool: '', placeholder: 'TEXT', description: 'Text to replace.' },
    new: { type: 'string', tool: '', placeholder: 'TEXT', description: 'Replacement text, or the lines to insert.' },
    anchor: {
      type: 'string',
      tool: 'N#HASH of a line old covers',
      placeholder: 'N#HASH',
      description: 'A line the old text covers, as forge read printed it.',
    },
    all: { type: 'boolean', tool: 'Every match of old', description: 'Replace every place the old text matches.' },
    lines: {
      type: 'string',
      tool: 'A#H or A#H..B#H to replace with new',
      placeholder: 'A#H[..B#H]',
      description: 'Lines to replace (with --new) or --delete.',
    },
    after: { type: 'string', tool: 'N#HASH to insert new after', placeholder: 'N#HASH', description: 'Insert --new after this line.' },
    before: { type: 'string', tool: 'N#HASH to insert new before', placeholder: 'N#HASH', description: 'Insert --new before this line.' },
    delete: { type: 'boolean', tool: 'Delete lines', description: 'Delete the --lines range.' },
    edits: {
      type: 'objects',
      fields: { lines: 'string', after: 'string', before: 'string', new: 'string', delete: 'boolean' },
      tool: 'Several anchored edits at once',
      placeholder: 'JSON',
      description: 'Several anchored edits: [{lines|after|before, new|delete}].',
    },
  },
  examples: [
    {
      command: "forge edit src/app.ts --old 'export const port = 3000;' --new 'export const port = Number(env.PORT ?? 3000);'",
      description: 'Replace a unique piece of text.',
    },
    {
      command: 'forge edit src/server.ts --old \'    res.end(greet("world"));\' --new \'    res.end(greet(req.url ?? "world"));\'',
      description:
        "Indented with four spaces where the file has two: the cascade finds the one line, and the new one keeps the file's indentation.",
    },
    {
      command: 'forge edit src/app.ts --after 1#1239 --new \'import { hostname } from "node:os";\'',
      description: 'Insert after line 1, by the anchor forge read printed for it (1#1239: import { env } from "node:process";).',
    },
  ],
  errors: {
    ANCHOR_MISMATCH: 'an anchor is stale: the line changed since it was read (fresh lines ±15 are in the message)',
    NO_MATCH: 'the old text is not in the file (the nearest region is in the message)',
    AMBIGUOUS_MATCH: 'the old text matches several places (their lines are named)',
    INDENTATION_UNCLEAR:
      'the old text matches one place but for whitespace, and its lines prove no one indentation change to write the new lines by (the region is in the message)',
    SELF_CHECK_FAILED: "forge's own check found the result differs from what was asked; nothing was written",
    INVALID_ANCHOR: 'an anchor not written <line>#<hash>',
    OVERLAPPING_EDITS: 'two line edits touch the same lines',
    FILE_NOT_FOUND: 'no such file',
    BINARY_FILE: 'the file is binary',
    NOT_A_REGULAR_FILE: 'the path is a FIFO, socket or device, not a file',
    ...CONFINEMENT_ERRORS,
    IS_A_DIRECTORY: 'the path is a directory',
  },
  env: {
    FORGE_TEST_CRASH_AT:
      'Tests only: a fraction F (0 < F ≤ 1), or SIGINT@F (SIGTERM, SIGHUP) to send that signal instead, once; the process kills itself (SIGKILL) after that fraction of the steps of writing the edit (the journal, the write, the cleanup), to prove that a crash at any step is recovered.',
  },
  exits: {
    0: 'edited',
    1: "refused: stale anchor, no match, ambiguous, no such file, or in git's own files",
    2: 'invalid input or a path outside the repository',
  },
  mutates: true,
  mcp: { title: 'Edit a file', toolset: 'files', effect: 'destructive' },
  async run(args, ctx) {
    const ws = await openWorkspace({ cwd: ctx.cwd, warn: ctx.warn });
    const lineMode = args.lines !== undefined || args.after !== undefined || args.before !== undefined || args.edits !== undefined;
    if (lineMode && (args.old !== undefined || args.anchor !== undefined || args.all)) {
      throw new InvalidInputError(
        'INVALID_ARGUMENT',
        'use --old/--new (with --anchor, --all) or anchored line edits (--lines, --after, --before, --edits), not both',
        { fix: 'forge edit --help' },
      );
    }
    const onStep = crashAt(ctx.env.FORGE_TEST_CRASH_AT);
    let r: EditResult;
    if (lineMode) {
      const single = args.lines !== undefined || args.after !== undefined || args.before !== undefined;
      if (single && args.edits)
        throw new InvalidInputError('INVALID_ARGUMENT', 'give one edit with --lines/--after/--before or several with --edits, not both', {
          fix: 'forge edit --help',
        });
      const raw = single
        ? [{ lines: args.lines, after: args.after, before: args.before, new: args.new, delete: args.delete }]
        : args.edits!;
      r = await applyLineOps({ ws, path: args.path, ops: raw.map(parseLineOp), onStep });
    } else {
      if (args.old === undefined)
        throw new InvalidInputError(
          'MISSING_ARGUMENT',
          'give --old and --new, or an anchored line edit (--lines, --after, --before, --edits)',
          { fix: 'forge edit --help' },
        );
      if (args.new === undefined)
        throw new InvalidInputError('MISSING_ARGUMENT', "missing --new (use --new '' to delete the old text)", {
          fix: 'forge edit --help',
        });
      r = await replaceText({ ws, path: args.path, old: args.old, replacement: args.new, anchor: args.anchor, all: args.all, onStep });
    }
    const what =
      r.replacements > 1
        ? `${r.replacements} ${r.strategy === 'anchored' ? 'edits' : 'places'}`
        : r.startLine === r.endLine
          ? `line ${r.startLine}`
          : `lines ${r.startLine}–${r.endLine}`;
    const how = r.strategy === 'exact' || r.strategy === 'anchored' ? '' : ` (matched by ${r.strategy})`;
    return {
      data: { ...r },
      text: [`edited ${r.path}: ${what}${how}`, ...r.region.map((l) => `${l.n}#${l.hash}: ${l.text}`)].join('\n'),
      // Outside a repository git diff has nothing to compare with: read the edited lines back.
      next: ws.inRepo ? shellJoin(['git', 'diff', '--', r.path]) : ctx.cmd('read', r.path, '--start', r.startLine),
    };
  },
});
