// The state validators: generated from their schemas and current, an id is what isValidId says, a bad file is named with its first problem.
import { readFileSync } from 'node:fs';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { isValidId } from '../../../lib/errors';
import { checkJson, parseStateLines, STATE_ID, stateInvalid } from '../../../lib/state/read';
import * as validators from '../../../lib/state/validators.gen';
import { VALIDATORS_PATH, validatorsSource } from '../../../scripts/gen-validators';

test('the generated validators are those the schemas compile to', () => {
  assert.is(readFileSync(VALIDATORS_PATH, 'utf8'), validatorsSource(), `${VALIDATORS_PATH} is stale: run make docs`);
});

test("the id pattern the validators use is isValidId's rule", () => {
  const samples = [
    'a',
    'plan-1',
    'x.y_z',
    '.',
    '..',
    '...',
    '.hidden',
    'a/b',
    '../x',
    '',
    'a b',
    'é',
    'x'.repeat(128),
    'x'.repeat(129),
    'a\n',
  ];
  for (const s of samples) assert.is(STATE_ID.test(s), isValidId(s), JSON.stringify(s));
});

test('a file that does not parse or match is refused with where and what', () => {
  assert.equal(checkJson({ text: '{"plan_id":"../etc"}', file: validators.planPointer }), {
    ok: false,
    problem: "plan_id: not an id (1-128 letters, digits, '_', '.' or '-', not '.' or '..')",
  });
  assert.equal(checkJson({ text: '{"id":"s","createdAt":"t","updatedAt":"t","turns":{}}', file: validators.agentSession }), {
    ok: false,
    problem: 'turns: must be array',
  });
  assert.equal(checkJson({ text: 'null', file: validators.loop }), { ok: false, problem: 'must be object' });
  assert.match((checkJson({ text: '{"a":', file: validators.loop }) as { problem: string }).problem, /^not JSON \(/);
  const r = checkJson({ text: '{"loop_id":"x"}', file: validators.loop });
  assert.equal(r, { ok: false, problem: "must have required property 'prompt'" });
  const err = stateInvalid({ path: '.forge/loops/x.json', problem: 'must be object', file: validators.loop });
  assert.equal(
    [err.code, err.exitCode, err.message, err.fix, err.data],
    [
      'STATE_INVALID',
      1,
      '.forge/loops/x.json on the state ref is not a loop: must be object',
      'git log --oneline refs/forge/state -- .forge/loops/x.json',
      { path: '.forge/loops/x.json', problem: 'must be object' },
    ],
  );
});

test('an enum names the values it allows; a default fills what an earlier forge did not write', () => {
  const entry = '{"id":"m","category":"nonsense","pattern":"p"}';
  assert.equal(checkJson({ text: entry, file: validators.memoryEntry }), {
    ok: false,
    problem:
      'category: must be equal to one of the allowed values (convention, failure_pattern, success_pattern, test_command, architecture, dependency, tool_usage)',
  });
  assert.equal(checkJson({ text: '{"id":"m","category":"convention","pattern":"p","extra":1}', file: validators.memoryEntry }), {
    ok: true,
    value: { id: 'm', category: 'convention', pattern: 'p', extra: 1, confidence: 0, tags: [], timestamp: '' },
  });
});

test('JSONL: each bad line is skipped and counted, the good ones kept in order', () => {
  const good = (n: number) => JSON.stringify({ id: `jr-${n}`, timestamp: `t${n}`, plan_id: 'p', verb: 'v', kind: 'Decision', unit: null });
  const text = [good(1), 'not json', '{}', 'null', '', good(2), '{"id":"x","timestamp":5}'].join('\n');
  const { entries, skipped } = parseStateLines({ text, file: validators.journalEntry });
  assert.equal([entries.map((e) => e.id), skipped], [['jr-1', 'jr-2'], 4]);
});

test.run();
