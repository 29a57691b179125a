// When an answer ends a task: which tasks ask for a change, which answers say none was needed, which paste an edit still to make.
import * as assert from 'uvu/assert';
import { asksForChange, pastedEdits, saysNothingNeeded } from '../../../lib/agent/outcome';
import { test } from '../../helpers/harness';

test('a task asks for a change by its verb, first or within its first words; questions and readings do not', () => {
  const change = [
    'fix the failing test',
    'Please add a --verbose flag',
    'can you rename foo to bar?',
    'In notes.txt change one to two',
    'remove all console.log calls from src/',
    'ok, now update the README',
    'the login page: make the button blue',
    'write a test for the parser',
    'write docs for the retry flag in README.md',
    'write the migration in db/002.sql',
  ];
  const none = [
    'what does src/a.ts do?',
    'explain the retry logic',
    'why does the add function fail',
    'review my change to src/a.ts',
    'where is the config read',
    'summarize the last commit',
    'yes, go ahead',
    'is there a way to fix this?',
    'write a commit message for what is staged',
    'please write a short summary of the change',
    'draft a PR description for this branch',
    'suggest a better name for parseArgs',
  ];
  assert.equal(
    change.filter((t) => !asksForChange(t)),
    [],
    'read as asking for a change',
  );
  assert.equal(none.filter(asksForChange), [], 'read as asking no change');
});

test('an answer says why nothing needed to change, or it does not', () => {
  const reasons = [
    'The file already says two.',
    'There are no console.log calls in src/.',
    'No changes are needed: the flag exists.',
    'Nothing to change here.',
    'I found no occurrences of foo.',
    'The function does not exist in this repository.',
  ];
  const claims = [
    'Done.',
    'Changed one to two.',
    'I have updated the README as asked.',
    'Here is the fix:',
    'I have already changed it.',
    'Already done!',
  ];
  assert.equal(
    reasons.filter((a) => !saysNothingNeeded(a)),
    [],
  );
  assert.equal(claims.filter(saysNothingNeeded), []);
});

test('edits pasted into an answer: unified diffs, SEARCH/REPLACE blocks, Codex patches; prose and code are not', () => {
  assert.ok(pastedEdits('Here:\n```diff\n--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\n```'));
  assert.ok(pastedEdits('x.ts\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```'));
  assert.ok(pastedEdits('*** Begin Patch\n*** Update File: x.ts\n@@\n-a\n+b\n*** End Patch'));
  assert.not.ok(pastedEdits('Run `npm test` -- it passes.\n```ts\nconst a = 1;\n```'));
  assert.not.ok(pastedEdits('--- \nSome heading\n'));
});

test.run();
