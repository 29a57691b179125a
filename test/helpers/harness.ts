// uvu's test, as every test file imports it: a timeout per test, what the test started closed when it ends, a leak fails it, and each test reported to the runner.
import { ChildProcess } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite, type Callback } from 'uvu';
import { ENV, type ReportEvent, TSX_CACHE } from '../../scripts/testing/protocol';
import { describeAddress, enterScope, fileScope, killChild, leaveScope, Scope } from './owner';

type Context = Record<string, any>;

export interface TestOptions {
  /** How long the test may run before it fails as timed out (default FORGE_TEST_TIMEOUT_MS, else 120 s). */
  timeoutMs?: number;
}

/** Where the runner reads what happened; unset when a file is run by hand. */
const REPORT = process.env[ENV.report];
/** The runner gives each file a temp directory of its own (test/helpers/owner.ts), so what a test leaves in it is the test's. */
const PRIVATE_TMP = Boolean(process.env[ENV.tmpdir]);
const DEFAULT_TIMEOUT_MS = Number(process.env[ENV.timeoutMs]) || 120_000;

function report(event: ReportEvent): void {
  if (REPORT) appendFileSync(REPORT, `${JSON.stringify(event)}\n`);
}

/** The handles that keep this process alive (Node lists only referenced ones). */
function liveHandles(): unknown[] {
  return (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
}

const tmpEntries = (): Set<string> => new Set(PRIVATE_TMP ? readdirSync(tmpdir()).filter((e) => !TSX_CACHE.test(e)) : []);

interface Baseline {
  handles: Set<unknown>;
  tmp: Set<string>;
}

const snapshot = (): Baseline => ({ handles: new Set(liveHandles()), tmp: tmpEntries() });

/**
 * What was started since `before` and is still open though nobody owns it: listening servers,
 * running children, entries in the private temp directory. Each is closed (so the run goes on) and named.
 */
async function closeLeaks(before: Baseline): Promise<string[]> {
  const leaks: string[] = [];
  const closing: Array<Promise<void>> = [];
  for (const handle of liveHandles()) {
    if (before.handles.has(handle)) continue;
    if (handle instanceof Server && handle.listening) {
      leaks.push(`server on ${describeAddress(handle)}`);
      closing.push(new Promise((resolve) => handle.close(() => resolve())));
      (handle as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
    } else if (handle instanceof ChildProcess && handle.exitCode === null && handle.signalCode === null && !handle.killed) {
      closing.push(
        exitsOnItsOwn(handle).then((exited) => {
          if (exited) return;
          leaks.push(`child ${handle.pid} (${handle.spawnargs.join(' ').slice(0, 120)})`);
          return killChild(handle, true);
        }),
      );
    }
  }
  for (const entry of tmpEntries()) {
    if (before.tmp.has(entry) || fileScope.ownsPath(join(tmpdir(), entry))) continue;
    leaks.push(`temp '${entry}'`);
    rmSync(join(tmpdir(), entry), { recursive: true, force: true });
  }
  await Promise.all(closing);
  return leaks;
}

/**
 * Whether a child nobody owns exits within a few seconds: one whose output the test read to the end
 * is on its way out, and only one still running after that was left behind.
 */
function exitsOnItsOwn(child: ChildProcess): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

const leakMessage = (leaks: string[]) =>
  `left open when it ended: ${leaks.join('; ')} — start it through test/helpers/owner.ts (ownServer, ownChild; tempDir) or close it in finally`;

/** A failure the harness found, not the test's code: no stack to print, the message says it all. */
class HarnessError extends Error {
  constructor(message: string) {
    super(message);
    this.stack = message;
  }
}

class TimedOut extends HarnessError {}

/** `work`'s outcome, or TimedOut once `ms` have passed; a settled race leaves no timer behind. */
async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new TimedOut(`${what} timed out after ${ms / 1000} s (the runner's --timeout, or the test's timeoutMs, sets the limit)`),
            ),
          ms,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs one test inside its own scope, under its timeout; throws what uvu should print. */
async function guarded(name: string, handler: Callback<Context>, context: Context, timeoutMs: number): Promise<void> {
  const before = snapshot();
  const scope = new Scope(name);
  report({ event: 'start', name });
  const started = performance.now();
  enterScope(scope);
  let failure: unknown = null;
  const work = Promise.resolve().then(() => handler(context as Context & { __suite__: string; __test__: string }));
  try {
    await within(work, timeoutMs, 'the test');
  } catch (err) {
    failure = err;
  } finally {
    leaveScope();
    // A test given up on may still settle later, once its resources are closed under it.
    work.catch(() => {});
  }
  const unclosed = await scope.close();
  const leaks = [...unclosed.map((u) => `${u} (failed to close)`), ...(await closeLeaks(before))];
  const ms = Math.round(performance.now() - started);
  report({ event: 'end', name, ok: failure === null && leaks.length === 0, timedOut: failure instanceof TimedOut, ms, leaks });
  if (failure !== null) {
    if (leaks.length) process.stderr.write(`${name}: also ${leakMessage(leaks)}\n`);
    throw failure;
  }
  if (leaks.length) throw new HarnessError(leakMessage(leaks));
}

const inner = suite<Context>();
/** What was open before any test ran: the file's end is held against it. */
const atLoad = snapshot();

type Register = (name: string, handler: Callback<Context>, options?: TestOptions) => void;

const wrap =
  (register: (name: string, handler: Callback<Context>) => void): Register =>
  (name, handler, options = {}) =>
    register(name, (context) => guarded(name, handler, context, options.timeoutMs ?? DEFAULT_TIMEOUT_MS));

/** After the last test: the file's own resources closed, and anything still open reported as the file's leak. */
async function fileEnd(): Promise<void> {
  const unclosed = await fileScope.close();
  const leaks = [...unclosed, ...(await closeLeaks(atLoad))];
  report({ event: 'file-end', leaks, resources: process.getActiveResourcesInfo() });
  if (leaks.length) {
    process.stderr.write(`the file ${leakMessage(leaks)}\n`);
    process.exitCode = 1;
  }
  // Nothing is left to wait for: what still holds the process (an interval, a socket) is named, and
  // the file ends rather than run into its limit. The timer itself holds nothing (unref).
  setTimeout(() => {
    const holders = heldBy();
    report({ event: 'held', resources: holders });
    process.stderr.write(`the tests ended but the process did not exit: held by ${holders.join(', ')}\n`);
    process.exit(1);
  }, EXIT_GRACE_MS).unref();
}

/** What keeps the process alive, by kind (a Timeout, a TCPSocketWrap…), its own stdio left out. */
function heldBy(): string[] {
  const held = process.getActiveResourcesInfo();
  const stdio = liveHandles().filter((h) => [0, 1, 2].includes((h as { fd?: number }).fd ?? -1)).length;
  for (let i = 0; i < stdio; i++) {
    const at = held.findIndex((r) => r === 'PipeWrap' || r === 'TTYWrap');
    if (at >= 0) held.splice(at, 1);
  }
  return held;
}

/** How long the process may take to exit after its last test. */
const EXIT_GRACE_MS = Number(process.env[ENV.exitGraceMs]) || 10_000;

process.once('exit', () => report({ event: 'exit', cpuMs: cpuOfProcessTree() }));

/** This process's CPU time with that of the children it waited for (Linux; 0 elsewhere), in ms. */
function cpuOfProcessTree(): number {
  try {
    // Fields after the command name: state is 3rd; utime, stime, cutime, cstime are 14th–17th (in clock ticks, 100 a second).
    const fields = readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) * 10;
  } catch {
    return 0;
  }
}

/** A hook under the same time limit as a test (what it starts belongs to the file, or to the test it runs around). */
const limited = (register: (hook: Callback<Context>) => void) => (hook: Callback<Context>) =>
  register((context) =>
    within(
      Promise.resolve().then(() => hook(context)),
      DEFAULT_TIMEOUT_MS,
      'a before or after hook',
    ),
  );

const hooks = (hook: typeof inner.before) => Object.assign(limited(hook), { each: limited(hook.each) });

export const test = Object.assign(wrap(inner), {
  only: wrap(inner.only),
  skip: inner.skip,
  before: hooks(inner.before),
  after: hooks(inner.after),
  run(): void {
    inner.after(fileEnd);
    inner.run();
  },
});
