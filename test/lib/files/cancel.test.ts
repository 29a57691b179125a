// A search or a replacement the caller gives up on stops at its next checkpoint (every 256 files), CANCELLED, with nothing written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { ForgeError } from '../../../lib/errors';
import { planReplace } from '../../../lib/files/replace';
import { searchWorkspace } from '../../../lib/files/search';
import type { SearchEngine } from '../../../lib/files/sweep';
import { locateWorkspace } from '../../../lib/files/workspace';
import { entries } from '../../../commands/index';
import { callOnce } from '../../../lib/cli/invoke';
import { leaves } from '../../../lib/cli/registry';
import { forgeEnv } from '../../helpers/forge';
import { test } from '../../helpers/harness';
import { repoWith } from '../../helpers/repo';

/** 600 small files that all hold the word: a sweep of them passes two checkpoints after the first. */
const FILES = Object.fromEntries(
  Array.from({ length: 600 }, (_, i) => [`src/f${String(i).padStart(3, '0')}.ts`, `export const needle${i} = ${i};\n`]),
);

/** Runs `body` with a signal aborted as the sweep reports its first progress; what it threw. */
async function cancelledAtFirstProgress(
  body: (o: { signal: AbortSignal; onProgress: () => Promise<void> }) => Promise<unknown>,
): Promise<unknown> {
  const abort = new AbortController();
  try {
    await body({ signal: abort.signal, onProgress: async () => abort.abort('the client pressed stop') });
  } catch (err) {
    return err;
  }
  return null;
}

for (const engine of ['js', 'git'] as SearchEngine[]) {
  test(`search (${engine} engine): cancelled, it stops at the next checkpoint, CANCELLED, not after every file`, async () => {
    const ws = await locateWorkspace({ cwd: repoWith(FILES) });
    let seen = 0;
    const err = await cancelledAtFirstProgress(({ signal, onProgress }) =>
      searchWorkspace({
        ws,
        regex: /needle/,
        paths: [],
        limit: 0,
        engine,
        signal,
        onProgress,
        onMatch: async () => {
          seen++;
        },
      }),
    );
    assert.ok(err instanceof ForgeError && err.code === 'CANCELLED', String(err));
    assert.ok(seen <= 256, `at most the files before the checkpoint were searched: ${seen}`);
  });
}

test('replace: cancelled while it plans, it stops there (CANCELLED); forge replace cancelled before it writes writes nothing', async () => {
  const dir = repoWith(FILES);
  const ws = await locateWorkspace({ cwd: dir });
  const err = await cancelledAtFirstProgress(({ signal, onProgress }) =>
    planReplace({ ws, old: 'needle', replacement: 'pin', regex: false, ignoreCase: false, paths: [], signal, onProgress }),
  );
  assert.ok(err instanceof ForgeError && err.code === 'CANCELLED', String(err));
  // The command, its caller gone before the plan was made: a refusal, every file as it was.
  const spec = leaves(entries).find((c) => c.name === 'replace')!;
  const gone = AbortSignal.abort('the client went away');
  const r = await callOnce({ spec, args: { old: 'needle', new: 'pin' }, cwd: dir, env: forgeEnv(), signal: gone });
  assert.equal([r.code, r.error?.code, (r.records.at(-1)?.error as { code?: string })?.code], [1, 'CANCELLED', 'CANCELLED']);
  assert.is(readFileSync(join(dir, 'src/f599.ts'), 'utf8'), 'export const needle599 = 599;\n');
});

test.run();
