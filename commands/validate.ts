// forge validate: check a module's work in its directory, record the attempt, and recommend PROCEED, RETRY or ESCALATE.
import { defineCommand, type ArgsOf, type ArgsSpec, type RunContext } from '../lib/cli/declare';
import type { Palette } from '../lib/cli/output';
import { assertId } from '../lib/errors';
import { activeContract } from '../lib/plans/contract';
import type { Module } from '../lib/plans/modules';
import { nextReadyModule, passedModules } from '../lib/validate/plan';
import type { CheckResult } from '../lib/validate/types';
import { validateModule } from '../lib/validate/module';
import { parseContract } from '../lib/validate/validate';
import { DEFAULT_MAX_ATTEMPTS, type Verdict } from '../lib/validate/verdict';
import { DEFAULT_RUN } from './iter/get';

const DEFAULT_TIMEOUT_SECONDS = 120;
/** Lines of a failed command's output shown in text (JSON carries its whole tail). */
const TAIL_LINES = 8;

function render(r: CheckResult, paint: Palette): string {
  // A command line is quoted, so where it ends and the message begins is plain.
  const name = r.type === 'command' ? `'${r.name}'` : r.name;
  const verdict = r.passed ? (r.skipped ? paint.dim('skip') : paint.ok('ok  ')) : paint.fail('FAIL');
  const head = `${verdict}  ${r.type} ${name}: ${r.message}`;
  const tail =
    typeof r.tail === 'string' && r.tail.trim()
      ? r.tail
          .trimEnd()
          .split('\n')
          .slice(-TAIL_LINES)
          .map((l) => `      > ${l}`)
      : [];
  return [head, ...tail].join('\n');
}

const unique = (xs: string[]) => [...new Set(xs)];

const ARGS = {
  module: {
    type: 'string',
    tool: '',
    positional: true,
    required: true,
    placeholder: 'ID',
    description: 'The module id (with --plan, the module of the plan).',
  },
  cmd: {
    type: 'array',
    tool: 'Verify commands (sh)',
    placeholder: 'COMMAND',
    description: 'A verify command, run through sh; exit 0 passes.',
  },
  file: {
    type: 'array',
    tool: 'Files that must exist',
    placeholder: 'PATH',
    description: 'A file that must exist; source files are also syntax-checked.',
  },
  contract: {
    type: 'array',
    tool: 'EXPORTER:IMPORTER (imports must exist)',
    placeholder: 'EXPORTER:IMPORTER',
    description: 'IMPORTER may only import names EXPORTER exports.',
  },
  plan: {
    type: 'string',
    tool: 'JSON module plan file: adds its files and verify commands',
    placeholder: 'PATH',
    description: "A JSON module plan: adds the module's files and verify commands.",
  },
  timeout: {
    type: 'integer',
    tool: 'Seconds per command',
    min: 1,
    default: DEFAULT_TIMEOUT_SECONDS,
    placeholder: 'SECONDS',
    description: 'Time allowed for each command.',
  },
  'max-attempts': {
    type: 'integer',
    tool: 'Escalate at this attempt',
    min: 1,
    default: DEFAULT_MAX_ATTEMPTS,
    placeholder: 'N',
    description: 'Escalate a module still failing at this attempt.',
  },
} as const satisfies ArgsSpec;

type Args = ArgsOf<typeof ARGS>;

/**
 * After a module passed: forge plan advance when a plan contract is active and may advance; the
 * plan's status when it is paused or cannot be read; nothing when no plan is active.
 */
async function planStep(ctx: RunContext): Promise<string | null> {
  if (ctx.cwdMissing) return null;
  try {
    const c = await activeContract({ store: await ctx.store() });
    if (!c || c.status === 'complete') return null;
    return c.status === 'active' ? ctx.cmd('plan', 'advance') : ctx.cmd('plan', 'status');
  } catch {
    return ctx.cmd('plan', 'status');
  }
}

/** The hint of each recommendation: the next module (or plan advance), the same call again, or the logs. */
async function hint({
  verdict,
  args,
  ctx,
  moduleId,
  runId,
  plan,
}: {
  verdict: Verdict;
  args: Args;
  ctx: RunContext;
  moduleId: string;
  runId: string;
  plan: { path: string; modules: Module[] } | undefined;
}): Promise<{ next: string | null; or?: string }> {
  if (verdict.recommendation === 'ESCALATE')
    return { next: ctx.cmd('logs', '--run-id', runId), or: ctx.cmd('iter', 'get', moduleId, '--run-id', runId) };
  if (verdict.recommendation === 'PROCEED') {
    const next =
      plan &&
      nextReadyModule({ modules: plan.modules, passed: await passedModules({ store: await ctx.store(), runId, modules: plan.modules }) });
    if (next) return { next: ctx.cmd('validate', next.id, '--plan', plan.path) };
    return { next: await planStep(ctx) };
  }
  const again = [
    ...(args.plan ? ['--plan', args.plan] : []),
    ...args.file.flatMap((f) => ['--file', f]),
    ...args.contract.flatMap((c) => ['--contract', c]),
    ...args.cmd.flatMap((c) => ['--cmd', c]),
    ...(args.timeout === DEFAULT_TIMEOUT_SECONDS ? [] : ['--timeout', args.timeout]),
    ...(args['max-attempts'] === DEFAULT_MAX_ATTEMPTS ? [] : ['--max-attempts', args['max-attempts']]),
  ];
  return { next: ctx.cmd('validate', moduleId, ...again) };
}

export default defineCommand({
  name: 'validate',
  summary: "Check a module's files, syntax, contracts and verify commands; recommend PROCEED, RETRY or ESCALATE",
  tool: 'Check files and run verify commands: PROCEED, RETRY or ESCALATE',
  description: [
    "Verifies a module's work in its working directory (--cwd, else FORGE_CWD, else the current directory; a worker in a linked worktree passes the worktree) and answers one record: {passed, score, results, attempt, stagnant, velocity, oscillating, sameAsPrev, recommendation, reason}. The checks, in order: file_check — each --file exists; syntax_check — each existing .js .mjs .cjs .jsx .ts .tsx parses with @babel/parser (TypeScript and JSX by extension), each .json with JSON.parse, and all .py files with one python3 -c ast.parse process (skipped, and not scored, without python3), every error as file:line:col and the parser's message; contract_check — for --contract EXPORTER:IMPORTER, every name IMPORTER takes from EXPORTER (named, default, namespace members ns.x, type imports, export {a} from re-exports, const {a} = require(…)) is exported by EXPORTER (declarations, export {a as b}, export default, export * from followed recursively, export * as ns, and CommonJS exports.x, module.exports.x, module.exports = {a, b}), each missing name at the importer's line:col; relative specifiers resolve as Node and TypeScript do (as written, with .ts .tsx .js .jsx .mjs .cjs added, ./x.js meaning ./x.ts, a directory's index); command — each --cmd runs through sh in the working directory, one after another, and passes on exit 0; after --timeout seconds its whole process group is killed; a failed command keeps the tail of its output. With --plan (a path relative to the working directory), the JSON module plan's module of that id adds its files and verify commands. Progress goes to stderr while commands run, only on a terminal.",
    'A working directory that does not exist is not an error: it is one failing cwd_check (nothing else runs) with recommendation ESCALATE; the attempt is then recorded in the repository of the directory forge was started in.',
    "score is the share of the checks that passed. The attempt (status, score, and the failed checks as its issues) is appended to .forge/iterations/<runId>/<moduleId>.json, as forge iter update does, and a validate event goes to the run's log; the run id defaults to 'default'. sameAsPrev: the same non-empty set of checks failed as in the previous attempt. velocity: the average change of the score per attempt over the last 3 scored attempts (null before the second). stagnant: sameAsPrev, or the score stopped improving — velocity <= 0 over the last 3 scored attempts. oscillating: the same set of checks failed as in one of the 4 attempts before this one other than the previous one.",
    "The recommendation is exactly one of: PROCEED when every check passed; ESCALATE when the working directory is missing, when stagnant, when oscillating, or when a failing attempt is attempt --max-attempts (default 5) or later; RETRY otherwise. The hint follows it: PROCEED → with --plan, forge validate for the plan's next module not yet passed in this run whose dependsOn all passed, else forge plan advance when a plan contract is active (forge plan status when it is paused; none, a terminal answer, when no plan is active); RETRY → the same forge validate call; ESCALATE → forge logs --run-id <run>, or forge iter get <module> --run-id <run>.",
  ].join('\n\n'),
  args: ARGS,
  examples: [
    { command: "forge validate m1 --file README.md --cmd 'test -s README.md'", description: 'README.md exists and is not empty: PROCEED.' },
    {
      command: "forge validate m2 --run-id demo --file src/app.test.ts --cmd 'npm test' --json",
      description: 'A test file not written yet and a failing npm test: RETRY, as one record.',
    },
    {
      command: 'forge validate m3 --contract src/app.ts:src/server.ts --timeout 60',
      description: 'Every name src/server.ts imports from src/app.ts must be exported by it.',
    },
  ],
  errors: {
    NOTHING_TO_CHECK: 'no --cmd, --file, --contract or --plan (or a plan module with no files or verify commands)',
    INVALID_CONTRACT: 'a --contract that is not EXPORTER:IMPORTER of JavaScript or TypeScript files',
    PLAN_NOT_FOUND: 'no file at --plan',
    PLAN_INVALID: 'the module plan does not pass forge plan check (or is over 1 MB)',
    MODULE_NOT_FOUND: 'the plan has no module with that id',
    INVALID_ID: 'a module or run id that is not a plain name',
    CANCELLED: "the MCP client cancelled the call or went away: the running command's process group was ended, no attempt recorded",
    NOT_A_GIT_REPO: 'outside a git repository (the attempt has nowhere to be recorded)',
    STATE_CONFLICT: 'the state ref kept moving for a minute',
    STATE_INVALID: "the module's iteration file on the state ref is not one forge can read (the attempt is not recorded over it)",
  },
  exits: {
    0: 'every check passed',
    1: "a check failed (the recommendation says what next), the module plan fails forge plan check, or the module's iteration state cannot be read",
    2: 'invalid input or not a git repository',
  },
  mutates: true,
  mcp: { title: 'Validate a module', toolset: 'validate', effect: 'destructive', openWorld: true },
  allowMissingCwd: true,
  async run(args, ctx) {
    const moduleId = assertId({ kind: 'module id', value: args.module });
    const runId = ctx.runId ?? DEFAULT_RUN;
    const { results, attempt, recorded, note, verdict, plan } = await validateModule({
      repo: () => ctx.repo(),
      store: () => ctx.store(),
      cwd: ctx.cwd,
      cwdMissing: ctx.cwdMissing,
      runId,
      moduleId,
      files: args.file,
      commands: args.cmd,
      contracts: unique(args.contract).map(parseContract),
      planPath: args.plan,
      timeoutMs: args.timeout * 1000,
      maxAttempts: args['max-attempts'],
      env: ctx.env,
      now: ctx.now(),
      progress: ctx.progress,
      signal: ctx.signal,
    });
    const counted = results.filter((r) => !r.skipped);
    const passedCount = counted.filter((r) => r.passed).length;
    const velocity = verdict.velocity === null ? '' : `, velocity ${verdict.velocity >= 0 ? '+' : ''}${verdict.velocity.toFixed(2)}`;
    const summary = `${moduleId}${recorded === null ? '' : ` attempt ${recorded}`}: ${passedCount} of ${counted.length} check${counted.length === 1 ? '' : 's'} passed (score ${attempt.score}${velocity}) — ${verdict.recommendation}: ${verdict.reason}${note}`;
    return {
      data: {
        moduleId,
        runId,
        passed: attempt.status === 'passed',
        score: attempt.score,
        results,
        attempt: recorded,
        stagnant: verdict.stagnant,
        velocity: verdict.velocity,
        oscillating: verdict.oscillating,
        sameAsPrev: verdict.sameAsPrev,
        recommendation: verdict.recommendation,
        reason: verdict.reason,
      },
      text: [...results.map((r) => render(r, ctx.paint)), summary].join('\n'),
      exitCode: attempt.status === 'passed' ? 0 : 1,
      ...(await hint({
        verdict,
        args,
        ctx,
        moduleId,
        runId,
        plan: plan && args.plan ? { path: args.plan, modules: plan.modules } : undefined,
      })),
    };
  },
});
