// forge session list: saved sessions, most recently updated first.
import { defineCommand } from '../../lib/cli/declare';
import { listSessions } from '../../lib/session/session';

export default defineCommand({
  name: 'session list',
  summary: 'List saved sessions, most recently updated first',
  description:
    'Lists every snapshot under .forge/sessions/ with its phase and progress, newest lastUpdatedAt first, so a new session can find the run to resume. A file that is not a snapshot is left out with a warning on stderr naming it. Read-only.',
  args: {},
  examples: [{ command: 'forge session list --json', description: 'Every session as NDJSON, then a summary.' }],
  errors: { NOT_A_GIT_REPO: 'outside a git repository' },
  exits: { 0: 'listed', 2: 'not a git repository' },
  mutates: false,
  mcp: { title: 'List sessions', toolset: 'runs', effect: 'read' },
  async run(_args, ctx) {
    const sessions = await listSessions({ store: await ctx.store(), warn: (text) => ctx.warn(text) });
    for (const s of sessions) {
      await ctx.emit(
        { type: 'session', ...s },
        `${s.runId}  ${s.lastUpdatedAt}  ${s.currentPhase ?? '-'}  ${s.completedCount}/${s.totalCount}`,
      );
    }
    const resumable = sessions.find((s) => s.completedCount < s.totalCount) ?? sessions[0];
    return {
      data: { count: sessions.length },
      text: sessions.length ? `${sessions.length} session${sessions.length === 1 ? '' : 's'}` : 'no saved sessions',
      next: resumable ? ctx.cmd('session', 'load', '--run-id', resumable.runId) : null,
    };
  },
});
