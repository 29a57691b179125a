// What the plan gate knows of the programs a shell command runs: data, read by lib/plans/shell.ts.
import type { Surface } from './surface';

/** How a program's words are read: which options take a value, and what its positional words are. */
export interface ProgramSpec {
  /** Options that take the next word as their value (`-n 5`); `--opt=value` is read either way. */
  valued?: readonly string[];
  /** Positional words before the paths that are not paths (a grep pattern, a chmod mode, a jq filter). */
  skip?: number;
  /** An option that, when present, takes the place of the skipped positional word (grep -e PATTERN). */
  skipGivenBy?: readonly string[];
}

/** A read-only program: the plan word it amounts to (Codex has no read tool: its `cat` is how it reads). */
export interface ReadProgram extends ProgramSpec {
  word: 'read' | 'search' | 'ls';
  /** With no path it reads the directory it runs in, whole (grep -r, rg, ls, find). */
  readsCwd?: boolean;
}

const LINES = ['-n', '-c', '--lines', '--bytes'];
const GREP = {
  valued: ['-e', '-f', '-m', '-A', '-B', '-C', '--regexp', '--file', '--max-count', '--include', '--exclude', '--exclude-dir', '--color'],
  skip: 1,
  skipGivenBy: ['-e', '-f', '--regexp', '--file'],
} as const;
const RG = {
  valued: [
    ...GREP.valued,
    '-g',
    '--glob',
    '-t',
    '--type',
    '-T',
    '--type-not',
    '-M',
    '--max-columns',
    '-j',
    '--threads',
    '--max-depth',
    '-d',
  ],
  skip: 1,
  skipGivenBy: GREP.skipGivenBy,
  readsCwd: true,
} as const;

/** Programs that only read the files they name (and print). */
export const READ_PROGRAMS: Readonly<Record<string, ReadProgram>> = {
  cat: { word: 'read' },
  tac: { word: 'read' },
  nl: { word: 'read', valued: ['-b', '-w', '-s', '-v', '-i'] },
  head: { word: 'read', valued: LINES },
  tail: { word: 'read', valued: [...LINES, '-s', '--sleep-interval', '--pid'] },
  less: { word: 'read' },
  more: { word: 'read' },
  wc: { word: 'read' },
  file: { word: 'read' },
  stat: { word: 'read', valued: ['-c', '--format', '--printf'] },
  od: { word: 'read', valued: ['-A', '-t', '-N', '-j', '-w'] },
  xxd: { word: 'read', valued: ['-l', '-s', '-c', '-g'] },
  hexdump: { word: 'read', valued: ['-n', '-s', '-e'] },
  strings: { word: 'read', valued: ['-n'] },
  md5sum: { word: 'read' },
  sha1sum: { word: 'read' },
  sha256sum: { word: 'read' },
  sha512sum: { word: 'read' },
  cksum: { word: 'read' },
  base64: { word: 'read', valued: ['-w'] },
  sort: { word: 'read', valued: ['-k', '-t', '-S', '-T', '--key', '--field-separator'] },
  uniq: { word: 'read', valued: ['-f', '-s', '-w'] },
  cut: { word: 'read', valued: ['-d', '-f', '-c', '-b', '--delimiter', '--fields'] },
  diff: { word: 'read', valued: ['-U', '-C', '--label', '-x', '--exclude'] },
  cmp: { word: 'read' },
  comm: { word: 'read' },
  paste: { word: 'read', valued: ['-d'] },
  column: { word: 'read', valued: ['-s', '-t', '-c'] },
  fold: { word: 'read', valued: ['-w'] },
  fmt: { word: 'read', valued: ['-w'] },
  jq: { word: 'read', valued: ['--arg', '--argjson', '--slurpfile', '--rawfile', '--indent'], skip: 1 },
  yq: { word: 'read', valued: ['-o', '--output-format', '-p', '--input-format'], skip: 1 },
  grep: { word: 'search', ...GREP },
  egrep: { word: 'search', ...GREP },
  fgrep: { word: 'search', ...GREP },
  rg: { word: 'search', ...RG },
  ag: { word: 'search', ...RG },
  ack: { word: 'search', ...RG },
  ls: { word: 'ls', readsCwd: true, valued: ['-I', '--ignore', '-w', '--width', '--color', '--sort', '--format', '-T'] },
  tree: { word: 'ls', readsCwd: true, valued: ['-L', '-P', '-I', '--filelimit'] },
  du: { word: 'ls', readsCwd: true, valued: ['-d', '--max-depth', '--exclude', '-B', '-t'] },
  fd: { word: 'ls', readsCwd: true, valued: ['-e', '--extension', '-t', '--type', '-d', '--max-depth', '-E', '--exclude'], skip: 1 },
};

/** Programs that touch no file and reach nothing: they never stand in a read-only command's way. */
export const PURE_PROGRAMS: ReadonlySet<string> = new Set([
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'pwd',
  'test',
  '[',
  'basename',
  'dirname',
  'date',
  'sleep',
  'which',
  'type',
  'whoami',
  'seq',
  'expr',
  'exit',
  'return',
  'wait',
  'read',
  'set',
  'export',
  'unset',
  'local',
  'declare',
  'shift',
  'uname',
  'hostname',
  'id',
  'nproc',
]);

/** How a program that writes names what it writes. */
export interface WriteProgram extends ProgramSpec {
  /** Every path word is written (rm, touch); 'last': the last one (cp, ln), the rest read; 'all-moved': every one (mv's sources go too). */
  writes: 'all' | 'last' | 'all-moved';
  /** The option naming the destination directory (cp -t DIR), whose value is then the one written. */
  target?: string;
}

/** Programs that change the files they name. */
export const WRITE_PROGRAMS: Readonly<Record<string, WriteProgram>> = {
  rm: { writes: 'all' },
  rmdir: { writes: 'all' },
  unlink: { writes: 'all' },
  shred: { writes: 'all', valued: ['-n', '-s'] },
  truncate: { writes: 'all', valued: ['-s', '--size', '-r', '--reference'] },
  touch: { writes: 'all', valued: ['-d', '-t', '-r', '--date', '--reference'] },
  mkdir: { writes: 'all', valued: ['-m', '--mode'] },
  chmod: { writes: 'all', skip: 1, valued: ['--reference'] },
  chown: { writes: 'all', skip: 1, valued: ['--reference'] },
  chgrp: { writes: 'all', skip: 1, valued: ['--reference'] },
  tee: { writes: 'all' },
  cp: { writes: 'last', target: '-t', valued: ['-t', '--target-directory', '-S', '--suffix'] },
  ln: { writes: 'last', target: '-t', valued: ['-t', '--target-directory', '-S', '--suffix'] },
  install: { writes: 'last', target: '-t', valued: ['-t', '-m', '-o', '-g', '--mode', '--owner', '--group'] },
  rsync: { writes: 'last', valued: ['-e', '--rsh', '--exclude', '--include', '--filter', '-f'] },
  mv: { writes: 'all-moved', target: '-t', valued: ['-t', '--target-directory', '-S', '--suffix'] },
};

/** Shells: `-c CODE` is read as a command line of its own; code from a pipe cannot be read. */
export const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'busybox']);

/** Interpreters and the options that give them code inline, which the gate cannot judge. */
export const INTERPRETERS: Readonly<Record<string, readonly string[]>> = {
  python: ['-c'],
  python2: ['-c'],
  python3: ['-c'],
  node: ['-e', '-p', '--eval', '--print'],
  nodejs: ['-e', '-p', '--eval', '--print'],
  bun: ['-e', '--eval', '-p', '--print'],
  deno: ['eval'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
  lua: ['-e'],
  Rscript: ['-e'],
  osascript: ['-e'],
  tsx: ['-e', '--eval', '-p', '--print'],
};

/** Programs that run the command they are given, and how their own words are read before it. */
export const WRAPPERS: Readonly<Record<string, { valued: readonly string[]; positional?: number }>> = {
  env: { valued: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'] },
  command: { valued: [] },
  builtin: { valued: [] },
  exec: { valued: ['-a'] },
  sudo: { valued: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-T', '-U', '--user', '--group'] },
  doas: { valued: ['-u', '-C'] },
  nice: { valued: ['-n', '--adjustment'] },
  nohup: { valued: [] },
  timeout: { valued: ['-k', '-s', '--kill-after', '--signal'], positional: 1 },
  time: { valued: ['-f', '-o', '--format', '--output'] },
  stdbuf: { valued: ['-i', '-o', '-e'] },
  ionice: { valued: ['-c', '-n', '-p', '--class', '--classdata'] },
  setsid: { valued: [] },
  chrt: { valued: [], positional: 1 },
  taskset: { valued: [], positional: 1 },
  flock: { valued: ['-w', '-E', '--timeout', '--conflict-exit-code'], positional: 1 },
  unbuffer: { valued: [] },
  caffeinate: { valued: ['-t', '-w'] },
  npx: { valued: ['-p', '--package', '-c', '--call'] },
  bunx: { valued: ['-p', '--package'] },
  pnpx: { valued: [] },
};

/** Package runners whose `exec` (or `dlx`) subcommand runs the command after it. */
export const EXEC_RUNNERS: Readonly<Record<string, readonly string[]>> = {
  npm: ['exec', 'x'],
  pnpm: ['exec', 'dlx'],
  yarn: ['exec', 'dlx'],
};

/** git's options before the subcommand that take a value as the next word. */
export const GIT_VALUED_GLOBALS: ReadonlySet<string> = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--super-prefix',
  '--config-env',
  '--list-cmds',
  '--attr-source',
]);

/** git subcommands that only read: with nothing else in the command line, the call is a read. */
export const GIT_READS: ReadonlySet<string> = new Set([
  'status',
  'log',
  'diff',
  'show',
  'blame',
  'grep',
  'ls-files',
  'ls-tree',
  'rev-parse',
  'rev-list',
  'describe',
  'shortlog',
  'cat-file',
  'for-each-ref',
  'show-ref',
  'name-rev',
  'merge-base',
  'diff-tree',
  'range-diff',
  'annotate',
  'show-branch',
]);

/** The surface each git subcommand reaches; a subcommand not listed is not one forge can judge (an alias, git-<name> on PATH). */
export const GIT_SUBCOMMANDS: Readonly<Record<string, Surface>> = {
  push: 'remote_branch_pr',
  'send-email': 'remote_branch_pr',
  'request-pull': 'artifacts_only',
  ...Object.fromEntries(
    [
      'commit',
      'merge',
      'rebase',
      'reset',
      'cherry-pick',
      'revert',
      'tag',
      'branch',
      'checkout',
      'switch',
      'am',
      'stash',
      'pull',
      'update-ref',
      'symbolic-ref',
      'notes',
      'replace',
      'filter-branch',
      'filter-repo',
      'commit-tree',
      'worktree',
      'bisect',
      'restore',
      'rm',
      'mv',
      'add',
      'apply',
      'clean',
      'gc',
      'prune',
      'repack',
      'reflog',
      'submodule',
      'sparse-checkout',
      'read-tree',
      'update-index',
      'write-tree',
      'hash-object',
      'mktag',
      'mktree',
      'fast-import',
      'remote',
      'init',
      'clone',
      'maintenance',
    ].map((s) => [s, 'local_branch' as const]),
  ),
  ...Object.fromEntries(
    [
      ...GIT_READS,
      'ls-remote',
      'diff-files',
      'diff-index',
      'whatchanged',
      'fetch',
      'help',
      'version',
      'config',
      'var',
      'check-ignore',
      'check-attr',
      'count-objects',
      'fsck',
      'verify-commit',
      'verify-tag',
      'archive',
      'format-patch',
      'bundle',
      'cherry',
    ].map((s) => [s, 'artifacts_only' as const]),
  ),
};

/** gh (and glab) commands that only read; every other one reaches the remote (a pull request, an issue, a release, the API). */
export const GH_READS: ReadonlySet<string> = new Set([
  'view',
  'list',
  'status',
  'diff',
  'checks',
  'browse',
  'search',
  'help',
  '--version',
  '--help',
  'version',
]);

/** forge's commands that end, pause, resume or replace the active plan: the operator's, never an agent's. */
export const FORGE_LIFECYCLE: readonly string[] = ['plan end', 'plan pause', 'plan resume', 'plan activate'];

/** Where a redirection writes nothing that stays. */
export const NOWHERE: ReadonlySet<string> = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/zero']);
