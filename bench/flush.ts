// One timed log flush in its own process, for bench/run.ts: spools N events of a run, commits them, prints {ms, cpuMs, maxRssKb} (wall and CPU of the flush alone).
import { openRepo } from '../lib/git/repo';
import { StateStore } from '../lib/git/state';
import { flushEvents, newEvent, spoolEvents } from '../lib/logs/events';

const [dir, runId, count] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4])];
const repo = await openRepo({ cwd: dir });
const store = new StateStore(repo);
// One spool file per event, as a command run with a run id leaves them.
for (let i = 0; i < count; i++) {
  await spoolEvents({
    repo,
    runId,
    events: [
      newEvent({
        timestamp: new Date().toISOString(),
        runId,
        phase: 'tool_call',
        moduleId: null,
        event: 'memory recall',
        severity: 'info',
        data: { exitCode: 0, durationMs: 12 },
      }),
    ],
  });
}
const start = process.hrtime.bigint();
const cpuBefore = process.cpuUsage();
const flushed = await flushEvents({ repo, store });
const ms = Number(process.hrtime.bigint() - start) / 1e6;
const cpu = process.cpuUsage(cpuBefore);
store.close();
if (flushed !== count) throw new Error(`flushed ${flushed} of ${count} events`);
process.stdout.write(`${JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, maxRssKb: process.resourceUsage().maxRSS })}\n`);
