// forge read: a window of a file, every line prefixed with its anchor `<n>#<hash>:`.
import { defineCommand } from '../lib/cli/declare';
import { NotAGitRepoError } from '../lib/errors';
import { blameLines } from '../lib/git/repo';
import { DEFAULT_WINDOW, linePrefix, MAX_LINE_CHARS, MAX_READ_BYTES, readSymbols, readWindow } from '../lib/files/read';
import { AFTER_A_CRASH } from '../lib/files/journal';
import { CONFINEMENT_ERRORS, CONFINEMENT_RULE, openWorkspace } from '../lib/files/workspace';

function age(seconds: number): string {
  const units: Array<[number, string]> = [
    [31536000, 'year'],
    [2592000, 'month'],
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    const n = Math.floor(seconds / size);
    if (n >= 1) return `${n} ${name}${n === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}

export default defineCommand({
  name: 'read',
  summary: 'Read a window of a file, each line prefixed with its anchor <n>#<hash>',
  tool: 'Read a file window; lines start with N#HASH anchors',
  description: `Prints lines START to END (default ${DEFAULT_WINDOW} lines from START) under a header "lines A-B of N", each prefixed "<n>#<hash>: ". The hash is 4 hex digits: FNV-1a (32-bit) over the line's UTF-8 bytes without its line ending, folded to 16 bits by xor of its halves — stable across machines and line endings. forge edit and anchored edits check it, so an edit never lands on a line that changed since it was read. When more lines remain, the hint reads on. A read never prints more than ${MAX_READ_BYTES / 1024} KB: the window ends early instead. Lines over ${MAX_LINE_CHARS} characters are cut with a note of how much was left out; binary files are described, not dumped. A missing file suggests up to 3 similar paths. ${CONFINEMENT_RULE} Only regular files are read (a FIFO or a device is refused). With --symbols it prints the file's symbol index instead — functions, classes, methods, types, interfaces, enums, top-level and exported consts, each with its line anchor — parsed with tree-sitter grammars for TypeScript/TSX, JavaScript, Python, Go, Rust, C/C++ and Java, and with line patterns for other languages (the header says which).\n\n${AFTER_A_CRASH}`,
  args: {
    path: { type: 'string', tool: '', positional: true, required: true, description: 'The file, relative to the working directory.' },
    start: { type: 'integer', tool: '', min: 1, default: 1, placeholder: 'N', description: 'First line to show.' },
    end: {
      type: 'integer',
      tool: '',
      min: 1,
      placeholder: 'N',
      description: `Last line to show (default: start + ${DEFAULT_WINDOW - 1}).`,
    },
    blame: {
      type: 'boolean',
      tool: "Each line's last commit: age, author",
      description: "Annotate each line with its last commit's age and author.",
    },
    symbols: {
      type: 'boolean',
      tool: 'List functions and classes with anchors instead',
      description: 'Print the symbol index instead: functions, classes, methods, types… with their line anchors.',
    },
  },
  examples: [
    { command: 'forge read README.md', description: 'The first 150 lines with anchors.' },
    { command: 'forge read README.md --start 20 --end 40 --json', description: 'Lines 20-40 as one record with a lines array.' },
    { command: 'forge read README.md --end 5 --blame', description: 'Who last touched the first five lines, and when.' },
    {
      command: 'forge read src/app.ts --symbols',
      description: 'The symbol index of a file (for a .ts, .py, .go, .rs, .c/.cpp or .java file, from its grammar).',
    },
  ],
  errors: {
    FILE_NOT_FOUND: 'no such file (the message suggests similar paths)',
    IS_A_DIRECTORY: 'the path is a directory',
    LINE_OUT_OF_RANGE: '--start is past the last line',
    INVALID_RANGE: '--end is before --start',
    NOT_A_REGULAR_FILE: 'the path is a FIFO, socket or device, not a file',
    ...CONFINEMENT_ERRORS,
    NOT_A_GIT_REPO: '--blame outside a git repository',
    BINARY_FILE: '--symbols of a binary file',
  },
  exits: { 0: 'read', 1: "no such file, not a regular file, or in git's own files", 2: 'invalid input or a path outside the repository' },
  mutates: false,
  mcp: { title: 'Read a file window', toolset: 'files', effect: 'read' },
  async run(args, ctx) {
    const ws = await openWorkspace({ cwd: ctx.cwd, warn: ctx.warn });
    if (args.symbols) {
      const s = await readSymbols({ ws, path: args.path });
      const lines = s.symbols.map(
        (x) => `${x.container ? '  ' : ''}${x.line}#${x.hash}: ${x.kind} ${x.name}${x.container ? ` (in ${x.container})` : ''}`,
      );
      return {
        data: { ...s },
        text: [
          `${s.path}: ${s.symbols.length} symbol${s.symbols.length === 1 ? '' : 's'} in ${s.total} lines (${s.language}, ${s.parser})`,
          ...lines,
        ].join('\n'),
        next: s.symbols[0] ? ctx.cmd('read', s.path, '--start', Math.max(1, s.symbols[0].line)) : null,
      };
    }
    const r = await readWindow({ ws, path: args.path, start: args.start, end: args.end });
    if (r.kind === 'binary') {
      return {
        data: { ...r },
        text: `${r.path}: binary file, ${r.bytes.toLocaleString('en-US')} bytes (${r.description}) — not shown`,
        next: null,
      };
    }
    if (r.kind === 'empty') return { data: { ...r }, text: `${r.path}: empty file`, next: null };
    const blame = args.blame
      ? await (async () => {
          if (!ws.inRepo) throw new NotAGitRepoError(ctx.cwd);
          return blameLines({ cwd: ctx.cwd, path: r.path, start: r.start, end: r.end });
        })()
      : null;
    const now = ctx.now().getTime() / 1000;
    const lines = r.lines.map((l) => {
      const b = blame?.get(l.n);
      const who = b ? (b.uncommitted ? 'uncommitted' : `${age(now - b.time)}, ${b.author}`) : undefined;
      return { ...l, ...(who ? { blame: who } : {}) };
    });
    const notes = [
      r.encoding !== 'utf8' ? r.encoding : r.bom ? 'UTF-8 with BOM' : '',
      r.eol === '\r\n' ? 'CRLF' : r.eol === '\r' ? 'CR line endings' : '',
      r.minified ? 'very long lines: minified or generated?' : '',
      r.capped ? `window ended at ${MAX_READ_BYTES / 1024} KB` : '',
    ].filter(Boolean);
    const header = `${r.path}: lines ${r.start}–${r.end} of ${r.total}${notes.length ? ` (${notes.join('; ')})` : ''}`;
    const body = lines.map(
      (l) => `${l.blame ? `(${l.blame}) ` : ''}${linePrefix(l.n, l.hash)}${l.text}${l.cut ? ` … [${l.cut} more chars]` : ''}`,
    );
    return {
      data: { ...r, lines },
      text: [header, ...body].join('\n'),
      next: r.more ? ctx.cmd('read', r.path, '--start', r.end + 1) : null,
    };
  },
});
