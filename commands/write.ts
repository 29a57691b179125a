// forge write: create a file (or replace one with --overwrite), content from stdin or --content.
import { defineCommand } from '../lib/cli/declare';
import { writeWhole } from '../lib/files/write';
import { AFTER_A_CRASH } from '../lib/files/journal';
import { CONFINEMENT_ERRORS, CONFINEMENT_RULE, openWorkspace } from '../lib/files/workspace';

export default defineCommand({
  name: 'write',
  summary: 'Create a file from stdin or --content; replacing one needs --overwrite',
  tool: 'Create a file; replacing one needs overwrite',
  description: [
    'Writes CONTENT to PATH exactly as given, creating parent directories. An existing file is refused unless --overwrite is given, so a model that lost track of what exists cannot silently replace it. The write is atomic: a temporary file renamed into place, so a reader never sees half a file. Content comes from --content, or raw text on stdin (forge write PATH < file), or the content field of an NDJSON request. Only a regular file is replaced (a FIFO or a device is refused).',
    CONFINEMENT_RULE,
    AFTER_A_CRASH,
  ].join('\n\n'),
  args: {
    path: { type: 'string', tool: '', positional: true, required: true, description: 'The file, relative to the working directory.' },
    content: { type: 'string', tool: 'The whole file', placeholder: 'TEXT', description: 'The whole content (default: stdin).' },
    overwrite: { type: 'boolean', tool: '', description: 'Replace the file if it exists.' },
  },
  stdinText: 'content',
  examples: [
    { command: "forge write notes/todo.md --content '# todo'", description: 'Create a file and its directory.' },
    { command: "printf 'hello\\n' | forge write notes/todo.md --overwrite", description: 'Replace it with stdin.' },
  ],
  errors: {
    FILE_EXISTS: 'the file exists and --overwrite was not given',
    IS_A_DIRECTORY: 'the path is a directory',
    MISSING_ARGUMENT: 'no content on stdin or --content',
    NOT_A_REGULAR_FILE: 'the path is a FIFO, socket or device, not a file',
    NOT_A_DIRECTORY: 'a file is where a parent directory of the path must be',
    ...CONFINEMENT_ERRORS,
  },
  exits: {
    0: 'written',
    1: "refused: the file exists, or the path is in git's own files",
    2: 'invalid input or a path outside the repository',
  },
  mutates: true,
  mcp: { title: 'Write a file', toolset: 'files', effect: 'destructive', idempotent: true },
  async run(args, ctx) {
    const ws = await openWorkspace({ cwd: ctx.cwd, warn: ctx.warn });
    const r = await writeWhole({ ws, path: args.path, content: args.content, overwrite: args.overwrite });
    return {
      data: { ...r },
      text: `${r.created ? 'created' : 'overwrote'} ${r.path} (${r.bytes} bytes, ${r.lines} line${r.lines === 1 ? '' : 's'})`,
      next: ctx.cmd('read', r.path),
    };
  },
});
