// Runs a module's checks in its working directory: files, syntax, contracts, then the verify commands.
import { stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { InvalidInputError, RefusedError } from '../errors';
import type { Repo } from '../git/repo';
import type { StateStore } from '../git/state';
import { recordAttempt, type Attempt, type IterState } from '../iter/iter';
import { newEvent, recordEvents } from '../logs/events';
import { onPath } from '../plans/modules';
import { runShell, type ShellResult } from '../process/program';
import { checkContract, isScript, SourceCache } from './contracts';
import { checkSyntax } from './syntax';
import { issueOf, scoreOf, type CheckResult } from './types';
import { recommend, type Verdict } from './verdict';

export interface Contract {
  exporter: string;
  importer: string;
}

/** `EXPORTER:IMPORTER`, two JavaScript or TypeScript files; anything else is INVALID_CONTRACT. */
export function parseContract(spec: string): Contract {
  const parts = spec.split(':');
  const [exporter, importer] = parts;
  const fix = 'forge validate --help';
  if (parts.length !== 2 || !exporter || !importer)
    throw new InvalidInputError('INVALID_CONTRACT', `contract '${spec}' is not EXPORTER:IMPORTER`, { fix });
  for (const file of [exporter, importer]) {
    if (!isScript(file))
      throw new InvalidInputError('INVALID_CONTRACT', `contract '${spec}': '${file}' is not a .js .mjs .cjs .jsx .ts or .tsx file`, {
        fix,
        data: { ext: extname(file) },
      });
  }
  return { exporter, importer };
}

/** What one validation checks; paths are relative to cwd. */
export interface Checks {
  cwd: string;
  files: string[];
  commands: string[];
  contracts: Contract[];
  /** Per command; then its whole process group is killed. */
  timeoutMs: number;
  /** The environment the commands and the .py syntax check run in; its PATH is where python3 is looked for. */
  env: NodeJS.ProcessEnv;
  /** Told before each command starts: commands are what takes time. */
  progress?: (text: string) => Promise<void>;
  /** Aborted when the caller gives up: the running command's process group is ended and no other starts. */
  signal?: AbortSignal;
}

/** The result a missing working directory gets instead of every other check. */
export function missingCwdResult(dir: string): CheckResult {
  return {
    type: 'cwd_check',
    name: dir,
    passed: false,
    message: `working directory '${dir}' does not exist: was the worktree removed, or never created?`,
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function commandResult(r: ShellResult, timeoutMs: number): CheckResult {
  const passed = r.exitCode === 0 && !r.timedOut;
  const message = r.timedOut
    ? `timed out after ${timeoutMs / 1000} s; its process group was killed`
    : r.exitCode === null
      ? `killed by ${r.signal ?? 'an error'} after ${seconds(r.durationMs)}`
      : `exit ${r.exitCode} ${passed ? 'in' : 'after'} ${seconds(r.durationMs)}`;
  return {
    type: 'command',
    name: r.command,
    passed,
    message,
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut: r.timedOut,
    durationMs: r.durationMs,
    ...(passed ? {} : { tail: r.tail }),
  };
}

/**
 * Every check, in this order: file_check for each file (a file or a directory), syntax_check for
 * each existing file forge can parse, contract_check for each contract, then each command through
 * sh, one after another (verify commands may share build output or ports).
 */
export async function runChecks({ cwd, files, commands, contracts, timeoutMs, env, progress, signal }: Checks): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const regular: string[] = [];
  for (const file of files) {
    const info = await stat(resolve(cwd, file)).catch(() => null);
    results.push({
      type: 'file_check',
      name: file,
      passed: info !== null,
      message: info ? (info.isDirectory() ? 'a directory' : 'exists') : `'${file}' does not exist`,
    });
    if (info?.isFile()) regular.push(file);
  }
  const python = regular.some((f) => f.endsWith('.py')) && (await onPath({ program: 'python3', cwd, path: env.PATH ?? '' }));
  results.push(...(await checkSyntax({ cwd, files: regular, python, env })));
  const cache = new SourceCache();
  for (const c of contracts) results.push(await checkContract({ cwd, ...c, cache }));
  for (const [i, command] of commands.entries()) {
    if (signal?.aborted) throw cancelled(command);
    await progress?.(`[${i + 1}/${commands.length}] ${command}`);
    const r = await runShell({ command, cwd, timeoutMs, env, ...(signal ? { signal } : {}) });
    if (signal?.aborted) throw cancelled(command);
    results.push(commandResult(r, timeoutMs));
  }
  return results;
}

/** A validation the caller gave up on: not an attempt (nothing is recorded), its commands ended. */
function cancelled(command: string): RefusedError<'CANCELLED'> {
  return new RefusedError('CANCELLED', `the validation was cancelled at '${command}': its commands were ended and no attempt was recorded`);
}

/** The attempt a validation makes: its status, score and the identities of the failed checks. */
export function attemptOf({ results, timestamp, cwdMissing }: { results: CheckResult[]; timestamp: string; cwdMissing: boolean }): Attempt {
  const failed = results.filter((r) => !r.passed);
  return {
    timestamp,
    status: cwdMissing ? 'error' : failed.length ? 'failed' : 'passed',
    score: scoreOf(results),
    issues: failed.map(issueOf),
  };
}

/**
 * Records the attempt in the module's iteration state, decides the recommendation from the whole
 * history, and logs a `validate` event (phase validation) in the run's log.
 */
export async function recordValidation({
  repo,
  store,
  runId,
  moduleId,
  results,
  attempt,
  cwdMissing,
  maxAttempts,
}: {
  repo: Repo;
  store: StateStore;
  runId: string;
  moduleId: string;
  results: CheckResult[];
  attempt: Attempt;
  cwdMissing: boolean;
  maxAttempts: number;
}): Promise<{ state: IterState; verdict: Verdict }> {
  const state = await recordAttempt({ store, runId, moduleId, attempt });
  const verdict = recommend({ attempts: state.attempts, cwdMissing, maxAttempts });
  const failures = results.filter((r) => !r.passed).map((r) => ({ type: r.type, name: r.name, message: r.message }));
  const event = newEvent({
    timestamp: attempt.timestamp,
    runId,
    phase: 'validation',
    moduleId,
    event: 'validate',
    severity: attempt.status === 'passed' ? 'info' : verdict.recommendation === 'ESCALATE' ? 'error' : 'warn',
    data: {
      passed: attempt.status === 'passed',
      score: attempt.score,
      attempt: state.attempts.length,
      recommendation: verdict.recommendation,
      reason: verdict.reason,
      failures,
    },
  });
  await recordEvents({ repo, store: async () => store, runId, events: [event] });
  return { state, verdict };
}
