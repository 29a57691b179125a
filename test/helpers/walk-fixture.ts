// A repository with every kind of path a walk meets (tracked, untracked, ignored, binary, encoded, linked, deleted, retyped, moved and linked back), for comparing listing and search engines.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { forge, type Run } from './forge';
import { git, tempDir, tempRepo } from './repo';

export function write(dir: string, path: string, content: string | Buffer) {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), content);
}

export const outside = tempDir('forge-outside-');
write(outside, 'secret.txt', 'needle outside the repository\n');

/** What a listing of walkFixture holds, in order: the files a file tool may read (no deleted, retyped, ignored, linked-out or git path). */
export const WALK_FIXTURE_FILES = [
  '.gitignore',
  'README.md',
  'bin.dat',
  'cr.txt',
  'dir-now.txt/inside.txt',
  'latin1.txt',
  'link-in.ts',
  'long.txt',
  'src/a.ts',
  'src/deep/b.ts',
  'untracked.txt',
  'utf16.txt',
  'ünïcode dir/名前 with space.txt',
  'ſtate.md',
];

/** Tracked, untracked, ignored, binary, encoded, linked and replaced files, each holding "needle" somewhere. */
export function walkFixture(): string {
  const dir = tempRepo();
  write(dir, '.gitignore', 'ignored/\n*.log\n');
  write(dir, 'src/a.ts', 'const needle = 1;\n// Needle in caps\nnothing here\n');
  write(dir, 'src/deep/b.ts', 'needle();\r\nneedle();\r\n');
  write(dir, 'cr.txt', 'one\rneedle two\rneedle three\n');
  write(dir, 'latin1.txt', Buffer.from('caf\xe9 needle\n', 'latin1'));
  write(dir, 'utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a needle in UTF-16\n', 'utf16le')]));
  write(dir, 'bin.dat', Buffer.from('\0\0needle\0'));
  write(dir, 'ſtate.md', 'the ſtate of the needle\n'); // ſ folds to s under -i
  write(dir, 'ünïcode dir/名前 with space.txt', 'needle ünïcode\n');
  write(dir, 'deleted.txt', 'needle, deleted later\n');
  write(dir, 'replaced.txt', 'needle, replaced by a link later\n');
  write(dir, 'long.txt', `${'x'.repeat(500)}needle${'y'.repeat(500)}\n`);
  write(dir, 'moved/inner.txt', 'needle, in a directory moved out and linked back\n');
  write(dir, 'fifo-now.txt', 'needle, replaced by a FIFO later\n');
  write(dir, 'dir-now.txt', 'needle, replaced by a directory later\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'fixture');
  // git still calls moved/inner.txt unchanged (the same inode), but it is now reached through a link out.
  execFileSync('mv', [join(dir, 'moved'), join(outside, 'moved')]);
  symlinkSync(join(outside, 'moved'), join(dir, 'moved'));
  rmSync(join(dir, 'fifo-now.txt'));
  execFileSync('mkfifo', [join(dir, 'fifo-now.txt')]);
  rmSync(join(dir, 'dir-now.txt'));
  write(dir, 'dir-now.txt/inside.txt', 'an untracked needle where a tracked file was\n');
  rmSync(join(dir, 'deleted.txt'));
  rmSync(join(dir, 'replaced.txt'));
  symlinkSync(join(outside, 'secret.txt'), join(dir, 'replaced.txt'));
  write(dir, 'untracked.txt', 'an untracked needle\n');
  write(dir, 'ignored/x.txt', 'an ignored needle\n');
  write(dir, 'debug.log', 'a needle in a log\n');
  symlinkSync('src/a.ts', join(dir, 'link-in.ts'));
  symlinkSync(join(outside, 'secret.txt'), join(dir, 'link-out.txt'));
  symlinkSync('.git/config', join(dir, 'link-git'));
  symlinkSync(outside, join(dir, 'dir-link'));
  execFileSync('mkfifo', [join(dir, 'fifo.txt')]);
  return dir;
}

/** Leaves `file` (committed in dir, on main) conflicted: three stages in the index, from a merge of a branch that changed it too. */
export function conflict(dir: string, file: string): void {
  git(dir, 'checkout', '-q', '-b', 'other');
  write(dir, file, 'theirs\n');
  git(dir, 'commit', '-q', '-am', 'theirs');
  git(dir, 'checkout', '-q', 'main');
  write(dir, file, 'ours\n');
  git(dir, 'commit', '-q', '-am', 'ours');
  try {
    git(dir, 'merge', '-q', 'other');
  } catch {
    // the conflict is the point
  }
}

/**
 * A `git` first on PATH that logs each call and runs the real one: `forge(args, …)` runs forge with
 * it and answers with forge's result and the git calls that one run made (a line each).
 */
export function gitCallLog(): {
  forge(args: string[], opts: { cwd: string; env: Record<string, string> }): Promise<Run & { calls: string }>;
} {
  const shim = tempDir('forge-git-shim-');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const log = join(shim, 'calls.log');
  writeFileSync(join(shim, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`);
  chmodSync(join(shim, 'git'), 0o755);
  return {
    forge: async (args, { cwd, env }) => {
      writeFileSync(log, '');
      const r = await forge(args, { cwd, env: { ...env, PATH: `${shim}:${process.env.PATH}` } });
      return { ...r, calls: readFileSync(log, 'utf8') };
    },
  };
}
