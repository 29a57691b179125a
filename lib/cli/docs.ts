// Every file derived from the declarations (man pages, completions, the bin map), for `make docs` and the drift test.
import { bashCompletion, fishCompletion, programs, zshCompletion } from './completions';
import type { Entry } from './declare';
import { manPage, overviewPage } from './man';

/** Path → content of every generated file. */
export function generatedFiles(entries: readonly Entry[], version: string): Map<string, string> {
  const files = new Map<string, string>();
  files.set('man/forge.1', overviewPage(entries, version));
  for (const e of entries) files.set(`man/forge-${e.name}.1`, manPage(e, version));
  files.set('completions/forge.bash', bashCompletion(entries));
  files.set('completions/_forge', zshCompletion(entries));
  files.set('completions/forge.fish', fishCompletion(entries));
  return files;
}

/** package.json "man": every page, so `npm install -g` makes `man forge-memory` work. */
export function manList(entries: readonly Entry[]): string[] {
  return ['man/forge.1', ...entries.map((e) => `man/forge-${e.name}.1`)];
}

/** package.json "bin": forge and forge-<cmd> are the same program. */
export function binMap(entries: readonly Entry[]): Record<string, string> {
  return Object.fromEntries(programs(entries).map((p) => [p, 'dist/forge.js']));
}
