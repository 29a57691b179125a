// `make bench`: start-up, appends into an empty and a 100k-entry store (memory save, log flush), concurrent writers, logging overhead.
// Every figure is measured side by side in this one run, interleaved, against a baseline run the same way.
import { spawn, spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { openRepo } from '../lib/git/repo';
import { StateStore } from '../lib/git/state';
import { FLUSH_THRESHOLD, newEvent } from '../lib/logs/events';
import { buildEntry, readProjectMemory } from '../lib/memory/memory';
import { FORGE, forgeEnv } from '../test/helpers/forge';
import { startupBench } from './startup';
import { median } from './stats';
import { git, tempRepo } from '../test/helpers/repo';

const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const env = forgeEnv();

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

interface Case {
  label: string;
  cmd: string;
  /** Arguments, given the directory the run works on (a fresh repository, say, from `before`). */
  args: string[] | ((dir: string) => string[]);
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Untimed preparation before each run (a fresh repository, say); returns the directory it works on. */
  before?: () => string;
  /** The process times itself and prints {ms, maxRssKb}: its start-up is left out of the figure. */
  selfTimed?: boolean;
  /** Where the process runs when not in the prepared directory (bench/flush.ts resolves tsx from here). */
  spawnCwd?: string;
}

interface Measure {
  ms: number;
  /** CPU time (user+system) of the process, or of the part a self-timed one times; null when it did not say. */
  cpuMs: number | null;
  /** Peak resident set of the process, when it reported it (bench/maxrss.cjs, or a self-timed process). */
  rssKb: number | null;
}

function timeOnce(c: Case): Measure {
  const dir = c.before ? c.before() : c.cwd;
  const args = typeof c.args === 'function' ? c.args(dir) : c.args;
  const start = process.hrtime.bigint();
  const r = spawnSync(c.cmd, args, { cwd: c.spawnCwd ?? dir, env: c.env ?? env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  const t = ms(start);
  if (r.status !== 0) throw new Error(`${c.label} failed (${r.status}): ${r.stderr}`);
  if (c.selfTimed) {
    const m = JSON.parse(r.stdout.toString('utf8')) as { ms: number; cpuMs: number; maxRssKb: number };
    return { ms: m.ms, cpuMs: m.cpuMs, rssKb: m.maxRssKb };
  }
  const stderr = r.stderr.toString('utf8');
  const rss = /forge-bench-maxrss (\d+)/.exec(stderr)?.[1];
  const cpu = /forge-bench-cpu (\d+)/.exec(stderr)?.[1];
  return { ms: t, cpuMs: cpu ? Number(cpu) / 1000 : null, rssKb: rss ? Number(rss) : null };
}

const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;

/** Runs the cases interleaved (a b c a b c …) so drift on a busy machine hits them alike. */
function sideBySide(title: string, cases: Case[], runs = RUNS): void {
  const measures = cases.map(() => [] as Measure[]);
  for (const c of cases) timeOnce(c); // warm the page cache
  for (let i = 0; i < runs; i++) cases.forEach((c, j) => measures[j]!.push(timeOnce(c)));
  const base = median(measures[0]!.map((m) => m.ms));
  // CPU where every run reported it: on a shared machine, what to compare (wall time beside it).
  const cpuOf = (j: number) => (measures[j]!.every((m) => m.cpuMs !== null) ? median(measures[j]!.map((m) => m.cpuMs!)) : null);
  const baseCpu = cpuOf(0);
  const baseRss = Math.max(...measures[0]!.map((m) => m.rssKb ?? 0));
  console.log(`\n${title}`);
  const width = Math.max(...cases.map((c) => c.label.length));
  cases.forEach((c, j) => {
    const m = median(measures[j]!.map((x) => x.ms));
    const cpu = cpuOf(j);
    const cpuText = cpu !== null && baseCpu ? `   cpu ${cpu.toFixed(1).padStart(6)} ms ${(cpu / baseCpu).toFixed(2)}×` : '';
    const rss = Math.max(...measures[j]!.map((x) => x.rssKb ?? 0));
    const peak = rss ? `   peak RSS ${mib(rss).padStart(8)} ${(rss / baseRss).toFixed(2)}×` : '';
    console.log(`  ${c.label.padEnd(width)}  ${m.toFixed(1).padStart(8)} ms   ${(m / base).toFixed(2)}×${cpuText}${peak}`);
  });
}

const node = process.execPath;
const forge = (...args: string[]) => [FORGE, ...args];
/** forge with its peak RSS reported on stderr. */
const forgeRss = (...args: string[]) => ['--require', resolve('bench/maxrss.cjs'), FORGE, ...args];

console.log(
  `forge bench — node ${process.version}, ${cpus().length} cores; medians of ${RUNS} interleaved runs; ratios against the first row`,
);
console.log('(NODE_EXTRA_CA_CERTS is unset for every run: it adds ~100 ms to any node start-up here and would flatter the ratios)');

// 1. Start-up.
const small = tempRepo();
spawnSync(node, forge('memory', 'save', 'pnpm vitest --run; watch mode hangs in CI', '--category', 'test_command'), { cwd: small, env });
await startupBench({ runs: RUNS, env });

// 2. Appends cost what they append: a memory save and a log flush into a 100k-entry store vs an empty one.
// Both big stores are seeded as an earlier forge wrote them (one file each); the first write after the
// seed converts them, once, and is timed apart.
const ENTRIES = 100_000;
const bigMemory = tempRepo();
const bigLog = tempRepo();
{
  const store = new StateStore(await openRepo({ cwd: bigMemory }));
  const lines: string[] = [];
  const now = new Date(Date.UTC(2026, 0, 1));
  const categories = ['convention', 'failure_pattern', 'success_pattern', 'test_command'] as const;
  for (let i = 0; i < ENTRIES; i++) {
    const entry = await buildEntry({
      pattern: `lesson ${i}: run the ${i % 7 === 0 ? 'integration' : 'unit'} tests of module ${i % 211} before touching its schema`,
      category: categories[i % 4]!,
      confidence: 0.7,
      tags: [`m${i % 211}`],
      now,
    });
    lines.push(JSON.stringify(entry));
  }
  await store.update({
    message: 'bench: seed 100k memory entries',
    apply: async (tx) => tx.write('.forge/memory/project.jsonl', `${lines.join('\n')}\n`),
  });
  store.close();
}
{
  const store = new StateStore(await openRepo({ cwd: bigLog }));
  const lines: string[] = [];
  for (let i = 0; i < ENTRIES; i++) {
    lines.push(
      JSON.stringify(
        newEvent({
          timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
          runId: 'big',
          phase: 'tool_call',
          moduleId: null,
          event: 'memory recall',
          severity: 'info',
          data: { exitCode: 0, durationMs: 12 },
        }),
      ),
    );
  }
  await store.update({
    message: 'bench: seed 100k events',
    apply: async (tx) => tx.write('.forge/logs/big.jsonl', `${lines.join('\n')}\n`),
  });
  store.close();
}
const memoryBytes = Number(git(bigMemory, 'cat-file', '-s', 'refs/forge/state:.forge/memory/project.jsonl'));
const logBytes = Number(git(bigLog, 'cat-file', '-s', 'refs/forge/state:.forge/logs/big.jsonl'));
let n = 0;
const save = () => forgeRss('memory', 'save', `bench lesson ${n++}`);
const flush = (runId: string) => (dir: string) => ['--import', 'tsx', resolve('bench/flush.ts'), dir, runId, String(FLUSH_THRESHOLD)];
const memorySave: Case = { label: '', cmd: node, args: save, cwd: bigMemory };
const logFlush: Case = { label: '', cmd: node, args: flush('big'), cwd: bigLog, selfTimed: true, spawnCwd: process.cwd() };
const first = [timeOnce(memorySave), timeOnce(logFlush)];
console.log(
  `\nthe first write into each store an earlier forge wrote (converts it, once): memory save ${first[0]!.ms.toFixed(0)} ms (peak RSS ${mib(first[0]!.rssKb!)}), log flush ${first[1]!.ms.toFixed(0)} ms (peak RSS ${mib(first[1]!.rssKb!)})`,
);
sideBySide(`memory save: empty store vs ${ENTRIES / 1000}k entries (${(memoryBytes / 1e6).toFixed(1)} MB as one file before conversion)`, [
  { ...memorySave, label: 'memory save, empty store', cwd: '', before: () => tempRepo({ commit: false }) },
  { ...memorySave, label: `memory save, ${ENTRIES / 1000}k-entry store` },
]);
sideBySide(
  `log flush of ${FLUSH_THRESHOLD} pending events: empty log vs ${ENTRIES / 1000}k events (${(logBytes / 1e6).toFixed(1)} MB as one file before conversion); time of the flush alone`,
  [
    {
      ...logFlush,
      label: `log flush of ${FLUSH_THRESHOLD} events, empty log`,
      args: flush('fresh'),
      cwd: '',
      before: () => tempRepo({ commit: false }),
    },
    { ...logFlush, label: `log flush of ${FLUSH_THRESHOLD} events, ${ENTRIES / 1000}k-event log` },
  ],
);

// 3. Concurrent writers: 8 processes × 50 saves each vs 1 process × 400.
function runSaves(dir: string, writers: number, each: number): Promise<number> {
  const start = process.hrtime.bigint();
  return Promise.all(
    Array.from(
      { length: writers },
      (_, w) =>
        new Promise<void>((done, fail) => {
          const child = spawn(node, forge('memory', 'save'), { cwd: dir, env, stdio: ['pipe', 'ignore', 'inherit'] });
          child.on('close', (code) => (code === 0 ? done() : fail(new Error(`writer ${w} exited ${code}`))));
          child.stdin.end(Array.from({ length: each }, (_, i) => JSON.stringify({ pattern: `writer ${w} lesson ${i}` })).join('\n'));
        }),
    ),
  ).then(() => ms(start));
}
{
  const one = tempRepo();
  const eight = tempRepo();
  const t1 = await runSaves(one, 1, 400);
  const t8 = await runSaves(eight, 8, 50);
  const count = async (d: string) => {
    const store = new StateStore(await openRepo({ cwd: d }));
    const entries = (await readProjectMemory({ store })).length;
    store.close();
    return entries;
  };
  console.log('\nconcurrent writers (400 saves, each its own state commit)');
  console.log(
    `  1 process  × 400: ${t1.toFixed(0).padStart(6)} ms  ${(400 / (t1 / 1000)).toFixed(0).padStart(4)} saves/s  entries ${await count(one)}`,
  );
  console.log(
    `  8 processes × 50: ${t8.toFixed(0).padStart(6)} ms  ${(400 / (t8 / 1000)).toFixed(0).padStart(4)} saves/s  entries ${await count(eight)}  (${(t1 / t8).toFixed(2)}× the single writer's throughput)`,
  );
  console.log(`  git fsck: ${spawnSync('git', ['fsck', '--no-dangling'], { cwd: eight }).status === 0 ? 'clean' : 'ERRORS'}`);
}

// 4. Logging overhead on a read-only command.
sideBySide('logging overhead on a read-only command (memory recall)', [
  { label: 'no run id', cmd: node, args: forge('memory', 'recall', 'pnpm'), cwd: small },
  {
    label: 'FORGE_RUN_ID set (tool_call recorded)',
    cmd: node,
    args: forge('memory', 'recall', 'pnpm'),
    cwd: small,
    env: { ...env, FORGE_RUN_ID: 'bench' },
  },
]);
