// `make bench`, search and listing at scale: forge search and ls against git grep, rg and git ls-files on a generated 100k-file repository and a copy of this project's tree; CPU and peak RSS, side by side.
// FORGE_BENCH_BIN=<path to an older dist/forge.js> measures another build the same way (the README's "before" column).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FORGE, forgeEnv } from '../test/helpers/forge';
import { git, PINNED_ENV, tempDir } from '../test/helpers/repo';
import { median, peakRssMiB, timeRun } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const BIN = process.env.FORGE_BENCH_BIN ?? FORGE;
const env = forgeEnv();

interface Case {
  label: string;
  cmd: string;
  args: string[];
  env?: Record<string, string>;
}

/** git grep and rg exit 1 when nothing matched: the same answer as forge's "no matches". */
const asRun = (c: Case, cwd: string) => ({
  cmd: c.cmd,
  args: c.args,
  cwd,
  env: { ...env, ...c.env },
  okCodes: c.cmd === 'git' || c.cmd === 'rg' ? [1] : [],
});
const cpuOnce = (c: Case, cwd: string) => timeRun(asRun(c, cwd)).cpu;
const peakMiB = (c: Case, cwd: string) => peakRssMiB(asRun(c, cwd));

/** Runs the cases interleaved (a b c a b c …) and prints medians as ratios against the baseline row. */
function sideBySide(
  title: string,
  cwd: string,
  cases: Case[],
  { baseline = 1, memory = false }: { baseline?: number; memory?: boolean } = {},
): Map<string, number> {
  const times = cases.map(() => [] as number[]);
  for (const c of cases) cpuOnce(c, cwd); // warm the page cache
  for (let i = 0; i < RUNS; i++) cases.forEach((c, j) => times[j]!.push(cpuOnce(c, cwd)));
  const medians = new Map(cases.map((c, j) => [c.label, median(times[j]!)]));
  const base = median(times[baseline]!);
  console.log(`\n${title}`);
  const width = Math.max(...cases.map((c) => c.label.length));
  for (const c of cases) {
    const m = medians.get(c.label)!;
    const rss = memory ? peakMiB(c, cwd) : null;
    console.log(
      `  ${c.label.padEnd(width)}  ${m.toFixed(0).padStart(6)} ms cpu  ${(m / base).toFixed(2).padStart(5)}×${rss === null ? '' : `  ${rss.toFixed(0).padStart(4)} MiB peak`}`,
    );
  }
  return medians;
}

/** 100k small TypeScript files in 1,000 directories, committed; one file in 1,000 holds NEEDLE. Made once and reused (it takes a minute). */
function hundredThousandFiles(): string {
  const dir = join(tmpdir(), 'forge-bench-100k-v1');
  if (existsSync(join(dir, '.git', 'forge-bench-ready'))) return dir;
  spawnSync('rm', ['-rf', dir]);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
  for (let i = 0; i < 100_000; i++) {
    const sub = join(dir, `pkg${i % 100}`, `mod${Math.floor(i / 100) % 10}`);
    if (i < 1000) mkdirSync(sub, { recursive: true });
    const lines = Array.from(
      { length: 20 },
      (_, j) => `export const ${words[(i + j) % 8]}${j} = ${(i * 31 + j) % 1000}; // ${words[(i * 7 + j) % 8]}`,
    );
    if (i % 1000 === 0) lines.push('// NEEDLE here');
    writeFileSync(join(sub, `file${i}.ts`), `${lines.join('\n')}\n`);
  }
  git(dir, 'add', '-A');
  spawnSync('git', ['commit', '-q', '-m', '100k files'], { cwd: dir, env: { ...process.env, ...PINNED_ENV } });
  // A refreshed index, as any git status leaves it: git then trusts its stat data instead of rereading racily clean files.
  spawnSync('git', ['update-index', '-q', '--refresh'], { cwd: dir });
  writeFileSync(join(dir, '.git', 'forge-bench-ready'), '');
  return dir;
}

/** This project's own tree, cloned: real source files, a real history. */
function ownTree(): string {
  const dir = tempDir('forge-bench-own-');
  spawnSync('git', ['clone', '-q', '--no-hardlinks', process.cwd(), dir]);
  spawnSync('git', ['update-index', '-q', '--refresh'], { cwd: dir });
  return dir;
}

const node = process.execPath;
const forge = (...args: string[]): Case => ({ label: `forge ${args.join(' ')}`, cmd: node, args: [BIN, ...args] });
const tool = (cmd: string, ...args: string[]): Case => ({ label: `${cmd === node ? 'node' : cmd} ${args.join(' ')}`, cmd, args });
const hasRg = spawnSync('rg', ['--version']).status === 0;
/** bench/ls-floor.cjs: the least an exact listing does (the index read, each directory read once, a lookup per tracked path), nothing else. */
const FLOOR = 'the floor: index + readdir + lookups (bench/ls-floor.cjs)';

console.log(
  `\nsearch and listing at scale — ${BIN === FORGE ? 'this build' : BIN}; CPU of the process and its children (git's included), medians of ${RUNS} interleaved runs`,
);
if (!hasRg) console.log('(rg is not installed: apt-get install ripgrep adds it to the comparison)');

const started = Date.now();
const big = hundredThousandFiles();
const own = ownTree();
console.log(
  `(repositories ready in ${((Date.now() - started) / 1000).toFixed(0)} s: ${big} with 100,000 files, ${own} with ${git(own, 'ls-files').split('\n').length})`,
);

for (const [name, dir, patterns] of [
  ['100k files', big, [['NEEDLE'], ['NEEDLE\\s+here'], ['delta1[0-9] = 99\\d'], ['\\d{3}; // zeta']]],
  ['own tree', own, [['openWorkspace'], ['function \\w+Workspace'], ['\\bTODO\\b'], ['\\d{4}-\\d{2}-\\d{2}T']]],
] as const) {
  for (const [pattern] of patterns) {
    // The same answer in each: every line matching, tracked and untracked files, .gitignore respected (rg: hidden files too, .git left out; a path, or it reads stdin).
    const cases = [
      forge('search', pattern),
      { ...forge('search', pattern), label: `FORGE_SEARCH_ENGINE=git forge search ${pattern}`, env: { FORGE_SEARCH_ENGINE: 'git' } },
      tool('git', 'grep', '-n', '--untracked', '-P', pattern),
      tool('git', 'grep', '-n', '-P', pattern),
      ...(hasRg ? [tool('rg', '-n', '--hidden', '--glob', '!.git', pattern, '.')] : []),
      tool(node, '-e', '0'),
    ];
    sideBySide(`search /${pattern}/, ${name} (ratios against git grep --untracked)`, dir, cases, { baseline: 2, memory: dir === big });
  }
  const ls = sideBySide(
    `listing, ${name} (ratios against git ls-files -co --exclude-standard, the same list before forge's checks)`,
    dir,
    [
      forge('ls'),
      { ...forge('ls'), label: 'FORGE_LIST_ENGINE=git forge ls', env: { FORGE_LIST_ENGINE: 'git' } },
      tool('git', 'ls-files', '-co', '--exclude-standard'),
      tool('git', 'ls-files'),
      tool(node, '-e', '0'),
      { label: FLOOR, cmd: node, args: [resolve('bench/ls-floor.cjs')] },
    ],
    { baseline: 2, memory: dir === big },
  );
  const goal = 1.5 * ls.get('git ls-files -co --exclude-standard')! + ls.get('node -e 0')!;
  console.log(
    `  goal for forge ls: ≤ 1.5 × git ls-files -co + node -e 0 = ${goal.toFixed(0)} ms cpu: ${ls.get('forge ls')! <= goal ? 'met' : 'not met'}; the floor of an exact listing in Node: ${ls.get(FLOOR)!.toFixed(0)} ms (${((100 * ls.get(FLOOR)!) / goal).toFixed(0)}% of the goal)`,
  );
}
