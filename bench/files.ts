// `make bench`, file tools: patch correctness per perturbation against git apply and GNU patch on
// the same corpus, time per patch, and a 100k-line read — all side by side in this one run.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCorpus, PERTURBATIONS, projectSources, type PatchCase } from '../test/helpers/corpus';
import { FORGE, forgeEnv } from '../test/helpers/forge';
import { median } from './stats';
import { repoWith, tempRepo } from '../test/helpers/repo';

const env = forgeEnv();

function ensureGnuPatch(): void {
  if (spawnSync('patch', ['--version']).status === 0) return;
  console.log('(installing GNU patch for the comparison: apt-get install -y patch)');
  spawnSync('bash', ['-c', 'apt-get install -y -qq patch >/dev/null 2>&1 || (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq patch >/dev/null 2>&1)'], { stdio: 'inherit' });
}

interface Tool {
  name: string;
  cmd: string;
  args: string[];
}

const tools: Tool[] = [
  { name: 'forge patch', cmd: process.execPath, args: [FORGE, 'patch'] },
  { name: 'git apply', cmd: 'git', args: ['apply'] },
  { name: 'git apply --recount -C1 --ignore-whitespace', cmd: 'git', args: ['apply', '--recount', '-C1', '--ignore-whitespace'] },
  { name: 'GNU patch -p1 -F3 -l', cmd: 'patch', args: ['-p1', '-F3', '-l', '--batch', '--forward', '--no-backup-if-mismatch', '-s', '-r', '/dev/null'] },
];


type Outcome = 'correct' | 'refused' | 'false';

function run(tool: Tool, c: PatchCase): { outcome: Outcome; ms: number } {
  const dir = repoWith(c.before);
  const start = process.hrtime.bigint();
  const r = spawnSync(tool.cmd, tool.args, { cwd: dir, env, input: c.patch, stdio: ['pipe', 'ignore', 'ignore'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const read = (p: string) => {
    try {
      return readFileSync(join(dir, p));
    } catch {
      return null;
    }
  };
  const unchanged = Object.entries(c.before).every(([p, b]) => read(p)?.equals(b));
  if (c.after) {
    const right = Object.entries(c.after).every(([p, b]) => read(p)?.equals(b));
    if (r.status === 0 && right) return { outcome: 'correct', ms };
    return { outcome: unchanged ? 'refused' : 'false', ms };
  }
  return { outcome: r.status !== 0 && unchanged ? 'refused' : 'false', ms };
}

ensureGnuPatch();
const corpus = buildCorpus(projectSources());
console.log(`\nforge patch vs git apply vs GNU patch — ${corpus.length} cases: git diffs of edits to ${projectSources().length} of forge's own files, each perturbed as models err`);
console.log('correct = applied with exactly the expected bytes; false = changed a file wrongly, or applied where a correct tool refuses (conflict, ambiguous)\n');

const results = new Map<string, Map<string, Outcome[]>>();
const times = new Map<string, number[]>();
for (const tool of tools) {
  results.set(tool.name, new Map());
  times.set(tool.name, []);
  for (const c of corpus) {
    const { outcome, ms } = run(tool, c);
    const list = results.get(tool.name)!.get(c.perturbation) ?? [];
    list.push(outcome);
    results.get(tool.name)!.set(c.perturbation, list);
    if (c.perturbation === 'exact') times.get(tool.name)!.push(ms);
  }
}

const width = Math.max(...tools.map((t) => t.name.length));
const header = ['perturbation'.padEnd(18), ...tools.map((t) => t.name.padStart(Math.max(12, t.name.length)))].join('  ');
console.log(header);
for (const p of PERTURBATIONS) {
  const cells = tools.map((t) => {
    const list = results.get(t.name)!.get(p) ?? [];
    const shouldApply = corpus.find((c) => c.perturbation === p)?.after !== null;
    const good = list.filter((o) => (shouldApply ? o === 'correct' : o === 'refused')).length;
    const bad = list.filter((o) => o === 'false').length;
    return `${good}/${list.length} ${shouldApply ? 'ok' : 'refused'}${bad ? `, ${bad} FALSE` : ''}`.padStart(Math.max(12, t.name.length));
  });
  console.log([p.padEnd(18), ...cells].join('  '));
}
for (const t of tools) {
  const all = [...results.get(t.name)!.values()].flat();
  const applicable = corpus.filter((c) => c.after).length;
  const correct = all.filter((o) => o === 'correct').length;
  const falses = all.filter((o) => o === 'false').length;
  console.log(`  ${t.name.padEnd(width)}  correct-apply ${((100 * correct) / applicable).toFixed(0)}% (${correct}/${applicable}), false-apply ${falses}`);
}

// Node's own start-up, measured the same way, shows how much of forge's time is the runtime.
const nodeTimes: number[] = [];
for (let i = 0; i < 9; i++) {
  const s = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '0'], { env, stdio: 'ignore' });
  nodeTimes.push(Number(process.hrtime.bigint() - s) / 1e6);
}
const base = median(times.get('git apply')!);
console.log('\ntime per patch (exact cases, a process each, median; ratios against git apply)');
for (const t of tools) console.log(`  ${t.name.padEnd(width)}  ${median(times.get(t.name)!).toFixed(1).padStart(7)} ms   ${(median(times.get(t.name)!) / base).toFixed(2)}×`);
console.log(`  ${'(node -e 0, for reference)'.padEnd(width)}  ${median(nodeTimes).toFixed(1).padStart(7)} ms   ${(median(nodeTimes) / base).toFixed(2)}×`);

// forge read of a 100k-line file vs node -e 0, interleaved.
const big = tempRepo();
writeFileSync(join(big, 'big.txt'), Array.from({ length: 100_000 }, (_, i) => `line ${i + 1} of a long generated file`).join('\n') + '\n');
const pair = { node: [] as number[], read: [] as number[], readEnd: [] as number[] };
for (let i = 0; i < 15; i++) {
  for (const [k, args] of [['node', ['-e', '0']], ['read', [FORGE, 'read', 'big.txt']], ['readEnd', [FORGE, 'read', 'big.txt', '--start', '99900']]] as const) {
    const s = process.hrtime.bigint();
    execFileSync(process.execPath, args as readonly string[] as string[], { cwd: big, env, stdio: 'ignore' });
    pair[k].push(Number(process.hrtime.bigint() - s) / 1e6);
  }
}
console.log('\nforge read of a 100k-line file (4.2 MB), a process per run, median of 15');
console.log(`  node -e 0                           ${median(pair.node).toFixed(1).padStart(7)} ms   1.00×`);
console.log(`  forge read big.txt                  ${median(pair.read).toFixed(1).padStart(7)} ms   ${(median(pair.read) / median(pair.node)).toFixed(2)}×`);
console.log(`  forge read big.txt --start 99900    ${median(pair.readEnd).toFixed(1).padStart(7)} ms   ${(median(pair.readEnd) / median(pair.node)).toFixed(2)}×`);

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
    for (const [k, args] of [['node', ['-e', '0']], ['read', [FORGE, 'read', 'src/app.ts']]] as const) {
      const s = process.hrtime.bigint();
      execFileSync(process.execPath, args as readonly string[] as string[], { cwd: dir, env, stdio: 'ignore' });
      small[k].push(Number(process.hrtime.bigint() - s) / 1e6);
    }
  }
  const readMs = median(small.read);
  console.log(`\nconfinement: the path rule per call, in-process CPU time, ${N} calls`);
  console.log(`  realpath(resolve(path)) alone        ${bare.toFixed(1).padStart(7)} µs   1.00×`);
  console.log(`  resolveInside (the whole rule)       ${rule.toFixed(1).padStart(7)} µs   ${(rule / bare).toFixed(2)}×`);
  console.log(`  forge read of a small file: ${readMs.toFixed(1)} ms (${(readMs / median(small.node)).toFixed(2)}× node -e 0); the rule is ${((100 * rule) / 1000 / readMs).toFixed(3)}% of it`);
}
