// Merging two machines' state: JSONL union, JSON newest updatedAt, three-way decisions.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { combineContents, decide, mergeJson, mergeJsonl } from '../../../lib/state/merge';

test('JSONL merges as a union of lines, local order first', () => {
  assert.is(mergeJsonl('a\nb\n', 'b\nc\na\nd\n'), 'a\nb\nc\nd\n');
  assert.is(mergeJsonl('', ''), '');
});

test('a record with an id is kept once however each side wrote it; merging a merge changes nothing', () => {
  const local = '{"id":"ev-1","n":1}\n{"id":"ev-2","n":2}\nplain\n';
  const remote = '{"n":2,"id":"ev-2"}\n{"id":"ev-3","n":3}\nplain\n{"n":4}\n';
  const merged = mergeJsonl(local, remote);
  assert.is(merged, '{"id":"ev-1","n":1}\n{"id":"ev-2","n":2}\nplain\n{"id":"ev-3","n":3}\n{"n":4}\n');
  assert.is(mergeJsonl(merged, remote), merged);
  assert.is(mergeJsonl(merged, local), merged);
  // A segment or a bucket merges as any JSONL file does.
  assert.is(combineContents({ path: '.forge/logs/r/000003.jsonl', local, remote }), merged);
});

test('JSON keeps the newer updatedAt (or lastUpdatedAt); local wins ties and junk', () => {
  const old = '{"updatedAt":"2026-01-01T00:00:00Z","v":1}';
  const neu = '{"updatedAt":"2026-02-01T00:00:00Z","v":2}';
  assert.is(mergeJson(old, neu), neu);
  assert.is(mergeJson(neu, old), neu);
  assert.is(mergeJson('{"lastUpdatedAt":"2026-03-01T00:00:00Z"}', neu), '{"lastUpdatedAt":"2026-03-01T00:00:00Z"}');
  assert.is(mergeJson('not json', neu), neu);
  assert.is(mergeJson(old, old.replace('1}', '9}')), old);
});

test('a side unchanged since the base yields, so deletions stick', () => {
  assert.is(decide({ base: 'x', local: 'x', remote: 'y' }), 'remote');
  assert.is(decide({ base: 'x', local: 'y', remote: 'x' }), 'local');
  assert.is(decide({ base: 'x', local: null, remote: 'x' }), 'local');
  assert.is(decide({ base: 'x', local: 'x', remote: null }), 'remote');
  assert.is(decide({ base: null, local: 'y', remote: null }), 'local');
  assert.is(decide({ base: 'x', local: null, remote: 'z' }), 'remote');
  assert.is(decide({ base: 'x', local: 'y', remote: 'z' }), 'combine');
  assert.is(decide({ base: null, local: 'y', remote: 'y' }), 'local');
});

test('combines by file type; other files keep the local copy', () => {
  assert.is(combineContents({ path: '.forge/logs/r.jsonl', local: 'a\n', remote: 'b\n' }), 'a\nb\n');
  assert.is(combineContents({ path: '.forge/x.md', local: 'L', remote: 'R' }), 'L');
});

test.run();
