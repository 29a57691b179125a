// Where file tools may act: the work tree holding cwd (or cwd itself outside git), never outside it, never in git's own files.
import { lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import { readlink, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';
import { InvalidInputError, RefusedError } from '../errors';
import { locateGitDirs, type WorkTreeKind } from '../git/repo';
import { shellJoin } from '../quote';
import { recoverJournals, recoveryWarning } from './journal';

export interface Workspace {
  /** The directory paths are relative to. */
  cwd: string;
  /** The boundary: the repository's work tree, or cwd outside a repository. */
  root: string;
  inRepo: boolean;
  /** Where file writes are journaled: this worktree's git dir, else cwd (removed again once empty). */
  journalRoot: string;
  /** The boundary, resolved through symlinks. */
  realRoot: string;
  /**
   * Directories no file tool reads or writes: git's own (this worktree's git dir, the common dir)
   * and forge's recovery journal (outside a repository it lies in the user's directory), resolved.
   */
  controlDirs: string[];
}

/** What the confinement errors mean, for the errors table of every file tool. */
export const CONFINEMENT_ERRORS = {
  INVALID_PATH: 'an empty path, or one with a NUL byte',
  PATH_OUTSIDE_REPO: 'the path leaves the repository (by .., an absolute path, or a symlink pointing out)',
  PATH_IN_GIT_DIR:
    "the path is inside git's own files (.git in any case, a worktree's or submodule's git dir, $GIT_DIR): never a file tool's to touch",
} as const;

/** What every file tool's page says of the rule. */
export const CONFINEMENT_RULE =
  "Paths are confined to the repository's work tree (outside a repository, the working directory): a path that leaves it — by '..', an absolute path elsewhere, or a symlink pointing out, dangling or not — is refused with PATH_OUTSIDE_REPO (exit 2), and one inside git's own files — .git in any case, a linked worktree's .git file and the git dir it points to, the common dir, $GIT_DIR, a submodule's or nested repository's .git; outside a repository, forge's own .forge-journal — with PATH_IN_GIT_DIR (exit 1), however it is reached. Nothing is read or written then.";

/**
 * Opens the workspace of cwd and first recovers what a killed forge command left (a half-applied
 * patch rolled back, its temp files removed), so a crash never outlives the next forge file
 * command. Recovery never fails the command: `warn` gets one line for each thing it did or could not do.
 */
export async function openWorkspace({ cwd, warn }: { cwd: string; warn: (text: string) => Promise<void> }): Promise<Workspace> {
  const ws = await locateWorkspace({ cwd });
  // A journal naming a file the rule refuses was not written by forge: recovery must not become a way in.
  const mayTouch = async (abs: string) => refusal(ws, abs, await realTarget(abs)) === null;
  for (const r of await recoverJournals({ root: ws.journalRoot, mayTouch })) await warn(recoveryWarning(r));
  return ws;
}

/** The workspace of cwd, without recovering anything: for a command that only needs the rule. */
export async function locateWorkspace({ cwd }: { cwd: string }): Promise<Workspace> {
  const git = await locateGitDirs({ cwd });
  // Inside a git dir (a bare repository, or cd .git) there is no work tree: cwd is the boundary
  // and, being git's own, every path under it is refused.
  const root = git?.root ?? cwd;
  const journalRoot = git ? join(git.gitDir, 'forge', 'journal') : join(cwd, '.forge-journal');
  const [realRoot, ...controlDirs] = await Promise.all(
    [root, ...(git ? [git.gitDir, git.commonDir] : [journalRoot])].map((p) => realpath(p).catch(() => p)),
  );
  return { cwd, root, inRepo: git?.root != null, journalRoot, realRoot: realRoot!, controlDirs: [...new Set(controlDirs)] };
}

export interface ResolvedPath {
  /** Absolute path. */
  abs: string;
  /** Relative to cwd, as hints should print it. */
  display: string;
}

function inside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Code points HFS+ ignores in names, so `.g\u200cit` is `.git` there (git's is_hfs_dotgit). */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;
const HFS_IGNORED_ANY = new RegExp(HFS_IGNORED.source);

/**
 * Whether a path component names a git dir on some file system: `.git` in any case, with the
 * trailing dots and spaces or the `:stream` NTFS drops, or NTFS's short name `git~1` — the
 * names git itself refuses in a tree (its verify_path).
 */
export function isGitName(name: string): boolean {
  if (!/g/i.test(name)) return false;
  const n = name
    .replace(HFS_IGNORED, '')
    .toLowerCase()
    .replace(/:.*$/s, '')
    .replace(/[. ]+$/, '');
  return n === '.git' || n === 'git~1';
}

/** Every name isGitName accepts holds `git` once HFS's ignored code points are gone: most paths are cleared by that alone. */
const MAYBE_GIT = /git/i;

function hasGitComponent(rel: string): boolean {
  if (!MAYBE_GIT.test(rel) && !HFS_IGNORED_ANY.test(rel)) return false;
  return rel.split(/[\\/]/).some(isGitName);
}

/** Whether `abs` lies in git's own files: in a control dir, or under a git name on its way from `root`. */
function inGitFiles(ws: Workspace, abs: string, root: string): boolean {
  return ws.controlDirs.some((g) => inside(g, abs)) || hasGitComponent(relative(root, abs));
}

/**
 * The one confinement rule: why `abs` (lexically) and `real` (through symlinks) may not be
 * touched, or null. Git's files are named first: a worktree's git dir is also outside it.
 */
function refusal(ws: Workspace, abs: string, real: string): 'git' | 'outside' | null {
  if (inGitFiles(ws, abs, ws.root) || inGitFiles(ws, real, ws.realRoot)) return 'git';
  if (!inside(ws.root, abs) || !inside(ws.realRoot, real)) return 'outside';
  return null;
}

/**
 * `abs` resolved through every symlink, as far as it exists; a missing tail (a file not yet
 * written) is appended, and a dangling symlink is followed to where a write would land.
 */
async function realTarget(abs: string, hops = 0): Promise<string> {
  const rest: string[] = [];
  let dir = abs;
  for (;;) {
    try {
      return resolve(await realpath(dir), ...rest.reverse());
    } catch {
      const link = hops < 40 ? await readlink(dir).catch(() => null) : null;
      if (link !== null) return realTarget(resolve(dirname(dir), link, ...rest.reverse()), hops + 1);
      const parent = dirname(dir);
      if (parent === dir) return abs;
      rest.push(dir.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      dir = parent;
    }
  }
}

/**
 * Where the file system takes `path` from the directory `base`, as the kernel reads it: a symlink
 * is replaced by its target (a dangling one too), and a `..` after it climbs from where it led —
 * `link/../x` is beside the link's target, not beside the link. Past a missing name the rest is
 * taken as written (it cannot hold a link yet) until a `..` climbs back to what exists.
 */
async function kernelTarget(base: string, path: string): Promise<string> {
  const raw = isAbsolute(path) ? path : `${resolve(base)}${sep}${path}`;
  // realpath(3) reads a path as the kernel does, `..` after a link included; only a missing or dangling one needs the walk.
  const real = await realpath(raw).catch(() => null);
  if (real !== null) return real;
  const hops = { left: 40 };
  const walk = async (from: string, rest: string): Promise<string> => {
    let at = isAbsolute(rest) ? parse(rest).root : from;
    let missing = false;
    for (const name of rest.split(sep)) {
      if (name === '' || name === '.') continue;
      if (name === '..') {
        at = dirname(at);
        missing = false;
        continue;
      }
      const next = join(at, name);
      if (!missing && hops.left > 0) {
        const link = await readlink(next).catch((err: NodeJS.ErrnoException) => {
          // EINVAL: it exists and is no link; anything else (ENOENT, ENOTDIR…): nothing there yet.
          missing = err.code !== 'EINVAL';
          return null;
        });
        if (link !== null) {
          hops.left--;
          at = await walk(at, link);
          continue;
        }
      }
      at = next;
    }
    return at;
  };
  return walk(parse(raw).root, raw);
}

/** A path given to some other tool (an agent's, judged by the plan gate): its name, and where it leads. */
export interface PathLead {
  /** The name as given, from the root ('/'-separated; '../…' outside it, '' the root itself), `..` taken by name. */
  given: string;
  /**
   * Where it leads, from the real root: through every symlink, dangling ones too, `..` after a link
   * read as the kernel reads it and, when that differs, as a tool that normalises the name first reaches it.
   */
  leads: string[];
  /** Where the kernel takes it, absolute. */
  real: string;
  /** The first of given and leads that lies in git's own files, else null: the rule refuses it, whatever else allows it. */
  git: string | null;
}

/**
 * The rule resolveInside applies, for a path another tool will open: its name and where it leads
 * are both given, to be judged each (a write by rename replaces the link itself, one through it
 * changes the target). A name spelled from the real root (a cwd resolved through links) is named from it.
 */
export async function pathLead({ ws, base, path }: { ws: Workspace; base: string; path: string }): Promise<PathLead> {
  const abs = resolve(base, path);
  const nameRoot = inside(ws.root, abs) || !inside(ws.realRoot, abs) ? ws.root : ws.realRoot;
  const real = await kernelTarget(base, path);
  // A tool may normalise a path with `..` before it opens it: that reading is judged too.
  const reals = path.split(sep).includes('..') ? [...new Set([real, await kernelTarget(base, abs)])] : [real];
  const rel = (from: string, to: string) => relative(from, to).split(sep).join('/');
  const given = rel(nameRoot, abs);
  const leads = reals.map((r) => rel(ws.realRoot, r));
  const gitAt = reals.findIndex((r) => inGitFiles(ws, r, ws.realRoot));
  const git = inGitFiles(ws, abs, nameRoot) ? given : gitAt < 0 ? null : leads[gitAt]!;
  return { given, leads, real, git };
}

function confinementError(ws: Workspace, path: string, why: 'git' | 'outside') {
  if (why === 'git') {
    const whose = inside(ws.journalRoot, resolve(ws.cwd, path)) ? "forge's recovery journal" : "git's own files";
    return new RefusedError('PATH_IN_GIT_DIR', `'${path}' is inside ${whose}: file tools never read or change them`, {
      fix: 'forge ls',
      data: { path },
    });
  }
  const where = ws.inRepo ? 'the repository' : 'the working directory';
  return new InvalidInputError('PATH_OUTSIDE_REPO', `'${path}' is outside ${where} (${ws.root})`, {
    fix: 'forge ls',
    data: { path, root: ws.root },
  });
}

/**
 * Resolves a user path against the workspace and refuses one that leaves it — by `..`, an
 * absolute path elsewhere, or a symlink pointing out — or that reaches git's own files. With
 * `outside: 'allow'` (a settings file of the user's, say) only git's files are refused.
 */
export async function resolveInside({
  ws,
  path,
  outside = 'refuse',
}: {
  ws: Workspace;
  path: string;
  outside?: 'refuse' | 'allow';
}): Promise<ResolvedPath> {
  if (path === '' || path.includes('\0')) {
    throw new InvalidInputError('INVALID_PATH', `invalid path '${path.replace(/\0/g, '\\0')}'`, { fix: 'forge ls' });
  }
  const abs = resolve(ws.cwd, path);
  const why = refusal(ws, abs, await realTarget(abs));
  if (why === 'git' || (why === 'outside' && outside === 'refuse')) throw confinementError(ws, path, why);
  return { abs, display: relative(ws.cwd, abs) || '.' };
}

/** Refuses a walk (ls, search) that starts inside git's files: a bare repository, or cd .git. */
export function assertWalkable({ ws }: { ws: Workspace }): void {
  if (refusal(ws, ws.cwd, ws.realRoot) !== 'git') return;
  // In a .git beside a work tree the fix is to walk the work tree; a bare repository has none.
  const workTree = ws.controlDirs.map((g) => dirname(g)).find((d, i) => isGitName(ws.controlDirs[i]!.slice(d.length + 1)));
  throw new RefusedError(
    'PATH_IN_GIT_DIR',
    `'${ws.cwd}' is inside git's own files (a bare repository or a git dir): there is no work tree to walk`,
    {
      fix: workTree ? shellJoin(['forge', 'ls', '--cwd', workTree]) : 'git worktree list',
      data: { path: ws.cwd },
    },
  );
}

/** What a walk may list and read, of the paths it found: regular files, and symlinks to files the rule allows. */
export interface WalkableFiles {
  files: string[];
  /** The listed symlinks: their content is their target's. */
  links: Set<string>;
  /**
   * The listed files git grep does not read from the work tree: untracked ones, and tracked ones
   * it takes from the index instead (assume-unchanged, skip-worktree), whose work tree copy may differ.
   */
  unseenByGrep: Set<string>;
}

/**
 * The rule resolveInside applies, as a walk (ls, search) applies it to the paths it found
 * (relative to cwd, '/'-separated): `blocked` — a path under a git name or a control dir under cwd
 * (path prefixes); `realDir` — no directory on the way is a symlink (asked of lstat once per
 * directory), so a tracked path whose directory has become a link is not read through it;
 * `linkTarget` — where a symlink resolves, when that is a file the rule allows (else null).
 */
export function walkRules({ ws }: { ws: Workspace }): {
  blocked(path: string): boolean;
  realDir(path: string): boolean;
  linkTarget(abs: string): string | null;
} {
  // Control dirs are resolved through symlinks: compare them with cwd resolved the same way.
  const realCwd = realCwdOf(ws);
  const underCwd = ws.controlDirs.map((g) => relative(realCwd, g)).filter((rel) => rel && inside(realCwd, join(realCwd, rel)));
  const realDirs = new Map<string, boolean>([['', true]]);
  const isRealDir = (dir: string): boolean => {
    let known = realDirs.get(dir);
    if (known === undefined) {
      const cut = dir.lastIndexOf('/');
      known = isRealDir(cut < 0 ? '' : dir.slice(0, cut)) && lstatOrNull(join(ws.cwd, dir))?.isDirectory() === true;
      realDirs.set(dir, known);
    }
    return known;
  };
  return {
    blocked: (path) => hasGitComponent(path) || underCwd.some((rel) => path === rel || path.startsWith(`${rel}${sep}`)),
    realDir: (path) => {
      const cut = path.lastIndexOf('/');
      return isRealDir(cut < 0 ? '' : path.slice(0, cut));
    },
    linkTarget: (abs) => {
      const real = realpathOrNull(abs);
      return real !== null && !refusal(ws, abs, real) && statOrNull(real)?.isFile() === true ? real : null;
    },
  };
}

/**
 * For a walk (ls): which of the paths it found are files it may list and read (walkRules). A
 * path's kind comes with it (git's index knows an unchanged tracked file's; a directory walk knows
 * each entry's); only a changed or untracked one is asked of lstat, and only a symlink is resolved.
 * A tracked file is listed only when no directory on its way is a symlink.
 */
export function walkableFiles({ ws }: { ws: Workspace }): {
  accept(path: string, kind: WorkTreeKind, realDirs?: boolean): void;
  result: WalkableFiles;
} {
  const rules = walkRules({ ws });
  const result: WalkableFiles = { files: [], links: new Set(), unseenByGrep: new Set() };
  // `realDirs`: the lister read every directory on the path as a directory, not through a link.
  const accept = (path: string, kind: WorkTreeKind, realDirs = false) => {
    // git's walk never goes through a link, but a tracked path's may have become one, and git
    // calls a file unchanged that is reached through a symlink to the directory it was moved to.
    if (rules.blocked(path) || (kind !== 'untracked' && !realDirs && !rules.realDir(path))) return;
    let type: 'file' | 'link' | null = kind === 'file' || kind === 'link' ? kind : null;
    if (type === null) {
      const info = lstatOrNull(join(ws.cwd, path));
      type = info?.isFile() ? 'file' : info?.isSymbolicLink() ? 'link' : null;
    }
    if (type === 'file' || (type === 'link' && rules.linkTarget(join(ws.cwd, path)) !== null)) {
      result.files.push(path);
      if (type === 'link') result.links.add(path);
      if (kind === 'untracked' || kind === 'assumed') result.unseenByGrep.add(path);
    }
  };
  return { accept, result };
}

/** A file system answer, or null when there is none (missing, not a directory, no permission). */
function orNull<T>(ask: () => T): T | null {
  try {
    return ask() ?? null;
  } catch {
    return null;
  }
}
const lstatOrNull = (abs: string) => orNull(() => lstatSync(abs));
const statOrNull = (abs: string) => orNull(() => statSync(abs));
const realpathOrNull = (abs: string) => orNull(() => realpathSync(abs));

/** cwd resolved through symlinks, as the boundary is: where real paths are compared from. */
function realCwdOf(ws: Workspace): string {
  return join(ws.realRoot, relative(ws.root, ws.cwd));
}

/**
 * Where a walk (search's paths, ls's directory) goes for a path given to it: the path itself, or
 * for a symlink to a directory the directory it points to (a walk lists files, never through a
 * link). A walk lists only what is under cwd, so a path above cwd is refused rather than
 * answered with "no files" or "no matches".
 */
export async function resolveWalkPath({ ws, path }: { ws: Workspace; path: string }): Promise<{ path: string; isDirectory: boolean }> {
  const resolved = await resolveInside({ ws, path });
  const isDir = (await statTarget(resolved))?.isDirectory() === true;
  // A directory is walked where it really is, named as the listing names it (from the lexical root).
  const target = isDir ? join(ws.root, relative(ws.realRoot, await realTarget(resolved.abs))) : resolved.abs;
  const rel = relative(ws.cwd, target) || '.';
  if (rel === '..' || rel.startsWith(`..${sep}`)) {
    throw new InvalidInputError('PATH_ABOVE_CWD', `'${path}' is above the working directory, and a walk lists only what is under it`, {
      fix: shellJoin(['forge', 'ls', '--cwd', isDir ? target : dirname(target)]),
      data: { path },
    });
  }
  return { path: rel, isDirectory: isDir };
}

/**
 * What is at a resolved path: a regular file or a directory, null when nothing is. A FIFO would
 * hang a read and a device never ends, so anything else is refused before it is opened.
 */
export async function statTarget({ abs, display }: ResolvedPath): Promise<Stats | null> {
  const info = await stat(abs).catch(() => null);
  if (info && !info.isFile() && !info.isDirectory()) {
    throw new RefusedError('NOT_A_REGULAR_FILE', `'${display}' is not a regular file (a FIFO, socket or device)`, {
      fix: 'forge ls',
      data: { path: display },
    });
  }
  return info;
}

export async function isDirectory(abs: string): Promise<boolean> {
  return stat(abs).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/**
 * The agent config file an installer merges into: `given` (relative to cwd; it may be the user's own,
 * outside the repository), else `inRepo` under the repository's top. Never one of git's files; and
 * a directory or a FIFO there — which a read would fail on or wait on forever — is refused untouched.
 */
export async function agentConfigFile({
  cwd,
  given,
  inRepo,
}: {
  cwd: string;
  given: string | undefined;
  inRepo: string[];
}): Promise<string> {
  const ws = await locateWorkspace({ cwd });
  const file = given === undefined ? join(ws.root, ...inRepo) : resolve(cwd, given);
  const target = await resolveInside({ ws, path: file, outside: 'allow' });
  const info = await stat(target.abs).catch(() => null);
  if (info && !info.isFile())
    throw new RefusedError(
      'SETTINGS_INVALID',
      `${file} is not a regular file (${info.isDirectory() ? 'a directory' : 'a FIFO, socket or device'}); it was left as it is`,
      { fix: shellJoin(['ls', '-ld', file]) },
    );
  return file;
}
