// `make bench`, file tools: correctness per perturbation of the real-history corpus against git apply and GNU patch, time per patch, big patches, a 100k-line read.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import {
  corpusBases,
  editArgs,
  judge,
  PERTURBATIONS,
  sampleCases,
  type EditCase,
  type Outcome,
  type PatchCase,
} from '../test/helpers/corpus';
import { FORGE, forgeEnv } from '../test/helpers/forge';
import { git, repoWith, tempDir, tempRepo } from '../test/helpers/repo';
import { median } from './stats';

const env = forgeEnv();
/** Cases a perturbation: a hash-chosen sample, so the whole run takes a few minutes on 2 cores. */
const SAMPLE = Number(process.env.FORGE_BENCH_SAMPLE ?? 12);
const JOBS = Math.min(2, availableParallelism());

function ensureGnuPatch(): void {
  if (spawnSync('patch', ['--version']).status === 0) return;
  console.log('(installing GNU patch for the comparison: apt-get install -y patch)');
  spawnSync(
    'bash',
    [
      '-c',
      'apt-get install -y -qq patch >/dev/null 2>&1 || (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq patch >/dev/null 2>&1)',
    ],
    { stdio: 'inherit' },
  );
}

interface Tool {
  name: string;
  cmd: string;
  args: string[];
}

const PATCHERS: Tool[] = [
  { name: 'forge patch', cmd: process.execPath, args: [FORGE, 'patch'] },
  { name: 'git apply', cmd: 'git', args: ['apply'] },
  { name: 'git apply --recount -C1 --ignore-whitespace', cmd: 'git', args: ['apply', '--recount', '-C1', '--ignore-whitespace'] },
  {
    name: 'GNU patch -p1 -F3 -l',
    cmd: 'patch',
    args: ['-p1', '-F3', '-l', '--batch', '--forward', '--no-backup-if-mismatch', '-s', '-r', '/dev/null'],
  },
];
const EDIT = 'forge edit';
const COLUMNS = [PATCHERS[0]!.name, EDIT, ...PATCHERS.slice(1).map((t) => t.name)];

function exec(cmd: string, args: string[], cwd: string, input?: string): Promise<{ code: number; ms: number }> {
  return new Promise((done) => {
    const start = process.hrtime.bigint();
    const child = spawn(cmd, args, { cwd, env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('close', (code) => done({ code: code ?? -1, ms: Number(process.hrtime.bigint() - start) / 1e6 }));
    child.stdin.end(input ?? '');
  });
}

/** A fresh repository holding the files, uncommitted (git apply and patch need no commit; neither does forge). */
function workdir(files: Record<string, Buffer>): string {
  const dir = tempDir('forge-bench-');
  spawnSync('git', ['init', '-q'], { cwd: dir });
  for (const [p, data] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), data);
  }
  return dir;
}

const reader = (dir: string) => (p: string) => (existsSync(join(dir, p)) ? readFileSync(join(dir, p)) : null);

async function runPatch(tool: Tool, c: PatchCase): Promise<{ outcome: Outcome; ms: number }> {
  const dir = workdir(c.before);
  const r = await exec(tool.cmd, tool.args, dir, c.patch);
  const outcome = judge({ want: c.after, before: c.before, exit: r.code, now: reader(dir) });
  rmSync(dir, { recursive: true, force: true });
  return { outcome, ms: r.ms };
}

/** Each edit a forge edit call, in order, stopping at the first refusal. */
async function runEdit(c: EditCase): Promise<{ outcome: Outcome; ms: number }> {
  const dir = workdir({ [c.path]: c.before });
  let r = { code: 0, ms: 0 };
  for (const e of c.edits) {
    r = await exec(process.execPath, [FORGE, 'edit', c.path, ...editArgs(e)], dir);
    if (r.code !== 0) break;
  }
  const outcome = judge({ want: c.after && { [c.path]: c.after }, before: { [c.path]: c.before }, exit: r.code, now: reader(dir) });
  rmSync(dir, { recursive: true, force: true });
  return { outcome, ms: r.ms };
}

/** Runs the jobs `JOBS` at a time. */
async function pool<T>(jobs: Array<() => Promise<T>>): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: JOBS }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]!();
      }
    }),
  );
  return out;
}

ensureGnuPatch();
const started = Date.now();
const bases = corpusBases();
const commits = new Set(bases.map((b) => b.commit)).size;
console.log(
  `\ncorrectness on the real-history corpus: ${bases.length} file changes from ${commits} commits (this repository's whole history and the package releases in node_modules), each perturbed as models err`,
);
console.log(
  `sampled: ${SAMPLE} cases a perturbation, chosen by a hash of their names (FORGE_BENCH_SAMPLE=N for more; the test suite applies every case in-process), ${JOBS} at a time`,
);
console.log(
  'cells: correct % / wrong % / false-apply % / refused % — correct = exit 0 with exactly the expected bytes, or (rows marked must refuse) exit ≠ 0 with nothing changed;',
);
console.log(
  'wrong = exit 0 with other bytes, or a failure that changed files; false-apply = exit 0 where a correct tool must refuse; refused = nothing changed where a correct tool applies',
);
console.log(
  `forge edit runs each hunk as --old/--new in order, on the rows where that means something (— elsewhere: numbers, dialects and envelopes are patch matters)\n`,
);

type Tally = Record<Outcome, number>;
const tally = (): Tally => ({ correct: 0, wrong: 0, 'false-apply': 0, refused: 0 });
const rows: Array<{ id: string; refuse: boolean; n: number; cells: Map<string, Tally> }> = [];
const times = new Map<string, number[]>(COLUMNS.map((c) => [c, []]));
const totals = new Map<string, Tally>(COLUMNS.map((c) => [c, tally()]));

for (const p of PERTURBATIONS) {
  const patchCases = p.patch ? sampleCases(p, SAMPLE, 'patch', bases) : [];
  const editCases = p.edit ? sampleCases(p, SAMPLE, 'edit', bases) : [];
  const cells = new Map<string, Tally>();
  const jobs: Array<() => Promise<void>> = [];
  const record = (column: string, r: { outcome: Outcome; ms: number }) => {
    if (!cells.has(column)) cells.set(column, tally());
    cells.get(column)![r.outcome]++;
    totals.get(column)![r.outcome]++;
    if (p.id === 'exact') times.get(column)!.push(r.ms);
  };
  for (const tool of PATCHERS) for (const c of patchCases) jobs.push(async () => record(tool.name, await runPatch(tool, c)));
  for (const c of editCases) jobs.push(async () => record(EDIT, await runEdit(c)));
  await pool(jobs);
  rows.push({ id: p.id, refuse: p.refuse, n: Math.max(patchCases.length, editCases.length), cells });
}

const pct = (n: number, of: number) => (of ? Math.round((100 * n) / of) : 0);
const cell = (t: Tally | undefined) => {
  if (!t) return '—';
  const of = t.correct + t.wrong + t['false-apply'] + t.refused;
  return `${pct(t.correct, of)}/${pct(t.wrong, of)}/${pct(t['false-apply'], of)}/${pct(t.refused, of)}`;
};
const widths = COLUMNS.map((c) => Math.max(15, c.length));
console.log(['perturbation'.padEnd(44), 'n'.padStart(3), ...COLUMNS.map((c, i) => c.padStart(widths[i]!))].join('  '));
for (const r of rows) {
  console.log(
    [
      `${r.id}${r.refuse ? ' (must refuse)' : ''}`.padEnd(44),
      String(r.n).padStart(3),
      ...COLUMNS.map((c, i) => cell(r.cells.get(c)).padStart(widths[i]!)),
    ].join('  '),
  );
}
console.log('');
for (const c of COLUMNS) {
  const t = totals.get(c)!;
  const of = t.correct + t.wrong + t['false-apply'] + t.refused;
  console.log(
    `  ${c.padEnd(44)}  correct ${pct(t.correct, of)}%, wrong ${t.wrong} (${pct(t.wrong, of)}%), false-apply ${t['false-apply']} (${pct(t['false-apply'], of)}%), refused ${pct(t.refused, of)}% of ${of} cases`,
  );
}
console.log(`  (${((Date.now() - started) / 1000).toFixed(0)} s)`);

// Node's own start-up, measured the same way, shows how much of forge's time is the runtime.
const nodeTimes: number[] = [];
for (let i = 0; i < 9; i++) nodeTimes.push((await exec(process.execPath, ['-e', '0'], process.cwd())).ms);
const base = median(times.get('git apply')!);
const nameWidth = Math.max(...COLUMNS.map((c) => c.length), 26);
console.log(
  `\ntime per call (the exact rows above: ${SAMPLE} real commits, a process each, ${JOBS} at a time, median; ratios against git apply)`,
);
for (const c of COLUMNS)
  console.log(
    `  ${c.padEnd(nameWidth)}  ${median(times.get(c)!).toFixed(1).padStart(7)} ms   ${(median(times.get(c)!) / base).toFixed(2)}×`,
  );
console.log(
  `  ${'(node -e 0, for reference)'.padEnd(nameWidth)}  ${median(nodeTimes).toFixed(1).padStart(7)} ms   ${(median(nodeTimes) / base).toFixed(2)}×`,
);

// A many-hunk patch on a big file: git's own diff of it, applied by forge and by git apply.
interface Measured {
  wall: number;
  cpu: number;
}

/** Wall time and CPU time (user + system, from /usr/bin/time) of one run. */
function measure(cmd: string, args: string[], cwd: string, input?: string): Measured {
  const timing = join(tempDir('forge-bench-time-'), 'time');
  const s = process.hrtime.bigint();
  spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', timing, cmd, ...args], { cwd, env, input, stdio: ['pipe', 'ignore', 'ignore'] });
  const wall = Number(process.hrtime.bigint() - s) / 1e6;
  const [user, sys] = readFileSync(timing, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
  return { wall, cpu: (user! + sys!) * 1000 };
}

function bigPatch(lines: number, hunks: number): { dir: string; before: string; patch: string } {
  const dir = tempRepo();
  const before =
    Array.from({ length: lines }, (_, i) => `  const value_${i + 1} = compute(${i + 1}, 'line ${i + 1} of a generated module');`).join(
      '\n',
    ) + '\n';
  writeFileSync(join(dir, 'big.ts'), before);
  git(dir, 'add', 'big.ts');
  git(dir, 'commit', '-q', '-m', 'big');
  const step = Math.floor(lines / hunks);
  writeFileSync(
    join(dir, 'big.ts'),
    before
      .split('\n')
      .map((l, i) => (i % step === Math.floor(step / 2) && i < step * hunks ? `${l} // changed` : l))
      .join('\n'),
  );
  const patch = execFileSync('git', ['diff', '--no-color', '-U3'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
  return { dir, before, patch };
}

function bigRun(hunks: number, runs: number): void {
  const { dir, before, patch } = bigPatch(100_000, hunks);
  const counted = (patch.match(/^@@/gm) ?? []).length;
  const all = { forge: [] as Measured[], git: [] as Measured[], node: [] as Measured[] };
  for (let i = 0; i < runs; i++) {
    writeFileSync(join(dir, 'big.ts'), before);
    all.forge.push(measure(process.execPath, [FORGE, 'patch'], dir, patch));
    writeFileSync(join(dir, 'big.ts'), before);
    all.git.push(measure('git', ['apply'], dir, patch));
    all.node.push(measure(process.execPath, ['-e', '0'], dir));
  }
  const m = (k: keyof typeof all, f: keyof Measured) => median(all[k].map((x) => x[f]));
  console.log(
    `\n${counted} hunks on a 100k-line file (${(before.length / 1e6).toFixed(1)} MB), a process per run, median of ${runs}, Node's start-up included; CPU = user + system`,
  );
  console.log(
    `  git apply           wall ${m('git', 'wall').toFixed(0).padStart(6)} ms   cpu ${m('git', 'cpu').toFixed(0).padStart(6)} ms   1.00×`,
  );
  console.log(
    `  forge patch         wall ${m('forge', 'wall').toFixed(0).padStart(6)} ms   cpu ${m('forge', 'cpu').toFixed(0).padStart(6)} ms   ${(m('forge', 'wall') / m('git', 'wall')).toFixed(2)}× wall, ${(m('forge', 'cpu') / Math.max(1, m('git', 'cpu'))).toFixed(2)}× cpu`,
  );
  console.log(
    `  node -e 0           wall ${m('node', 'wall').toFixed(0).padStart(6)} ms   cpu ${m('node', 'cpu').toFixed(0).padStart(6)} ms   ${(m('node', 'wall') / m('git', 'wall')).toFixed(2)}× wall`,
  );
}

bigRun(200, 5);
bigRun(1600, 3);

// forge read of a 100k-line file vs node -e 0, interleaved.
const big = tempRepo();
writeFileSync(join(big, 'big.txt'), Array.from({ length: 100_000 }, (_, i) => `line ${i + 1} of a long generated file`).join('\n') + '\n');
const pair = { node: [] as number[], read: [] as number[], readEnd: [] as number[] };
for (let i = 0; i < 15; i++) {
  for (const [k, args] of [
    ['node', ['-e', '0']],
    ['read', [FORGE, 'read', 'big.txt']],
    ['readEnd', [FORGE, 'read', 'big.txt', '--start', '99900']],
  ] as const) {
    const s = process.hrtime.bigint();
    execFileSync(process.execPath, args as readonly string[] as string[], { cwd: big, env, stdio: 'ignore' });
    pair[k].push(Number(process.hrtime.bigint() - s) / 1e6);
  }
}
console.log('\nforge read of a 100k-line file (4.2 MB), a process per run, median of 15');
console.log(`  node -e 0                           ${median(pair.node).toFixed(1).padStart(7)} ms   1.00×`);
console.log(
  `  forge read big.txt                  ${median(pair.read).toFixed(1).padStart(7)} ms   ${(median(pair.read) / median(pair.node)).toFixed(2)}×`,
);
console.log(
  `  forge read big.txt --start 99900    ${median(pair.readEnd).toFixed(1).padStart(7)} ms   ${(median(pair.readEnd) / median(pair.node)).toFixed(2)}×`,
);

// Confinement: what the one path rule (git's files, symlinks out, dangling links) costs a read.
{
  const { locateWorkspace, resolveInside } = await import('../lib/files/workspace');
  const { realpath } = await import('node:fs/promises');
  const { resolve } = await import('node:path');
  const dir = repoWith({ 'src/app.ts': 'export const a = 1;\n' });
  const ws = await locateWorkspace({ cwd: dir });
  const N = 20_000;
  const cpu = async (body: () => Promise<unknown>) => {
    for (let i = 0; i < 500; i++) await body();
    const start = process.cpuUsage();
    for (let i = 0; i < N; i++) await body();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / N;
  };
  // The least any containment check does: resolve the path and ask the file system where it really is.
  const bare = await cpu(() => realpath(resolve(dir, 'src/app.ts')));
  const rule = await cpu(() => resolveInside({ ws, path: 'src/app.ts' }));
  const small = { node: [] as number[], read: [] as number[] };
  for (let i = 0; i < 15; i++) {
    for (const [k, args] of [
      ['node', ['-e', '0']],
      ['read', [FORGE, 'read', 'src/app.ts']],
    ] as const) {
      const s = process.hrtime.bigint();
      execFileSync(process.execPath, args as readonly string[] as string[], { cwd: dir, env, stdio: 'ignore' });
      small[k].push(Number(process.hrtime.bigint() - s) / 1e6);
    }
  }
  const readMs = median(small.read);
  console.log(`\nconfinement: the path rule per call, in-process CPU time, ${N} calls`);
  console.log(`  realpath(resolve(path)) alone        ${bare.toFixed(1).padStart(7)} µs   1.00×`);
  console.log(`  resolveInside (the whole rule)       ${rule.toFixed(1).padStart(7)} µs   ${(rule / bare).toFixed(2)}×`);
  console.log(
    `  forge read of a small file: ${readMs.toFixed(1)} ms (${(readMs / median(small.node)).toFixed(2)}× node -e 0); the rule is ${((100 * rule) / 1000 / readMs).toFixed(3)}% of it`,
  );
}
