// Temp directories and real git repositories for tests, with pinned commit dates.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { own, ownForFile } from './owner';

export const PINNED_ENV = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

/**
 * A new directory under the system's temp directory, owned by the running test (or by the file, made
 * outside a test) and removed when that ends; FORGE_KEEP_TEMP=1 keeps them to look at.
 */
export function tempDir(prefix = 'forge-test-'): string {
  return ownPath(realpathSync(mkdtempSync(join(tmpdir(), prefix))));
}

/** A temp dir that lives as long as the test file: for a helper that makes one once and shares it with every test. */
export function fileTempDir(prefix = 'forge-test-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  if (process.env.FORGE_KEEP_TEMP !== '1')
    ownForFile({ what: `temp dir ${dir}`, path: dir, open: () => existsSync(dir), close: () => removeTree(dir) });
  return dir;
}

/** A path the test makes outside tempDir (a hint followed as written: `git clone x x-work`), removed like one. */
export function ownPath(path: string): string {
  if (process.env.FORGE_KEEP_TEMP !== '1')
    own({ what: `temp dir ${path}`, path, open: () => existsSync(path), close: () => removeTree(path) });
  return path;
}

/** Removes a tree, giving back first the permissions a test may have taken away inside it. */
function removeTree(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  } catch {
    execFileSync('chmod', ['-R', 'u+rwx', dir]);
    rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  }
}

/** Runs git in dir and returns trimmed stdout; throws on failure. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    env: { ...process.env, ...PINNED_ENV },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trimEnd();
}

/** A fresh repository; with `commit`, one commit holding README.md on branch main. */
export function tempRepo({ commit = true, bare = false }: { commit?: boolean; bare?: boolean } = {}): string {
  const dir = tempDir();
  git(dir, 'init', '-q', '-b', 'main', ...(bare ? ['--bare'] : []));
  if (commit && !bare) {
    writeFileSync(join(dir, 'README.md'), '# fixture\n');
    git(dir, 'add', 'README.md');
    git(dir, 'commit', '-q', '-m', 'initial');
  }
  return dir;
}

/** What must not change when forge writes state: HEAD, the index, the work tree status, branches. */
export function userView(dir: string): string {
  const head = (() => {
    try {
      return git(dir, 'rev-parse', 'HEAD');
    } catch {
      return 'unborn';
    }
  })();
  const branch = (() => {
    try {
      return git(dir, 'symbolic-ref', '-q', '--short', 'HEAD');
    } catch {
      return 'detached';
    }
  })();
  return [
    head,
    branch,
    git(dir, 'status', '--porcelain=v1', '--untracked-files=all'),
    git(dir, 'ls-files', '-s'),
    git(dir, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads', 'refs/tags'),
  ].join('\n--\n');
}

export function stateCommits(dir: string): number {
  try {
    return Number(git(dir, 'rev-list', '--count', 'refs/forge/state'));
  } catch {
    return 0;
  }
}

/** A repository whose first commit holds these files (besides README.md). */
export function repoWith(files: Record<string, Buffer | string>): string {
  const dir = tempRepo();
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'before');
  return dir;
}

/**
 * A digest of every file, symlink and directory under `dir` (the .git directory included), by
 * relative path — to prove a hook changed nothing. `skip` leaves out paths a test expects to change.
 */
export function treeHashes(dir: string, skip: (rel: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (abs: string) => {
    const rel = relative(dir, abs) || '.';
    if (rel !== '.' && skip(rel)) return;
    const st = lstatSync(abs);
    if (st.isSymbolicLink()) out.set(rel, `link ${readlinkSync(abs)}`);
    else if (st.isDirectory()) {
      out.set(rel, 'dir');
      for (const name of readdirSync(abs)) visit(join(abs, name));
    } else if (st.isFile()) out.set(rel, createHash('sha1').update(readFileSync(abs)).digest('hex'));
    else out.set(rel, `special ${st.mode}`);
  };
  visit(dir);
  return out;
}

/** The paths whose digest differs between two treeHashes (added, removed or changed). */
export function changedPaths(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).sort();
}

/** The plan journal on the state ref, one record per line. */
export function planJournal(dir: string): Array<Record<string, any>> {
  return storeLines(dir, '.forge/plans/journal').map((l) => JSON.parse(l));
}

/**
 * The lines of an append store on the state ref (`.forge/logs/<run>`, `.forge/memory/project`, …),
 * read the way the README tells a user to: `git grep -h -a '' refs/forge/state -- <dir>`, every
 * segment or bucket in name order. Empty when the store has no file.
 */
export function storeLines(dir: string, store: string): string[] {
  try {
    return git(dir, 'grep', '-h', '-a', '-e', '', 'refs/forge/state', '--', store).split('\n').filter(Boolean);
  } catch {
    return []; // git grep exits 1 when nothing matched
  }
}

/** A tree entry as written: mode (octal text), name, object id (hex). */
export type RawTreeEntry = [mode: string, name: string, oid: string];

/** The bytes of a tree object holding these entries, in the order given. */
export function treeBytes(entries: RawTreeEntry[]): Buffer {
  return Buffer.concat(entries.map(([mode, name, oid]) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(oid, 'hex')])));
}

/** A tree object of these bytes (or entries) written as given: `--literally`, since git's own tools refuse broken ones. */
export function rawTree(dir: string, tree: Buffer | RawTreeEntry[]): string {
  const input = Buffer.isBuffer(tree) ? tree : treeBytes(tree);
  return execFileSync('git', ['hash-object', '-w', '-t', 'tree', '--literally', '--stdin'], { cwd: dir, input, encoding: 'utf8' }).trim();
}
