// forge state show: print one state file, or list the files under a state directory.
import { defineCommand } from '../../lib/cli/declare';
import { RefusedError } from '../../lib/errors';
import { STATE_REF } from '../../lib/git/state';
import { flushEvents } from '../../lib/logs/events';
import { listFiles, statePath } from '../../lib/state/files';
import { appendStoreAt, wholeStore } from '../../lib/state/streams';

export default defineCommand({
  name: 'state show',
  summary: 'Print a file of the state ref, or list a state directory',
  description: `Prints a file from ${STATE_REF} exactly as stored (the hint goes to stderr so the content can be piped), or, for a directory or no path, lists the files under it with their sizes. Paths may omit the leading .forge/. A store kept in segments or buckets (memory/project, logs/<runId>, telemetry, plans/journal) prints whole as <dir>.jsonl: its files' lines one after another. Pending log events are committed first. Same as git show ${STATE_REF}:.forge/<path>.`,
  args: {
    path: {
      type: 'string',
      tool: 'Under .forge/ (default: all)',
      positional: true,
      default: '.forge',
      description: 'A file or directory under .forge/ (default: all).',
    },
  },
  examples: [
    { command: 'forge state show memory/project.jsonl', description: 'Project memory, its buckets one after another.' },
    { command: 'forge state show --json', description: 'Every state file with its size.' },
  ],
  errors: {
    STATE_PATH_NOT_FOUND: 'no such file or directory in the state',
    INVALID_PATH: "a path with '..'",
    NOT_A_GIT_REPO: 'outside a git repository',
  },
  exits: { 0: 'shown', 1: 'no such path in the state', 2: 'invalid input or not a git repository' },
  mutates: true,
  mcp: { title: 'Show the state', toolset: 'state', effect: 'read' },
  async run(args, ctx) {
    const path = statePath(args.path);
    const repo = await ctx.repo();
    const store = await ctx.store();
    await flushEvents({ repo, store });
    const head = await store.head();
    // A store kept in segments or buckets shows as the one file it stands for (and was before):
    // the file an earlier forge wrote, if a sync kept it, then the segments or buckets.
    const dir = path.replace(/\.jsonl$/, '');
    const whole = path.endsWith('.jsonl') && appendStoreAt(dir) !== null;
    const content = head ? (whole ? await wholeStore({ store, commit: head, dir }) : await store.readAt(head, path)) : null;
    if (content) {
      return {
        data: { path, size: content.length, content: content.toString('utf8') },
        text: content.toString('utf8').replace(/\n$/, ''),
        next: null,
        hintOnStderr: true,
      };
    }
    const files = head ? await listFiles({ store, commit: head, dir: path }) : [];
    if (!files.length) {
      throw new RefusedError('STATE_PATH_NOT_FOUND', head ? `'${path}' is not in the state` : `no state yet: ${STATE_REF} does not exist`, {
        fix: head ? 'forge state show' : "forge memory save 'first lesson'",
      });
    }
    for (const f of files) await ctx.emit({ type: 'file', ...f }, `${String(f.size).padStart(8)}  ${f.path}`);
    return {
      data: { path, files: files.length },
      text: `${files.length} file${files.length === 1 ? '' : 's'} under ${path}`,
      next: ctx.cmd('state', 'show', files[0]!.path),
    };
  },
});
