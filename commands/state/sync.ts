// forge state sync: fetch, merge and push the state ref so several machines share one project's state.
import { defineCommand } from '../../lib/cli/declare';
import { STATE_REF } from '../../lib/git/state';
import { syncState, trackingRef } from '../../lib/git/sync';
import { flushEvents } from '../../lib/logs/events';

export default defineCommand({
  name: 'state sync',
  summary: 'Fetch, merge and push refs/forge/state with a remote',
  description: `Fetches the remote's ${STATE_REF} (kept as refs/forge/remotes/<remote>/state), merges it with the local state and pushes the result back. Diverged states merge file by file against their merge base: JSONL files (memory, logs) as a union of lines, JSON files (sessions, iterations) by the newer updatedAt; a file changed on only one side takes that side, so a reset on one machine sticks. When the remote moved during the sync, the round is repeated. Pending log events are committed first. Never touches branches, HEAD, the index or the work tree.`,
  args: {
    remote: { type: 'string', positional: true, default: 'origin', description: 'A configured remote, or a URL or path.' },
  },
  examples: [
    { command: 'forge state sync', description: 'Share state through origin.' },
    { command: 'forge state sync backup', description: 'Through another remote.' },
  ],
  errors: { REMOTE_NOT_FOUND: 'no such remote', SYNC_FAILED: 'fetch or push failed (network, permissions)', STATE_CONFLICT: 'the remote kept moving for 5 rounds', NOT_A_GIT_REPO: 'outside a git repository' },
  exits: { 0: 'in sync', 1: 'fetch or push failed', 2: 'invalid input, no such remote, or not a git repository' },
  mutates: true,
  async run(args, ctx) {
    const repo = await ctx.repo();
    const store = await ctx.store();
    await flushEvents({ repo, store });
    const r = await syncState({ repo, store, remote: args.remote });
    const what: Record<typeof r.action, string> = {
      empty: 'neither side has state yet',
      'up-to-date': 'already up to date',
      pushed: 'pushed local state',
      'fast-forwarded': 'took the remote state (fast-forward)',
      merged: `merged both sides${r.combined.length ? ` (combined ${r.combined.join(', ')})` : ''}`,
    };
    return {
      data: { ...r, tracking: trackingRef(args.remote) },
      text: `${args.remote}: ${what[r.action]}${r.pushed && r.action !== 'pushed' ? ', pushed' : ''}${r.head ? ` at ${r.head.slice(0, 12)}` : ''}`,
      next: r.head ? ctx.cmd('state', 'log', '--limit', 5) : null,
    };
  },
});
