// Which test files a run takes (by tier and pattern) and in what order: the longest first, so no long file starts last.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The tiers: `fast` is what runs no built binary (logic tests, in-process), `all` is everything
 * CI runs. A file's tier is where it lives: test/lib/ and test/bin/ are fast.
 */
export type Tier = 'fast' | 'all';
const FAST_DIRS = ['test/lib/', 'test/bin/'];

/** Every `*.test.ts` under test/, sorted. */
export function testFiles(root = 'test'): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'fixtures') walk(path);
      } else if (entry.name.endsWith('.test.ts')) found.push(path);
    }
  };
  walk(root);
  return found.sort();
}

/** The files of the tier whose path holds one of the patterns (all of them without one); a pattern naming a file runs that file, whatever its name. */
export function selectFiles({ tier, patterns, files = testFiles() }: { tier: Tier; patterns: string[]; files?: string[] }): string[] {
  const named = patterns.filter((p) => existsSync(p) && statSync(p).isFile());
  const filters = patterns.filter((p) => !named.includes(p));
  const matched = files.filter(
    (f) =>
      (tier === 'all' || FAST_DIRS.some((d) => f.startsWith(d))) &&
      (filters.length === 0 ? named.length === 0 : filters.some((p) => f.includes(p))),
  );
  return [...new Set([...named, ...matched])];
}

/** Wall times of the last run, per file: they order the next run. Kept beside the installed packages, never committed. */
const TIMES = 'node_modules/.cache/forge-tests/times.json';

export function readTimes(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(TIMES, 'utf8'));
  } catch {
    return {};
  }
}

export function saveTimes(times: Record<string, number>): void {
  try {
    mkdirSync(dirname(TIMES), { recursive: true });
    writeFileSync(TIMES, `${JSON.stringify({ ...readTimes(), ...times }, null, 1)}\n`);
  } catch {
    // an order is a nicety; a read-only checkout still runs its tests
  }
}

/**
 * Longest first. Without a time from an earlier run, a file's size stands in, a file that runs
 * the built binary counting triple (spawning costs more per line than computing in-process).
 */
export function longestFirst(files: string[], times: Record<string, number>): string[] {
  const guess = (f: string) => statSync(f).size * (FAST_DIRS.some((d) => f.startsWith(d)) ? 1 : 3);
  const known = files.every((f) => times[f] !== undefined);
  const weight = (f: string) => (known ? times[f]! : guess(f));
  return [...files].sort((a, b) => weight(b) - weight(a));
}
