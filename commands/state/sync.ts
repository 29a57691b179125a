// forge state sync: fetch, merge and push the state ref so several machines share one project's state.
import { defineCommand } from '../../lib/cli/declare';
import { STATE_REF } from '../../lib/git/state';
import { remoteStateHead, sharedKinds, STATE_KINDS, syncState, trackingRef, type SharedKind } from '../../lib/state/sync';
import { flushEvents } from '../../lib/logs/events';
import { gatingPlanFiles } from '../../lib/plans/contract';

/** `memory 3 entries, logs 40 entries in 2 files, …`. */
function describeShared(kinds: SharedKind[]): string {
  return kinds
    .map(
      (k) =>
        `${k.kind} ${k.entries} entr${k.entries === 1 ? 'y' : 'ies'}${k.files > 1 && k.files !== k.entries ? ` in ${k.files} files` : ''}`,
    )
    .join(', ');
}

export default defineCommand({
  name: 'state sync',
  summary: 'Fetch, merge and push refs/forge/state with a remote',
  description: [
    `Fetches the remote's ${STATE_REF} (kept as refs/forge/remotes/<remote>/state), merges it with the local state and pushes the result back. Diverged states merge file by file against their merge base: JSONL files (memory, logs) as a union of lines, JSON files (sessions, iterations) by the newer updatedAt; a file changed on only one side takes that side, so a reset on one machine sticks. When the remote moved during the sync, the round is repeated. Pending log events are committed first. Never touches branches, HEAD, the index or the work tree.`,
    `A push shares the whole state with everyone who can read the remote, and the output says what that is, by kind with counts of entries: ${STATE_KINDS.map((k) => k.kind).join(', ')}. What forge stores from tasks, answers, tool output and logs went through its secret redactor when it was written (the rules of gitleaks, the secret scanner — provider keys such as sk-…, ghp_…, glpat-…, AIza…, sk_live_…, xox…-, AKIA…, JWTs — and Bearer tokens, private key blocks, *_KEY=/*_TOKEN=/*SECRET=/*PASSWORD= values become [REDACTED:<kind>]; endpoints are kept without user, password or query string); kept exactly are what forge runs or compares later: activated plan contracts, and a loop's prompt, completion promise, done-when check and agent command. forge agent's telemetry and saved sessions can be turned off before they are recorded (FORGE_NO_TELEMETRY=1 or DO_NOT_TRACK=1, FORGE_NO_SESSIONS=1; see forge-agent(1)). --dry-run says what a sync would share and fetches and pushes nothing: it only asks the remote for its refs (git ls-remote), so a remote a sync could not reach fails the dry run too (SYNC_FAILED).`,
  ].join('\n\n'),
  args: {
    remote: {
      type: 'string',
      tool: 'Remote name, URL or path',
      positional: true,
      default: 'origin',
      description: 'A configured remote, or a URL or path.',
    },
    'dry-run': { type: 'boolean', tool: 'Fetch and push nothing', description: 'Say what a sync would share; fetch and push nothing.' },
  },
  examples: [
    { command: 'forge state sync', description: 'Share state through origin.' },
    { command: 'forge state sync backup', description: 'Through another remote.' },
    { command: 'forge state sync --dry-run', description: 'What a sync with origin would share, by kind; nothing is fetched or pushed.' },
  ],
  errors: {
    REMOTE_NOT_FOUND: 'no such remote',
    SYNC_FAILED: 'fetch or push failed (network, permissions)',
    STATE_CONFLICT: 'the remote kept moving for 5 rounds',
    NOT_A_GIT_REPO: 'outside a git repository',
    CANCELLED: 'the MCP client cancelled the call or went away: the fetch or push in flight was ended; the next sync picks up from there',
  },
  exits: {
    0: 'in sync (with --dry-run: the remote answers)',
    1: 'fetch or push failed, or the call was cancelled',
    2: 'invalid input, no such remote, or not a git repository',
  },
  mutates: true,
  mcp: { title: 'Sync the state', toolset: 'state', effect: 'additive', idempotent: true, openWorld: true },
  async run(args, ctx) {
    const repo = await ctx.repo();
    const store = await ctx.store();
    await flushEvents({ repo, store });
    if (args['dry-run']) {
      // A sync would fail on a remote it cannot reach: the dry run asks it for its refs (and nothing else) to know.
      const remoteHead = await remoteStateHead({ repo, remote: args.remote });
      const head = await store.head();
      const shared = head ? await sharedKinds({ repo, store, commit: head }) : [];
      return {
        data: { remote: args.remote, dryRun: true, head, remoteHead, shared, pushed: false, tracking: trackingRef(args.remote) },
        text: head
          ? `${args.remote}: dry run, nothing fetched or pushed; a sync would share ${STATE_REF} at ${head.slice(0, 12)} (${remoteHead ? `merged with what ${args.remote} holds` : `${args.remote} has no state yet`})\nwould share: ${describeShared(shared)}`
          : `${args.remote}: dry run, nothing fetched or pushed; no local state yet, so a sync would only fetch`,
        next: ctx.cmd('state', 'sync', args.remote),
      };
    }
    const r = await syncState({ repo, store, remote: args.remote, keepLocal: gatingPlanFiles, signal: ctx.signal });
    const shared = r.pushed && r.head ? await sharedKinds({ repo, store, commit: r.head }) : [];
    const what: Record<typeof r.action, string> = {
      empty: 'neither side has state yet',
      'up-to-date': 'already up to date',
      pushed: 'pushed local state',
      'fast-forwarded': 'took the remote state (fast-forward)',
      merged: `merged both sides${r.combined.length ? ` (combined ${r.combined.join(', ')})` : ''}`,
    };
    return {
      data: { ...r, shared, tracking: trackingRef(args.remote) },
      text: `${args.remote}: ${what[r.action]}${r.pushed && r.action !== 'pushed' ? ', pushed' : ''}${r.head ? ` at ${r.head.slice(0, 12)}` : ''}${shared.length ? `\nshared: ${describeShared(shared)}` : ''}${r.kept.length ? `\nkept the local active plan (${r.kept.join(', ')}): the remote's copy would have changed it; only this repository's operator ends, pauses, resumes or replaces it` : ''}`,
      next: r.head ? ctx.cmd('state', 'log', '--limit', 5) : null,
    };
  },
});
