// A module's validation from start to end: its checks run, the attempt recorded, the recommendation decided.
import { InvalidInputError, NotAGitRepoError } from '../errors';
import type { Repo } from '../git/repo';
import type { StateStore } from '../git/state';
import type { Attempt } from '../iter/iter';
import { verifyCommands, type Module } from '../plans/modules';
import { planModule } from './plan';
import type { CheckResult } from './types';
import { attemptOf, missingCwdResult, runChecks, recordValidation, type Contract } from './validate';
import { recommend, type Verdict } from './verdict';

export interface ModuleValidation {
  results: CheckResult[];
  attempt: Attempt;
  /** The attempt's number in the module's history; null when it could not be recorded (a missing directory outside any repository). */
  recorded: number | null;
  /** Why it was not recorded, for the summary line ('' when it was). */
  note: string;
  verdict: Verdict;
  /** The module plan (--plan) the module came from. */
  plan: { modules: Module[]; module: Module } | undefined;
}

const nothingToCheck = (moduleId: string) =>
  new InvalidInputError('NOTHING_TO_CHECK', `nothing to check for '${moduleId}': give --cmd, --file, --contract or --plan`, {
    fix: 'forge validate --help',
  });

/**
 * Runs the module's checks in `cwd` — its files, syntax, contracts and commands, with those of its
 * module plan — records the attempt under the run, and recommends PROCEED, RETRY or ESCALATE from the
 * module's whole history. A directory that does not exist is one failing cwd_check, not an error.
 */
export async function validateModule({
  repo,
  store,
  cwd,
  cwdMissing,
  runId,
  moduleId,
  files,
  commands,
  contracts,
  planPath,
  timeoutMs,
  maxAttempts,
  env,
  now,
  progress,
  signal,
}: {
  repo: () => Promise<Repo>;
  store: () => Promise<StateStore>;
  cwd: string;
  cwdMissing: boolean;
  runId: string;
  moduleId: string;
  files: readonly string[];
  commands: readonly string[];
  contracts: readonly Contract[];
  /** A JSON module plan, relative to cwd: its module adds files and verify commands. */
  planPath: string | undefined;
  timeoutMs: number;
  maxAttempts: number;
  /** The environment the checks run in (the caller's): its PATH finds python3 and the commands. */
  env: NodeJS.ProcessEnv;
  now: Date;
  progress?: (line: string) => Promise<void>;
  /** Aborted when the caller gives up: the checks stop (CANCELLED) and nothing is recorded. */
  signal?: AbortSignal;
}): Promise<ModuleValidation> {
  const unique = (xs: readonly string[]) => [...new Set(xs)];
  if (!planPath && !commands.length && !files.length && !contracts.length) throw nothingToCheck(moduleId);
  let plan: ModuleValidation['plan'];
  let results: CheckResult[];
  if (cwdMissing) {
    results = [missingCwdResult(cwd)];
  } else {
    plan = planPath ? await planModule({ cwd, plan: planPath, moduleId }) : undefined;
    const allFiles = unique([...(plan?.module.files ?? []), ...files]);
    const allCommands = unique([...(plan ? verifyCommands(plan.module) : []), ...commands]);
    if (!allFiles.length && !allCommands.length && !contracts.length) throw nothingToCheck(moduleId);
    results = await runChecks({
      cwd,
      files: allFiles,
      commands: allCommands,
      contracts: [...contracts],
      timeoutMs,
      env,
      progress,
      ...(signal ? { signal } : {}),
    });
  }
  const attempt = attemptOf({ results, timestamp: now.toISOString(), cwdMissing });
  try {
    const { state, verdict } = await recordValidation({
      repo: await repo(),
      store: await store(),
      runId,
      moduleId,
      results,
      attempt,
      cwdMissing,
      maxAttempts,
    });
    return { results, attempt, recorded: state.attempts.length, note: '', verdict, plan };
  } catch (err) {
    // A missing worktree seen from outside any repository: still the answer that explains it.
    if (!(cwdMissing && err instanceof NotAGitRepoError)) throw err;
    const verdict = recommend({ attempts: [attempt], cwdMissing: true, maxAttempts });
    return { results, attempt, recorded: null, note: ` (not recorded: ${err.message})`, verdict, plan };
  }
}
