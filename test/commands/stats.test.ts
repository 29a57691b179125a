// forge stats: telemetry read from the state ref, however it is stored.
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { openRepo } from '../../lib/git/repo';
import { StateStore } from '../../lib/git/state';
import { forge } from '../helpers/forge';
import { tempRepo } from '../helpers/repo';

const task = (model: string, inputTokens: number) =>
  JSON.stringify({
    timestamp: '2026-01-01T00:00:00.000Z',
    task: 't',
    model,
    endpoint: 'http://localhost:11434/v1',
    turns: 1,
    inputTokens,
    outputTokens: 10,
    toolCalls: 2,
    cacheHits: 1,
    compressionRatio: null,
    durationMs: 1000,
    exhausted: false,
    cost: null,
  });

test('sums telemetry an earlier forge kept in telemetry.jsonl with the segments a sync brought beside it', async () => {
  const dir = tempRepo();
  const store = new StateStore(await openRepo({ cwd: dir }));
  try {
    await store.update({
      message: 'seed',
      apply: async (tx) => {
        tx.write('.forge/telemetry.jsonl', `${task('a', 100)}\n${task('b', 200)}\nnot json\n`);
        tx.write('.forge/telemetry/000000.jsonl', `${task('a', 300)}\n`);
      },
    });
  } finally {
    store.close();
  }
  const r = await forge(['stats', '--json'], { cwd: dir });
  assert.is(r.code, 0);
  assert.equal(
    r.records.filter((x) => x.type === 'model').map((x) => [x.model, x.tasks, x.inputTokens]),
    [
      ['a', 2, 400],
      ['b', 1, 200],
    ],
  );
  assert.equal([r.records.at(-1)!.tasks, r.records.at(-1)!.corrupt], [3, 1]);
});

test.run();
