// `make bench`: start-up, state writes on a small and a 100k-event store, concurrent writers, logging overhead.
// Every figure is measured side by side in this one run, interleaved, against a baseline run the same way.
import { spawn, spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { openRepo } from '../lib/git/repo';
import { StateStore } from '../lib/git/state';
import { FLUSH_THRESHOLD, spoolEvents, flushEvents, newEvent } from '../lib/logs/events';
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
  /** Arguments, or a function giving each run its own (a distinct pattern to save). */
  args: string[] | (() => string[]);
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Untimed preparation before each run (a fresh repository, say); returns the cwd. */
  before?: () => string;
}

function timeOnce(c: Case): number {
  const cwd = c.before ? c.before() : c.cwd;
  const start = process.hrtime.bigint();
  const args = typeof c.args === 'function' ? c.args() : c.args;
  const r = spawnSync(c.cmd, args, { cwd, env: c.env ?? env, stdio: ['ignore', 'ignore', 'pipe'] });
  const t = ms(start);
  if (r.status !== 0) throw new Error(`${c.label} failed (${r.status}): ${r.stderr}`);
  return t;
}

/** Runs the cases interleaved (a b c a b c …) so drift on a busy machine hits them alike. */
function sideBySide(title: string, cases: Case[], runs = RUNS): void {
  const times = cases.map(() => [] as number[]);
  for (const c of cases) timeOnce(c); // warm the page cache
  for (let i = 0; i < runs; i++) cases.forEach((c, j) => times[j]!.push(timeOnce(c)));
  const base = median(times[0]!);
  console.log(`\n${title}`);
  const width = Math.max(...cases.map((c) => c.label.length));
  cases.forEach((c, j) => {
    const m = median(times[j]!);
    console.log(`  ${c.label.padEnd(width)}  ${m.toFixed(1).padStart(8)} ms   ${(m / base).toFixed(2)}×`);
  });
}

const node = process.execPath;
const forge = (...args: string[]) => [FORGE, ...args];

console.log(`forge bench — node ${process.version}, ${cpus().length} cores; medians of ${RUNS} interleaved runs; ratios against the first row`);
console.log('(NODE_EXTRA_CA_CERTS is unset for every run: it adds ~100 ms to any node start-up here and would flatter the ratios)');

// 1. Start-up.
const small = tempRepo();
spawnSync(node, forge('memory', 'save', 'pnpm vitest --run; watch mode hangs in CI', '--category', 'test_command'), { cwd: small, env });
await startupBench({ runs: RUNS, env });

// 2. A state write on an empty store vs on a store whose log holds 100k events.
const big = tempRepo();
const EVENTS = 100_000;
{
  const store = new StateStore(await openRepo({ cwd: big }));
  const lines: string[] = [];
  for (let i = 0; i < EVENTS; i++) {
    lines.push(JSON.stringify(newEvent({ timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), runId: 'big', phase: 'tool_call', moduleId: null, event: 'memory recall', severity: 'info', data: { exitCode: 0, durationMs: 12 } })));
  }
  await store.update({ message: 'bench: seed 100k events', apply: async (tx) => tx.write('.forge/logs/big.jsonl', `${lines.join('\n')}\n`) });
  store.close();
}
const logBytes = Number(git(big, 'cat-file', '-s', 'refs/forge/state:.forge/logs/big.jsonl'));
let n = 0;
const save = () => forge('memory', 'save', `bench lesson ${n++}`);
sideBySide(`one state write: empty store vs a store whose log holds ${EVENTS / 1000}k events (${(logBytes / 1e6).toFixed(1)} MB)`, [
  { label: 'memory save, empty store', cmd: node, args: save, cwd: '', before: () => tempRepo({ commit: false }) },
  { label: 'memory save, 100k-event store', cmd: node, args: save, cwd: big },
  { label: 'logged recall (tool_call event), 100k-event store', cmd: node, args: forge('memory', 'recall', 'x'), cwd: big, env: { ...env, FORGE_RUN_ID: 'big' } },
]);

// The batched flush is where a big log costs: it rewrites the log blob once per FLUSH_THRESHOLD events.
{
  const repo = await openRepo({ cwd: big });
  const store = new StateStore(repo);
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    for (let j = 0; j < FLUSH_THRESHOLD; j++) {
      await spoolEvents({ repo, runId: 'big', events: [newEvent({ timestamp: new Date().toISOString(), runId: 'big', phase: 'tool_call', moduleId: null, event: 'bench', severity: 'info', data: {} })] });
    }
    const start = process.hrtime.bigint();
    await flushEvents({ repo, store });
    times.push(ms(start));
  }
  store.close();
  const m = median(times);
  console.log(`  flush of ${FLUSH_THRESHOLD} pending events into the 100k-event log: ${m.toFixed(1)} ms (${(m / FLUSH_THRESHOLD).toFixed(2)} ms per event, amortized)`);
}

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
  const count = (d: string) => git(d, 'show', 'refs/forge/state:.forge/memory/project.jsonl').split('\n').length;
  console.log('\nconcurrent writers (400 saves, each its own state commit)');
  console.log(`  1 process  × 400: ${t1.toFixed(0).padStart(6)} ms  ${(400 / (t1 / 1000)).toFixed(0).padStart(4)} saves/s  entries ${count(one)}`);
  console.log(`  8 processes × 50: ${t8.toFixed(0).padStart(6)} ms  ${(400 / (t8 / 1000)).toFixed(0).padStart(4)} saves/s  entries ${count(eight)}  (${(t1 / t8).toFixed(2)}× the single writer's throughput)`);
  console.log(`  git fsck: ${spawnSync('git', ['fsck', '--no-dangling'], { cwd: eight }).status === 0 ? 'clean' : 'ERRORS'}`);
}

// 4. Logging overhead on a read-only command.
sideBySide('logging overhead on a read-only command (memory recall)', [
  { label: 'no run id', cmd: node, args: forge('memory', 'recall', 'pnpm'), cwd: small },
  { label: 'FORGE_RUN_ID set (tool_call recorded)', cmd: node, args: forge('memory', 'recall', 'pnpm'), cwd: small, env: { ...env, FORGE_RUN_ID: 'bench' } },
]);
