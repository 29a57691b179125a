// The process that merges each test file's raw coverage (scripts/testing/coverage.ts) while the next files run.
import { mergeRaw } from './coverage';

/** URLs whose source map a merged file already carries: c8 needs each once. */
const mapsGiven = new Set<string>();

process.on('message', ({ id, rawDir, outFile }: { id: number; rawDir: string; outFile: string }) => {
  const { unreadable, binary } = mergeRaw({ rawDir, outFile, mapsGiven });
  const { user, system } = process.cpuUsage();
  process.send!({ id, unreadable, binary, cpuMs: (user + system) / 1000 });
});
