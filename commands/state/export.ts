// forge state export: write the state tree into a directory as plain files.
import { resolve } from 'node:path';
import { defineCommand } from '../../lib/cli/declare';
import { flushEvents } from '../../lib/logs/events';
import { exportFiles } from '../../lib/state/files';

export default defineCommand({
  name: 'state export',
  summary: 'Write the state tree into an empty directory',
  description:
    'Writes every file of the state ref, as .forge/…, under DIR (relative to the working directory), for tools that want plain files. DIR must be new or empty. Pending log events are committed first.',
  args: {
    dir: { type: 'string', tool: '', positional: true, required: true, placeholder: 'DIR', description: 'The directory to write into.' },
  },
  examples: [{ command: 'forge state export state-copy', description: 'Copy the state out as plain files under state-copy/.forge/.' }],
  errors: { EXPORT_TARGET_NOT_EMPTY: 'DIR exists and is not empty', NOT_A_GIT_REPO: 'outside a git repository' },
  exits: { 0: 'exported', 1: 'DIR is not empty', 2: 'invalid input or not a git repository' },
  mutates: true,
  mcp: { title: 'Export the state', toolset: 'state', effect: 'additive', idempotent: true },
  async run(args, ctx) {
    const target = resolve(ctx.cwd, args.dir);
    const repo = await ctx.repo();
    const store = await ctx.store();
    await flushEvents({ repo, store });
    const files = await exportFiles({ store, target });
    for (const f of files) await ctx.emit({ type: 'file', ...f }, `${String(f.size).padStart(8)}  ${f.path}`);
    return {
      data: { dir: target, files: files.length },
      text: files.length ? `exported ${files.length} file${files.length === 1 ? '' : 's'} to ${target}` : 'no state yet: nothing to export',
      next: null,
    };
  },
});
