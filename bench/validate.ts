// `make bench`, validate: what forge validate adds beyond the commands it runs (start-up, the state
// commit, the log event), and what Babel's syntax check of a large TypeScript file costs on top.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORGE, forgeEnv } from '../test/helpers/forge';
import { tempRepo } from '../test/helpers/repo';
import { median } from './stats';

const RUNS = 11;
const env = forgeEnv();
const dir = tempRepo();
// A 2,000-line TypeScript module: the size of a large hand-written source file.
const body = Array.from(
  { length: 1000 },
  (_, i) =>
    `export interface Shape${i} { id: number; name: string }\nexport function make${i}(id: number): Shape${i} { return { id, name: \`shape-\${id}\` }; }\n`,
).join('');
writeFileSync(join(dir, 'big.ts'), body);

const spawn = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { cwd: dir, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}\n${r.stdout}${r.stderr}`);
};
const timed = (...steps: Array<() => void>) => {
  const s = process.hrtime.bigint();
  for (const step of steps) step();
  return Number(process.hrtime.bigint() - s) / 1e6;
};
const cases: Array<{ label: string; time: () => number }> = [
  {
    label: 'sh -c true; sh -c "node -e 0"',
    time: () =>
      timed(
        () => spawn('sh', ['-c', 'true']),
        () => spawn('sh', ['-c', 'node -e 0']),
      ),
  },
  {
    label: "forge validate --cmd true --cmd 'node -e 0'",
    time: () => timed(() => spawn(process.execPath, [FORGE, 'validate', 'm', '--cmd', 'true', '--cmd', 'node -e 0'])),
  },
  { label: 'forge validate --cmd true', time: () => timed(() => spawn(process.execPath, [FORGE, 'validate', 'small', '--cmd', 'true'])) },
  {
    label: 'forge validate --cmd true --file big.ts',
    time: () => timed(() => spawn(process.execPath, [FORGE, 'validate', 'big', '--cmd', 'true', '--file', 'big.ts'])),
  },
];
const runs = cases.map(() => [] as number[]);
for (let i = 0; i < RUNS; i++) cases.forEach((c, k) => runs[k]!.push(c.time()));
const m = runs.map(median);
const [direct, both, one, parsed] = [m[0]!, m[1]!, m[2]!, m[3]!];
console.log(`\nforge validate, overhead beyond the commands it runs (median of ${RUNS}, interleaved)`);
cases.forEach((c, k) => console.log(`  ${c.label.padEnd(46)} ${m[k]!.toFixed(1).padStart(8)} ms`));
console.log(`  validate vs the same commands run directly: ${(both / direct).toFixed(2)}× (+${(both - direct).toFixed(0)} ms per call)`);
console.log(`  syntax check of a ${body.split('\n').length - 1}-line .ts file (Babel loaded and run): +${(parsed - one).toFixed(0)} ms`);
