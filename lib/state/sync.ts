// Shares the state ref with a remote: fetch it, merge file by file, push it back — retrying when the remote moved.
import { ForgeError, RefusedError } from '../errors';
import { combineContents, decide } from './merge';
import { logicalFile } from './streams';
import { runGit } from '../git/exec';
import type { GitObject } from '../git/objects';
import type { Repo } from '../git/repo';
import { STATE_REF, type StateStore } from '../git/state';

export type SyncAction = 'up-to-date' | 'pushed' | 'fast-forwarded' | 'merged' | 'empty';

export interface SyncResult {
  remote: string;
  action: SyncAction;
  /** The state commit both sides hold afterwards (null when neither had state). */
  head: string | null;
  /** Files combined from both sides' changes in a merge. */
  combined: string[];
  /** Files whose local copy was kept over the remote's (keepLocal): the remote changed them, this side did not take it. */
  kept: string[];
  pushed: boolean;
}

/** The files whose local copy a sync keeps whatever the remote holds, given a reader of the local state's files. */
export type KeepLocal = (readLocal: (path: string) => Promise<string | null>) => Promise<string[]>;

const ROUNDS = 5;

/**
 * The kinds of entries the state holds, by path (the layout of DESIGN.md "State"): what a sync
 * says it shares. A JSONL file counts its lines, a JSON file one entry; pointer files
 * (current.json, active.json) and views (plan.md) count none. Paths no row names count as other.
 * The segments or buckets of one store count as the one file they stand for (a run's log is a file).
 */
export const STATE_KINDS = [
  { kind: 'memory', path: /^\.forge\/memory\// },
  { kind: 'logs', path: /^\.forge\/logs\// },
  { kind: 'iterations', path: /^\.forge\/iterations\// },
  { kind: 'sessions', path: /^\.forge\/sessions\// },
  { kind: 'plan contracts', path: /^\.forge\/plans\// },
  { kind: 'loops', path: /^\.forge\/loops\// },
  { kind: 'telemetry', path: /^\.forge\/telemetry(\.jsonl$|\/)/ },
  { kind: 'agent sessions', path: /^\.forge\/agent\/sessions\// },
  // .forge/plan.md is where an earlier forge kept the agent's plan view.
  { kind: 'module plans', path: /^\.forge\/agent\/(plans\/|plan\.md$)|^\.forge\/plan\.md$/ },
] as const satisfies ReadonlyArray<{ kind: string; path: RegExp }>;

export interface SharedKind {
  kind: (typeof STATE_KINDS)[number]['kind'] | 'other';
  files: number;
  entries: number;
}

type KindCount = SharedKind & { logical: Set<string> };

const POINTER = /(^|\/)(current|active)\.json$/;

/** What the state at `commit` holds, by kind, in STATE_KINDS order; kinds with no file are left out. */
export async function sharedKinds({ repo, store, commit }: { repo: Repo; store: StateStore; commit: string }): Promise<SharedKind[]> {
  const counts = new Map<SharedKind['kind'], KindCount>();
  for (const [path, oid] of await flatten(repo, commit)) {
    const kind = STATE_KINDS.find((k) => k.path.test(path))?.kind ?? 'other';
    const row = counts.get(kind) ?? { kind, files: 0, entries: 0, logical: new Set<string>() };
    row.logical.add(logicalFile(path));
    row.files = row.logical.size;
    if (path.endsWith('.jsonl')) {
      const text = (await store.reader.read(oid))?.content.toString('utf8') ?? '';
      row.entries += text.split('\n').filter((l) => l.trim()).length;
    } else if (path.endsWith('.json') && !POINTER.test(path)) row.entries++;
    counts.set(kind, row);
  }
  return [...STATE_KINDS.map((k) => k.kind), 'other' as const].flatMap((k) => {
    const row = counts.get(k);
    return row ? [{ kind: row.kind, files: row.files, entries: row.entries }] : [];
  });
}

/** Where the remote's state is kept after a fetch: refs/forge/remotes/<name>/state. */
export function trackingRef(remote: string): string {
  const name = /^[\w.-]+$/.test(remote) ? remote : `url-${Buffer.from(remote).toString('base64url').slice(-24)}`;
  return `refs/forge/remotes/${name}/state`;
}

async function flatten(repo: Repo, commit: string): Promise<Map<string, string>> {
  const r = await runGit({ cwd: repo.cwd, args: ['ls-tree', '-r', '-z', commit] });
  const files = new Map<string, string>();
  for (const rec of r.stdout.toString('utf8').split('\0')) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(rec);
    if (m) files.set(m[2]!, m[1]!);
  }
  return files;
}

async function isAncestor(repo: Repo, a: string, b: string): Promise<boolean> {
  return (await runGit({ cwd: repo.cwd, args: ['merge-base', '--is-ancestor', a, b] })).code === 0;
}

/** Builds the merge commit of local and remote state (parents: local, remote). */
async function mergeStates({
  repo,
  store,
  local,
  remote,
}: {
  repo: Repo;
  store: StateStore;
  local: string;
  remote: string;
}): Promise<{ commit: string; combined: string[] }> {
  const mb = await runGit({ cwd: repo.cwd, args: ['merge-base', local, remote] });
  const base = mb.code === 0 ? mb.stdout.toString('utf8').trim() : null;
  const [b, l, r] = await Promise.all([
    base ? flatten(repo, base) : new Map<string, string>(),
    flatten(repo, local),
    flatten(repo, remote),
  ]);
  const changes: Array<[string[], Buffer | null]> = [];
  const combined: string[] = [];
  for (const path of new Set([...l.keys(), ...r.keys()])) {
    const [lo, ro] = [l.get(path) ?? null, r.get(path) ?? null];
    const d = decide({ base: b.get(path) ?? null, local: lo, remote: ro });
    if (d === 'local') continue;
    if (d === 'remote') {
      changes.push([path.split('/'), ro ? (await store.reader.read(ro))!.content : null]);
      continue;
    }
    const [lt, rt] = await Promise.all([store.reader.read(lo!), store.reader.read(ro!)]);
    const text = combineContents({ path, local: lt!.content.toString('utf8'), remote: rt!.content.toString('utf8') });
    changes.push([path.split('/'), Buffer.from(text, 'utf8')]);
    // Named as the one file a segment or bucket stands for: what the user knows the store as.
    if (!combined.includes(logicalFile(path))) combined.push(logicalFile(path));
  }
  const tree = (await store.writeTree(await store.treeOf(local), changes)) ?? (await store.writer.write('tree', Buffer.alloc(0)));
  const commit = await store.writeCommit({
    tree,
    parents: [local, remote],
    message: `state: merge ${combined.length ? combined.join(', ') : 'remote state'}`,
  });
  return { commit, combined };
}

/**
 * git itself, with the user's environment as is: GIT_SSH_COMMAND, GIT_ASKPASS, a proxy or an editor
 * (Claude Code sets GIT_EDITOR for its shell) are how the user reaches their remote, which simple-git
 * refuses to run under. A failed command rejects with git's own message.
 */
async function git(repo: Repo, args: string[], signal?: AbortSignal): Promise<string> {
  const r = await runGit({ cwd: repo.cwd, args, ...(signal ? { signal } : {}) });
  if (r.code !== 0) throw new Error(r.stderr.trim() || `git ${args[0]} exited ${r.code}`);
  return r.stdout.toString('utf8');
}

/** A configured remote, or a URL or path; REMOTE_NOT_FOUND otherwise. Reads the config only: no network. */
export async function checkRemote({ repo, remote }: { repo: Repo; remote: string }): Promise<void> {
  const remotes = (await git(repo, ['remote'])).split('\n').filter(Boolean);
  // A name that starts with '-' would reach git as an option (--upload-pack=… runs a program).
  if (remote.startsWith('-') || (!remotes.includes(remote) && !/[/:]/.test(remote))) {
    throw new ForgeError('REMOTE_NOT_FOUND', `no remote named '${remote}' (remotes: ${remotes.join(', ') || 'none'})`, {
      fix: remotes.length ? `forge state sync ${remotes[0]}` : 'git remote -v',
    });
  }
}

/**
 * The remote's state commit (null: it has none yet), read with `git ls-remote`: refs only, no
 * objects fetched. A remote that cannot be reached is SYNC_FAILED, as the sync itself would be.
 */
export async function remoteStateHead({ repo, remote }: { repo: Repo; remote: string }): Promise<string | null> {
  await checkRemote({ repo, remote });
  let out: string;
  try {
    out = await git(repo, ['ls-remote', remote, STATE_REF]);
  } catch (err) {
    throw new ForgeError(
      'SYNC_FAILED',
      `cannot reach '${remote}': ${String((err as Error).message)
        .trim()
        .split('\n')
        .pop()}`,
      { fix: `git ls-remote ${remote}` },
    );
  }
  return /^([0-9a-f]{40,64})\t/m.exec(out)?.[1] ?? null;
}

/**
 * On top of `next` (the remote state, or the merge), the local copies of the files `keepLocal` names
 * where `next` holds other ones: what the remote would have changed there, this side does not take.
 */
async function keepLocalFiles({
  repo,
  store,
  local,
  next,
  keepLocal,
}: {
  repo: Repo;
  store: StateStore;
  local: string;
  next: string;
  keepLocal: KeepLocal;
}): Promise<{ commit: string; kept: string[] }> {
  const [mine, theirs] = await Promise.all([flatten(repo, local), flatten(repo, next)]);
  const readLocal = async (path: string) => {
    const oid = mine.get(path);
    return oid ? ((await store.reader.read(oid))?.content.toString('utf8') ?? null) : null;
  };
  const kept = (await keepLocal(readLocal)).filter((path) => mine.get(path) !== theirs.get(path));
  if (!kept.length) return { commit: next, kept };
  const changes: Array<[string[], Buffer | null]> = [];
  for (const path of kept) {
    const oid = mine.get(path);
    changes.push([path.split('/'), oid ? (await store.reader.read(oid))!.content : null]);
  }
  const tree = (await store.writeTree(await store.treeOf(next), changes)) ?? (await store.writer.write('tree', Buffer.alloc(0)));
  const commit = await store.writeCommit({ tree, parents: [next], message: `state: keep the local ${kept.join(', ')}` });
  return { commit, kept };
}

/**
 * fetch → merge → push, until the remote accepts the push (another machine may push between our
 * fetch and push; then the push is refused as non-fast-forward and the round repeats). The files
 * `keepLocal` names keep their local copy, and the remote gets it back with the push.
 */
export async function syncState({
  repo,
  store,
  remote,
  keepLocal,
  signal,
}: {
  repo: Repo;
  store: StateStore;
  remote: string;
  keepLocal?: KeepLocal;
  /** Aborted when the caller gives up: a fetch or push in flight is ended, and the sync stops (CANCELLED). */
  signal?: AbortSignal;
}): Promise<SyncResult> {
  await checkRemote({ repo, remote });
  const tracking = trackingRef(remote);
  let combined: string[] = [];
  let kept: string[] = [];
  let action: SyncAction = 'up-to-date';
  for (let round = 0; round < ROUNDS; round++) {
    let remoteObject: GitObject | null = null;
    if (signal?.aborted) throw cancelledSync(remote, 'before it fetched');
    try {
      await git(repo, ['fetch', '--no-tags', '--quiet', remote, `+${STATE_REF}:${tracking}`], signal);
      // Whatever the ref names: checkTrees refuses what is no commit (resolve would call it no
      // state, and each push would be refused as not a fast-forward, round after round).
      remoteObject = await store.reader.read(tracking);
    } catch (err) {
      if (signal?.aborted) throw cancelledSync(remote, 'while it fetched');
      const text = String((err as Error).message);
      if (!/couldn't find remote ref/i.test(text)) {
        throw new ForgeError('SYNC_FAILED', `cannot fetch state from '${remote}': ${text.trim().split('\n').pop()}`, {
          fix: `git fetch ${remote}`,
        });
      }
    }
    const remoteHead = remoteObject?.oid ?? null;
    const local = await store.head();
    let next = local;
    if (!local && !remoteHead) return { remote, action: 'empty', head: null, combined, kept, pushed: false };
    if (remoteHead && local !== remoteHead) {
      // Anyone who can push to the remote wrote what is there: nothing of it is taken unread.
      await store.checkTrees(remoteObject, { ref: tracking });
      if (!local || (await isAncestor(repo, local, remoteHead))) {
        next = remoteHead;
        action = 'fast-forwarded';
      } else if (!(await isAncestor(repo, remoteHead, local))) {
        const m = await mergeStates({ repo, store, local, remote: remoteHead });
        next = m.commit;
        combined = m.combined;
        action = 'merged';
      }
      if (local && next !== local && keepLocal)
        ({ commit: next, kept } = await keepLocalFiles({ repo, store, local, next: next!, keepLocal }));
      if (next !== local && !(await store.compareAndSwap(next!, local))) continue; // a local writer moved it: redo
    }
    if (next === remoteHead) return { remote, action, head: next, combined, kept, pushed: false };
    if (signal?.aborted) throw cancelledSync(remote, 'before it pushed (the local state has what it fetched)');
    try {
      await git(repo, ['push', '--quiet', remote, `${STATE_REF}:${STATE_REF}`], signal);
      return { remote, action: action === 'up-to-date' ? 'pushed' : action, head: next, combined, kept, pushed: true };
    } catch (err) {
      // The remote takes a push whole or not at all: which, only the next sync can tell.
      if (signal?.aborted) throw cancelledSync(remote, 'while it pushed (the push landed whole or not at all)');
      const text = String((err as Error).message);
      if (!/rejected|non-fast-forward|fetch first|failed to update ref|cannot lock ref/i.test(text)) {
        throw new ForgeError('SYNC_FAILED', `cannot push state to '${remote}': ${text.trim().split('\n').pop()}`, {
          fix: `git push ${remote} ${STATE_REF}:${STATE_REF}`,
        });
      }
    }
  }
  throw new ForgeError('STATE_CONFLICT', `'${remote}' kept moving during ${ROUNDS} sync rounds`, {
    fix: `forge state sync ${remote}`,
  });
}

/** A sync the caller gave up on, and how far it got: the state ref is always whole, so the next sync picks up from there. */
function cancelledSync(remote: string, when: string): RefusedError<'CANCELLED'> {
  return new RefusedError('CANCELLED', `the sync with '${remote}' was cancelled ${when}`, { fix: `forge state sync ${remote}` });
}
