// Which test files a run takes (by tier and pattern) and in what order: the longest first, by the committed table of their durations.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The tiers: `fast` is what runs no built binary (logic tests, in-process), `all` is everything
 * CI runs. A file's tier is where it lives: test/lib/ and test/bin/ are fast.
 */
export type Tier = 'fast' | 'all';
const FAST_DIRS = ['test/lib/', 'test/bin/'];
/**
 * The files that run real coding agents installed from npm (`make test-agents`): never part of a
 * tier, taken only by a pattern or path under the directory itself, so `make test` (and a pattern
 * such as `agent`) leaves them out.
 */
const OPT_IN_DIR = 'test/agents';

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
  const optedIn = (f: string) => !f.startsWith(`${OPT_IN_DIR}/`) || filters.some((p) => p.startsWith(OPT_IN_DIR) && f.includes(p));
  const matched = files.filter(
    (f) =>
      (tier === 'all' || FAST_DIRS.some((d) => f.startsWith(d))) &&
      optedIn(f) &&
      (filters.length === 0 ? named.length === 0 : filters.some((p) => f.includes(p))),
  );
  return [...new Set([...named, ...matched])];
}

/**
 * Each file's wall time in a full run (seconds), committed so that a fresh clone (CI's) orders its
 * first run as well as a later one: `scripts/test.ts --save-durations` rewrites it from a run.
 */
const DURATIONS = 'test/durations.json';

export function readDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(DURATIONS, 'utf8'));
  } catch {
    return {};
  }
}

export function saveDurations(seconds: Record<string, number>): void {
  const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(DURATIONS, `${JSON.stringify(sorted, null, 2)}\n`);
}

/**
 * Longest first, so no long file starts last and holds the run up alone. A file the table does not
 * know yet is guessed from its size (a 20 KB file, 10 s).
 */
export function longestFirst(files: string[], durations: Record<string, number>): string[] {
  const weight = (f: string) => durations[f] ?? statSync(f).size / 2000;
  return [...files].sort((a, b) => weight(b) - weight(a) || (a < b ? -1 : 1));
}
