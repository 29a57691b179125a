// The indentation inference: one transform every old line proves, or a refusal — never a guess.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { inferIndent } from '../../../lib/files/indent';

const infer = (pairs: Array<[string, string]>, added: string[], modelText = '', fileText = '') =>
  inferIndent({ pairs: pairs.map(([model, file]) => ({ model, file })), added, modelText, fileText });
const mapped = (r: ReturnType<typeof inferIndent>, indents: string[]) => (r.kind === 'ok' ? indents.map(r.map) : r.reason);

test('identical indentation maps as written', () => {
  assert.equal(mapped(infer([['  ', '  ']], ['    ']), ['    ', '\t']), ['    ', '\t']);
});

test('tabs and spaces convert at the width the old lines prove, every level', () => {
  // Two-space levels in a tab file: 2 columns are one tab, so 4 are two.
  assert.equal(
    mapped(
      infer(
        [
          ['', ''],
          ['  ', '\t'],
        ],
        ['  ', '    '],
      ),
      ['  ', '    ', ''],
    ),
    ['\t', '\t\t', ''],
  );
  // Tabs in a four-space file.
  assert.equal(
    mapped(
      infer(
        [
          ['\t', '    '],
          ['\t\t', '        '],
        ],
        ['\t\t\t'],
      ),
      ['\t\t\t'],
    ),
    ['            '],
  );
  // A tab with alignment spaces: 2, 4 and 8 columns all fit; the simplest (no shift: 4) is taken.
  assert.equal(
    mapped(
      infer(
        [
          ['\t  ', '      '],
          ['\t', '    '],
        ],
        ['\t\t'],
      ),
      ['\t\t'],
    ),
    ['        '],
  );
});

test('a shift keeps relative depth: shallower lines stay shallower', () => {
  assert.equal(
    mapped(
      infer(
        [
          ['\t', '\t\t'],
          ['', '\t'],
        ],
        ['\t', ''],
      ),
      ['\t', ''],
    ),
    ['\t\t', '\t'],
  );
  assert.equal(
    mapped(
      infer(
        [
          ['      ', '    '],
          ['    ', '  '],
        ],
        ['      ', '    '],
      ),
      ['        ', '    '],
    ),
    ['      ', '  '],
  );
});

test('levels re-scaled from one unit to another', () => {
  assert.equal(
    mapped(
      infer(
        [
          ['    ', '  '],
          ['        ', '    '],
        ],
        ['            '],
      ),
      ['            '],
    ),
    ['      '],
  );
});

test('old lines no single transform explains are refused', () => {
  const r = infer(
    [
      ['    ', '  '],
      ['  ', '    '],
      ['    ', '  '],
    ],
    ['  '],
  );
  assert.is(r.kind, 'refused');
  assert.match(mapped(r, []) as string, /no single indentation change/);
});

test('transforms that place the new lines differently are told apart by the units the texts show, else refused', () => {
  // Old lines all at one depth: 2-column or 4-column tabs fit; the model's own 2-space unit decides.
  const unit = infer([['', '\t']], ['  '], 'a\n  b\n    c\n', 'x\n\ty\n');
  assert.equal(mapped(unit, ['  ']), ['\t\t']);
  // Nothing shows the units: the simplest transform that fits (2 columns a tab, not 4 re-scaled) is taken.
  assert.equal(mapped(infer([['  ', '\t']], ['    ', '   ']), ['    ', '   ']), ['\t\t', '\t ']);
  // A window with no indentation, a file that shows none: no style to convert to, the model's characters stay.
  assert.equal(mapped(infer([['    ', '']], ['      ']), ['      ']), ['  ']);
  assert.equal(mapped(infer([['\t', '']], ['\t\t']), ['\t\t']), ['\t']);
});

test('a re-scaling is proven by old lines at two depths, and only between spaces; a literal prefix is the simplest reading', () => {
  // Old lines at one depth: 2 columns more, not doubled (the model text's 1-space "unit" is a doc comment's alignment).
  assert.equal(mapped(infer([['', '  ']], [' ', '']), [' ']), ['   ']);
  assert.equal(mapped(infer([['', '  ']], [' '], '/**\n * a\n */\nx\n', 'y\n  z\n    w\n'), [' ']), ['   ']);
  // Two depths prove it.
  assert.equal(
    mapped(
      infer(
        [
          ['', ''],
          ['  ', '    '],
        ],
        ['      '],
      ),
      ['      '],
    ),
    ['            '],
  );
  // Every line one tab deeper: the tab is dropped, whatever width tabs have (alignment spaces after it stay).
  assert.equal(
    mapped(
      infer(
        [
          ['\t', ''],
          ['\t\t', '\t'],
        ],
        ['\t\t   '],
      ),
      ['\t\t   '],
    ),
    ['\t   '],
  );
});

test('new lines shallower than an over-indent removes are refused', () => {
  assert.equal(mapped(infer([['    ', '']], ['      '], '', 'a\n  b\n'), ['      ']), ['  ']);
  assert.is(infer([['    ', '']], ['  '], '', 'a\n  b\n').kind, 'refused');
});

test.run();
