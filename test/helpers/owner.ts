// Who closes what a test starts: servers, child processes and temp directories are owned by the running test (or by the file, outside one) and closed when it ends.
import type { ChildProcess } from 'node:child_process';
import type { Server, Socket } from 'node:net';
import { ENV } from '../../scripts/testing/protocol';

/** Something a test started and must not outlive it. */
export interface Owned {
  /** Names it in a report: `server on 127.0.0.1:41234`, `child 4321 (node dist/forge.js mcp)`. */
  what: string;
  /** The path, for a temp directory. */
  path?: string;
  /** Whether it still needs closing (a child that exited by itself does not). */
  open(): boolean;
  close(): Promise<void> | void;
}

/** The resources of one test, or of the file (those made while no test runs), in the order they were made. */
export class Scope {
  private readonly items = new Set<Owned>();
  constructor(readonly name: string) {}

  /** Whether `path` is a temp directory this scope owns. */
  ownsPath(path: string): boolean {
    return [...this.items].some((item) => item.path === path);
  }

  add(item: Owned): () => void {
    this.items.add(item);
    return () => this.items.delete(item);
  }

  /**
   * Closes everything still open, newest first, and waits for all of it; what failed to close, named.
   * Each close starts synchronously, so a process's exit handler (which cannot wait) still closes all.
   */
  async close(): Promise<string[]> {
    const items = [...this.items].reverse();
    this.items.clear();
    const results = await Promise.allSettled(items.map(async (item) => item.open() && (await item.close())));
    return results.flatMap((result, i) =>
      result.status === 'rejected'
        ? [`${items[i]!.what}: ${result.reason instanceof Error ? result.reason.message : String(result.reason)}`]
        : [],
    );
  }
}

// The runner gives each file a temp directory of its own (tsx has already put its cache in the shared
// one); everything started from here, forge and git included, inherits it.
if (process.env[ENV.tmpdir]) process.env.TMPDIR = process.env[ENV.tmpdir];

/** The file's scope: what a module makes at load time lives until the last test has run (or the process exits, outside the harness). */
export const fileScope = new Scope('file');
let testScope: Scope | null = null;

process.once('exit', () => {
  // Outside the harness (a bench script, a file run by hand) nothing else closes the file's scope; exit runs synchronous work only.
  void fileScope.close();
});

/** Makes `scope` the owner of what is started until `leaveScope`: the harness calls these around each test. */
export function enterScope(scope: Scope): void {
  testScope = scope;
}
export function leaveScope(): void {
  testScope = null;
}

/** Hands `item` to the running test (or the file); the returned function gives it back once the caller closed it itself. */
export function own(item: Owned): () => void {
  return (testScope ?? fileScope).add(item);
}

/** Hands `item` to the file whatever runs now: what a helper makes once and every later test shares. */
export function ownForFile(item: Owned): () => void {
  return fileScope.add(item);
}

/** A child process owned until it exits: closing it kills it (its process group when it leads one) and waits for the exit. */
export function ownChild<T extends ChildProcess>(child: T, { group = false }: { group?: boolean } = {}): T {
  const running = () => child.exitCode === null && child.signalCode === null;
  const release = own({
    what: `child ${child.pid} (${child.spawnargs.join(' ').slice(0, 120)})`,
    open: running,
    close: () => killChild(child, group),
  });
  child.once('exit', release);
  return child;
}

/** Kills a child (or its whole group) with SIGKILL and resolves once it has exited. */
export function killChild(child: ChildProcess, group = false): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    if (group && child.pid) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
  return exited;
}

/** A listening server owned until closed: closing it drops its connections and waits for the close. */
export function ownServer<T extends Server>(server: T): T {
  // A net.Server cannot list its connections, and close() waits for every one of them to end.
  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  const release = own({
    get what() {
      return `server on ${describeAddress(server)}`;
    },
    open: () => server.listening,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of connections) socket.destroy();
      }),
  });
  server.once('close', release);
  return server;
}

export function describeAddress(server: Server): string {
  const address = server.address();
  if (address === null) return 'a closed socket';
  return typeof address === 'string' ? address : `${address.address}:${address.port}`;
}
