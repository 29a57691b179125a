// `make bench` (bench/walk.ts), the floor of an exact listing in Node: the least forge ls must do on a plain index (version 2 or 3) — read the index, read each directory holding tracked files once, look each tracked path up in its directory — and nothing else (no untracked names, .gitignore, symlink checks, sorting or output beyond a count).
'use strict';
const { readdirSync, readFileSync } = require('node:fs');

const index = readFileSync('.git/index');
const version = index.readUInt32BE(4);
if (index.toString('latin1', 0, 4) !== 'DIRC' || (version !== 2 && version !== 3)) {
  process.stderr.write('ls-floor: needs a version 2 or 3 index in ./.git\n');
  process.exit(2);
}
const count = index.readUInt32BE(8);
const text = index.latin1Slice(0, index.length); // the bench's paths are ASCII
let listed = 0;
let gone = 0;
let dir = null;
let names = null;
// A directory's files can come in more than one run (`a/x`, `a/b/y`, `a/z`): each is read once.
const listings = new Map();
function readListing(dir) {
  const names = new Map();
  try {
    for (const entry of readdirSync(dir || '.', { withFileTypes: true })) names.set(entry.name, entry);
  } catch {
    // gone: every path in it is too
  }
  return names;
}
for (let i = 0, at = 12; i < count; i++) {
  const flags = index.readUInt16BE(at + 60);
  const pathAt = at + 62 + (version === 3 && flags & 0x4000 ? 2 : 0);
  const end = pathAt + (flags & 0xfff);
  at += (end - at + 8) & ~7; // the entry, padded with 1-8 NULs to a multiple of 8
  const slash = text.lastIndexOf('/', end - 1);
  const cut = slash < pathAt ? pathAt : slash + 1;
  const dirLength = cut === pathAt ? 0 : cut - pathAt - 1;
  if (dir === null || dirLength !== dir.length || !text.startsWith(dir, pathAt)) {
    dir = text.slice(pathAt, pathAt + dirLength);
    names = listings.get(dir) ?? readListing(dir);
    listings.set(dir, names);
  }
  const entry = names.get(text.slice(cut, end));
  if (entry && (entry.isFile() || entry.isSymbolicLink())) listed++;
  else gone++;
}
process.stdout.write(`${listed} files, ${gone} gone\n`);
