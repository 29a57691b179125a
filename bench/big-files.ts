// `make bench`, big files: the first window of a 1M-line file against a 10-line one (time), and the
// peak memory of a one-line edit, a write and a one-hunk patch of a 50 MB file against `node -e 0`'s.
import { spawnSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORGE, forgeEnv } from '../test/helpers/forge';
import { tempRepo } from '../test/helpers/repo';
import { median } from './stats';

const RUNS = 11;
const MiB = 1024 * 1024;
const env = forgeEnv();
const dir = tempRepo();
// Lines like source code, 1M of them: about 52 MB.
const line = (i: number) => `  const v${i} = compute(${i}, "generated text", 1);`;
const body = (n: number) => Array.from({ length: n }, (_, i) => line(i)).join('\n') + '\n';
writeFileSync(join(dir, 'big.txt'), body(1_000_000));
writeFileSync(join(dir, 'small.txt'), body(10));
const bigBytes = statSync(join(dir, 'big.txt')).size;

const run = (args: string[], input?: string) => {
  const r = spawnSync(process.execPath, args, { cwd: dir, env, input, stdio: ['pipe', 'ignore', 'pipe'], maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`node ${args.join(' ').slice(0, 200)}: exit ${r.status}\n${r.stderr}`);
};
const timed = (args: string[]) => {
  const s = process.hrtime.bigint();
  run(args);
  return Number(process.hrtime.bigint() - s) / 1e6;
};

// Time: a process each, interleaved so a busy machine weighs on both alike.
const cases = [
  { label: 'node -e 0', args: ['-e', '0'] },
  { label: 'forge read small.txt (10 lines)', args: [FORGE, 'read', 'small.txt'] },
  { label: `forge read big.txt (1M lines, ${(bigBytes / MiB).toFixed(0)} MiB)`, args: [FORGE, 'read', 'big.txt'] },
  { label: 'forge read big.txt --start 999900', args: [FORGE, 'read', 'big.txt', '--start', '999900'] },
];
const times = cases.map(() => [] as number[]);
for (let i = 0; i < RUNS; i++) cases.forEach((c, k) => times[k]!.push(timed(c.args)));
const ms = times.map(median);
console.log(`\nforge read, first window of a big file vs a small one (a process each, median of ${RUNS}, interleaved; goal ≤ 1.5×)`);
cases.forEach((c, k) =>
  console.log(`  ${c.label.padEnd(44)} ${ms[k]!.toFixed(1).padStart(8)} ms   ${(ms[k]! / ms[1]!).toFixed(2)}× the small read`),
);

// Peak memory: the child's maximum resident set, less node's own at start-up.
const peak = (args: string[], input?: string): number => {
  const r = spawnSync(
    'python3',
    [
      '-c',
      'import resource,subprocess,sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)',
      process.execPath,
      ...args,
    ],
    {
      cwd: dir,
      env,
      input,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    },
  );
  if (r.status !== 0) throw new Error(`peak of node ${args.join(' ').slice(0, 200)}: ${r.stderr}`);
  return Number(r.stdout.trim()) * 1024;
};
const nodePeak = median(Array.from({ length: 5 }, () => peak(['-e', '0'])));
const reset = () => writeFileSync(join(dir, 'big.txt'), body(1_000_000));
const mid = 500_000;
const memCases: Array<{ label: string; measure: () => number }> = [
  {
    label: 'forge edit --old (one line) --new',
    measure: () => {
      reset();
      return peak([FORGE, 'edit', 'big.txt', '--old', line(mid), '--new', `${line(mid)} // edited`]);
    },
  },
  {
    label: 'forge patch (one hunk)',
    measure: () => {
      reset();
      const patch = `--- a/big.txt\n+++ b/big.txt\n@@ -${mid},3 +${mid},3 @@\n ${line(mid - 1)}\n-${line(mid)}\n+${line(mid)} // patched\n ${line(mid + 1)}\n`;
      return peak([FORGE, 'patch'], patch);
    },
  },
  {
    label: 'forge write --overwrite (content on stdin)',
    measure: () => peak([FORGE, 'write', 'written.txt', '--overwrite'], body(1_000_000)),
  },
];
console.log(
  `\npeak memory on a ${(bigBytes / MiB).toFixed(0)} MiB file: the child's max RSS less node -e 0's (${(nodePeak / MiB).toFixed(0)} MiB), as a multiple of the file size (goal for the edit ≤ 3×)`,
);
for (const c of memCases) {
  const extra = median(Array.from({ length: 3 }, c.measure)) - nodePeak;
  console.log(`  ${c.label.padEnd(44)} ${(extra / MiB).toFixed(0).padStart(6)} MiB   ${(extra / bigBytes).toFixed(2)}× the file`);
}
