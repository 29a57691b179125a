// The text model writes files back byte for byte; anchors hash lines stably.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { anchorOf, lineHash, parseAnchor } from '../../../lib/files/anchor';
import { countBreaks, decodeText, encodeText, indexLines, isBinary, lineAt, splitLines } from '../../../lib/files/text';

const roundTrip = (buf: Buffer) => assert.ok(encodeText(decodeText(buf)).equals(buf), JSON.stringify(buf.toString('latin1')));

test('decode → encode is byte-identical for every line-ending, BOM and encoding shape', () => {
  for (const text of ['', 'a', 'a\n', 'a\r\nb\r\n', 'a\r\nb\nc\rd', 'no final newline\nlast', '\n\n\n', 'tab\tand  spaces  \n']) {
    roundTrip(Buffer.from(text, 'utf8'));
    roundTrip(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]));
    roundTrip(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    roundTrip(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]));
  }
  roundTrip(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])); // Latin-1 "café\n", not valid UTF-8
});

test('decoding reports encoding, BOM and the dominant line ending', () => {
  const crlf = decodeText(Buffer.from('\ufeffa\r\nb\r\nc\n', 'utf8'));
  assert.equal([crlf.encoding, crlf.bom, crlf.eol, crlf.lines], ['utf8', true, '\r\n', ['a', 'b', 'c']]);
  assert.is(decodeText(Buffer.from([0x63, 0x61, 0x66, 0xe9])).encoding, 'latin1');
  assert.equal(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('x\ny', 'utf16le').swap16()])).lines, ['x', 'y']);
  assert.equal(splitLines('a\r\n\rb'), { lines: ['a', '', 'b'], ends: ['\r\n', '\r', ''] });
});

test('the line index agrees with full decoding on every line-ending shape', () => {
  for (const text of ['', 'a', 'a\n', 'a\r\nb\r\n', 'a\r\nb\nc\rd', 'x\r', '\n\n\n', 'a\r\r\nb', 'last\nno newline']) {
    const full = decodeText(Buffer.from(text));
    const index = indexLines(text);
    assert.is(index.total, full.lines.length, JSON.stringify(text));
    assert.equal(
      Array.from({ length: index.total }, (_, i) => lineAt(index, i + 1)),
      full.lines,
      JSON.stringify(text),
    );
    assert.is(index.eol, full.eol, JSON.stringify(text));
  }
});

test('binary means a NUL in the first 8000 bytes, unless UTF-16 with a BOM', () => {
  assert.ok(isBinary(Buffer.from([0x89, 0x50, 0x00, 0x01])));
  assert.not.ok(isBinary(Buffer.from('plain text\n')));
  assert.not.ok(isBinary(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi', 'utf16le')])));
  // A reused buffer: only its first `length` bytes are the file, whatever follows them.
  const reused = Buffer.from([0x41, 0x42, 0x00, 0x43]);
  assert.not.ok(isBinary(reused, 2), 'a NUL past the length');
  assert.ok(isBinary(reused, 3));
  assert.not.ok(isBinary(reused, 0), 'an empty file');
  assert.not.ok(isBinary(Buffer.alloc(9000, 0x41).fill(0, 8500), 9000), 'a NUL past the first 8000 bytes');
});

test('line hashes: FNV-1a 32 folded to 16 bits, independent of the line ending', () => {
  // FNV-1a("") = 0x811c9dc5 → 0x811c ^ 0x9dc5; FNV-1a("a") = 0xe40c292c → 0xe40c ^ 0x292c
  assert.is(lineHash(''), '1cd9');
  assert.is(lineHash('a'), 'cd20');
  assert.is(anchorOf(42, 'a'), '42#cd20');
  assert.equal(parseAnchor('42#cd20'), { line: 42, hash: 'cd20' });
  assert.equal(parseAnchor('7#00ff: const x = 1;'), { line: 7, hash: '00ff' });
  assert.is(parseAnchor('42#xyz'), null);
  assert.is(decodeText(Buffer.from('a\r\n')).lines.map(lineHash)[0], lineHash('a'));
});

test('line breaks are counted as splitLines splits: \r\n, \n and a lone \r each once', () => {
  for (const text of ['', 'a', 'a\n', 'a\r\nb\r\n', 'a\r\nb\nc\rd', 'x\r', '\r\r\n\n', '\n\n\n']) {
    const { ends } = splitLines(text);
    assert.is(countBreaks(text), ends.filter(Boolean).length, JSON.stringify(text));
  }
});

test.run();
