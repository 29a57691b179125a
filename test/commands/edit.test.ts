// forge edit: exact bytes after each kind of sloppy-but-unambiguous edit; files byte-identical after every refusal.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { lineHash } from '../../lib/files/anchor';
import { forge } from '../helpers/forge';
import { tempRepo } from '../helpers/repo';

const SRC = ['function greet(name) {', '  if (!name) {', '    return "nobody";', '  }', '  return `hi ${name}`;', '}', ''].join('\n');

async function editCase(content: string | Buffer, args: string[]) {
  const dir = tempRepo();
  const path = join(dir, 'f.js');
  writeFileSync(path, content);
  const r = await forge(['edit', 'f.js', '--json', ...args], { cwd: dir });
  return { r, rec: r.records[0]!, bytes: readFileSync(path), dir };
}

test("exact and line-ending matches keep the file's own endings", async () => {
  const exact = await editCase(SRC, ['--old', 'return "nobody";', '--new', 'return "stranger";']);
  assert.is(exact.bytes.toString(), SRC.replace('"nobody"', '"stranger"'));
  assert.equal([exact.rec.strategy, exact.rec.startLine, exact.rec._next_action], ['exact', 3, 'git diff -- f.js']);
  const crlf = SRC.replace(/\n/g, '\r\n');
  const e = await editCase(crlf, [
    '--old',
    '  if (!name) {\n    return "nobody";\n  }',
    '--new',
    '  if (!name) {\n    return "stranger";\n  }',
  ]);
  assert.is(e.bytes.toString(), crlf.replace('"nobody"', '"stranger"'));
  assert.is(e.rec.strategy, 'line-endings');
});

test('trailing whitespace and indentation: applied once, context kept as the file has it, new lines re-indented to fit; no one transform is refused', async () => {
  // The unchanged line keeps the file's trailing whitespace; the changed one is written as given.
  const trailing = await editCase(SRC.replace('  }\n', '  }   \n'), [
    '--old',
    '  }\n  return `hi ${name}`;',
    '--new',
    '  }\n  return `hello ${name}`;',
  ]);
  assert.is(trailing.bytes.toString(), SRC.replace('  }\n', '  }   \n').replace('return `hi ${name}`;', 'return `hello ${name}`;'));
  assert.is(trailing.rec.strategy, 'trailing-whitespace');
  // The model lost two levels of indentation; the new text comes back indented like the file.
  const dedented = await editCase(SRC, [
    '--old',
    'if (!name) {\n  return "nobody";\n}',
    '--new',
    'if (!name) {\n  return "nobody";\n}\nif (name === "x") {\n  return "x";\n}',
  ]);
  assert.is(dedented.bytes.toString(), SRC.replace('  }\n', '  }\n  if (name === "x") {\n    return "x";\n  }\n'));
  assert.is(dedented.rec.strategy, 'indentation');
  // Old lines indented every which way prove no transform: where the new line goes is a guess, so it is refused.
  const scrambled = await editCase(SRC, ['--old', '    if (!name) {\n  return "nobody";\n    }', '--new', 'if (!name) return "nobody";']);
  assert.equal([scrambled.r.code, scrambled.bytes.toString()], [1, SRC]);
  assert.match(scrambled.r.stdout + scrambled.r.stderr, /INDENTATION_UNCLEAR/);
});

test('a value that looks like an option is the value, as git reads it (a diff line, a flag in a string)', async () => {
  const src = 'a\n-y\n--cwd x\n';
  const r = await editCase(src, ['--old', '-y', '--new', '--cwd z']);
  assert.equal([r.r.code, r.bytes.toString()], [0, 'a\n--cwd z\n--cwd x\n']);
  const eq = await editCase(src, ['--old=--cwd x', '--new=-n']);
  assert.equal([eq.r.code, eq.bytes.toString()], [0, 'a\n-y\n-n\n']);
  // With no word left the value is missing, as before.
  const missing = await editCase(src, ['--old', '-y', '--new']);
  assert.equal([missing.r.code, missing.bytes.toString()], [2, src]);
  assert.match(missing.rec.error.message, /option '--new' needs a value/);
});

test('Unicode quotes, dashes and no-break spaces fold to ASCII', async () => {
  const file = 'const a = “quoted” — dash\u00a0space;\n';
  const r = await editCase(file, ['--old', 'const a = "quoted" - dash space;', '--new', 'const a = "plain";']);
  assert.is(r.bytes.toString(), 'const a = "plain";\n');
  assert.is(r.rec.strategy, 'unicode');
});

test('BOM, Latin-1 and a missing final newline survive an edit', async () => {
  const bom = await editCase(Buffer.from('\ufeffa = 1\nb = 2', 'utf8'), ['--old', 'b = 2', '--new', 'b = 3']);
  assert.ok(bom.bytes.equals(Buffer.from('\ufeffa = 1\nb = 3', 'utf8')));
  const latin = await editCase(Buffer.from('caf\xe9 = 1\n', 'latin1'), ['--old', '= 1', '--new', '= 2']);
  assert.ok(latin.bytes.equals(Buffer.from('caf\xe9 = 2\n', 'latin1')));
});

test('several matches are refused naming their lines (unless --all); the anchor picks one', async () => {
  const twice = 'x = 1\ny = 2\nx = 1\n';
  const amb = await editCase(twice, ['--old', 'x = 1', '--new', 'x = 9']);
  assert.is(amb.r.code, 1);
  assert.equal(
    [amb.rec.error.code, amb.rec.error.data.lines, amb.rec._next_action],
    ['AMBIGUOUS_MATCH', [1, 3], "forge search 'x = 1' f.js --literal"],
  );
  assert.is(amb.bytes.toString(), twice);
  const all = await editCase(twice, ['--old', 'x = 1', '--new', 'x = 9', '--all']);
  assert.is(all.bytes.toString(), 'x = 9\ny = 2\nx = 9\n');
  const anchored = await editCase(twice, ['--old', 'x = 1', '--new', 'x = 9', '--anchor', `3#${lineHash('x = 1')}`]);
  assert.is(anchored.bytes.toString(), 'x = 1\ny = 2\nx = 9\n');
  // Look-alike blocks at different depths: a forgiving match may not pick one of them.
  const nested = 'a {\n  b;\n}\nc {\n    b;\n}\n';
  const lookalike = await editCase(nested, ['--old', ' b;', '--new', ' z;']);
  assert.is(lookalike.rec.error.code, 'AMBIGUOUS_MATCH');
  const fuzzyTwice = await editCase(nested, ['--old', 'b;   ', '--new', 'z;']);
  assert.equal([fuzzyTwice.rec.error.code, fuzzyTwice.bytes.toString()], ['AMBIGUOUS_MATCH', nested]);
});

test('no match and a stale anchor are refused with the nearest region and fresh anchors', async () => {
  const none = await editCase(SRC, ['--old', '  return `hey ${nam}`;', '--new', 'x']);
  assert.is(none.r.code, 1);
  assert.is(none.rec.error.code, 'NO_MATCH');
  assert.equal(
    none.rec.error.data.region.map((l: any) => l.n),
    [1, 2, 3, 4, 5, 6],
  );
  assert.match(none.rec.error.message, new RegExp(`\\n5#${lineHash('  return `hi ${name}`;')}:   return \`hi \\$\\{name\\}\`;`));
  assert.is(none.rec._next_action, 'forge read f.js --start 1 --end 6');
  assert.is(none.bytes.toString(), SRC);
  const invented = await editCase(SRC, ['--old', 'return "nobody";', '--new', 'x', '--anchor', '3#0000']);
  assert.is(invented.rec.error.code, 'ANCHOR_MISMATCH');
  assert.match(
    invented.rec.error.message,
    new RegExp(
      `^anchor 3#0000 does not match: line 3 is now 3#${lineHash('    return "nobody";')} — no line of the file has the hash 0000`,
    ),
  );
  // A line's hash that moved: the file changed since it was read.
  const moved = `2#${lineHash(SRC.split('\n')[0]!)}`;
  const stale = await editCase(SRC, ['--old', 'return "nobody";', '--new', 'x', '--anchor', moved]);
  assert.match(stale.rec.error.message, /^anchor 2#[0-9a-f]{4} does not match: line 2 is now .* — the file changed since it was read\./);
  assert.is(stale.bytes.toString(), SRC);
  assert.is(invented.bytes.toString(), SRC);
});

test('every anchor an edit names is checked against its line: a range end, --after, --before and a delete with a stale hash write nothing', async () => {
  const first = `1#${lineHash(SRC.split('\n')[0]!)}`;
  for (const args of [
    ['--lines', `${first}..3#0000`, '--new', 'x'],
    ['--after', '2#0000', '--new', 'x'],
    ['--before', '2#0000', '--new', 'x'],
    ['--lines', '2#0000', '--delete'],
  ]) {
    const stale = await editCase(SRC, args);
    assert.equal([stale.r.code, stale.rec.error?.code, stale.bytes.toString()], [1, 'ANCHOR_MISMATCH', SRC], args.join(' '));
  }
});

test('anchored line edits: replace, range, delete, insert after/before, several at once', async () => {
  const lines = SRC.split('\n');
  const a = (n: number) => `${n}#${lineHash(lines[n - 1]!)}`;
  const replace = await editCase(SRC, ['--lines', a(3), '--new', '    return null;']);
  assert.is(replace.bytes.toString(), SRC.replace('    return "nobody";', '    return null;'));
  const range = await editCase(SRC, ['--lines', `${a(2)}..${a(4)}`, '--delete']);
  assert.is(range.bytes.toString(), SRC.replace('  if (!name) {\n    return "nobody";\n  }\n', ''));
  const after = await editCase(SRC, ['--after', a(1), '--new', '  // greet someone\n']);
  assert.is(after.bytes.toString(), SRC.replace('{\n', '{\n  // greet someone\n'));
  const before = await editCase(SRC, ['--before', a(6), '--new', '  // done']);
  assert.is(before.bytes.toString(), SRC.replace('\n}\n', '\n  // done\n}\n'));
  const many = await editCase(SRC, [
    '--edits',
    JSON.stringify([
      { lines: a(3), new: '    return null;' },
      { after: a(5), new: '  // end' },
      { lines: a(1), new: 'function greet(name = "") {' },
    ]),
  ]);
  assert.is(
    many.bytes.toString(),
    SRC.replace('(name) {', '(name = "") {').replace('    return "nobody";', '    return null;').replace('`;\n', '`;\n  // end\n'),
  );
  assert.is(many.rec.replacements, 3);
  const crlf = SRC.replace(/\n/g, '\r\n');
  const keeps = await editCase(crlf, ['--after', a(2), '--new', '    // x']);
  assert.is(keeps.bytes.toString(), crlf.replace('{\r\n    return', '{\r\n    // x\r\n    return'));
});

test('one stale anchor among several edits writes nothing; overlapping edits are refused', async () => {
  const lines = SRC.split('\n');
  const a = (n: number) => `${n}#${lineHash(lines[n - 1]!)}`;
  const stale = await editCase(SRC, [
    '--edits',
    JSON.stringify([
      { lines: a(1), new: 'changed' },
      { lines: '5#ffff', new: 'x' },
    ]),
  ]);
  assert.equal([stale.r.code, stale.rec.error.code, stale.bytes.toString()], [1, 'ANCHOR_MISMATCH', SRC]);
  const overlap = await editCase(SRC, [
    '--edits',
    JSON.stringify([
      { lines: `${a(2)}..${a(4)}`, delete: true },
      { lines: a(3), new: 'x' },
    ]),
  ]);
  assert.equal([overlap.r.code, overlap.rec.error.code, overlap.bytes.toString()], [2, 'OVERLAPPING_EDITS', SRC]);
  const bad = await editCase(SRC, ['--lines', '3:abc', '--new', 'x']);
  assert.equal([bad.r.code, bad.rec.error.code], [2, 'INVALID_ANCHOR']);
  // An item holds its declared fields only, each of its type (the tool schema says so: strict tool modes take it).
  const stray = await editCase(SRC, ['--edits', JSON.stringify([{ lines: a(1), new: 'x', replace_all: true }])]);
  assert.equal(
    [stray.r.code, stray.rec.error.message, stray.bytes.toString()],
    [2, "edits[0] has no field 'replace_all': its fields are lines, after, before, new, delete", SRC],
  );
  const typed = await editCase(SRC, ['--edits', JSON.stringify([{ lines: a(1), new: 5 }])]);
  assert.equal([typed.r.code, typed.rec.error.message, typed.bytes.toString()], [2, 'edits[0].new must be a string, got number 5', SRC]);
  const mixed = await editCase(SRC, ['--old', 'x', '--new', 'y', '--lines', a(1)]);
  assert.equal([mixed.r.code, mixed.rec.error.code], [2, 'INVALID_ARGUMENT']);
});

test("the final newline follows the new text whatever the match; spacing between words and flat one-for-one lines are read, a string's spaces and restructured flat lines are not", async () => {
  // Found only with the tab folded: the newline the new text adds is written, as an exact match writes it.
  const added = await editCase('a\n    b', ['--old', 'a\n\tb', '--new', 'a\n\tB\n']);
  assert.equal([added.r.code, added.bytes.toString()], [0, 'a\n    B\n']);
  const removed = await editCase('a\n    b\n', ['--old', 'a\n\tb\n', '--new', 'a\n\tB']);
  assert.equal([removed.r.code, removed.bytes.toString()], [0, 'a\n    B']);
  const aligned = await editCase('const   x    =     5;\nrun(x);\n', ['--old', 'const x = 5;', '--new', 'const x = 6;']);
  assert.equal([aligned.r.code, aligned.rec.strategy, aligned.bytes.toString()], [0, 'spacing', 'const x = 6;\nrun(x);\n']);
  const literal = 'say("a  b");\n';
  const string = await editCase(literal, ['--old', 'say("a b");', '--new', 'say("a b!");']);
  assert.equal([string.r.code, string.rec.error.code, string.bytes.toString()], [1, 'NO_MATCH', literal]);
  const nested = await editCase(SRC, ['--old', 'if (!name) {\nreturn "nobody";\n}', '--new', 'if (!name) {\nreturn "stranger";\n}']);
  assert.equal([nested.r.code, nested.bytes.toString()], [0, SRC.replace('"nobody"', '"stranger"')]);
  const wrapped = await editCase(SRC, [
    '--old',
    'if (!name) {\nreturn "nobody";\n}',
    '--new',
    'if (!name) {\nlog(name);\nreturn "stranger";\n}',
  ]);
  assert.equal([wrapped.r.code, wrapped.rec.error.code, wrapped.bytes.toString()], [1, 'INDENTATION_UNCLEAR', SRC]);
});

test.run();
