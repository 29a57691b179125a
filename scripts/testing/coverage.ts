// Coverage with c8: each test file's processes write V8's raw coverage into a directory of their own, merged into one file when the file ends (in a process beside the tests), and c8 reports the merged files once at the end.
import { fork, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mergeProcessCovs, type ProcessCov, type ScriptCov } from '@bcoe/v8-coverage';

/** Where the merged files go: c8's default temp directory, which `c8 report` reads. */
const MERGED = resolve('coverage/tmp');
const RAW = resolve('coverage/raw');
/**
 * The scripts whose maps lead back to forge's sources: the executable's bundle, and the modules of
 * lib, commands and bin built for the tests (as .c8rc.json includes them).
 */
const INCLUDED = /^(dist|node_modules\/\.cache\/forge-tests\/\d+\/(lib|commands|bin))\//;

export function clearCoverage(): void {
  rmSync('coverage', { recursive: true, force: true });
  mkdirSync(MERGED, { recursive: true });
}

/** The NODE_V8_COVERAGE directory of one test file's processes. */
export const rawDirOf = (slug: string) => join(RAW, slug);

interface SourceMapEntry {
  lineLengths: number[];
  data: unknown;
}

/** Node's lineLengths (lib/internal/source_map/source_map_cache.js): UTF-16 units per line, split at \n, U+2028 and U+2029. */
const lineLengths = (text: string) => text.split(/[\n\u2028\u2029]/).map((line) => line.length);

/**
 * Merges the raw files of one test file into `outFile`: only forge's scripts, one merge of all of
 * them, and each script's source map once in the whole run. The bundles carry no sourceMappingURL
 * (scripts/build.mjs), so their maps are read here from the .map beside them, as Node would have.
 */
export function mergeRaw({ rawDir, outFile, mapsGiven }: { rawDir: string; outFile: string; mapsGiven: Set<string> }): {
  unreadable: number;
  /** Whether a process of the file ran the built executable (dist/forge.js), not just forge's code in the test's own process. */
  binary: boolean;
} {
  const root = pathToFileURL(process.cwd()).href;
  const ours = (url: string) => url.startsWith(`${root}/`) && INCLUDED.test(url.slice(root.length + 1));
  const covs: ProcessCov[] = [];
  const maps: Record<string, SourceMapEntry> = {};
  let unreadable = 0;
  let binary = false;
  for (const name of existsSync(rawDir) ? readdirSync(rawDir) : []) {
    let raw: ProcessCov & { 'source-map-cache'?: Record<string, SourceMapEntry> };
    try {
      raw = JSON.parse(readFileSync(join(rawDir, name), 'utf8'));
    } catch {
      unreadable++; // a process killed while writing it
      continue;
    }
    binary ||= raw.result.some((s: ScriptCov) => s.url === `${root}/dist/forge.js`);
    // A bundle run through vm.Script is named by its path, not its URL.
    const result = raw.result
      .map((s: ScriptCov) => (s.url.startsWith('/') ? { ...s, url: pathToFileURL(s.url).href } : s))
      .filter((s) => ours(s.url));
    covs.push({ result });
    for (const { url } of result) {
      if (mapsGiven.has(url)) continue;
      const entry = raw['source-map-cache']?.[url] ?? mapBeside(url);
      if (!entry) continue; // a later process may have cached it
      maps[url] = entry;
      mapsGiven.add(url);
    }
  }
  rmSync(rawDir, { recursive: true, force: true });
  if (covs.length) writeFileSync(outFile, JSON.stringify({ result: mergeProcessCovs(covs).result, 'source-map-cache': maps }));
  return { unreadable, binary };
}

function mapBeside(url: string): SourceMapEntry | null {
  const file = new URL(url).pathname;
  if (!existsSync(`${file}.map`)) return null;
  return { lineLengths: lineLengths(readFileSync(file, 'utf8')), data: JSON.parse(readFileSync(`${file}.map`, 'utf8')) };
}

/** Merges each test file's raw coverage in a process of its own as the file ends, so the run does not wait for it at the end. */
export class CoverageMerger {
  // A process rather than a worker thread: tsx's loader, which runs the TypeScript, does not reach worker threads.
  private readonly worker = fork(fileURLToPath(new URL('./coverage-worker.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  private readonly pending = new Map<number, () => void>();
  private readonly slugs = new Map<number, string>();
  private next = 0;
  unreadable = 0;
  /** The test files (slugs) whose processes included the built executable. */
  readonly ranBinary = new Set<string>();
  /** The merging process's CPU time so far. */
  cpuMs = 0;

  constructor() {
    this.worker.on('message', ({ id, unreadable, binary, cpuMs }: { id: number; unreadable: number; binary: boolean; cpuMs: number }) => {
      this.unreadable += unreadable;
      if (binary) this.ranBinary.add(this.slugs.get(id)!);
      this.cpuMs = cpuMs;
      this.pending.get(id)?.();
      this.pending.delete(id);
    });
  }

  merge(slug: string): Promise<void> {
    const id = this.next++;
    this.slugs.set(id, slug);
    return new Promise((done) => {
      this.pending.set(id, done);
      this.worker.send({ id, rawDir: rawDirOf(slug), outFile: join(MERGED, `${slug}.json`) });
    });
  }

  close(): void {
    if (this.worker.connected) this.worker.disconnect();
  }
}

interface Counts {
  total: number;
  covered: number;
}

/** Runs `c8 report` (.c8rc.json) on the merged files and returns the printed summary, or why there is none. */
export function coverageReport(): string {
  const c8 = spawnSync(process.execPath, ['node_modules/c8/bin/c8.js', 'report'], { encoding: 'utf8' });
  if (c8.status !== 0) return `coverage: c8 report failed (exit ${c8.status}): ${c8.stderr.trim().split('\n').at(-1)}`;
  let summary: Record<string, Record<string, Counts>>;
  try {
    summary = JSON.parse(readFileSync('coverage/coverage-summary.json', 'utf8'));
  } catch (err) {
    return `coverage: no summary (${(err as Error).message})`;
  }
  const total: Record<string, Counts> = {};
  const areas = new Map<string, Counts>();
  for (const [file, stats] of Object.entries(summary)) {
    const path = relative(process.cwd(), file);
    // The bundle's source map also names its dependencies: only forge's own sources count.
    const area = /^(lib\/[^/]+(?=\/)|lib|commands|bin)\//.exec(path)?.[1];
    if (!area) continue;
    for (const [kind, s] of Object.entries(stats)) {
      total[kind] ??= { total: 0, covered: 0 };
      total[kind].total += s.total;
      total[kind].covered += s.covered;
    }
    const lines = areas.get(area) ?? { total: 0, covered: 0 };
    lines.total += stats.lines!.total;
    lines.covered += stats.lines!.covered;
    areas.set(area, lines);
  }
  const pct = (c: Counts | undefined) => (c ? `${((100 * c.covered) / Math.max(1, c.total)).toFixed(1)}%` : '-');
  const byArea = [...areas.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([area, c]) => `${area} ${pct(c)}`)
    .join(' · ');
  return [
    `coverage of lib/, commands/, bin/: lines ${pct(total.lines)}, branches ${pct(total.branches)}, functions ${pct(total.functions)}`,
    `lines by area: ${byArea}`,
  ].join('\n');
}
