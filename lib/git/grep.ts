// git grep for forge: whole-word references (the agent's change-impact sweep) and the files that hold a search's literal text.
import { gitEnv, streamGit } from './exec';

export interface WordHit {
  path: string;
  line: number;
  word: string;
}

/**
 * Every line of the work tree that holds one of `words` as a whole word, as (path, line, word),
 * paths relative to `root`; `exclude` paths are not searched. One `git grep` for all the words; it
 * is stopped after `limit` hits, so a word like `run` in a big repository stays cheap.
 */
export async function grepWords({
  root,
  words,
  exclude = [],
  limit = 5000,
}: {
  root: string;
  words: string[];
  exclude?: string[];
  limit?: number;
}): Promise<{ hits: WordHit[]; truncated: boolean }> {
  if (!words.length) return { hits: [], truncated: false };
  const { spawn } = await import('node:child_process');
  const args = [
    'grep',
    '--no-color',
    '--no-column',
    '--untracked',
    '-I',
    '-z',
    '-n',
    '-o',
    '-w',
    '-F',
    ...words.flatMap((w) => ['-e', w]),
    '--',
    '.',
    ...exclude.map((p) => `:(exclude,literal)${p}`),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: root, env: gitEnv({ GIT_OPTIONAL_LOCKS: '0' }), stdio: ['ignore', 'pipe', 'ignore'] });
    const hits: WordHit[] = [];
    const seen = new Set<string>();
    let rest = '';
    let truncated = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (truncated) return;
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        const [path, n, word] = line.split('\0');
        if (!path || !n || !word) continue;
        const key = `${path}\0${n}\0${word}`;
        if (seen.has(key)) continue;
        seen.add(key);
        hits.push({ path, line: Number(n), word });
        if (hits.length >= limit) {
          truncated = true;
          child.kill();
          break;
        }
      }
    });
    child.on('error', reject);
    // git grep exits 1 when nothing matched: not a failure here.
    child.on('close', () => resolve({ hits, truncated }));
  });
}

/** Bytes that start a UTF-16 file (its BOM): such a file holds ASCII text as other bytes, so it is always a candidate. */
const UTF16_BOMS = [Buffer.from([0xff, 0xfe]), Buffer.from([0xfe, 0xff])];

/**
 * The tracked files under cwd that hold one of `literals` as
 * bytes (ASCII case folded with `ignoreCase`), or a UTF-16 BOM; paths relative to cwd, limited
 * to `paths` when given. One threaded `git grep -l`, with the settings that change what it
 * searches or how it prints names (grep.fullName, submodule.recurse, color.grep=always) pinned.
 * Null when git fails.
 */
export async function grepFilesWith({
  cwd,
  literals,
  ignoreCase,
  paths,
}: {
  cwd: string;
  literals: string[];
  ignoreCase: boolean;
  paths: string[];
}): Promise<Set<string> | null> {
  const patterns = Buffer.concat([...literals.map((l) => Buffer.from(l, 'latin1')), ...UTF16_BOMS].flatMap((b) => [b, Buffer.from('\n')]));
  const holders = new Set<string>();
  const r = await streamGit({
    cwd,
    args: [
      '-c',
      'grep.fullName=false',
      '-c',
      'submodule.recurse=false',
      'grep',
      '--no-color',
      '-l',
      '-z',
      '-F',
      ...(ignoreCase ? ['-i'] : []),
      '-f',
      '-',
      '--',
      ...paths.map((p) => (p === '.' ? '.' : `:(literal)${p}`)),
    ],
    input: patterns,
    separator: '\0',
    onRecord: (path) => holders.add(path),
  });
  // 1: no file holds any of them.
  return r.code === 0 || r.code === 1 ? holders : null;
}
