// The README summary forge init puts in .forge/conventions.md: the first paragraph of prose, a sentence or two, links read as their text.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { readmeSummary } from '../../../lib/init/conventions';

test('links read as their text: a dot in a link target ends no sentence', () => {
  const readme =
    '# app\n\nServes [the API](docs/api.md) and [its guide](https://example.com/guide.html) to clients. See [the notes](NOTES.md) for what it asks.\n';
  assert.is(readmeSummary(readme), 'Serves the API and its guide to clients. See the notes for what it asks.');
});

test('a long paragraph is cut at a sentence; headings, badges, lists and code are not prose', () => {
  const long = `${'A sentence of some length that says a thing. '.repeat(8)}`;
  const summary = readmeSummary(`# x\n\n[![ci](b.svg)](c)\n\n- a list\n\n\`\`\`sh\nmake\n\`\`\`\n\n${long}\n`)!;
  assert.ok(summary.length <= 240 && summary.endsWith('thing.'), summary);
  assert.is(readmeSummary('# only a heading\n'), null);
});

test.run();
