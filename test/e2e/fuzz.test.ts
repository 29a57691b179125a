// Fuzz (seeded, bounded, many cases per process of the built binary): diffs, plans and NDJSON requests never end in INTERNAL, hang, or change a file not asked for.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import fc from 'fast-check';
import { test } from '../helpers/harness';
import { ownChild } from '../helpers/owner';
import * as assert from 'uvu/assert';
import { entries } from '../../commands/index';
import { leaves } from '../../lib/cli/registry';
import { planTemplate } from '../../lib/plans/template';
import { FORGE, forgeEnv } from '../helpers/forge';
import { git, repoWith, tempDir } from '../helpers/repo';

/** FORGE_FUZZ_SEED=n runs other cases, FORGE_FUZZ_SCALE=n times as many; a failure names the seed and shows the request. */
const SEED = Number(process.env.FORGE_FUZZ_SEED ?? 13);
const SCALE = Number(process.env.FORGE_FUZZ_SCALE ?? 1);
/** A case that answers nothing for this long has hung: a generous bound, not a timing check. */
const STALL_MS = 60_000;

// ---------------------------------------------------------------------------------------------
// The sandbox: a fixture repository, a directory outside it that links point to, copies to write in.

const sandbox = tempDir('forge-fuzz-');
const outside = join(sandbox, 'outside');
mkdirSync(outside);
writeFileSync(join(outside, 'secret.txt'), 'outside the repository\n');

const FIXTURE: Record<string, string | Buffer> = {
  'src/app.py': 'def main():\n    print("hi")\n    return 0\n\n\ndef helper(x):\n    return x * 2\n',
  'src/util.ts': "export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport const NAME = 'util';\n",
  'docs/notes.txt': Array.from({ length: 30 }, (_, i) => `line ${i + 1} of the notes`).join('\n') + '\n',
  'crlf.txt': 'one\r\ntwo\r\nthree\r\n',
  'noeol.txt': 'first\nlast line without newline',
  'bin.dat': Buffer.from([0, 1, 2, 255, 0, 10, 13]),
  'empty.txt': '',
  'café/ünï.txt': 'a path git quotes\n',
  'with space.txt': 'spaced\n',
  '.forge/plans/modules.json': JSON.stringify(
    { modules: [{ id: 'm1', title: 'One', objective: 'o', files: ['src/app.py'], verify: ['true'], doneWhen: 'it passes' }] },
    null,
    2,
  ),
  'docs/plans/good.md': planTemplate({ slug: 'demo', date: '2026-01-01' }),
};

const repo = repoWith(FIXTURE);
symlinkSync('src/app.py', join(repo, 'inside-link'));
symlinkSync(outside, join(repo, 'outside-link'));
git(repo, 'add', '-A');
git(repo, 'commit', '-q', '-m', 'links');
// The fixture lives in the sandbox, so one snapshot sees the repository and what lies around it.
const root = join(sandbox, 'repo');
cpSync(repo, root, { recursive: true, verbatimSymlinks: true });
rmSync(repo, { recursive: true, force: true });

/** What forge may change in a git dir by itself: objects, its state refs, its tool-call spool. */
const FORGE_OWN = /(^|\/)\.git\/(objects\/|refs\/forge\/|logs\/refs\/forge\/|forge\/pending\/)/;

/** Every file, link and its mode under dir, hashed — but what FORGE_OWN allows to change. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (abs: string) => {
    for (const name of readdirSync(abs)) {
      const path = join(abs, name);
      const rel = relative(dir, path);
      if (FORGE_OWN.test(`${rel}/`)) continue;
      const st = lstatSync(path);
      if (st.isDirectory()) walk(path);
      else if (st.isSymbolicLink()) out.set(rel, `link ${readlinkSync(path)}`);
      else out.set(rel, `${st.mode.toString(8)} ${createHash('sha1').update(readFileSync(path)).digest('hex')}`);
    }
  };
  walk(dir);
  return out;
}

function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((p) => before.get(p) !== after.get(p)).sort();
}

// ---------------------------------------------------------------------------------------------
// One forge process answers a batch of NDJSON requests; each answer is matched to its line.

interface Batch {
  /** The final record (the one with `ok`) of each request, by line number. */
  answers: Map<number, Record<string, any>>;
  problems: string[];
}

/** Runs `forge <command>` with the lines as NDJSON and checks the contract: one answer each, no INTERNAL, no hang. */
function batch({ cwd, command, lines }: { cwd: string; command: string[]; lines: Array<string | Buffer> }): Promise<Batch> {
  return new Promise((done, fail) => {
    const child = ownChild(spawn(process.execPath, [FORGE, ...command], { cwd, env: forgeEnv() }));
    let stdout = '';
    let stderr = '';
    let hung = false;
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    let timer = setTimeout(stall, STALL_MS);
    function stall() {
      hung = true;
      child.kill('SIGKILL');
    }
    child.stdout.on('data', (b) => {
      stdout += b;
      clearTimeout(timer);
      timer = setTimeout(stall, STALL_MS);
    });
    child.stderr.on('data', (b) => (stderr += b));
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      const answers = new Map<number, Record<string, any>>();
      const problems: string[] = [];
      const show = (n: number) => `forge ${command.join(' ')} <<< ${JSON.stringify(String(lines[n - 1] ?? '')).slice(0, 400)}`;
      for (const text of stdout.split('\n').filter(Boolean)) {
        let record: Record<string, any>;
        try {
          record = JSON.parse(text);
        } catch {
          problems.push(`not NDJSON on stdout: ${text.slice(0, 200)}`);
          continue;
        }
        if (!('ok' in record)) continue;
        const n = Number(record.line ?? record.id);
        if (answers.has(n)) problems.push(`two answers for request ${n}: ${show(n)}`);
        answers.set(n, record);
        if (record.error?.code === 'INTERNAL') problems.push(`INTERNAL (${record.error.message}) for request ${n}: ${show(n)}`);
      }
      lines.forEach((line, i) => {
        if (!String(line).trim() || answers.has(i + 1)) return;
        problems.push(`${hung ? `hung (no answer for ${STALL_MS / 1000} s)` : 'no answer'} at request ${i + 1}: ${show(i + 1)}`);
        hung = false;
      });
      if (![0, 1, 2].includes(code ?? -1) && !problems.length) problems.push(`exit ${code} (${stderr.slice(0, 300)})`);
      if (/internal error|\n\s+at .+:\d+:\d+/i.test(stderr)) problems.push(`a crash on stderr: ${stderr.slice(0, 500)}`);
      done({ answers, problems });
    });
    child.stdin.on('error', () => {}); // a process that died early closes its stdin
    child.stdin.end(Buffer.concat(lines.flatMap((l) => [Buffer.from(l), Buffer.from('\n')])));
  });
}

function sample<T>(arb: fc.Arbitrary<T>, numRuns: number, salt: number): T[] {
  return fc.sample(arb, { seed: SEED + salt, numRuns: Math.round(numRuns * SCALE) });
}

function report(what: string, problems: string[]): void {
  assert.ok(!problems.length, `${what}: ${problems.length} problems (FORGE_FUZZ_SEED=${SEED}):\n${problems.slice(0, 12).join('\n')}`);
}

// ---------------------------------------------------------------------------------------------
// Mutations shared by diffs and plans: what truncation, editors, models and attackers do to text.

/** Paths that must be refused or handled; none reaches outside the sandbox if forge wrongly obeyed. */
const WEIRD_PATHS = [
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
const READ_ONLY_PATHS = ['/etc/hostname', '/etc/passwd', '/dev/zero', '/dev/urandom', '/proc/self/environ', '/'];

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

type Op =
  | { op: 'truncate'; at: number }
  | { op: 'drop' | 'dup'; i: number }
  | { op: 'swap'; i: number; j: number }
  | { op: 'insert'; i: number; line: string }
  | { op: 'prefix'; i: number; c: string }
  | { op: 'numbers'; i: number; n: string }
  | { op: 'path'; i: number; path: string }
  | { op: 'char'; at: number; c: string }
  | { op: 'blowup'; i: number; chunk: string; times: number };

function opArb(paths: string[], extraLines: fc.Arbitrary<string>): fc.Arbitrary<Op> {
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

function mutate(text: string, ops: Op[]): string {
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

// ---------------------------------------------------------------------------------------------
// (1) Diffs: real git diffs of the fixture (renames, modes, binary, quoted paths) and the sloppy
// dialects models write, mutated; applied with --check, and for real in throwaway copies.

/** Real git diffs of edits to a copy of the fixture, in every form git writes them. */
function gitDiffs(): string[] {
  const dir = join(sandbox, 'diffs');
  cpSync(root, dir, { recursive: true, verbatimSymlinks: true });
  const write = (path: string, content: string | Buffer) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  };
  write('src/app.py', String(FIXTURE['src/app.py']).replace('print("hi")', 'print("hello")').replace('x * 2', 'x * 3'));
  write('crlf.txt', 'one\r\nTWO\r\nthree\r\n');
  write('noeol.txt', 'first\nchanged last line');
  write('café/ünï.txt', 'a path git quotes, edited\n');
  write('with space.txt', 'spaced out\n');
  const plain = git(dir, 'diff');
  write('src/new.ts', 'export const NEW = 1;\n');
  git(dir, 'rm', '-q', 'empty.txt');
  git(dir, 'mv', 'src/util.ts', 'src/lib.ts');
  write('src/lib.ts', String(FIXTURE['src/util.ts']).replace("'util'", "'lib'"));
  chmodSync(join(dir, 'src/app.py'), 0o755);
  write('bin.dat', Buffer.from([9, 0, 9, 0, 255]));
  git(dir, 'add', '-A');
  const staged = git(dir, 'diff', '--cached', '-M');
  const binary = git(dir, 'diff', '--cached', '-M', '--binary', '--', 'bin.dat');
  const copies = git(dir, 'diff', '--cached', '-C', '-C', '--', 'src');
  const noPrefix = git(dir, 'diff', '--cached', '--no-prefix', '--', 'src/app.py', 'crlf.txt');
  const unquoted = git(dir, '-c', 'core.quotePath=false', 'diff', '--cached', '--', 'café');
  rmSync(dir, { recursive: true, force: true });
  return [plain, staged, binary, copies, noPrefix, unquoted].map((d) => `${d}\n`);
}

/** Hand-written patches in the dialects forge accepts, each valid against the fixture. */
const SLOPPY = [
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

/** The diffs mutations start from; all apply to the fixture but git's binary and copy forms, which forge refuses. */
const DIFF_SEEDS = [...gitDiffs(), ...SLOPPY];

const DIFF_LINES = fc.constantFrom(
  '@@ @@',
  '@@ -1 +1 @@',
  '@@ -0,0 +0,0 @@',
  '\\ No newline at end of file',
  'diff --git a/x b/x',
  '--- a/src/app.py',
  '+++ b/src/app.py',
  '--- /dev/null',
  '+++ /dev/null',
  'new file mode 100644',
  'deleted file mode 100644',
  'rename from src/app.py',
  'rename to ../x',
  'copy from a',
  'GIT binary patch',
  'literal 5',
  'Binary files a/bin.dat and b/bin.dat differ',
  'index 0000000..1111111 100644',
  '*** Begin Patch',
  '*** End Patch',
  '*** Add File: ',
  '*** Move to: ',
  '<<<<<<< SEARCH',
  '=======',
  '>>>>>>> REPLACE',
  '',
  ' ',
  '+',
  '-',
);

function diffCases(paths: string[], numRuns: number, salt: number): string[] {
  const arb = fc.tuple(
    fc.constantFrom(...DIFF_SEEDS),
    fc.array(opArb(paths, DIFF_LINES), { minLength: 1, maxLength: 4 }),
    fc.option(fc.constantFrom(...DIFF_SEEDS), { freq: 5 }),
  );
  return sample(arb, numRuns, salt).map(([seed, ops, more]) => mutate(seed + (more ?? ''), ops));
}

test('diffs: mutated git, unified, envelope and SEARCH/REPLACE patches never crash, hang or write with --check', async () => {
  const diffs = [...DIFF_SEEDS, ...diffCases([...WEIRD_PATHS, ...READ_ONLY_PATHS], 400, 1)];
  const lines = [
    JSON.stringify({ id: 1, diff: SLOPPY[0], check: true }),
    ...diffs.map((diff, i) => JSON.stringify({ id: i + 2, diff, check: true })),
  ];
  const before = snapshot(sandbox);
  const r = await batch({ cwd: root, command: ['patch'], lines });
  const problems = [...r.problems];
  // The unmutated seeds are valid: a fuzzer whose base cases fail tests nothing.
  DIFF_SEEDS.forEach((seed, i) => {
    if (r.answers.get(i + 2)?.ok !== true && !/GIT binary patch|Binary files|copy from/.test(seed))
      problems.push(`seed ${i} does not apply: ${JSON.stringify(r.answers.get(i + 2)?.error)}`);
  });
  problems.push(...changedFiles(before, snapshot(sandbox)).map((p) => `--check changed ${p}`));
  report('patch --check', problems);
});

test('diffs: applied for real, each in its own copy, a patch changes only the files it reports', async () => {
  const diffs = diffCases(WEIRD_PATHS, 120, 2);
  const copies = join(sandbox, 'apply');
  diffs.forEach((_, i) => cpSync(root, join(copies, String(i)), { recursive: true, verbatimSymlinks: true }));
  const lines = [
    JSON.stringify({ id: 1, diff: SLOPPY[0], check: true }),
    ...diffs.map((diff, i) => JSON.stringify({ id: i + 2, diff, cwd: join(copies, String(i)) })),
  ];
  const before = snapshot(sandbox);
  const r = await batch({ cwd: root, command: ['patch'], lines });
  const problems = [...r.problems];
  for (const path of changedFiles(before, snapshot(sandbox))) {
    const m = /^apply\/(\d+)\/(.*)$/s.exec(path);
    const answer = m ? r.answers.get(Number(m[1]) + 2) : undefined;
    const reported = answer?.ok ? (answer.files as Array<{ path: string; from?: string }>).flatMap((f) => [f.path, f.from]) : [];
    if (!m || !reported.includes(m[2]) || m[2]!.startsWith('.git/'))
      problems.push(
        `${path} changed, but ${answer?.ok ? `the patch reported ${JSON.stringify(reported)}` : 'the patch was refused'}: ${JSON.stringify(m ? diffs[Number(m[1])] : '').slice(0, 400)}`,
      );
  }
  rmSync(copies, { recursive: true, force: true });
  report('patch', problems);
});

// ---------------------------------------------------------------------------------------------
// (2) Plans: the template and the fixture's plans, mutated line by line and the YAML ways.

/** YAML an attacker or a confused model puts in a plan's frontmatter or envelope blocks. */
const YAML_LINES = fc.constantFrom(
  'bomb: &a [x, x, x, x, x, x, x, x, x]',
  `b: &b [${Array(9).fill('*a').join(', ')}]`,
  `c: &c [${Array(9).fill('*b').join(', ')}]`,
  `d: [${Array(9).fill('*c').join(', ')}]`,
  'self: &s [*s]',
  'loop: &l {me: *l}',
  'missing: *nowhere',
  'fn: !!js/function "function () { return process.exit(1) }"',
  're: !!js/regexp /a+$/',
  'bin: !!binary aGVsbG8=',
  'set: !!set {a, b}',
  'when: !!timestamp 2001-12-14t21:59:43.10-05:00',
  'custom: !custom {x: 1}',
  'tagged: !<tag:yaml.org,2002:str> x',
  'plan_id: twice',
  'plan_contract_version: 1e400',
  'plan_contract_version: 99999999999999999999999',
  'files_changed: -1',
  'tokens: .inf',
  'runs: .nan',
  '__proto__: {polluted: true}',
  'constructor: {prototype: {polluted: true}}',
  'toString: 1',
  '<<: {allowed_tools: [bash]}',
  '? [complex, key]\n: 1',
  `deep: ${'['.repeat(5000)}`,
  `deeper: ${'- '.repeat(3000)}x`,
  '%YAML 1.1',
  '--- !!map',
  '...',
  '"unterminated',
  '\tallowed_tools: [bash]',
  'allowed_tools: [read, edit, patch, write, search, ls, bash, deploy]',
  'allowed_paths: ["**", "/etc/**", "../**"]',
  'surface: remote_branch_pr',
  '### U9 — an added unit',
  '```envelope',
  '```',
  '---',
  'envelope: *missing',
  'envelope: [1, 2]',
  'envelope: null',
);

function planSeeds(): string[] {
  const template = planTemplate({ slug: 'fuzz', date: '2026-01-01' });
  return [
    template,
    String(FIXTURE['docs/plans/good.md']),
    '# a legacy plan\n\nno envelope at all\n',
    template.replace(/```envelope[\s\S]*?```/g, ''),
  ];
}

test('plans: mutated Markdown contracts and JSON module plans are findings, never a crash, hang or write', async () => {
  const seeds = planSeeds();
  const arb = fc.tuple(
    fc.constantFrom(...seeds),
    fc.array(
      fc.oneof(
        { weight: 3, arbitrary: opArb(['**', ...WEIRD_PATHS], YAML_LINES) },
        { weight: 2, arbitrary: fc.record({ op: fc.constant('insert' as const), i: fc.nat(), line: YAML_LINES }) },
      ),
      { minLength: 1, maxLength: 5 },
    ),
  );
  const plans: Array<string | Buffer> = sample(arb, 300, 3).map(([seed, ops]) => mutate(seed, ops as Op[]));
  // Bytes that are not UTF-8, and module plans (.json) through the same YAML reader.
  plans.push(
    ...sample(fc.uint8Array({ maxLength: 300 }), 15, 4).map((b) =>
      Buffer.concat([Buffer.from('---\nenvelope:\n  plan_id: '), Buffer.from(b), Buffer.from('\n---\n')]),
    ),
  );
  const modules = sample(
    fc.tuple(
      fc.constant(String(FIXTURE['.forge/plans/modules.json'])),
      fc.array(opArb(WEIRD_PATHS, YAML_LINES), { minLength: 1, maxLength: 3 }),
    ),
    40,
    5,
  ).map(([seed, ops]) => mutate(seed, ops));
  const dir = join(root, 'fuzz-plans');
  mkdirSync(dir);
  const files = [...plans.map((p, i) => [`p${i}.md`, p] as const), ...modules.map((m, i) => [`m${i}.json`, m] as const)];
  for (const [name, content] of files) writeFileSync(join(dir, name), content);
  const paths = [...files.map(([name]) => `fuzz-plans/${name}`), ...READ_ONLY_PATHS, ...WEIRD_PATHS];
  const lines = paths.map((path, i) => JSON.stringify({ id: i + 1, path: [path], ...(i % 7 === 0 ? { strict: true } : {}) }));
  const before = snapshot(sandbox);
  const r = await batch({ cwd: root, command: ['plan', 'check'], lines });
  const problems = [...r.problems, ...changedFiles(before, snapshot(sandbox)).map((p) => `plan check changed ${p}`)];
  rmSync(dir, { recursive: true, force: true });
  report('plan check', problems);
});

// ---------------------------------------------------------------------------------------------
// (3) NDJSON requests: random and mutated objects, wrong types, huge numbers, prototype keys,
// long strings, lines that are not JSON objects or not UTF-8 — to a sample of commands.

/** A JSON value written raw into the line (a number JSON.stringify cannot make). */
const RAW = (text: string) => `\u0000raw:${text}\u0000`;
const rawJson = (value: unknown) => JSON.stringify(value).replace(/"\\u0000raw:(.*?)\\u0000"/g, '$1');

const HARMLESS_COMMANDS = ['true', 'false', 'exit 3', ':'];
const VALID_RUN_IDS = ['fuzz-1', 'r.2'];
/** Run ids that fail validation without naming a path outside the repository (point 3 of issue 13 covers those). */
const BAD_RUN_IDS = ['', '.', '..', '../x', 'a b', 'x'.repeat(200), 'a\nb'];

/** A very long string: a path far over any file system's limits, a pattern too large for V8 to compile. */
const LONG_TEXT = 'A'.repeat(100_000);

/** An array `depth` levels deep. */
function nested(depth: number): unknown[] {
  let v: unknown[] = [];
  for (let i = 1; i < depth; i++) v = [v];
  return v;
}

/** A value for a request's key; system paths only where the command only reads them. */
function valueArb(key: string, readOnly: boolean): fc.Arbitrary<unknown> {
  const paths = [
    'README.md',
    'src/app.py',
    'docs/notes.txt',
    'crlf.txt',
    'bin.dat',
    'inside-link',
    'missing.txt',
    'src',
    'fuzz-written.txt',
    ...WEIRD_PATHS,
  ];
  const anyPath = fc.constantFrom(...paths, ...(readOnly ? READ_ONLY_PATHS : []));
  const readPath = fc.constantFrom(...paths, ...READ_ONLY_PATHS);
  const plausible: Record<string, fc.Arbitrary<unknown>> = {
    path: anyPath,
    paths: fc.array(anyPath, { maxLength: 3 }),
    file: fc.oneof(readPath, fc.array(readPath, { maxLength: 2 })),
    cmd: fc.array(fc.constantFrom(...HARMLESS_COMMANDS), { maxLength: 2 }),
    pattern: fc.constantFrom('line', '(', '[a-', '\\', '.*', '(a+)+$', 'a{1,65535}', '\\p{L}', '\0', 'def main', '^', ''),
    glob: fc.constantFrom('*.ts', '**', '{a,b', '[', '!(x)', '../**', '/etc/*', ''),
    old: fc.constantFrom('line 3 of the notes', 'return 0', '', '\n', 'x'.repeat(10_000)),
    new: fc.string({ unit: 'binary', maxLength: 50 }),
    content: fc.string({ unit: 'binary', maxLength: 200 }),
    diff: fc.constantFrom(...SLOPPY),
    edits: fc.array(fc.dictionary(fc.constantFrom('lines', 'after', 'before', 'new', 'delete', 'x'), fc.jsonValue({ maxDepth: 1 })), {
      maxLength: 3,
    }),
    anchor: fc.constantFrom('1#abcd', '3#0000', 'x', '99999999999999999999#a'),
    lines: fc.constantFrom('1-2', '2#ab-1#cd', '0-0', '-1', '5-3', 'x'),
    module: fc.constantFrom('m1', 'fuzz', '../m', 'a/b', ''),
    plan: fc.constantFrom('.forge/plans/modules.json', 'docs/plans/good.md', 'missing.json', ...READ_ONLY_PATHS),
    cwd: fc.constantFrom('', '.', 'src', 'missing-dir', '\u0000'),
    'run-id': fc.constantFrom(...VALID_RUN_IDS, ...BAD_RUN_IDS),
  };
  const junk = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom(RAW('1e400'), RAW('-1e400'), RAW('99999999999999999999999'), RAW('-0'), RAW('1E-400')),
    fc.constantFrom(-1, 0, 0.5, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, -(2 ** 31), 1e308),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.constantFrom(LONG_TEXT, '\0', 'true', 'false', '1', 'null', '[]', '{}', '{"a":1}'),
    fc.constantFrom(RAW(`${'['.repeat(5000)}${']'.repeat(5000)}`), RAW(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`), nested(40)),
    fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'prototype', 'a'), fc.jsonValue({ maxDepth: 1 })),
  );
  // Random values for cmd would be shell commands, and random run ids could name paths: both stay in their pools.
  if (key === 'cmd' || key === 'run-id' || key === 'runId') return plausible[key === 'runId' ? 'run-id' : key]!;
  return Object.hasOwn(plausible, key) ? fc.oneof({ weight: 3, arbitrary: plausible[key]! }, { weight: 2, arbitrary: junk }) : junk;
}

/** Keys no command has, some of them Object.prototype's own. */
const ALIEN_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', 'unknown', 'PATH'];

/** Lines that are not a JSON object, or not UTF-8; none holds \n or \r (readline ends a line at either). */
const JUNK_LINES: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.constantFrom(
    '{',
    '{"a":',
    '[]',
    '[1,2]',
    '1',
    '"s"',
    'null',
    'true',
    '{"a":1}{"b":2}',
    '{"path":"x",}',
    "{'path':'x'}",
    `{"x":${'['.repeat(20_000)}`,
    Buffer.from('\ufeff{}'),
  ),
  fc
    .uint8Array({ minLength: 1, maxLength: 40 })
    .map((b) => Buffer.concat([Buffer.from('{"path":"'), Buffer.from(b.filter((x) => x !== 10 && x !== 13)), Buffer.from('"}')])),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).map((t) => t.replace(/[\r\n]/g, ' ')),
);

type Edit = { set: string; value: unknown } | { del: number } | { alien: string; value: unknown };

/**
 * A request: one of the command's valid requests with a few fields set to odd values, removed, or
 * joined by keys it does not have — so most cases get past validation into the command — or a junk line.
 */
function requestArb(
  templates: Array<Record<string, unknown>>,
  keys: string[],
  readOnly: boolean,
): fc.Arbitrary<{ fields?: Record<string, unknown>; text?: string | Buffer }> {
  const settable = [
    ...keys,
    'cwd',
    'run-id',
    ...keys.filter((k) => k.includes('-')).map((k) => k.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())),
  ];
  const edit: fc.Arbitrary<Edit> = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...settable).chain((k) => valueArb(k, readOnly).map((value) => ({ set: k, value }))) },
    { weight: 1, arbitrary: fc.nat().map((del) => ({ del })) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...ALIEN_KEYS), fc.jsonValue({ maxDepth: 2 })).map(([alien, value]) => ({ alien, value })),
    },
  );
  const fields = fc.tuple(fc.constantFrom(...templates), fc.array(edit, { maxLength: 3 })).map(([template, edits]) => {
    const out: Record<string, unknown> = { ...template };
    for (const e of edits) {
      if ('del' in e) delete out[Object.keys(out)[e.del % Math.max(1, Object.keys(out).length)]!];
      else
        Object.defineProperty(out, 'set' in e ? e.set : e.alien, { value: e.value, enumerable: true, configurable: true, writable: true });
    }
    return out;
  });
  return fc.oneof(
    { weight: 6, arbitrary: fields.map((f) => ({ fields: f })) },
    { weight: 1, arbitrary: JUNK_LINES.map((t) => ({ text: t })) },
  );
}

/** Commands fuzzed over NDJSON, with valid requests to start from; `writes` says where an answer reports what it wrote. */
const TARGETS: Array<{ name: string; templates: Array<Record<string, unknown>>; writes?: (answer: Record<string, any>) => unknown[] }> = [
  {
    name: 'read',
    templates: [
      { path: 'README.md' },
      { path: 'docs/notes.txt', start: 3, end: 9 },
      { path: 'src/app.py', symbols: true },
      { path: 'src/util.ts', blame: true },
    ],
  },
  {
    name: 'edit',
    templates: [
      { path: 'docs/notes.txt', old: 'line 3 of the notes', new: 'line three' },
      { path: 'src/app.py', old: 'return 0', new: 'return 1', all: true },
      { path: 'docs/notes.txt', lines: '4-5', delete: true },
      { path: 'crlf.txt', after: '1', new: 'inserted' },
    ],
    writes: (a) => [a.path],
  },
  {
    name: 'write',
    templates: [
      { path: 'fuzz-written.txt', content: 'x' },
      { path: 'docs/notes.txt', content: 'replaced\n', overwrite: true },
    ],
    writes: (a) => [a.path],
  },
  {
    name: 'patch',
    templates: SLOPPY.slice(0, 8).map((diff) => ({ diff })),
    writes: (a) => (a.files ?? []).flatMap((f: { path: string; from?: string }) => [f.path, f.from]),
  },
  {
    name: 'search',
    templates: [
      { pattern: 'main' },
      { pattern: 'line', paths: ['docs'], limit: 3 },
      { pattern: '(', literal: true },
      { pattern: 'DEF', glob: '*.py', 'ignore-case': true },
    ],
  },
  { name: 'ls', templates: [{}, { glob: '**/*.ts' }, { limit: 1 }] },
  {
    name: 'memory save',
    templates: [
      { pattern: 'fuzzing finds what tests miss' },
      { pattern: 'run make test', category: 'test_command', confidence: 0.9, tag: ['make'] },
    ],
    writes: () => [],
  },
  { name: 'memory recall', templates: [{ query: 'fuzz' }, { query: 'make', scope: 'project', limit: 2, category: 'test_command' }] },
  {
    name: 'iter update',
    templates: [
      { module: 'm1', status: 'failed', 'run-id': 'fuzz-1' },
      { module: 'm1', status: 'passed', score: 0.5, issue: ['a'], 'root-cause': 'b', 'run-id': 'fuzz-1' },
    ],
    writes: () => [],
  },
  { name: 'iter get', templates: [{ module: 'm1', 'run-id': 'fuzz-1' }] },
  { name: 'plan check', templates: [{}, { path: ['docs/plans/good.md'], strict: true }, { path: ['.forge/plans'] }] },
  {
    name: 'validate',
    templates: [
      { module: 'm1', cmd: ['true'], 'run-id': 'fuzz-1' },
      { module: 'm1', file: ['src/app.py', 'src/util.ts'], 'run-id': 'fuzz-1' },
      { module: 'm1', plan: '.forge/plans/modules.json', 'run-id': 'fuzz-1' },
    ],
    writes: () => [],
  },
];

test('NDJSON requests: wrong types, huge numbers, prototype keys and junk lines are clean errors for every command', async () => {
  const specs = leaves(entries);
  // Read-only commands share the fixture; each writing command gets its own copy.
  const batches = TARGETS.map((target, t) => {
    const spec = specs.find((s) => s.name === target.name)!;
    const cases = sample(requestArb(target.templates, Object.keys(spec.args), !target.writes), 40, 10 + t);
    const lines = [
      rawJson({ ...target.templates[0], id: 1 }),
      ...cases.map((c, i) => (c.text !== undefined ? c.text : rawJson({ ...c.fields, id: i + 2 }))),
    ];
    const cwd = target.writes ? join(sandbox, `ndjson-${t}`) : root;
    if (target.writes) cpSync(root, cwd, { recursive: true, verbatimSymlinks: true });
    return { target, cases, lines, cwd, copy: target.writes ? `ndjson-${t}/` : null };
  });
  const before = snapshot(sandbox);
  const results = await Promise.all(batches.map((b) => batch({ cwd: b.cwd, command: b.target.name.split(' '), lines: b.lines })));
  const changed = changedFiles(before, snapshot(sandbox));
  const problems: string[] = [];
  batches.forEach(({ target, cases, cwd, copy }, t) => {
    const r = results[t]!;
    problems.push(...r.problems);
    if (r.answers.get(1)?.ok !== true)
      problems.push(`forge ${target.name}: the valid first request failed: ${JSON.stringify(r.answers.get(1))}`);
    if (!copy) return;
    // What the answers say was written, resolved against each request's own cwd.
    const allowed = new Set<string>();
    for (const [n, answer] of r.answers) {
      if (!answer.ok) continue;
      const request = n === 1 ? target.templates[0]! : (cases[n - 2]?.fields ?? {});
      const base = resolve(cwd, typeof request.cwd === 'string' ? request.cwd : '.');
      for (const p of target.writes!(answer)) if (typeof p === 'string') allowed.add(relative(sandbox, resolve(base, p)));
    }
    for (const p of changed.filter((c) => c.startsWith(copy)))
      if (!allowed.has(p) || p.includes('/.git/')) problems.push(`forge ${target.name} changed ${p}, which no answer reported`);
  });
  // Outside the copies of the writing commands nothing may change at all.
  problems.push(...changed.filter((p) => !/^ndjson-\d+\//.test(p)).map((p) => `${p} changed (by a read-only command, or outside a copy)`));
  report('NDJSON', problems);
});

test.run();
