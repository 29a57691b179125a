// The error table (lib/error-codes.ts) against the commands: what they declare, what their code can raise, what the man pages say, one wording per error.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { catalog } from '../../commands/catalog';
import { entries } from '../../commands/index';
import { COMMON_ERRORS, defineCommand, REPOSITORY_ERRORS } from '../../lib/cli/declare';
import { leaves } from '../../lib/cli/registry';
import { ERROR_CODES, FINDING_CODES, type ErrorCode } from '../../lib/error-codes';
import { ForgeError, InvalidInputError, NotAGitRepoError, RefusedError } from '../../lib/errors';
import { forge } from '../helpers/forge';
import { tempDir } from '../helpers/repo';
import { CallGraph } from '../helpers/raised';

const commands = leaves(entries);

/** The module of a command, as the catalog the executable loads it from names it. */
function sourceOf(name: string): string {
  const [word, sub] = name.split(' ');
  const hit = catalog[word!]!;
  return `${process.cwd()}/commands/${typeof hit === 'string' ? hit : hit[sub!]}.ts`;
}

/**
 * Codes the call graph reaches that the command cannot raise: a helper it shares raises them only
 * in a mode this command never asks for. Each must still be reached (a stale entry fails).
 */
const NOT_RAISED: Record<string, Partial<Record<ErrorCode, string>>> = {
  agent: { BAD_REVISION: "workTreeChanges' base is the checkpoint the run has just made" },
  edit: { NOT_A_DIRECTORY: 'edit changes files that exist, so their directory does too' },
  replace: { NOT_A_DIRECTORY: 'replace changes files that exist, so their directory does too' },
  init: { FILE_EXISTS: 'init writes with overwrite: true (CONVENTIONS_EXIST is its refusal)' },
  'loop start': { STATE_INVALID: 'startLoop takes an unreadable current loop for no live one: the new loop takes the pointer' },
  'loop cancel': { LOOP_NOT_PAUSED: 'setLoopStatus raises it for pause and resume; cancel takes an active or paused loop' },
  'plan pause': { NOT_PAUSED: 'setPaused raises it when resuming only' },
  'plan install-hook': {
    PATH_OUTSIDE_REPO: "agentConfigFile resolves --settings with outside: 'allow': a settings file of the user's may be anywhere",
  },
  'plan preflight': { PLAN_NOT_FOUND: 'targetContract raises it for a plan named by id; preflight names none' },
};

test('every code a declaration lists is a row of the error table, every finding code one of the findings table', () => {
  for (const c of commands) {
    for (const code of Object.keys(c.errors))
      assert.ok(Object.hasOwn(ERROR_CODES, code), `forge ${c.name}: ${code} is not in lib/error-codes.ts`);
    for (const code of Object.keys(c.findings ?? {})) assert.ok(Object.hasOwn(FINDING_CODES, code), `forge ${c.name}: finding ${code}`);
  }
});

test('every row of the table is used: each code is written in lib/ or commands/ outside the table', () => {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'lib', 'commands'], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.ts') && f !== 'lib/error-codes.ts');
  const text = files.map((f) => readFileSync(f, 'utf8')).join('\n');
  const unused = [...Object.keys(ERROR_CODES), ...Object.keys(FINDING_CODES)].filter(
    (code) => !text.includes(`'${code}'`) && !text.includes(`${code}:`),
  );
  assert.equal(unused, []);
});

test("every code a command's run() can raise, by a walk of its call graph, is in its declaration (or raised for any command)", () => {
  const graph = new CallGraph();
  const missing: string[] = [];
  const stale: string[] = [];
  for (const c of commands) {
    const raised = graph.raisedBy(graph.runOf(sourceOf(c.name)));
    const listed = new Set<string>([...Object.keys(c.errors), ...COMMON_ERRORS, ...REPOSITORY_ERRORS]);
    const exempt = NOT_RAISED[c.name] ?? {};
    for (const [code, chain] of raised)
      if (!listed.has(code) && !Object.hasOwn(exempt, code)) missing.push(`forge ${c.name}: ${code}, raised via ${chain.join(' → ')}`);
    for (const code of Object.keys(exempt)) if (!raised.has(code)) stale.push(`forge ${c.name}: ${code} is no longer reached`);
  }
  assert.equal(missing, [], "add each to the command's errors (or, if it cannot happen, to NOT_RAISED with why)");
  assert.equal(stale, [], 'remove these from NOT_RAISED');
  // The walk must reach what it is known to: the throw sites behind ctx.repo(), a callback, a class's constructor.
  const reach = (name: string) => graph.raisedBy(graph.runOf(sourceOf(name)));
  assert.ok(reach('stats').has('NOT_A_GIT_REPO'), 'ctx.repo() reaches openRepo');
  assert.ok(reach('patch').has('PATCH_CONFLICT'), 'planPatch reaches conflict()');
  assert.ok(reach('agent').has('MODEL_STALLED'), 'the model client reaches ModelError');
});

test('each man page lists each code its commands declare, with the exit status the table gives it', () => {
  for (const e of entries) {
    const page = readFileSync(`man/forge-${e.name}.1`, 'utf8');
    const errors = page.slice(page.indexOf('.SH ERRORS'), page.indexOf('.SH ENVIRONMENT'));
    for (const c of commands.filter((x) => x.name === e.name || x.name.startsWith(`${e.name} `)))
      for (const code of [...Object.keys(c.errors), ...COMMON_ERRORS] as ErrorCode[]) {
        if (code === 'CWD_NOT_FOUND' && c.allowMissingCwd) continue;
        assert.ok(
          errors.includes(`.BR ${code} " (exit ${ERROR_CODES[code].exit})"`),
          `man/forge-${e.name}.1 lacks ${code} (exit ${ERROR_CODES[code].exit})`,
        );
      }
  }
  assert.match(readFileSync('man/forge-patch.1', 'utf8'), '.BR FILE_NOT_FOUND " (exit 1)"');
});

test('the exit status is the one the table gives the code, whichever class raised it', () => {
  assert.equal(
    [
      new ForgeError('LOCKED', 'x', { data: { lock: 'l' } }).exitCode,
      new RefusedError('PATCH_CONFLICT', 'x', { data: { path: 'a' } }).exitCode,
      new InvalidInputError('INVALID_ARGUMENT', 'x').exitCode,
      new NotAGitRepoError('/d').exitCode,
    ],
    [1, 1, 2, 2],
  );
});

/** Never run: each line under a @ts-expect-error must fail to compile (`tsc -p .` checks it), the others must compile. */
export function compilerRefuses(): void {
  // @ts-expect-error a code that is not in the table
  new ForgeError('NO_SUCH_CODE', 'x');
  // @ts-expect-error PATCH_CONFLICT exits 1: it is not bad input
  new InvalidInputError('PATCH_CONFLICT', 'x', { data: { path: 'a' } });
  // @ts-expect-error INVALID_ARGUMENT exits 2: it is not a refusal
  new RefusedError('INVALID_ARGUMENT', 'x');
  // @ts-expect-error PATCH_CONFLICT's data has a path
  new RefusedError('PATCH_CONFLICT', 'x', { fix: 'forge ls' });
  // @ts-expect-error …so a site without options does not compile either
  new RefusedError('PATCH_CONFLICT', 'x');
  // @ts-expect-error NO_LOOP carries no data
  new RefusedError('NO_LOOP', 'x', { data: { path: 'a' } });
  // @ts-expect-error the exit status is the table's, not the site's
  new ForgeError('LOCKED', 'x', { data: { lock: 'l' }, exitCode: 2 });
  new RefusedError('PATCH_CONFLICT', 'x', { data: { path: 'a', hunk: 2 } });
  defineCommand({
    name: 'x',
    summary: 'x',
    description: 'x',
    args: {},
    examples: [],
    // @ts-expect-error a misspelt code in a declaration
    errors: { NOT_A_GIT_REPOSITORY: 'outside a git repository' },
    exits: {},
    mutates: false,
    run: async () => ({ data: {}, text: '', next: null }),
  });
}

test('NOT_A_GIT_REPO has one wording, Fix and data wherever it is raised', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'a'), 'x\n');
  const cases = [
    ['stats'],
    ['hooks', 'install', 'pre-push'],
    ['agent', '--plan', 'x', '--endpoint', 'http://127.0.0.1:9', '--model', 'm'],
    ['read', 'a', '--blame'],
  ];
  for (const args of cases) {
    const r = await forge([...args, '--json'], { cwd: dir });
    const { error, _next_action } = r.records[0]!;
    assert.equal([r.code, error.code, error.data, _next_action], [2, 'NOT_A_GIT_REPO', { dir }, 'git init'], args.join(' '));
    assert.match(error.message, new RegExp(`^not a git repository: '${dir}'( \\(.+\\))?$`), args.join(' '));
  }
});

test.run();
