// The fuzz tests' shared ground (importing it makes the sandbox, once per test file): the seed, a fixture repository, snapshots, and one forge process answering a batch of NDJSON requests.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import * as assert from 'uvu/assert';
import { planTemplate } from '../../lib/plans/template';
import { FORGE, forgeEnv } from './forge';
import { ownChild } from './owner';
import { git, repoWith, tempDir } from './repo';

/** FORGE_FUZZ_SEED=n runs other cases, FORGE_FUZZ_SCALE=n times as many; a failure names the seed and shows the request. */
const SEED = Number(process.env.FORGE_FUZZ_SEED ?? 13);
const SCALE = Number(process.env.FORGE_FUZZ_SCALE ?? 1);
/** A case that answers nothing for this long has hung: a generous bound, not a timing check. */
const STALL_MS = 60_000;

// The sandbox: a fixture repository, a directory outside it that links point to, copies to write in.

export const sandbox = tempDir('forge-fuzz-');
export const outside = join(sandbox, 'outside');
mkdirSync(outside);
writeFileSync(join(outside, 'secret.txt'), 'outside the repository\n');

export const FIXTURE: Record<string, string | Buffer> = {
  'src/app.py': 'def main():\n    print("hi")\n    return 0\n\n\ndef helper(x):\n    return x * 2\n',
  'src/util.ts': "export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport const NAME = 'util';\n",
  'docs/notes.txt': Array.from({ length: 30 }, (_, i) => `line ${i + 1} of the notes`).join('\n') + '\n',
  'crlf.txt': 'one\r\ntwo\r\nthree\r\n',
  'noeol.txt': 'first\nlast line without newline',
  'bin.dat': Buffer.from([0, 1, 2, 255, 0, 10, 13]),
  'empty.txt': '',
  'café/ünï.txt': 'a path git quotes\n',
  'with space.txt': 'spaced\n',
  '.forge/modules/modules.json': JSON.stringify(
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
export const root = join(sandbox, 'repo');
cpSync(repo, root, { recursive: true, verbatimSymlinks: true });
rmSync(repo, { recursive: true, force: true });

/** What forge may change in a git dir by itself: objects, its state refs, its tool-call spool. */
const FORGE_OWN = /(^|\/)\.git\/(objects\/|refs\/forge\/|logs\/refs\/forge\/|forge\/pending\/)/;

/** Every file, link and its mode under dir, hashed — but what FORGE_OWN allows to change. */
export function snapshot(dir: string): Map<string, string> {
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

export function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((p) => before.get(p) !== after.get(p)).sort();
}

// One forge process answers a batch of NDJSON requests; each answer is matched to its line.

interface Batch {
  /** The final record (the one with `ok`) of each request, by line number. */
  answers: Map<number, Record<string, any>>;
  problems: string[];
}

/** Runs `forge <command>` with the lines as NDJSON and checks the contract: one answer each, no INTERNAL, no hang. */
export function batch({ cwd, command, lines }: { cwd: string; command: string[]; lines: Array<string | Buffer> }): Promise<Batch> {
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

export function sample<T>(arb: fc.Arbitrary<T>, numRuns: number, salt: number): T[] {
  return fc.sample(arb, { seed: SEED + salt, numRuns: Math.round(numRuns * SCALE) });
}

export function report(what: string, problems: string[]): void {
  assert.ok(!problems.length, `${what}: ${problems.length} problems (FORGE_FUZZ_SEED=${SEED}):\n${problems.slice(0, 12).join('\n')}`);
}
