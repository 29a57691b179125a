// forge logs: query a run's structured event log, newest run by default.
import { defineCommand } from '../lib/cli/declare';
import { assertId } from '../lib/errors';
import { PHASES, SEVERITIES } from '../lib/logs/events';
import { newestRun, queryEvents, type QueryStats } from '../lib/logs/query';

export default defineCommand({
  name: 'logs',
  summary: "Query a run's event log by module, phase and severity",
  description:
    "Reads the run's log from the state ref — the segments of .forge/logs/<runId>/, each at most 256 KiB, in order (and .forge/logs/<runId>.jsonl, where an earlier forge kept it, until the next flush converts it) — plus events still waiting to be committed, and streams the matching ones in order. Every forge command run with a run id (--run-id or FORGE_RUN_ID) records a tool_call event there (except forge logs itself); other commands record their own events (validate, plans…). Without a run id the run with the newest event is shown. A corrupt line is skipped and counted, never fatal. With --limit N only the newest N matches are printed; --limit 0 streams every match in constant memory.",
  args: {
    module: { type: 'string', tool: '', placeholder: 'ID', description: 'Only events of this module.' },
    phase: { type: 'string', tool: '', choices: PHASES, description: 'Only events of this phase.' },
    severity: { type: 'string', tool: '', choices: SEVERITIES, description: 'Only events of this severity.' },
    limit: {
      type: 'integer',
      tool: 'Newest N (0: all)',
      min: 0,
      default: 100,
      placeholder: 'N',
      description: 'Print the newest N matches (0: all).',
    },
  },
  examples: [
    { command: 'forge logs', description: 'The newest run, its last 100 events.' },
    { command: 'forge logs --run-id demo --phase tool_call --json', description: 'Every tool call of run demo, as NDJSON.' },
    {
      command: 'forge logs --run-id demo --severity error --json | jq \'select(.type=="event")\'',
      description: 'Only the events, without the summary record.',
    },
  ],
  errors: { NOT_A_GIT_REPO: 'outside a git repository', INVALID_ID: 'a module id that is not a plain name' },
  exits: { 0: 'queried (with or without matches)', 2: 'invalid input or not a git repository' },
  mutates: false,
  mcp: { title: 'Query a run log', toolset: 'runs', effect: 'read' },
  pager: true,
  recordsToolCall: false,
  async run(args, ctx) {
    if (args.module) assertId({ kind: 'module id', value: args.module });
    const repo = await ctx.repo();
    const store = await ctx.store();
    const runId = ctx.runId ?? (await newestRun({ repo, store }));
    if (!runId) {
      return {
        data: { runId: null, total: 0, shown: 0, skipped: 0 },
        text: 'no logs yet: run a forge command with --run-id ID (or FORGE_RUN_ID) to record one',
        next: null,
      };
    }
    const stats: QueryStats = { matched: 0, skipped: 0 };
    let shown = 0;
    const filter = { moduleId: args.module, phase: args.phase, severity: args.severity };
    for await (const e of queryEvents({ repo, store, runId, filter, limit: args.limit, stats })) {
      shown++;
      const mod = e.moduleId ? ` ${e.moduleId}` : '';
      const data = Object.keys(e.data ?? {}).length ? ` ${JSON.stringify(e.data)}` : '';
      await ctx.emit({ type: 'event', ...e }, `${e.timestamp} ${e.severity.padEnd(5)} ${e.phase}${mod} ${e.event}${data}`);
    }
    const more = stats.matched > shown;
    return {
      data: { runId, total: stats.matched, shown, skipped: stats.skipped },
      text: `run ${runId}: ${shown} of ${stats.matched} matching event${stats.matched === 1 ? '' : 's'}${stats.skipped ? `, ${stats.skipped} corrupt line${stats.skipped === 1 ? '' : 's'} skipped` : ''}`,
      next: more
        ? ctx.cmd(
            'logs',
            '--run-id',
            runId,
            ...(args.module ? ['--module', args.module] : []),
            ...(args.phase ? ['--phase', args.phase] : []),
            ...(args.severity ? ['--severity', args.severity] : []),
            '--limit',
            '0',
          )
        : null,
    };
  },
});
