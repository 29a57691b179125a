// The request budget: whole-request counts, block compression that keeps the prefix, uncached tokens.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import type { ChatMessage } from '../../../lib/agent/chat-types';
import {
  type BudgetState,
  enforceBudget,
  LOW_WATER,
  newBudgetState,
  prefixText,
  requestTokens,
  uncachedTokens,
} from '../../../lib/agent/context';

const tools = [
  {
    type: 'function' as const,
    function: { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  },
];

/** Turn `turn` of a run that reads a file each turn: the call, and its result of `lines` lines. */
function readTurn({ messages, state, turn, lines }: { messages: ChatMessage[]; state: BudgetState; turn: number; lines: number }): void {
  const id = `c${turn}`;
  state.toolNames.set(id, 'read');
  messages.push({
    role: 'assistant',
    content: '',
    tool_calls: [{ id, type: 'function', function: { name: 'read', arguments: JSON.stringify({ path: `f${turn}.txt` }) } }],
  });
  messages.push({
    role: 'tool',
    tool_call_id: id,
    content: Array.from({ length: lines }, (_, i) => `f${turn}.txt line ${i}: some text of the file`).join('\n'),
  });
}

test('uncached tokens: all of a first request, none of a repeat, only the appended part of a longer one', () => {
  const a = prefixText({
    messages: [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'task' },
    ],
    tools,
  });
  const b = prefixText({
    messages: [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'task' },
      { role: 'assistant', content: 'a fairly long reply with several words in it' },
    ],
    tools,
  });
  assert.is(uncachedTokens(null, a, countTokens), countTokens(a));
  assert.is(uncachedTokens(a, a, countTokens), 0);
  const appended = uncachedTokens(a, b, countTokens);
  assert.ok(appended > 5 && appended < countTokens(b) / 2, `${appended} of ${countTokens(b)}`);
});

test('compression comes in blocks: most calls over the budget append to an unchanged prefix, and every request fits', async () => {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are a test.' },
    { role: 'user', content: 'read everything' },
  ];
  const state = newBudgetState();
  const budget = 3000;
  let rewrites = 0;
  let previous: ChatMessage[] = [];
  for (let turn = 1; turn <= 12; turn++) {
    const fit = await enforceBudget({ messages, tools, budget, state });
    assert.ok((await requestTokens({ messages, tools })) <= budget, `turn ${turn}`);
    assert.is(fit.after, await requestTokens({ messages, tools }));
    // A call that compresses goes down to the low-water mark, not just under the budget: the next calls append.
    if (fit.compressed > 0) assert.ok(fit.after <= budget * LOW_WATER, `turn ${turn}: compressed to ${fit.after} of ${budget}`);
    // An earlier message changed since the last request: the prefix a cache held is gone from there.
    if (JSON.stringify(messages.slice(0, previous.length)) !== JSON.stringify(previous)) rewrites++;
    previous = structuredClone(messages);
    readTurn({ messages, state, turn, lines: 40 });
  }
  assert.ok(rewrites >= 1 && rewrites <= 4, `${rewrites} of 12 calls rewrote an earlier message`);
  assert.ok(state.archive.size >= 6, 'older results were compressed');
});

test('at a small budget the latest result keeps half the room: older turns are dropped first, in one block, rather than cut it to nothing', async () => {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are a test.' },
    { role: 'user', content: 'read everything' },
  ];
  const state = newBudgetState();
  const fixed = await requestTokens({ messages, tools });
  const budget = fixed + 600;
  let drops = 0;
  for (let turn = 1; turn <= 10; turn++) {
    // Each result alone is larger than the room: some of it is cut, never all.
    readTurn({ messages, state, turn, lines: 80 });
    const fit = await enforceBudget({ messages, tools, budget, state });
    assert.ok((await requestTokens({ messages, tools })) <= budget, `turn ${turn}`);
    const shown = String(messages.at(-1)!.content);
    assert.ok(countTokens(shown) >= 200, `turn ${turn}: the latest result kept ${countTokens(shown)} tokens`);
    assert.ok(shown.startsWith(`f${turn}.txt line 0:`), `turn ${turn}: the latest result is the one asked for`);
    if (fit.dropped) drops++;
  }
  assert.ok(drops >= 1 && drops <= 5, `${drops} of 10 calls dropped older turns`);
});

test('a budget the fixed prompt cannot fit fails with BUDGET_TOO_SMALL and a budget that fits', async () => {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'word '.repeat(800) },
    { role: 'user', content: 'fix it' },
  ];
  try {
    await enforceBudget({ messages, tools, budget: 500, state: newBudgetState() });
    assert.unreachable('no error');
  } catch (err) {
    const e = err as { code: string; fix: string; data: { suggested: number; needed: number } };
    assert.is(e.code, 'BUDGET_TOO_SMALL');
    assert.is(e.fix, `forge agent --budget ${e.data.suggested} 'fix it'`);
    assert.ok(e.data.suggested > e.data.needed);
  }
});

test.run();
