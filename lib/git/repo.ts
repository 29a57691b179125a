// Finds the repository that holds a directory: its common git dir (shared by linked worktrees) and object store.
import { lstatSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { ForgeError, InvalidInputError, NotAGitRepoError } from '../errors';
import { shellJoin } from '../quote';
import { runGit, runGitWhole, streamGit } from './exec';

export interface Repo {
  /** The directory commands run in (inside the repository). */
  cwd: string;
  /** The common git dir: refs and objects shared by every linked worktree. */
  commonDir: string;
  objectsDir: string;
  objectFormat: 'sha1' | 'sha256';
  bare: boolean;
}

/** git refuses a repository another user owns (safe.directory): the one wording and Fix of UNSAFE_REPOSITORY. */
export class UnsafeRepositoryError extends ForgeError<'UNSAFE_REPOSITORY'> {
  constructor(dir: string) {
    super('UNSAFE_REPOSITORY', `git refuses the repository at '${dir}': dubious ownership`, {
      fix: shellJoin(['git', 'config', '--global', '--add', 'safe.directory', dir]),
      data: { dir },
    });
    this.name = 'UnsafeRepositoryError';
  }
}

/**
 * Discovers the repository holding cwd: read from the file system when its layout is a plain one
 * (locateDirectly), else with one `git rev-parse`; once per directory per process. NOT_A_GIT_REPO outside one.
 */
export async function openRepo({ cwd }: { cwd: string }): Promise<Repo> {
  const known = opened.get(cwd);
  if (known) return { ...known };
  const direct = locateDirectly(cwd);
  if (direct === null) throw new NotAGitRepoError(cwd);
  if (direct)
    return remember(opened, cwd, {
      cwd,
      commonDir: direct.commonDir,
      objectsDir: direct.objectsDir,
      objectFormat: direct.objectFormat,
      bare: false,
    });
  const r = await runGit({
    cwd,
    args: [
      'rev-parse',
      '--path-format=absolute',
      '--git-common-dir',
      '--git-path',
      'objects',
      '--show-object-format',
      '--is-bare-repository',
    ],
  });
  if (r.code !== 0) {
    if (/not a git repository/i.test(r.stderr)) throw new NotAGitRepoError(cwd);
    if (/dubious ownership/i.test(r.stderr)) throw new UnsafeRepositoryError(cwd);
    throw new ForgeError('GIT_FAILED', `git rev-parse failed in '${cwd}': ${r.stderr.trim()}`, { fix: 'git status' });
  }
  const [commonDir, objectsDir, format, bare] = r.stdout.toString('utf8').trim().split('\n');
  return remember(opened, cwd, {
    cwd,
    commonDir: commonDir!,
    objectsDir: objectsDir!,
    objectFormat: format === 'sha256' ? 'sha256' : 'sha1',
    bare: bare === 'true',
  });
}

/** The top of the work tree holding cwd and its (per-worktree) git dir; null outside a repository or in a bare one. */
export async function workTreeRoot({ cwd }: { cwd: string }): Promise<{ root: string; gitDir: string } | null> {
  const where = await locateGitDirs({ cwd });
  return where?.root ? { root: where.root, gitDir: where.gitDir } : null;
}

export interface GitDirs {
  /** The top of the work tree; null when cwd is inside a git dir (a bare repository, or .git itself). */
  root: string | null;
  /** This worktree's git dir, and the common dir every linked worktree shares ($GIT_DIR respected). */
  gitDir: string;
  commonDir: string;
  bare: boolean;
}

/**
 * Where cwd's repository keeps its work tree and its own files — read from the file system when
 * its layout is a plain one, else with one `git rev-parse` — null outside a repository. Inside a
 * git dir git refuses --show-toplevel after printing the rest.
 */
export async function locateGitDirs({ cwd }: { cwd: string }): Promise<GitDirs | null> {
  const known = located.get(cwd);
  if (known) return { ...known };
  const direct = locateDirectly(cwd);
  if (direct !== undefined)
    return direct && remember(located, cwd, { root: direct.root, gitDir: direct.gitDir, commonDir: direct.commonDir, bare: false });
  const r = await runGit({
    cwd,
    args: [
      'rev-parse',
      '--path-format=absolute',
      '--git-dir',
      '--git-common-dir',
      '--is-inside-git-dir',
      '--is-bare-repository',
      '--show-toplevel',
    ],
  });
  const [gitDir, commonDir, insideGitDir, bare, root] = r.stdout.toString('utf8').trim().split('\n');
  if (!gitDir || !commonDir || !bare) return null;
  if (r.code !== 0 && insideGitDir !== 'true') return null;
  return remember(located, cwd, { root: insideGitDir === 'true' || !root ? null : root, gitDir, commonDir, bare: bare === 'true' });
}

// Discovery, once per directory per process: agents' calls ask several times (the work tree, then the state store).
// Only repositories found are kept; a directory that is none may become one (git init) while forge runs.
const opened = new Map<string, Repo>();
const located = new Map<string, GitDirs>();

function remember<T extends object>(cache: Map<string, T>, cwd: string, value: T): T {
  cache.set(cwd, value);
  return { ...value };
}

/**
 * Environment that changes where git looks for a repository, its config, refs or objects, or what
 * an object read returns: with any of it set, git answers.
 */
export const GIT_LOCATION_ENV = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
  'GIT_NAMESPACE',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_REPLACE_REF_BASE',
  'GIT_NO_REPLACE_OBJECTS',
];

export interface DirectLocation {
  root: string;
  gitDir: string;
  commonDir: string;
  objectsDir: string;
  objectFormat: 'sha1' | 'sha256';
}

function statOf(path: string, follow = true): Stats | null {
  try {
    return follow ? statSync(path) : lstatSync(path);
  } catch {
    return null;
  }
}

function textOf(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Finds cwd's repository as git's discovery does, from the file system alone, in the plain case:
 * a work tree with a .git directory (or a linked worktree's .git file), owned by this user, whose
 * config sets nothing but the object format, reached without crossing a file system boundary,
 * with no GIT_* environment that moves things. Paths are real paths, as git prints them. Null
 * when there is certainly no repository; undefined for anything else — git answers that.
 */
export function locateDirectly(cwd: string): DirectLocation | null | undefined {
  if (GIT_LOCATION_ENV.some((name) => process.env[name] !== undefined)) return undefined;
  const known = direct.get(cwd);
  if (known) return { ...known };
  const found = searchUpward(cwd);
  if (found) direct.set(cwd, { ...found });
  return found;
}

const direct = new Map<string, DirectLocation>();

function searchUpward(cwd: string): DirectLocation | null | undefined {
  const uid = process.geteuid?.();
  if (uid === undefined) return undefined;
  let dir: string;
  try {
    dir = realpathSync(cwd);
  } catch {
    return undefined;
  }
  let device: number | undefined;
  for (;;) {
    const here = statOf(dir);
    if (!here?.isDirectory()) return undefined;
    // git stops at a file system boundary unless told otherwise: its own message says so.
    if (device !== undefined && here.dev !== device) return undefined;
    device = here.dev;
    const dotGit = join(dir, '.git');
    const entry = statOf(dotGit, false);
    if (entry) return entry.isSymbolicLink() ? undefined : plainRepository({ root: dir, dotGit, entry, rootOwner: here.uid, uid });
    // A directory that may itself be a git dir (a bare repository, or inside .git): git's case.
    if (statOf(join(dir, 'HEAD'), false)) return undefined;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** The repository a work tree's .git (directory or `gitdir:` file) names, when git would take it as it is. */
function plainRepository({
  root,
  dotGit,
  entry,
  rootOwner,
  uid,
}: {
  root: string;
  dotGit: string;
  entry: Stats;
  rootOwner: number;
  uid: number;
}): DirectLocation | undefined {
  let gitDir = dotGit;
  if (entry.isFile()) {
    const m = /^gitdir: (.+)$/.exec((textOf(dotGit) ?? '').replace(/\r?\n$/, ''));
    if (!m || entry.uid !== uid) return undefined;
    try {
      gitDir = realpathSync(resolvePath(root, m[1]!));
    } catch {
      return undefined;
    }
  } else if (!entry.isDirectory()) return undefined;
  // git takes a directory as a git dir by a valid HEAD, objects/ and refs/ (found through commondir in a linked worktree).
  const head = textOf(join(gitDir, 'HEAD'));
  if (head === null || !/^(ref: refs\/\S+|[0-9a-f]{40}|[0-9a-f]{64})\r?\n?$/.test(head)) return undefined;
  const common = textOf(join(gitDir, 'commondir'));
  let commonDir = gitDir;
  if (common !== null) {
    try {
      commonDir = realpathSync(resolvePath(gitDir, common.trim()));
    } catch {
      return undefined;
    }
  }
  if (!statOf(join(commonDir, 'objects'))?.isDirectory() || !statOf(join(commonDir, 'refs'))?.isDirectory()) return undefined;
  // Someone else's repository is git's to judge (safe.directory).
  if (rootOwner !== uid || statOf(gitDir)?.uid !== uid) return undefined;
  const objectFormat = plainConfig(textOf(join(commonDir, 'config')) ?? '');
  return objectFormat ? { root, gitDir, commonDir, objectsDir: join(commonDir, 'objects'), objectFormat } : undefined;
}

/**
 * The object format a repository's config sets, when the config sets nothing else that changes
 * where things are or how they are read (a work tree elsewhere, a bare repository, includes, other
 * extensions such as reftable or per-worktree config); undefined otherwise.
 */
function plainConfig(text: string): 'sha1' | 'sha256' | undefined {
  let section = '';
  let format: 'sha1' | 'sha256' = 'sha1';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.endsWith('\\')) return undefined;
    const header = /^\[\s*([A-Za-z0-9.-]+)(\s+"[^"]*")?\s*\]$/.exec(line);
    if (header) {
      section = header[1]!.toLowerCase();
      if (section === 'include' || section === 'includeif') return undefined;
      continue;
    }
    if (line.startsWith('[')) return undefined;
    const m = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!m) return undefined;
    const key = m[1]!.toLowerCase();
    const value = (m[2] ?? 'true')
      .replace(/\s+[#;].*$/, '')
      .trim()
      .toLowerCase();
    if (section === 'core') {
      if (key === 'worktree') return undefined;
      if (key === 'bare' && !['false', 'no', 'off', '0'].includes(value)) return undefined;
      if (key === 'repositoryformatversion' && value !== '0' && value !== '1') return undefined;
    } else if (section === 'extensions') {
      if (key !== 'objectformat' || (value !== 'sha1' && value !== 'sha256')) return undefined;
      format = value;
    }
  }
  return format;
}

/**
 * Why cwd has no work tree, as the error a command that needs one raises: a bare repository and
 * git's own directory are NO_WORK_TREE, with a fix that leads to a work tree; else NOT_A_GIT_REPO.
 */
export async function noWorkTreeError({ cwd }: { cwd: string }): Promise<ForgeError> {
  const where = await locateGitDirs({ cwd });
  if (!where || where.root) return new NotAGitRepoError(cwd);
  const { gitDir } = where;
  const data = { dir: cwd, gitDir };
  if (where.bare) {
    const clone = await unusedPath(
      gitDir.endsWith('.git') ? gitDir.slice(0, -4).replace(/[/.]+$/, '') || `${gitDir}-work` : `${gitDir}-work`,
    );
    return new InvalidInputError('NO_WORK_TREE', `'${gitDir}' is a bare repository: it has no work tree`, {
      fix: shellJoin(['git', 'clone', gitDir, clone]),
      data,
    });
  }
  // Inside a git dir. The work tree of a repository's own .git is its parent; a linked worktree's git dir says less.
  const top = await workTreeRoot({ cwd: dirname(gitDir) });
  const fix = top && top.gitDir === gitDir ? shellJoin(['cd', top.root]) : shellJoin(['git', '-C', gitDir, 'worktree', 'list']);
  return new InvalidInputError('NO_WORK_TREE', `'${cwd}' is inside the git dir '${gitDir}', not in a work tree`, { fix, data });
}

/** `path`, or `path-2`, `path-3`… : the first that does not exist yet. */
async function unusedPath(path: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? path : `${path}-${n}`;
    if (
      !(await access(candidate).then(
        () => true,
        () => false,
      ))
    )
      return candidate;
  }
}

/**
 * Paths under cwd that git would consider, relative to cwd, names only: tracked plus untracked
 * that .gitignore does not exclude. Null outside a work tree.
 */
export async function listWorkTreeFiles({ cwd }: { cwd: string }): Promise<string[] | null> {
  // Held whole (the caller sorts them anyway): no pipes' streams to load.
  const r = await runGitWhole({ cwd, args: ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'] });
  if (r.code !== 0) return null;
  const paths = r.stdout.toString('utf8').split('\0');
  paths.pop(); // after the last NUL
  return paths;
}

/**
 * The index's paths under cwd, relative to cwd, as staged — no walk, no lstat — each ended by NUL,
 * in one string, in git's order: for a command that describes the repository rather than the
 * work tree, and scans 100k names without a string each. Null outside a work tree.
 */
export async function listIndexPaths({ cwd }: { cwd: string }): Promise<string | null> {
  const r = await runGit({ cwd, args: ['ls-files', '-z', '--cached', '--deduplicate'] });
  return r.code === 0 ? r.stdout.toString('utf8') : null;
}

/**
 * What git says of a work tree path: a regular file or a symlink as staged and unchanged, or
 * something only the file system can tell — a tracked path git saw changed (modified, deleted,
 * retyped, unmerged), one git takes from the index without looking at the work tree
 * (assume-unchanged, skip-worktree: `assumed`), or an untracked one.
 */
export type WorkTreeKind = 'file' | 'link' | 'changed' | 'assumed' | 'untracked';

/**
 * The files under cwd git would consider, relative to cwd, each handed to `onFile` with what git
 * knows of it, as git lists them: one `git ls-files -t -s -m`, which reads the index and walks
 * the work tree for untracked files. A tracked path git saw unchanged is a `file` or `link` by its
 * staged mode (submodules are left out); a deleted or retyped file shows as modified. False
 * outside a work tree.
 */
export async function listWorkTree({ cwd, onFile }: { cwd: string; onFile: (path: string, kind: WorkTreeKind) => void }): Promise<boolean> {
  // A tracked path's lines are adjacent (H, then C when modified; one per stage when unmerged):
  // each is handed on once the next path starts.
  let pending: { path: string; kind: WorkTreeKind } | null = null;
  const r = await streamGit({
    cwd,
    // -v: -t's tags, lowercase for an assume-unchanged path (which -m never looks at).
    args: ['ls-files', '-z', '-v', '-s', '--cached', '--modified', '--others', '--exclude-standard'],
    separator: '\0',
    onRecord: (record) => {
      if (record[0] === '?') {
        // A nested repository is listed as its directory, with a trailing slash: not a file.
        if (!record.endsWith('/')) onFile(record.slice(2), 'untracked');
        return;
      }
      // "<tag> <mode> <object> <stage>\t<path>"
      const path = record.slice(record.indexOf('\t') + 1);
      const mode = record.slice(2, 8);
      const tag = record[0]!;
      const kind: WorkTreeKind =
        tag === 'H' ? (mode === '120000' ? 'link' : 'file') : tag === 'S' || tag !== tag.toUpperCase() ? 'assumed' : 'changed';
      if (pending?.path === path) {
        if (kind === 'changed' && pending.kind !== 'assumed') pending.kind = kind;
        return;
      }
      if (pending) onFile(pending.path, pending.kind);
      pending = mode === '160000' ? null : { path, kind };
    },
  });
  if (r.code !== 0) return false;
  if (pending) onFile((pending as { path: string }).path, (pending as { kind: WorkTreeKind }).kind);
  return true;
}

/** `git blame --porcelain` of lines start..end: author and author time of each line. */
export async function blameLines({
  cwd,
  path,
  start,
  end,
}: {
  cwd: string;
  path: string;
  start: number;
  end: number;
}): Promise<Map<number, { author: string; time: number; uncommitted: boolean }>> {
  const r = await runGit({ cwd, args: ['blame', '--porcelain', '-L', `${start},${end}`, '--', path] });
  const out = new Map<number, { author: string; time: number; uncommitted: boolean }>();
  if (r.code !== 0) return out;
  const commits = new Map<string, { author: string; time: number }>();
  let current: { sha: string; line: number } | null = null;
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const head = /^([0-9a-f]{40,64}) \d+ (\d+)/.exec(line);
    if (head) {
      current = { sha: head[1]!, line: Number(head[2]) };
      if (!commits.has(current.sha)) commits.set(current.sha, { author: '', time: 0 });
      continue;
    }
    if (!current) continue;
    const info = commits.get(current.sha)!;
    if (line.startsWith('author ')) info.author = line.slice(7);
    else if (line.startsWith('author-time ')) info.time = Number(line.slice(12));
    else if (line.startsWith('\t')) out.set(current.line, { ...info, uncommitted: /^0+$/.test(current.sha) });
  }
  return out;
}
