// Which words of a continued session are a reply to the previous turn, and what the model gets with one.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { type AgentSession, activeTurns, isShortReply, replyInContext, sessionSummary } from '../../../lib/agent/sessions';

const turn = (task: string, answer: string) => ({ timestamp: '2026-01-01T00:00:00Z', task, answer, files: [], toolCalls: 0, model: 'm' });
const session = (active?: number): AgentSession => ({
  id: 'ag-1',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  turns: [turn('rename foo', 'Shall I rename it in tests too?'), turn('add docs', 'Want a README section?')],
  ...(active === undefined ? {} : { active }),
});

test('short replies are told from tasks', () => {
  for (const r of [
    'yes',
    'Yes!',
    'ok, go ahead',
    'OK.',
    'go ahead please',
    'sounds good',
    "no, don't",
    'the second one',
    '2',
    'option b',
    'LGTM',
  ])
    assert.ok(isShortReply(r), r);
  for (const r of [
    '',
    'fix the tests',
    'yes and also rename bar',
    'add a --verbose flag',
    'go ahead and delete src/ then rewrite it all',
    '12',
  ])
    assert.not.ok(isShortReply(r), r);
});

test('a reply carries the last active turn; a rolled-back turn is neither answered nor summarised', () => {
  const all = replyInContext('yes', session());
  assert.is(all?.turn, 2);
  assert.ok(
    all?.text.startsWith('yes\n\n(This is my reply to your previous turn. I had asked: add docs\nYou answered:\nWant a README section?'),
  );
  const back = replyInContext('yes', session(1));
  assert.equal([back?.turn, back?.text.includes('Shall I rename it in tests too?')], [1, true]);
  assert.not.ok(sessionSummary(session(1)).includes('add docs'));
  assert.is(replyInContext('yes', session(0)), null);
  assert.is(replyInContext('write the docs', session()), null);
  assert.equal(activeTurns(session()).length, 2, 'a session without the pointer has every turn active');
});

test.run();
