// forge's marked section of AGENTS.md: created, appended after the user's text, replaced in place, idempotent.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { mergeAgentsSection } from '../../../lib/init/agents-md';

test('a new file holds the section; an existing one keeps its text and gets the section once, replaced on later runs', () => {
  const first = mergeAgentsSection(null, '# Conventions\n- npm test\n')!;
  assert.match(first, /^<!-- forge init: start .*-->\n# Conventions\n- npm test\n<!-- forge init: end -->\n$/);
  const mine = '# Our agents\nBe kind.\n';
  const merged = mergeAgentsSection(mine, 'A')!;
  assert.ok(merged.startsWith('# Our agents\nBe kind.\n\n<!-- forge init: start'), merged);
  const again = mergeAgentsSection(`${merged}\n## After\nmore\n`, 'B')!;
  assert.is(again, merged.replace('\nA\n', '\nB\n') + '\n## After\nmore\n');
  assert.is(mergeAgentsSection(again, 'B'), again, 'idempotent');
});

test("markers that are not one start then one end are refused (null): the text between them may be the user's", () => {
  const section = mergeAgentsSection(null, 'A')!;
  const [start, end] = [section.split('\n')[0]!, section.trimEnd().split('\n').at(-1)!];
  for (const broken of [`${start}\nmy notes\n`, `my notes\n${end}\n`, `${section}${section}`, `${end}\n${start}\n`])
    assert.is(mergeAgentsSection(broken, 'B'), null, broken);
});

test.run();
