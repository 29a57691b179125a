// The one error type forge raises: a stable code, a message, the fix command and an exit code.

/** Exit codes of the I/O contract: 1 a check failed or an action was refused, 2 bad invocation. */
export type ExitCode = 0 | 1 | 2;

export interface ForgeErrorOptions {
  /** The full command that remedies the error; the CLI prints it as `Fix:`. */
  fix?: string;
  exitCode?: ExitCode;
  data?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * Base of every user-facing failure. `code` is a stable UPPER_SNAKE string listed on the man
 * pages; anything that is not a ForgeError is an internal bug and gets code INTERNAL.
 */
export class ForgeError extends Error {
  readonly code: string;
  fix: string | undefined;
  readonly exitCode: ExitCode;
  readonly data: Record<string, unknown>;

  constructor(code: string, message: string, options: ForgeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ForgeError';
    this.code = code;
    this.fix = options.fix;
    this.exitCode = options.exitCode ?? 2;
    this.data = options.data ?? {};
  }
}

/** Bad flags, fields or values: exit 2. */
export class InvalidInputError extends ForgeError {
  constructor(code: string, message: string, options: Omit<ForgeErrorOptions, 'exitCode'> = {}) {
    super(code, message, { ...options, exitCode: 2 });
    this.name = 'InvalidInputError';
  }
}

/** The action was understood but refused: exit 1. */
export class RefusedError extends ForgeError {
  constructor(code: string, message: string, options: Omit<ForgeErrorOptions, 'exitCode'> = {}) {
    super(code, message, { ...options, exitCode: 1 });
    this.name = 'RefusedError';
  }
}

/** A command that needs repository state was run outside a git repository. */
export class NotAGitRepoError extends ForgeError {
  constructor(dir: string) {
    super('NOT_A_GIT_REPO', `not a git repository: '${dir}'`, { fix: 'git init', exitCode: 2, data: { dir } });
    this.name = 'NotAGitRepoError';
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
