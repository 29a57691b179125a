// What the fuzz tests do to text — truncation, editors', models' and attackers' changes, odd paths — and the hand-written patches they start from.
import { join } from 'node:path';
import fc from 'fast-check';
import { outside, root } from './fuzz';

/** Paths that must be refused or handled; none reaches outside the sandbox if forge wrongly obeyed. */
export const WEIRD_PATHS = [
  '',
  ' ',
  '.',
  '..',
  '../escape.txt',
  '../../escape.txt',
  'a/../../escape.txt',
  join(outside, 'new.txt'),
  join(outside, 'secret.txt'),
  'src',
  'src/',
  'src//app.py',
  './src/app.py',
  'outside-link/secret.txt',
  'outside-link/new.txt',
  'outside-link',
  'inside-link',
  'bin.dat',
  'empty.txt',
  'noeol.txt',
  'missing/deep/new.txt',
  'café/ünï.txt',
  'with space.txt',
  'x/'.repeat(2000),
  'nul\0name',
  '~/escape.txt',
  'C:\\escape.txt',
  'dir\\..\\..\\escape.txt',
  '-rf',
  '--help',
  '\u202egnp.exe',
  '/dev/null',
  'dev/null',
  '\ud800',
  'new\nline.txt',
  'tab\tname.txt',
  // Names at and over the file system's 255 bytes, and paths into git's own directory (refused).
  'x'.repeat(300),
  'y'.repeat(240),
  '.git/config',
  '.git/hooks/post-checkout',
  '.GIT/config',
  'src/../.git/HEAD',
  '.git',
  join(root, '.git', 'config'),
];
/** Paths only read: system files and devices a path argument may name. */
export const READ_ONLY_PATHS = ['/etc/hostname', '/etc/passwd', '/dev/zero', '/dev/urandom', '/proc/self/environ', '/'];

const NUMBERS = ['0', '-1', '1e400', '99999999999999999999999', '4294967296', '9007199254740993', 'NaN', '', '1.5', '0x10', '٣'];
const CHARS = [
  '\0',
  '\r',
  '\r\n',
  '\t',
  '\u2028',
  '\ud800',
  '\udc00',
  '😀',
  '\u202e',
  'é',
  '\ufeff',
  '\\',
  '"',
  '\x1b[31m',
  '\x7f',
  '\u0085',
];
/** Long runs that hit regexes and loops which cost the square of a line's length. */
const CHUNKS = [' ', ' b/', '\t', '@@ ', '""', '\\', '-', '*', '`', ':', 'a', '\r', '\n', '\n\n', '- ', '[', '{', '&a ', '*a '];

export type Op =
  | { op: 'truncate'; at: number }
  | { op: 'drop' | 'dup'; i: number }
  | { op: 'swap'; i: number; j: number }
  | { op: 'insert'; i: number; line: string }
  | { op: 'prefix'; i: number; c: string }
  | { op: 'numbers'; i: number; n: string }
  | { op: 'path'; i: number; path: string }
  | { op: 'char'; at: number; c: string }
  | { op: 'blowup'; i: number; chunk: string; times: number };

export function opArb(paths: string[], extraLines: fc.Arbitrary<string>): fc.Arbitrary<Op> {
  const i = fc.nat();
  return fc.oneof(
    fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
    fc.record({ op: fc.constantFrom('drop' as const, 'dup' as const), i }),
    fc.record({ op: fc.constant('swap' as const), i, j: fc.nat() }),
    fc.record({ op: fc.constant('insert' as const), i, line: fc.oneof(extraLines, fc.string({ unit: 'binary', maxLength: 40 })) }),
    fc.record({
      op: fc.constant('prefix' as const),
      i,
      c: fc.constantFrom(' ', '+', '-', '\\', '@', '*', '<', '=', '>', '#', '"', '', '---', '+++', '@@', '```', '~~~', '###'),
    }),
    fc.record({ op: fc.constant('numbers' as const), i, n: fc.constantFrom(...NUMBERS) }),
    fc.record({ op: fc.constant('path' as const), i, path: fc.constantFrom(...paths) }),
    fc.record({ op: fc.constant('char' as const), at: fc.nat(), c: fc.constantFrom(...CHARS) }),
    fc.record({ op: fc.constant('blowup' as const), i, chunk: fc.constantFrom(...CHUNKS), times: fc.integer({ min: 1000, max: 40_000 }) }),
  );
}

/** A line's path part (after a diff or plan header word) replaced, or the whole line when it has none. */
function withPath(line: string, path: string): string {
  const head =
    /^(--- |\+\+\+ |diff --git |\*\*\* (?:Update|Add|Delete) File: |\*\*\* Move to: |rename (?:from|to) |Index: |\s*allowed_paths: |\s*path_globs: )/.exec(
      line,
    )?.[0];
  if (!head) return path;
  if (head.startsWith('diff --git')) return `${head}a/${path} b/${path}`;
  if (/allowed_paths|path_globs/.test(head)) return `${head}[${JSON.stringify(path)}]`;
  return head + (head.startsWith('--- ') ? `a/${path}` : head.startsWith('+++ ') ? `b/${path}` : path);
}

export function mutate(text: string, ops: Op[]): string {
  let out = text;
  for (const o of ops) {
    const lines = out.split('\n');
    const at = (n: number) => n % Math.max(lines.length, 1);
    switch (o.op) {
      case 'truncate':
        out = out.slice(0, o.at % (out.length + 1));
        continue;
      case 'char': {
        const k = o.at % (out.length + 1);
        out = out.slice(0, k) + o.c + out.slice(k);
        continue;
      }
      case 'drop':
        lines.splice(at(o.i), 1);
        break;
      case 'dup':
        lines.splice(at(o.i), 0, lines[at(o.i)] ?? '');
        break;
      case 'swap': {
        const [a, b] = [at(o.i), at(o.j)];
        [lines[a], lines[b]] = [lines[b]!, lines[a]!];
        break;
      }
      case 'insert':
        lines.splice(at(o.i), 0, o.line);
        break;
      case 'prefix':
        lines[at(o.i)] = o.c + (lines[at(o.i)] ?? '').slice(1);
        break;
      case 'numbers':
        lines[at(o.i)] = (lines[at(o.i)] ?? '').replace(/\d+/g, o.n);
        break;
      case 'path':
        lines[at(o.i)] = withPath(lines[at(o.i)] ?? '', o.path);
        break;
      case 'blowup':
        lines.splice(at(o.i), 0, o.chunk.repeat(o.times));
        break;
    }
    out = lines.join('\n');
  }
  return out;
}

/** Hand-written patches in the dialects forge accepts, each valid against the fixture. */
export const SLOPPY = [
  '--- src/app.py\n+++ src/app.py\n@@ @@\n def main():\n-    print("hi")\n+    print("hey")\n',
  '--- a/docs/notes.txt\n+++ b/docs/notes.txt\n@@ -99,3 +99,3 @@\n line 9 of the notes\n-line 10 of the notes\n+line ten\n line 11 of the notes\n',
  '--- a/docs/notes.txt\t2026-01-01 00:00:00.000000000 +0000\n+++ b/docs/notes.txt\t2026-01-02 00:00:00.000000000 +0000\n@@ -1,2 +1,2 @@\n-line 1 of the notes\n+line one\n line 2 of the notes\n',
  "--- a/src/util.ts\n+++ b/src/util.ts\n@@ -1,3 +1,3 @@\n export function add(a: number, b: number): number {\n-  return a + b;\n+    return a - b;\n }\n\n export const NAME = 'util';\n",
  '--- /dev/null\n+++ b/src/created.py\n@@ -0,0 +1,2 @@\n+x = 1\n+y = 2\n',
  '--- a/noeol.txt\n+++ b/noeol.txt\n@@ -1,2 +1,2 @@\n first\n-last line without newline\n\\ No newline at end of file\n+last line, now with newline\n',
  '*** Begin Patch\n*** Update File: src/app.py\n@@ def main():\n-    print("hi")\n+    print("envelope")\n*** Add File: src/added.txt\n+added\n*** Delete File: empty.txt\n*** Update File: src/util.ts\n*** Move to: src/moved.ts\n@@\n-export const NAME = \'util\';\n+export const NAME = \'moved\';\n*** End of File\n*** End Patch\n',
  'Here is the change:\n\nsrc/app.py\n```python\n<<<<<<< SEARCH\n    return 0\n=======\n    return 1\n>>>>>>> REPLACE\n```\n\n**docs/notes.txt**\n```\n<<<<<<< SEARCH\nline 5 of the notes\n=======\nline five\n>>>>>>> REPLACE\n```\n',
  '```diff\ndiff --git a/crlf.txt b/crlf.txt\n--- a/crlf.txt\n+++ b/crlf.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+deux\n three\n```\n',
  'diff --git a/src/app.py b/src/app.py\nold mode 100644\nnew mode 100755\n',
  'diff --git a/src/util.ts b/src/renamed.ts\nsimilarity index 100%\nrename from src/util.ts\nrename to src/renamed.ts\n',
  'Index: docs/notes.txt\n===================================================================\n--- docs/notes.txt\n+++ docs/notes.txt\n@@ -30 +30 @@\n-line 30 of the notes\n+the last line\n',
];
