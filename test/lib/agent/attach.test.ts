// Attachments in lib/agent/attach.ts: image types by their bytes, pinned files read again when they change.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { imageType, openAttachments } from '../../../lib/agent/attach';
import { repoWith } from '../../helpers/repo';

test('an image type is read from its first bytes, never from its name', () => {
  assert.is(imageType(Buffer.from('89504e470d0a1a0a0000', 'hex')), 'image/png');
  assert.is(imageType(Buffer.from('ffd8ffe000104a464946', 'hex')), 'image/jpeg');
  assert.is(imageType(Buffer.from('GIF87a\x01\x00')), 'image/gif');
  assert.is(imageType(Buffer.from('GIF89a\x01\x00')), 'image/gif');
  assert.is(imageType(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')])), 'image/webp');
  assert.is(imageType(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt ')])), null, 'a RIFF that is not WebP');
  assert.is(imageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), null, 'SVG is text, not an image part');
  assert.is(imageType(Buffer.from('')), null);
});

test('a pinned file is read again when it changes, said when deleted, and a session path that left the repository is dropped', async () => {
  const dir = repoWith({ 'a.md': 'one\n' });
  const { pinned, dropped } = await openAttachments({
    cwd: dir,
    attach: ['a.md'],
    images: [],
    sessionPinned: ['../outside.md', 'gone.md', '.git/config', '/etc/hostname'],
    again: () => 'forge agent task',
  });
  assert.equal(dropped, ['../outside.md', 'gone.md', '.git/config', '/etc/hostname']);
  assert.equal(pinned.paths, ['a.md']);
  assert.match(await pinned.text(), /--- a\.md ---\none\n--- end of a\.md ---$/);
  writeFileSync(join(dir, 'a.md'), 'one\ntwo, longer\n');
  assert.match(await pinned.text(), /--- a\.md ---\none\ntwo, longer\n--- end of a\.md ---$/);
  rmSync(join(dir, 'a.md'));
  assert.match(await pinned.text(), /--- a\.md ---\n\[deleted since it was pinned\]\n/);
});

test.run();
