// A ref's compare-and-swap by git's own lock-file protocol, without a git process, where the repository is a plain one; anything else is left to `git update-ref`.
import { closeSync, constants, existsSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parsePackedRefs } from './packed-refs';
import { locateDirectly } from './repo';

/**
 * What a direct update did: 'updated' (the ref holds `next`), 'moved' (it did not hold
 * `expected`: nothing written), 'locked' (`<ref>.lock` exists: another writer holds it, or a
 * crashed git left it — never taken over).
 */
export type DirectUpdate = 'updated' | 'moved' | 'locked';

/**
 * Moves `ref` from `expected` (null: must not exist) to `next` as `git update-ref <ref> <next>
 * <expected>` does in the files backend: create `<ref>.lock` exclusively, check the ref's value
 * (loose, else packed-refs) while holding it, write the new value into the lock and rename it over
 * the ref. Undefined — nothing done, git must do it — for anything else: a repository that is not
 * plain (lib/git/repo.ts locateDirectly: reftable or other extensions, GIT_* environment, moved
 * dirs), sha256, a config that sets hooks, reflogs, shared permissions, fsync or includes, a
 * reference-transaction hook, a reflog for the ref, a symbolic (or symlinked) or malformed ref, a
 * file where a directory should be, or any error on the way.
 */
export function updateRefDirectly({
  cwd,
  ref,
  next,
  expected,
}: {
  cwd: string;
  ref: string;
  next: string;
  expected: string | null;
}): DirectUpdate | undefined {
  if (
    !/^refs\/[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)+$/.test(ref) ||
    !/^[0-9a-f]{40}$/.test(next) ||
    (expected !== null && !/^[0-9a-f]{40}$/.test(expected))
  )
    return undefined;
  const repo = locateDirectly(cwd);
  if (repo?.objectFormat !== 'sha1') return undefined;
  const { commonDir } = repo;
  if (
    !configsArePlain(commonDir) ||
    existsSync(join(commonDir, 'hooks', 'reference-transaction')) ||
    existsSync(join(commonDir, 'logs', ref))
  )
    return undefined;
  const path = join(commonDir, ref);
  const lock = `${path}.lock`;
  let fd: number;
  try {
    mkdirSync(dirname(path), { recursive: true });
    fd = openSync(lock, 'wx', 0o666);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EEXIST' ? 'locked' : undefined;
  }
  let renamed = false;
  try {
    const current = currentValue(commonDir, ref);
    if (current === undefined) return undefined;
    if (current !== expected) return 'moved';
    const line = Buffer.from(`${next}\n`);
    if (writeSync(fd, line) !== line.length) return undefined;
    closeSync(fd);
    fd = -1;
    renameSync(lock, path);
    renamed = true;
    return 'updated';
  } catch {
    return undefined;
  } finally {
    if (fd >= 0) closeSync(fd);
    // The lock is this call's (it made it exclusively): it goes unless it became the ref.
    if (!renamed) {
      try {
        unlinkSync(lock);
      } catch {
        // already gone
      }
    }
  }
}

/**
 * The ref's value: its loose file, else its line in packed-refs; null when it does not exist;
 * undefined when it is anything git would read otherwise, or when creating it would clash with a
 * packed ref above or below it (refs/forge, refs/forge/state/x), which git refuses.
 */
function currentValue(commonDir: string, ref: string): string | null | undefined {
  let loose: string | null;
  try {
    // Not through a symbolic link: git reads one as a symbolic ref.
    const fd = openSync(join(commonDir, ref), constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      loose = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // EISDIR: refs under this name (a directory/file conflict) — git's to report; ELOOP: a link.
    if (code !== 'ENOENT') return undefined;
    loose = null;
  }
  if (loose !== null) return /^[0-9a-f]{40}\n?$/.test(loose) ? loose.slice(0, 40) : undefined;
  let packed: string;
  try {
    packed = readFileSync(join(commonDir, 'packed-refs'), 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
  const refs = parsePackedRefs(packed, 40);
  if (!refs) return undefined;
  for (const { name, oid } of refs) {
    if (name === ref) return oid;
    if (name.startsWith(`${ref}/`) || ref.startsWith(`${name}/`)) return undefined;
  }
  return null;
}

/**
 * Whether the configs git reads for this repository (system, global, the repository's) leave a
 * ref update plain: no hooks path (a reference-transaction hook could refuse it), no
 * logAllRefUpdates=always (it would log refs/forge/*), no shared-repository permissions, no fsync
 * settings, no includes (they could set any of those). Sections are matched loosely: a false alarm only means
 * git does the update.
 */
function configsArePlain(commonDir: string): boolean {
  const env = process.env;
  const home = env.HOME;
  const global =
    env.GIT_CONFIG_GLOBAL !== undefined
      ? [env.GIT_CONFIG_GLOBAL]
      : [
          ...(env.XDG_CONFIG_HOME || home ? [join(env.XDG_CONFIG_HOME || join(home!, '.config'), 'git', 'config')] : []),
          ...(home ? [join(home, '.gitconfig')] : []),
        ];
  const files = [...(env.GIT_CONFIG_NOSYSTEM ? [] : [env.GIT_CONFIG_SYSTEM ?? '/etc/gitconfig']), ...global, join(commonDir, 'config')];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      return false;
    }
    // git init sets logAllRefUpdates=true, which logs branches, not refs/forge/*: only 'always' does.
    // A value continued on the next line (a backslash before the line end) could be any of these.
    if (/\[\s*include|hookspath|sharedrepository|fsync|logallrefupdates\s*=\s*"?\s*always|\\\r?\n/i.test(text)) return false;
  }
  return true;
}
