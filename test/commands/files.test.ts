// forge read / write / ls / search through the built binary: windows, anchors, caps, refusals, .gitignore.
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { lineHash } from '../../lib/files/anchor';
import { forge } from '../helpers/forge';
import { git, tempDir, tempRepo } from '../helpers/repo';

function write(dir: string, path: string, content: string | Buffer) {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), content);
}

test('read: 150-line window with anchors, a header, and a hint to read on', async () => {
  const dir = tempRepo();
  write(dir, 'big.txt', Array.from({ length: 100_000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  const r = await forge(['read', 'big.txt'], { cwd: dir });
  const lines = r.stdout.trimEnd().split('\n');
  assert.is(lines[0], 'big.txt: lines 1–150 of 100000');
  assert.is(lines[1], `1#${lineHash('line 1')}: line 1`);
  assert.is(lines[150], `150#${lineHash('line 150')}: line 150`);
  assert.is(lines.at(-1), 'Next: forge read big.txt --start 151');
  const end = await forge(['read', 'big.txt', '--start', '99990', '--json'], { cwd: dir });
  const rec = end.records[0]!;
  assert.equal([rec.start, rec.end, rec.total, rec.more, rec.lines.length, rec._next_action], [99990, 100000, 100000, false, 11, null]);
  const past = await forge(['read', 'big.txt', '--start', '100001'], { cwd: dir });
  assert.is(past.code, 2);
  assert.match(past.stderr, /Fix: forge read big.txt --start 99851\n$/);
});

test('read: never more than 16 KB; long lines are cut with a note', async () => {
  const dir = tempRepo();
  write(dir, 'wide.txt', Array.from({ length: 150 }, (_, i) => `${i}`.padEnd(400, 'x')).join('\n'));
  const r = await forge(['read', 'wide.txt'], { cwd: dir });
  assert.ok(Buffer.byteLength(r.stdout) <= 16 * 1024 + 200, `${Buffer.byteLength(r.stdout)} bytes`);
  assert.match(r.stdout, /^wide\.txt: lines 1–\d+ of 150 \(window ended at 16 KB\)\n/);
  assert.match(r.stdout, /Next: forge read wide\.txt --start \d+\n$/);
  write(dir, 'min.js', `var a=${'1+'.repeat(3000)}1;\n`);
  const m = await forge(['read', 'min.js'], { cwd: dir });
  assert.match(
    m.stdout,
    /^min\.js: lines 1–1 of 1 \(very long lines: minified or generated\?\)\n1#[0-9a-f]{4}: var a=1\+1\+.* … \[5508 more chars\]\nDone\.\n$/,
  );
});

test('read: binary described, empty file, CRLF and BOM noted, UTF-16 decoded', async () => {
  const dir = tempRepo();
  write(dir, 'logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
  write(dir, 'empty.txt', '');
  write(dir, 'win.txt', '\ufeffone\r\ntwo\r\n');
  write(dir, 'u16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\nwörld\n', 'utf16le')]));
  assert.is((await forge(['read', 'logo.png'], { cwd: dir })).stdout, 'logo.png: binary file, 12 bytes (PNG image) — not shown\nDone.\n');
  assert.is((await forge(['read', 'empty.txt'], { cwd: dir })).stdout, 'empty.txt: empty file\nDone.\n');
  assert.is(
    (await forge(['read', 'win.txt'], { cwd: dir })).stdout,
    `win.txt: lines 1–2 of 2 (UTF-8 with BOM; CRLF)\n1#${lineHash('one')}: one\n2#${lineHash('two')}: two\nDone.\n`,
  );
  assert.is(
    (await forge(['read', 'u16.txt'], { cwd: dir })).stdout,
    `u16.txt: lines 1–2 of 2 (utf16le)\n1#${lineHash('héllo')}: héllo\n2#${lineHash('wörld')}: wörld\nDone.\n`,
  );
});

test('read: a missing file suggests similar paths; paths leaving the repository are refused', async () => {
  const dir = tempRepo();
  write(dir, 'src/auth.ts', 'x\n');
  write(dir, 'src/author.ts', 'x\n');
  const miss = await forge(['read', 'src/auht.ts', '--json'], { cwd: dir });
  assert.is(miss.code, 1);
  assert.equal(miss.records[0]!.error.data.suggestions, ['src/auth.ts']);
  assert.is(miss.records[0]!._next_action, 'forge read src/auth.ts');
  write(dir, 'lib/auth.js', 'x\n');
  const moved = await forge(['read', 'src/auth.js'], { cwd: dir });
  assert.match(
    moved.stderr,
    /^Error: no such file 'src\/auth\.js'; did you mean lib\/auth\.js, src\/auth\.ts\?\nFix: forge read lib\/auth\.js\n$/,
  );
  const outside = tempDir();
  write(outside, 'secret.txt', 'secret\n');
  symlinkSync(join(outside, 'secret.txt'), join(dir, 'link.txt'));
  for (const p of ['../x.txt', join(outside, 'secret.txt'), 'link.txt', 'src/../../x']) {
    const r = await forge(['read', p, '--json'], { cwd: dir });
    assert.is(r.code, 2, p);
    assert.is(r.records[0]!.error.code, 'PATH_OUTSIDE_REPO', p);
  }
  const sub = await forge(['read', '../README.md'], { cwd: join(dir, 'src') });
  assert.is(sub.code, 0, 'a path above cwd but inside the repository is fine');
  const plain = tempDir();
  write(plain, 'a.txt', 'outside git\n');
  assert.match((await forge(['read', 'a.txt'], { cwd: plain })).stdout, /1#[0-9a-f]{4}: outside git/);
});

test('read --symbols: the index with line anchors that edits can use', async () => {
  const dir = tempRepo();
  write(dir, 'src/auth.py', 'import jwt\n\nclass Auth:\n    def check(self, token):\n        return jwt.decode(token)\n');
  const r = await forge(['read', 'src/auth.py', '--symbols'], { cwd: dir });
  assert.is(
    r.stdout,
    `src/auth.py: 2 symbols in 5 lines (python, tree-sitter)\n3#${lineHash('class Auth:')}: class Auth\n  4#${lineHash('    def check(self, token):')}: method check (in Auth)\nNext: forge read src/auth.py --start 3\n`,
  );
  const bin = await forge(['read', 'x.bin', '--symbols', '--json'], { cwd: (write(dir, 'x.bin', Buffer.from([0, 1])), dir) });
  assert.equal([bin.code, bin.records[0]!.error.code], [1, 'BINARY_FILE']);
});

test('read --blame annotates lines with age and author', async () => {
  const dir = tempRepo();
  write(dir, 'a.txt', 'one\n');
  git(dir, 'add', 'a.txt');
  git(dir, 'commit', '-q', '-m', 'a');
  write(dir, 'a.txt', 'one\ntwo\n');
  const r = await forge(['read', 'a.txt', '--blame'], { cwd: dir });
  assert.match(r.stdout, /^\(\d+ (year|month|day)s? ago, Test\) 1#[0-9a-f]{4}: one\n\(uncommitted\) 2#[0-9a-f]{4}: two\n/m);
});

test('write: creates parents, refuses an existing file, overwrites atomically keeping the mode', async () => {
  const dir = tempRepo();
  const created = await forge(['write', 'notes/deep/todo.md', '--content', '# todo\n'], { cwd: dir });
  assert.is(created.stdout, 'created notes/deep/todo.md (7 bytes, 1 line)\nNext: forge read notes/deep/todo.md\n');
  chmodSync(join(dir, 'notes/deep/todo.md'), 0o600);
  const refused = await forge(['write', 'notes/deep/todo.md', '--content', 'other'], { cwd: dir });
  assert.is(refused.code, 1);
  assert.is(
    refused.stderr,
    "Error: 'notes/deep/todo.md' exists; pass --overwrite to replace it, or edit it instead\nFix: forge read notes/deep/todo.md\n",
  );
  assert.is(readFileSync(join(dir, 'notes/deep/todo.md'), 'utf8'), '# todo\n');
  const piped = await forge(['write', 'notes/deep/todo.md', '--overwrite'], { cwd: dir, input: '{"not":"ndjson"}\nline 2\n' });
  assert.is(piped.code, 0);
  assert.is(readFileSync(join(dir, 'notes/deep/todo.md'), 'utf8'), '{"not":"ndjson"}\nline 2\n');
  assert.is(statSync(join(dir, 'notes/deep/todo.md')).mode & 0o777, 0o600);
  const ndjson = await forge(['write'], { cwd: dir, input: '{"path":"n.txt","content":"a\\nb"}\n' });
  assert.equal([ndjson.records[0]!.created, ndjson.records[0]!.lines], [true, 2]);
  const escaped = await forge(['write', '../evil.txt', '--content', 'x'], { cwd: dir });
  assert.is(escaped.code, 2);
  assert.match(git(dir, 'status', '--porcelain'), /\?\? n\.txt/);
});

test('ls: .gitignore respected, glob by name or path, capped with counts and a narrowing hint', async () => {
  const dir = tempRepo();
  write(dir, '.gitignore', 'build/\n*.log\n');
  for (let i = 0; i < 5; i++) write(dir, `src/f${i}.ts`, 'x\n');
  write(dir, 'src/deep/g.ts', 'x\n');
  write(dir, 'build/out.js', 'x\n');
  write(dir, 'debug.log', 'x\n');
  const all = await forge(['ls', '--json'], { cwd: dir });
  const paths = all.records.filter((x) => x.type === 'file').map((x) => x.path);
  assert.equal(paths, ['.gitignore', 'README.md', 'src/deep/g.ts', 'src/f0.ts', 'src/f1.ts', 'src/f2.ts', 'src/f3.ts', 'src/f4.ts']);
  assert.is((await forge(['ls', '*.ts'], { cwd: dir })).stdout.split('\n').filter((l) => l.endsWith('.ts')).length, 6);
  assert.is((await forge(['ls', 'src/*.ts'], { cwd: dir })).stdout.split('\n').filter((l) => l.endsWith('.ts')).length, 5);
  const capped = await forge(['ls', '--limit', '2'], { cwd: dir });
  assert.match(capped.stdout, /2 of 8 files; cut 6: src\/ 6\nNext: forge ls 'src\/\*\*'\n$/);
  assert.is((await forge(['ls', '*.nope'], { cwd: dir })).stdout, "no files matching '*.nope'\nDone.\n");
});

test('search: matches with anchors grouped by file; no matches is terminal; capped with a narrowing hint', async () => {
  const dir = tempRepo();
  write(dir, '.gitignore', 'dist/\n');
  write(dir, 'src/a.ts', 'console.log(1);\nconst x = 1;\nconsole.log(x);\n');
  write(dir, 'src/lib/b.ts', Array.from({ length: 6 }, () => 'console.log("b");').join('\n'));
  write(dir, 'dist/bundle.js', 'console.log("built");\n');
  write(dir, 'img.bin', Buffer.from([0, 1, 2, 0x63, 0x6f, 0x6e]));
  const r = await forge(['search', 'console\\.log', 'src/a.ts'], { cwd: dir });
  assert.is(
    r.stdout,
    `src/a.ts\n  1#${lineHash('console.log(1);')}: console.log(1);\n  3#${lineHash('console.log(x);')}: console.log(x);\n2 matches in 1 file (1 file searched)\nDone.\n`,
  );
  // searched counts every file looked at, img.bin too: a binary file is skipped once its head is read.
  const capped = await forge(['search', 'console\\.log', '--limit', '3', '--json'], { cwd: dir });
  assert.equal(capped.records.at(-1), {
    ok: true,
    type: 'summary',
    pattern: 'console\\.log',
    matches: 8,
    files: 2,
    shown: 3,
    cut: 5,
    searched: 5,
    _next_action: "forge search 'console\\.log' src/lib",
  });
  const none = await forge(['search', 'debugger'], { cwd: dir });
  assert.is(none.stdout, 'no matches for /debugger/ in 5 files\nDone.\n');
  assert.is((await forge(['search', 'CONSOLE', '-i', '--json'], { cwd: dir })).records.at(-1)!.matches, 8);
  assert.is((await forge(['search', 'log(', '--literal', '--json'], { cwd: dir })).records.at(-1)!.matches, 8);
  const bad = await forge(['search', 'log('], { cwd: dir });
  assert.is(bad.code, 2);
  assert.is(bad.stderr, "Error: invalid regular expression /log(/: Unterminated group\nFix: forge search 'log(' --literal\n");
});

test('file tools record tool_call events when a run is active', async () => {
  const dir = tempRepo();
  await forge(['read', 'README.md'], { cwd: dir, env: { FORGE_RUN_ID: 'files' } });
  await forge(['search', 'fixture'], { cwd: dir, env: { FORGE_RUN_ID: 'files' } });
  const logs = await forge(['logs', '--run-id', 'files', '--json'], { cwd: dir });
  assert.equal(
    logs.records.filter((x) => x.type === 'event').map((x) => x.event),
    ['read', 'search'],
  );
});

test.run();
