// The one error type forge raises: a stable code, a message, the fix command and an exit code.
import { ERROR_CODES, type CodeExiting, type DataOf, type ErrorCode } from './error-codes';
import { shellJoin } from './quote';

export type { DataOf, ErrorCode } from './error-codes';

/** The codes InvalidInputError takes (the table gives them exit 2) and RefusedError takes (exit 1). */
export type InvalidInputCode = CodeExiting<2>;
export type RefusalCode = CodeExiting<1>;

/** Exit codes of the I/O contract: 1 a check failed or an action was refused, 2 bad invocation. */
export type ExitCode = 0 | 1 | 2;

/** What a throw site gives besides code and message; `data` has its code's shape, and is required when that shape has required fields. */
export type ForgeErrorOptions<C extends ErrorCode = ErrorCode> = {
  /** The full command that remedies the error; the CLI prints it as `Fix:`. */
  fix?: string;
  cause?: unknown;
} & (NeedsData<C> extends true ? { data: DataOf<C> } : { data?: DataOf<C> });

/** The options argument: optional unless the code's data has a required field. */
type OptionsArg<C extends ErrorCode> = NeedsData<C> extends true ? [options: ForgeErrorOptions<C>] : [options?: ForgeErrorOptions<C>];

/** Whether code C's data has a required field: then a throw site must give it. */
type NeedsData<C extends ErrorCode> = Record<never, never> extends DataOf<C> ? false : true;

/**
 * Base of every user-facing failure. `code` is a stable UPPER_SNAKE string from the one table
 * (lib/error-codes.ts), which also decides the exit status; anything that is not a ForgeError is
 * an internal bug and gets code INTERNAL.
 */
export class ForgeError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  fix: string | undefined;
  readonly exitCode: 1 | 2;
  readonly data: DataOf<C>;

  constructor(code: C, message: string, ...[options]: OptionsArg<C>) {
    const o: ForgeErrorOptions = options ?? {};
    super(message, o.cause === undefined ? undefined : { cause: o.cause });
    this.name = 'ForgeError';
    this.code = code;
    this.fix = o.fix;
    this.exitCode = ERROR_CODES[code].exit;
    this.data = (o.data ?? {}) as DataOf<C>;
  }
}

/** Bad flags, fields or values: a code the table gives exit 2 (the compiler refuses any other). */
export class InvalidInputError<C extends InvalidInputCode = InvalidInputCode> extends ForgeError<C> {
  constructor(code: C, message: string, ...options: OptionsArg<C>) {
    super(code, message, ...options);
    this.name = 'InvalidInputError';
  }
}

/** The action was understood but refused: a code the table gives exit 1 (the compiler refuses any other). */
export class RefusedError<C extends RefusalCode = RefusalCode> extends ForgeError<C> {
  constructor(code: C, message: string, ...options: OptionsArg<C>) {
    super(code, message, ...options);
    this.name = 'RefusedError';
  }
}

/**
 * A command that needs a repository was run outside one: the one wording and Fix of NOT_A_GIT_REPO.
 * `why` says what needed it, when that is not the command itself (forge agent --plan).
 */
export class NotAGitRepoError extends ForgeError<'NOT_A_GIT_REPO'> {
  constructor(dir: string, { why }: { why?: string } = {}) {
    super('NOT_A_GIT_REPO', `not a git repository: '${dir}'${why ? ` (${why})` : ''}`, { fix: 'git init', data: { dir } });
    this.name = 'NotAGitRepoError';
  }
}

/** The --cwd or FORGE_CWD directory does not exist: the one wording and Fix of CWD_NOT_FOUND. */
export class CwdNotFoundError extends InvalidInputError<'CWD_NOT_FOUND'> {
  constructor(dir: string) {
    super('CWD_NOT_FOUND', `working directory '${dir}' does not exist`, { fix: `mkdir -p ${shellJoin([dir])}`, data: { cwd: dir } });
    this.name = 'CwdNotFoundError';
  }
}

/** Ids that end up in state paths (runId, moduleId, planId, session) must match this. */
export const ID_PATTERN = /^[\w.-]{1,128}$/;

/** Whether an id may name a file or directory: ID_PATTERN, and not '.' or '..'. */
export function isValidId(value: string): boolean {
  return ID_PATTERN.test(value) && value !== '.' && value !== '..';
}

/** Refuses ids that could escape their directory ('..', '/', empty, too long). */
export function assertId({ kind, value }: { kind: string; value: string }): string {
  if (!isValidId(value)) {
    // Control characters are shown escaped: an id with a newline must not break the message in two.
    const shown = value.replace(/[\x00-\x1f\x7f]/g, (c) => JSON.stringify(c).slice(1, -1));
    throw new InvalidInputError(
      'INVALID_ID',
      `invalid ${kind} '${shown.length > 140 ? `${shown.slice(0, 140)}…` : shown}': ids are 1-128 letters, digits, '_', '.' or '-' and not '.' or '..'`,
      {
        data: { kind, value },
      },
    );
  }
  return value;
}
