// `make test`: every test file in parallel worker processes, each under a time limit, with c8 coverage merged once at the end; always ends with a summary.
import type { ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildTests } from './testing/build';
import { CoverageMerger, clearCoverage, coverageReport, rawDirOf } from './testing/coverage';
import { ENV } from './testing/protocol';
import { longestFirst, readDurations, saveDurations, selectFiles, type Tier } from './testing/files';
import { type FileResult, killGroup, runFile, slugOf } from './testing/run-file';
import { allPassed, duration, fileLine, summary } from './testing/summary';

const USAGE = `usage: node --import tsx scripts/test.ts [options] [pattern…]

Runs test/**/*.test.ts (those whose path contains a pattern, if any) in parallel processes.

  -j, --jobs N          files at once (default: the machine's cores, ${availableParallelism()})
      --fast            only the unit tests (test/lib/, test/bin/): no build needed
      --no-coverage     no c8 coverage
      --timeout S       seconds a test may run (default 120)
      --file-timeout S  seconds a file may run before its process group is killed (default 600)
      --save-durations  after a whole run that passed, rewrite test/durations.json (the order of the next run)
  -h, --help`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    jobs: { type: 'string', short: 'j' },
    fast: { type: 'boolean', default: false },
    'no-coverage': { type: 'boolean', default: false },
    timeout: { type: 'string', default: '120' },
    'file-timeout': { type: 'string', default: '600' },
    'save-durations': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const number = (name: string, text: string) => {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`error: --${name} takes a positive number, not '${text}'\n\n${USAGE}`);
    process.exit(2);
  }
  return n;
};
const jobs = Math.floor(number('jobs', values.jobs ?? String(availableParallelism())));
const tier: Tier = values.fast ? 'fast' : 'all';
const coverage = !values['no-coverage'];

const files = longestFirst(selectFiles({ tier, patterns: positionals }), readDurations());
if (files.length === 0) {
  console.error(`error: no test file matches ${positionals.map((p) => `'${p}'`).join(', ')}`);
  process.exit(2);
}

// Tests spawn many short node processes; the machine's extra CA bundle would add ~100 ms to each.
const env: NodeJS.ProcessEnv = { ...process.env, [ENV.timeoutMs]: String(number('timeout', values.timeout) * 1000) };
delete env.NODE_EXTRA_CA_CERTS;
if (coverage) clearCoverage();
const merger = coverage ? new CoverageMerger() : null;
const merged: Array<Promise<void>> = [];
const workDir = mkdtempSync(join(tempRoot(), 'forge-tests-'));
const fileTimeoutMs = number('file-timeout', values['file-timeout']) * 1000;

/**
 * Where the files' temp directories go: TMPDIR when it is set, else /dev/shm when the machine has
 * room there (the tests make thousands of small repositories, and in memory git and the file tools
 * spend a fraction of the system time they spend on a disk), else the system's temp directory.
 */
function tempRoot(): string {
  if (process.env.TMPDIR) return process.env.TMPDIR;
  try {
    const shm = statfsSync('/dev/shm');
    accessSync('/dev/shm', constants.W_OK);
    if (shm.bavail * shm.bsize >= 2 * 1024 ** 3) return '/dev/shm';
  } catch {
    // no /dev/shm (not Linux), or not ours to write
  }
  return tmpdir();
}

const { modules, dir: moduleDir } = await buildTests(files).catch((err: Error) => {
  // esbuild has printed where; a syntax error in a source is the usual cause (make test type-checks first).
  console.error(`error: cannot turn the tests into JavaScript: ${err.message.split('\n')[0]}`);
  process.exit(1);
});
const running = new Set<ChildProcess>();
const results: FileResult[] = [];
let next = 0;
let interrupted = false;
const started = performance.now();

async function worker(): Promise<void> {
  while (!interrupted && next < files.length) {
    const file = files[next++]!;
    const result = await runFile({
      file,
      module: modules.get(file)!,
      // Every process the file starts writes its raw coverage beside the others of the file.
      env: coverage ? { ...env, NODE_V8_COVERAGE: rawDirOf(slugOf(file)) } : env,
      workDir,
      fileTimeoutMs,
      onStart: (child) => {
        running.add(child);
        child.once('exit', () => running.delete(child));
      },
    });
    if (interrupted) return;
    if (merger) merged.push(merger.merge(slugOf(file)));
    results.push(result);
    console.log(fileLine(result));
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    interrupted = true;
    for (const child of running) killGroup(child.pid!);
  });

console.log(`${files.length} test files, ${Math.min(jobs, files.length)} at once${coverage ? ', with coverage' : ''}`);
await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));
rmSync(workDir, { recursive: true, force: true });

const figures = { results, wallMs: performance.now() - started, jobs, notRun: files.length - results.length };
console.log(summary(figures));
if (merger && !interrupted) {
  const reportStarted = performance.now();
  await Promise.all(merged);
  merger.close();
  console.log(coverageReport());
  // The suite's shape: most files call forge in their own process; the built executable is for what only it can show.
  writeFileSync('coverage/ran-executable.txt', [...merger.ranBinary].sort().join('\n') + '\n');
  console.log(
    `the built executable (dist/forge.js) ran in ${merger.ranBinary.size} of ${results.length} test files (coverage/ran-executable.txt)`,
  );
  if (merger.unreadable) console.log(`coverage: ${merger.unreadable} raw files could not be read (processes killed while writing them)`);
  console.log(
    `coverage merged beside the tests (CPU ${duration(merger.cpuMs)}), reported in ${duration(performance.now() - reportStarted)} after the last file`,
  );
}
merger?.close();
rmSync(moduleDir, { recursive: true, force: true });
if (values['save-durations']) {
  // Only a whole run that passed says how long every file takes.
  const whole = tier === 'all' && positionals.length === 0 && allPassed(figures);
  if (whole) saveDurations(Object.fromEntries(results.map((r) => [r.file, Math.round(r.wallMs / 100) / 10])));
  console.log(whole ? 'wrote test/durations.json' : 'test/durations.json left as it was: only a whole run that passed rewrites it');
}
process.exitCode = interrupted ? 130 : allPassed(figures) ? 0 : 1;
