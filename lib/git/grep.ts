// Whole-word references in the work tree through `git grep` (untracked files included, ignored and binary ones left out).
import { gitEnv } from './exec';

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
export async function grepWords({ root, words, exclude = [], limit = 5000 }: { root: string; words: string[]; exclude?: string[]; limit?: number }): Promise<{ hits: WordHit[]; truncated: boolean }> {
  if (!words.length) return { hits: [], truncated: false };
  const { spawn } = await import('node:child_process');
  const args = ['grep', '--untracked', '-I', '-z', '-n', '-o', '-w', '-F', ...words.flatMap((w) => ['-e', w]), '--', '.', ...exclude.map((p) => `:(exclude,literal)${p}`)];
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
