// The git-native state store: files under .forge/ on refs/forge/state, one commit per change, moved by compare-and-swap.
import { join } from 'node:path';
import { ForgeError, InvalidInputError, isValidId } from '../errors';
import { withLock } from '../fs/lock';
import { redactJsonText, redactSecrets } from '../redact';
import { runGit } from './exec';
import { type GitObject, ObjectReader, ObjectWriter, parseTree, serializeTree, streamBlobLines, type TreeEntry } from './objects';
import { updateRefDirectly } from './refs';
import type { Repo } from './repo';

export const STATE_REF = 'refs/forge/state';

export interface Identity {
  name: string;
  email: string;
}

export interface CommitInfo {
  oid: string;
  date: string;
  message: string;
}

/**
 * What state is kept exactly as written; everything else is passed through the secret redactor
 * (lib/redact.ts) on its way into a transaction. Most of the state holds text that came from
 * people, agents, models and tools — tasks and answers (telemetry, agent sessions and plans,
 * plan.md), lessons (memory), event data (logs), root causes (iterations), notes (sessions),
 * replies and check output (loop iterations), reasons and evidence (the plan journal) — and the
 * ref is shared with every clone that syncs it. Redacting here, at the one door all of them go
 * through, covers stores added later too. What is listed here is exact by contract instead:
 * forge runs or compares it later, so redacting it would change what forge does. A row with
 * `keys` keeps only those top-level JSON values and redacts the rest of the file.
 */
const KEPT_EXACT: ReadonlyArray<{ path: RegExp; keys?: readonly string[]; holds: string }> = [
  {
    path: /^\.forge\/plans\/[^/]+\.json$/,
    holds:
      'activated plan contracts and the active pointer: a copy of a plan a person wrote and checked, whose rails, globs and verification commands must run exactly as written',
  },
  {
    path: /^\.forge\/loops\/[^/]+\.json$/,
    keys: ['prompt', 'promise', 'doneWhen', 'command'],
    holds:
      "a loop's prompt, completion promise, done-when check and agent command: what the user gave forge loop start and run, sent, compared or run again on every iteration",
  },
];

/** What a transaction stores for `path`: redacted as KEPT_EXACT says (JSON string by string, other text whole). */
function storedContent(path: string, content: Buffer, known: Buffer | undefined): Buffer {
  const kept = KEPT_EXACT.find((k) => k.path.test(path));
  if (kept && !kept.keys) return content;
  const redact = /\.jsonl?$/.test(path) ? (text: string) => redactJsonText(text, { keep: kept?.keys }) : redactSecrets;
  // An append (the content starts with what is stored) redacts only what it adds: the stored part
  // went through here when it was written, and appending costs what is appended, not what is stored.
  if (known && content.length >= known.length && content.subarray(0, known.length).equals(known)) {
    const tail = content.subarray(known.length).toString('utf8');
    const clean = redact(tail);
    return clean === tail ? content : Buffer.concat([known, Buffer.from(clean, 'utf8')]);
  }
  const text = content.toString('utf8');
  const clean = redact(text);
  return clean === text ? content : Buffer.from(clean, 'utf8');
}

/** Each part of a state path is an id, or an id and its extension: an id that escaped its check cannot leave .forge/ or make odd tree entries. */
function assertStatePath(path: string): void {
  for (const part of path.split('/')) {
    if (!isValidId(part.replace(/\.(jsonl?|md)$/, ''))) {
      throw new InvalidInputError(
        'INVALID_ID',
        `invalid state path '${path}': each part is an id (1-128 letters, digits, '_', '.' or '-', not '.' or '..') with an optional .json, .jsonl or .md`,
        { data: { kind: 'state path', value: path } },
      );
    }
  }
}

/** A change set staged against one snapshot; re-run from scratch when the ref moved underneath. */
export class StateTx {
  readonly changes = new Map<string, Buffer | null>();
  /** What each path read or written in this transaction holds, to tell an append from a rewrite. */
  private readonly known = new Map<string, Buffer>();

  constructor(
    private readonly store: StateStore,
    readonly base: string | null,
  ) {}

  async read(path: string): Promise<Buffer | null> {
    if (this.changes.has(path)) return this.changes.get(path)!;
    // What was read once is read from memory: an append checks a segment and then extends it.
    const cached = this.known.get(path);
    if (cached) return cached;
    const content = this.base ? await this.store.readAt(this.base, path) : null;
    if (content) this.known.set(path, content);
    return content;
  }

  async readText(path: string): Promise<string> {
    return (await this.read(path))?.toString('utf8') ?? '';
  }

  async list(dir: string): Promise<TreeEntry[]> {
    const committed = this.base ? await this.store.listAt(this.base, dir) : [];
    const names = new Map(committed.map((e) => [e.name, e]));
    for (const [path, content] of this.changes) {
      if (!path.startsWith(`${dir}/`) || path.slice(dir.length + 1).includes('/')) continue;
      const name = path.slice(dir.length + 1);
      if (content === null) names.delete(name);
      else names.set(name, { mode: '100644', name, oid: '' });
    }
    return [...names.values()];
  }

  write(path: string, content: Buffer | string): void {
    assertStatePath(path);
    const stored = storedContent(path, typeof content === 'string' ? Buffer.from(content, 'utf8') : content, this.known.get(path));
    this.known.set(path, stored);
    this.changes.set(path, stored);
  }

  remove(path: string): void {
    assertStatePath(path);
    this.known.delete(path);
    this.changes.set(path, null);
  }
}

export interface UpdateResult<T> {
  /** The new state commit, or the unchanged head when the transaction changed nothing. */
  commit: string | null;
  changed: boolean;
  value: T;
  /** How many times the ref moved underneath and the change was re-applied. */
  retries: number;
}

const ZERO = (bytes: number) => '0'.repeat(bytes * 2);
const CAS_DEADLINE_MS = 60_000;
/** How long a ref's lock file may stand before a write reports it (git itself waits 100 ms: core.filesRefLockTimeout). */
const REF_LOCK_WAIT_MS = 2_000;

export class StateStore {
  readonly reader: ObjectReader;
  readonly writer: ObjectWriter;

  constructor(
    readonly repo: Repo,
    private readonly identity: Identity = { name: 'forge', email: 'forge@localhost' },
    private readonly now: () => Date = () => new Date(),
  ) {
    this.reader = new ObjectReader(repo.cwd);
    this.writer = new ObjectWriter(repo.objectsDir, repo.objectFormat);
  }

  /** The current state commit, or null before the first write. */
  async head(): Promise<string | null> {
    return this.resolve(STATE_REF);
  }

  /** Resolves any ref or revision to a commit oid through the batch reader. */
  async resolve(rev: string): Promise<string | null> {
    const obj = await this.reader.read(rev);
    return obj && obj.type === 'commit' ? obj.oid : null;
  }

  async readAt(commit: string, path: string): Promise<Buffer | null> {
    const obj = await this.reader.read(`${commit}:${path}`);
    return obj && obj.type === 'blob' ? obj.content : null;
  }

  /** The lines of these blobs (`<commit>:<path>` specs), in order, streamed in constant memory; missing ones yield nothing. */
  streamLines(specs: string[]): AsyncGenerator<string> {
    return streamBlobLines({ cwd: this.repo.cwd, specs });
  }

  async listAt(commit: string, dir: string): Promise<TreeEntry[]> {
    const obj = await this.reader.read(`${commit}:${dir}`);
    return obj && obj.type === 'tree' ? this.entriesOf(obj) : [];
  }

  /**
   * Every tree of a state commit (the object a ref was read as) read as entriesOf reads it:
   * STATE_CORRUPT for one forge would not write, or for an object that is no commit. What another
   * clone pushed is checked so before a sync takes any of it.
   */
  async checkTrees(head: GitObject | null, { ref }: { ref: string }): Promise<void> {
    if (head?.type !== 'commit') {
      throw new ForgeError('STATE_CORRUPT', `${ref} is not a commit: ${head ? `${head.oid} is a ${head.type}` : 'it is missing'}`, {
        fix: `git fsck --strict ${ref}`,
      });
    }
    const seen = new Set<string>();
    const walk = async (oid: string): Promise<void> => {
      if (seen.has(oid)) return;
      seen.add(oid);
      const tree = await this.reader.read(oid);
      if (tree?.type !== 'tree') throw corruptTree(oid, ref);
      for (const e of this.entriesOf(tree, ref)) if (e.mode === '40000') await walk(e.oid);
    };
    await walk(treeLine(head, head.oid));
  }

  /**
   * A state tree's entries; one forge would not write is refused, never walked: a tree parseTree
   * refuses (a name like `..`, a broken entry), or an entry other than a file or a tree (forge
   * writes no link or submodule, and has no blob to read for a submodule).
   */
  private entriesOf(tree: GitObject, ref = STATE_REF): TreeEntry[] {
    const entries = parseTree(tree.content, this.writer.hashBytes);
    if (!entries?.every((e) => e.mode === '100644' || e.mode === '40000')) throw corruptTree(tree.oid, ref);
    return entries;
  }

  /** Reads a file at the current head (null when absent). */
  async read(path: string): Promise<Buffer | null> {
    const head = await this.head();
    return head ? this.readAt(head, path) : null;
  }

  /**
   * Applies `apply` to a fresh snapshot and commits the result with a compare-and-swap ref move.
   * When another writer moved the ref first, the transaction is re-run on the new state, so
   * concurrent writers never lose each other's changes. `apply` must be free of side effects
   * other than staging changes on the transaction.
   */
  async update<T>(args: {
    message: string | ((value: T) => string);
    apply: (tx: StateTx) => Promise<T>;
    settle?: (result: UpdateResult<T>) => Promise<void>;
  }): Promise<UpdateResult<T>> {
    // Cooperating forge writers queue on a lock instead of racing: a loser of the CAS race throws
    // away its whole read-build-write, and under contention most attempts lose. The CAS below still
    // guarantees correctness against writers that do not take the lock.
    return withLock({
      lockPath: join(this.repo.commonDir, 'forge', 'state.lock'),
      fn: async () => {
        const result = await this.casLoop(args);
        // `settle` runs once the ref holds the change (or the change was found to be empty), before
        // the next writer's transaction reads it: the spool flush removes what it committed here,
        // so no other flusher reads those files as still pending.
        await args.settle?.(result);
        return result;
      },
    });
  }

  private async casLoop<T>({
    message,
    apply,
  }: {
    message: string | ((value: T) => string);
    apply: (tx: StateTx) => Promise<T>;
  }): Promise<UpdateResult<T>> {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      const base = await this.head();
      const tx = new StateTx(this, base);
      const value = await apply(tx);
      if (tx.changes.size === 0) return { commit: base, changed: false, value, retries: attempt };
      const baseTree = base ? await this.treeOf(base) : null;
      const tree =
        (await this.writeTree(
          baseTree,
          [...tx.changes].map(([p, c]) => [p.split('/'), c]),
        )) ?? (await this.writer.write('tree', Buffer.alloc(0)));
      // Commit messages are read as often as the files (git log -p refs/forge/state).
      const text = redactSecrets(typeof message === 'function' ? message(value) : message);
      const commit = await this.writeCommit({ tree, parents: base ? [base] : [], message: text });
      if (await this.compareAndSwap(commit, base)) return { commit, changed: true, value, retries: attempt };
      if (Date.now() - started > CAS_DEADLINE_MS) {
        throw new ForgeError('STATE_CONFLICT', `could not update ${STATE_REF}: it kept moving for ${CAS_DEADLINE_MS / 1000}s`, {
          fix: `git log -3 ${STATE_REF}`,
        });
      }
      // Jittered, growing backoff keeps many writers from retrying in lockstep.
      const ms = 1 + Math.random() * Math.min(100, 4 << Math.min(attempt, 5));
      await new Promise((r) => setTimeout(r, ms));
    }
  }

  /**
   * Moves the state ref from `expected` (null: must not exist) to `next`; false when it lost the
   * race. In a plain repository by git's lock-file protocol without a git process (lib/git/refs.ts),
   * else `git update-ref`. A `.lock` on the ref is never taken over: it is waited for as a writer
   * finishing, and after REF_LOCK_WAIT_MS reported — a crashed git may have left it.
   */
  async compareAndSwap(next: string, expected: string | null): Promise<boolean> {
    const started = Date.now();
    for (;;) {
      const direct = updateRefDirectly({ cwd: this.repo.cwd, ref: STATE_REF, next, expected });
      if (direct === 'updated') return true;
      if (direct === 'moved') return false;
      let locked = direct === 'locked';
      if (!locked) {
        const r = await runGit({ cwd: this.repo.cwd, args: ['update-ref', STATE_REF, next, expected ?? ZERO(this.writer.hashBytes)] });
        if (r.code === 0) return true;
        locked = /unable to create .*\.lock.*file exists/is.test(r.stderr);
        if (!locked) {
          if (/cannot lock ref|reference already exists|but expected|is at/i.test(r.stderr)) return false;
          throw new ForgeError('GIT_FAILED', `git update-ref failed: ${r.stderr.trim()}`, { fix: `git fsck` });
        }
      }
      if (Date.now() - started > REF_LOCK_WAIT_MS) {
        const lock = join(this.repo.commonDir, `${STATE_REF}.lock`);
        throw new ForgeError(
          'LOCKED',
          `cannot update ${STATE_REF}: '${lock}' exists — another git process is updating it, or one crashed and left it; remove it if no git process is running`,
          {
            fix: `rm -f ${lock}`,
            data: { lock },
          },
        );
      }
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 10));
    }
  }

  async treeOf(commit: string): Promise<string> {
    return treeLine(await this.reader.read(commit), commit);
  }

  /** Rebuilds only the trees on the changed paths; untouched subtrees keep their oids. */
  async writeTree(base: string | null, changes: Array<[string[], Buffer | null]>): Promise<string | null> {
    const entries = new Map<string, TreeEntry>();
    if (base) {
      const obj = await this.reader.read(base);
      if (obj) for (const e of this.entriesOf(obj)) entries.set(e.name, e);
    }
    const byChild = new Map<string, Array<[string[], Buffer | null]>>();
    for (const [segments, content] of changes) {
      const [head, ...tail] = segments;
      if (!byChild.has(head!)) byChild.set(head!, []);
      byChild.get(head!)!.push([tail, content]);
    }
    for (const [name, list] of byChild) {
      const leaf = list.find(([tail]) => tail.length === 0);
      const nested = list.filter(([tail]) => tail.length > 0);
      // A file removed and a directory written under its name in one change: the directory replaces it.
      if (leaf && (leaf[1] !== null || !nested.length)) {
        if (leaf[1] === null) entries.delete(name);
        else entries.set(name, { mode: '100644', name, oid: await this.writer.write('blob', leaf[1]) });
        continue;
      }
      const current = entries.get(name);
      const sub = await this.writeTree(current?.mode === '40000' ? current.oid : null, nested);
      if (sub === null) entries.delete(name);
      else entries.set(name, { mode: '40000', name, oid: sub });
    }
    if (entries.size === 0) return null;
    return this.writer.write('tree', serializeTree([...entries.values()]));
  }

  async writeCommit({ tree, parents, message }: { tree: string; parents: string[]; message: string }): Promise<string> {
    const seconds = Math.floor(this.now().getTime() / 1000);
    const who = `${this.identity.name} <${this.identity.email}> ${seconds} +0000`;
    const lines = [`tree ${tree}`, ...parents.map((p) => `parent ${p}`), `author ${who}`, `committer ${who}`, '', message.trim(), ''];
    return this.writer.write('commit', Buffer.from(lines.join('\n'), 'utf8'));
  }

  /** State commits, newest first. */
  async log({ limit }: { limit: number }): Promise<CommitInfo[]> {
    const head = await this.head();
    if (!head) return [];
    const r = await runGit({ cwd: this.repo.cwd, args: ['log', `--max-count=${limit}`, '--format=%H%x00%cI%x00%s', STATE_REF] });
    return r.stdout
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [oid, date, message] = line.split('\0');
        return { oid: oid!, date: date!, message: message! };
      });
  }

  close(): void {
    this.reader.close();
  }
}

/** STATE_CORRUPT for a tree of `ref` that entriesOf refuses (or that is not a tree). */
function corruptTree(oid: string, ref: string): ForgeError {
  return new ForgeError(
    'STATE_CORRUPT',
    `${ref} holds a tree forge does not read: ${oid} is malformed, names an entry '..', '.' or '.git', or holds a link or a submodule`,
    {
      fix: `git fsck --strict ${ref}`,
    },
  );
}

/** The tree a state commit names (its object, as read); STATE_CORRUPT when it names none. */
function treeLine(obj: GitObject | null, commit: string): string {
  const m = obj && /^tree ([0-9a-f]+)/.exec(obj.content.toString('utf8'));
  if (!m) throw new ForgeError('STATE_CORRUPT', `state commit ${commit} has no tree`, { fix: 'git fsck' });
  return m[1]!;
}
