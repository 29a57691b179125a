// `make test`: every uvu suite under c8 (child processes of the built binary included), then the line CI reads.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const args = [
  'node_modules/.bin/c8',
  'node',
  '--import',
  'tsx',
  'node_modules/uvu/bin.js',
  'test',
  '\\.test\\.ts$',
  '-c',
  'false',
  ...process.argv.slice(2),
];
// Tests spawn many short node processes; the machine's extra CA bundle would add ~100 ms to each.
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;
const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
let out = '';
child.stdout.on('data', (b: Buffer) => {
  out += b.toString();
  process.stdout.write(b);
});
child.on('close', (code) => {
  const total = Number(/Total:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const passed = Number(/Passed:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const skipped = Number(/Skipped:\s+(\d+)/.exec(out)?.[1] ?? 0);
  printCoverage();
  console.log(`\ntests: ${passed} passed, ${total - passed - skipped} failed, ${skipped} skipped`);
  process.exitCode = code === 0 && total > 0 && passed === total - skipped ? 0 : 1;
});

/** Coverage of forge's own sources (the bundle's source map also names its dependencies'). */
function printCoverage(): void {
  let summary: Record<string, Record<string, { total: number; covered: number }>>;
  try {
    summary = JSON.parse(readFileSync('coverage/coverage-summary.json', 'utf8'));
  } catch {
    return;
  }
  const totals: Record<string, { total: number; covered: number }> = {};
  for (const [file, stats] of Object.entries(summary)) {
    if (!/^(lib|commands|bin)\//.test(relative(process.cwd(), file))) continue;
    for (const [kind, s] of Object.entries(stats)) {
      totals[kind] ??= { total: 0, covered: 0 };
      totals[kind].total += s.total;
      totals[kind].covered += s.covered;
    }
  }
  const pct = (k: string) => (totals[k] ? ((100 * totals[k].covered) / Math.max(1, totals[k].total)).toFixed(1) : '-');
  console.log(`coverage of lib/, commands/, bin/: lines ${pct('lines')}%, branches ${pct('branches')}%, functions ${pct('functions')}%`);
}
