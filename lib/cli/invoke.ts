// One command called in-process through the shared call path (lib/cli/call.ts), no argv or NDJSON between: its records as --json gives them and its text as a pipe gets it, from one run.
import type { ExitCode, ForgeError } from '../errors';
import { type CallContext, type CallIo, createContext, errorRecord, errorText, hintOf, outcomeRecord, outcomeText, runCall } from './call';
import type { CommandSpec, Entry, Item, Outcome } from './declare';
import { PLAIN } from './output';
import { leaves } from './registry';

/** What an in-process call gave back: both renderings of the same run. */
export interface Called {
  code: ExitCode;
  /** The NDJSON records --json would print: streamed items, then the outcome's record or the error's. */
  records: Array<Record<string, unknown>>;
  /** What the text rendering writes to stdout (items' lines, the outcome's text, its hint lines). */
  stdout: string;
  /** What it writes to stderr: warnings, an error's Error:/Fix: lines, a hint that goes there. */
  stderr: string;
  /** The command's outcome (its data and hint), or the error it ended with. */
  outcome?: Outcome;
  error?: ForgeError;
}

/** One in-process call: where it runs and how its caller can stop it or watch it. */
export interface CallOptions {
  args: Record<string, unknown>;
  /** Every command (RunContext.registry); default: the built executable's. */
  registry?: () => readonly Entry[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  onProgress?: (text: string) => void;
}

/** A line of text as Output.out writes it: with its newline. */
const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

/** A raw outcome's lines as records: a line that is not a JSON object is kept as its text. */
function rawRecords(raw: string): Array<Record<string, unknown>> {
  return raw
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      try {
        const value: unknown = JSON.parse(l);
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
      } catch {}
      return { text: l };
    });
}

/**
 * Runs `spec` with these arguments (typed JSON, checked and coerced as an NDJSON request's are) in
 * the context's directory. No terminal: nothing is asked, nothing is live, progress goes to the
 * context's onProgress. Never throws for the command's failure: see `code` and `error`.
 */
export async function callCommand({
  spec,
  args,
  ctx,
}: {
  spec: CommandSpec<any>;
  args: Record<string, unknown>;
  ctx: CallContext;
}): Promise<Called> {
  const records: Array<Record<string, unknown>> = [];
  let stdout = '';
  let stderr = '';
  const io: CallIo = {
    paint: PLAIN,
    emit: async (item: Item, text: string) => {
      records.push(item);
      if (text) stdout += line(text);
    },
    progress: async () => {},
    live: async () => false,
    relay: async () => {},
    status: async () => {},
    warn: async (text) => {
      stderr += line(`warning: ${text}`);
    },
    interactive: false,
    ask: async () => null,
  };
  const result = await runCall({ spec, raw: args, ctx, io });
  const { outcome, error, code } = result;
  if (outcome && !outcome.silent) {
    const hint = hintOf(outcome, result.context);
    records.push(
      ...(outcome.raw !== undefined && !spec.dataOutput
        ? rawRecords(outcome.raw)
        : [outcomeRecord({ outcome, code, hint, streamed: result.streamed, id: undefined })]),
    );
    const text = outcomeText({ outcome, hint, dataOutput: spec.dataOutput === true });
    stdout += text.stdout.map(line).join('');
    stderr += text.stderr.map(line).join('');
  }
  if (error) {
    records.push(errorRecord(error));
    stderr += line(errorText(error));
    if (ctx.env.FORGE_DEBUG === '1') stderr += line(String((error.cause as Error | undefined)?.stack ?? error.stack));
  }
  return { code, records, stdout, stderr, ...(outcome ? { outcome } : {}), ...(error ? { error } : {}) };
}

/** One call in a context of its own, closed after it: for a caller that makes one call at a time (a tool call). */
export async function callOnce({
  spec,
  args,
  cwd,
  env,
  signal,
  onProgress,
  registry,
}: { spec: CommandSpec<any> } & CallOptions): Promise<Called> {
  const ctx = createContext({
    cwd,
    env,
    ...(signal ? { signal } : {}),
    ...(onProgress ? { onProgress } : {}),
    ...(registry ? { registry } : {}),
  });
  try {
    return await callCommand({ spec, args, ctx });
  } finally {
    ctx.close();
  }
}

/** The command of this name in the registry; an Error (a bug of the caller) when there is none. */
export function commandNamed(entries: readonly Entry[], name: string): CommandSpec<any> {
  const spec = leaves(entries).find((s) => s.name === name);
  if (!spec) throw new Error(`no command '${name}' in the registry`);
  return spec;
}
