// forge stats: what forge agent tasks cost — tokens, tool calls, cache hits, time, money — per model.
import { defineCommand } from '../lib/cli/declare';
import { parseTelemetry, summarise, TELEMETRY_DIR } from '../lib/agent/telemetry';
import { readStream } from '../lib/state/streams';

export default defineCommand({
  name: 'stats',
  summary: 'Summarise forge agent telemetry: tokens, tool calls, cache hits, time and cost per model',
  tool: 'forge agent telemetry: tokens, calls, cache hits, cost per model',
  description: `Reads ${TELEMETRY_DIR}/ from the state ref (one line per forge agent task: model, endpoint, turns, input and output tokens (counted by forge in o200k_base and marked estimated when the server sent no usage), tool calls, calls answered from cache, duration, whether the turn limit ended it, and the cost when the profile gives rates per million tokens) and prints one line per model with totals and averages per task. Read-only.`,
  args: {},
  examples: [{ command: 'forge stats --json', description: 'One record per model, then the totals.' }],
  errors: { NOT_A_GIT_REPO: 'outside a git repository' },
  exits: { 0: 'shown (or no tasks yet)', 2: 'not a git repository' },
  mutates: false,
  mcp: { title: 'Agent usage stats', toolset: 'runs', effect: 'read' },
  async run(_args, ctx) {
    const { entries, corrupt } = parseTelemetry(await readStream({ store: await ctx.store(), dir: TELEMETRY_DIR }));
    const rows = summarise(entries);
    for (const s of rows) {
      const tokens = s.inputTokens + s.outputTokens;
      const hitRate = s.toolCalls ? Math.round((s.cacheHits / s.toolCalls) * 100) : 0;
      await ctx.emit(
        { type: 'model', ...s, tokensPerTask: Math.round(tokens / s.tasks) },
        `${s.model}: ${s.tasks} task${s.tasks === 1 ? '' : 's'}, ${tokens} tokens (${Math.round(tokens / s.tasks)} per task; ${s.inputTokens} in, ${s.outputTokens} out${s.estimatedTasks ? `; estimated for ${s.estimatedTasks} task${s.estimatedTasks === 1 ? '' : 's'} whose server sent no usage` : ''}), ${s.toolCalls} tool calls (${hitRate}% from cache), ${(s.durationMs / 1000).toFixed(1)} s${s.exhausted ? `, ${s.exhausted} stopped at the turn limit` : ''}${s.cost !== null ? `, $${s.cost.toFixed(4)}` : ''}`,
      );
    }
    const tokens = entries.reduce((n, e) => n + e.inputTokens + e.outputTokens, 0);
    return {
      data: { tasks: entries.length, tokens, models: rows.length, corrupt },
      text: entries.length
        ? `${entries.length} task${entries.length === 1 ? '' : 's'}, ${tokens} tokens in all${corrupt ? ` (${corrupt} unreadable lines skipped)` : ''}`
        : 'no forge agent tasks recorded yet',
      next: null,
    };
  },
});
