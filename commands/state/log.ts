// forge state log: the history of the state ref, one commit per change.
import { defineCommand } from '../../lib/cli/declare';
import { STATE_REF } from '../../lib/git/state';
import { flushEvents } from '../../lib/logs/events';

export default defineCommand({
  name: 'state log',
  summary: 'List the commits of refs/forge/state, newest first',
  description: `Every state change is one commit on ${STATE_REF} whose message says what changed. Pending log events are committed first, so the history is complete. Plain git shows the same: git log ${STATE_REF}.`,
  args: {
    limit: { type: 'integer', min: 1, default: 20, placeholder: 'N', description: 'At most N commits.' },
  },
  examples: [{ command: 'forge state log --limit 5', description: 'The last five state changes.' }],
  errors: { NOT_A_GIT_REPO: 'outside a git repository' },
  exits: { 0: 'listed', 2: 'invalid input or not a git repository' },
  mutates: true,
  mcp: { title: 'Show the state history', toolset: 'state', effect: 'read' },
  pager: true,
  async run(args, ctx) {
    const repo = await ctx.repo();
    const store = await ctx.store();
    await flushEvents({ repo, store });
    const commits = await store.log({ limit: args.limit });
    for (const c of commits) await ctx.emit({ type: 'commit', ...c }, `${c.oid.slice(0, 12)} ${c.date} ${c.message}`);
    return {
      data: { ref: STATE_REF, count: commits.length },
      text: commits.length
        ? `${commits.length} commit${commits.length === 1 ? '' : 's'} on ${STATE_REF}`
        : `no state yet: ${STATE_REF} does not exist`,
      next: commits[0] ? ctx.cmd('state', 'show') : null,
    };
  },
});
