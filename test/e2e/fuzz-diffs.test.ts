// Fuzz (seeded, bounded, many cases per process of the built binary): real git diffs and the sloppy dialects models write, mutated, never end in INTERNAL, hang, or change a file not asked for.
import { chmodSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { test } from '../helpers/harness';
import { batch, changedFiles, FIXTURE, report, root, sample, sandbox, snapshot } from '../helpers/fuzz';
import { mutate, opArb, READ_ONLY_PATHS, SLOPPY, WEIRD_PATHS } from '../helpers/fuzz-mutations';
import { git } from '../helpers/repo';

// Real git diffs of the fixture (renames, modes, binary, quoted paths) and the sloppy dialects models
// write, mutated; applied with --check, and for real in throwaway copies.

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

test.run();
