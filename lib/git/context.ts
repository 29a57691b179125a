// What the agent's model is told about the repository's git state: branch, status, last commits, staged diff — each part capped.
import { runGit } from './exec';

/** Caps on each part, so a repository with 50,000 changed files or a 1 GB staged diff costs the same few hundred tokens. */
export const GIT_CONTEXT_CAPS = { files: 30, commits: 5, subject: 100, diffBytes: 3000 } as const;

/** Git's output up to `cap` bytes (git stopped beyond), as text: a character cut in two is dropped, not shown as U+FFFD. */
async function cappedGit({
  cwd,
  args,
  cap,
}: {
  cwd: string;
  args: string[];
  cap: number;
}): Promise<{ text: string; cut: boolean; ok: boolean }> {
  const r = await runGit({ cwd, args, env: { GIT_OPTIONAL_LOCKS: '0' }, maxBytes: cap });
  const cut = r.cut === true;
  return { text: r.stdout.toString('utf8').replace(/\uFFFD$/, ''), cut, ok: cut || r.code === 0 };
}

/** The branch line of `git status --branch --porcelain`, as a person says it; detached HEAD named by its commit. */
async function branchLine(cwd: string, header: string): Promise<string> {
  const h = header.replace(/^## /, '');
  const unborn = /^(?:No commits yet|Initial commit) on (.+)$/.exec(h);
  if (unborn) return `${unborn[1]} (no commits yet)`;
  if (h.startsWith('HEAD (no branch)')) {
    const r = await runGit({ cwd, args: ['rev-parse', '--short', 'HEAD'] });
    return `detached HEAD at ${r.stdout.toString('utf8').trim()}`;
  }
  return h;
}

/**
 * The repository's state as a few capped lines: the branch (or detached HEAD, or no commits yet),
 * `git status --short` (the first 30 files, and how many more), the last 5 commits, and the staged
 * diff's size and first 3,000 bytes (fewer, or none, when `maxChars` has no room for them). Null when `cwd`
 * is not in a work tree.
 */
export async function gitContext({ cwd, maxChars = Number.POSITIVE_INFINITY }: { cwd: string; maxChars?: number }): Promise<string | null> {
  const caps = GIT_CONTEXT_CAPS;
  // A status line is at most a path or two: the cap on bytes keeps 50,000 changed files from being read.
  const status = await cappedGit({ cwd, args: ['status', '--porcelain=v1', '--branch', '--untracked-files=normal'], cap: 64_000 });
  if (!status.ok) return null;
  const lines = status.text.split('\n').filter(Boolean);
  if (status.cut) lines.pop();
  const header = lines[0]?.startsWith('## ') ? lines.shift()! : '## HEAD (no branch)';
  const files = lines.slice(0, caps.files);
  const more = lines.length - files.length;
  const log = await runGit({ cwd, args: ['log', `-${caps.commits}`, '--format=%h %s'] });
  const commits = log.code === 0 ? log.stdout.toString('utf8').split('\n').filter(Boolean) : [];
  const stat = await runGit({ cwd, args: ['diff', '--cached', '--shortstat'] });
  const staged = stat.code === 0 ? stat.stdout.toString('utf8').trim() : '';
  const out = [`Git: on ${await branchLine(cwd, header)}`];
  out.push(
    files.length
      ? `Status (git status --short${more || status.cut ? `, first ${files.length} files, ${status.cut ? 'more' : more} not shown` : ''}):\n${files.join('\n')}`
      : 'Status: clean',
  );
  out.push(
    commits.length
      ? `Last commits (git log --oneline -${caps.commits}):\n${commits.map((c) => (c.length > caps.subject + 8 ? `${c.slice(0, caps.subject + 8)}…` : c)).join('\n')}`
      : 'Last commits: none yet',
  );
  if (!staged) return [...out, 'Staged: nothing'].join('\n');
  // A small token budget (a 4k-context model) gets the diff's size alone rather than a preamble that crowds out the task.
  const room = Math.min(caps.diffBytes, maxChars - out.join('\n').length - 120);
  if (room < 200) return [...out, `Staged (git diff --cached: ${staged}; the diff left out to fit the token budget)`].join('\n');
  const diff = await cappedGit({ cwd, args: ['diff', '--cached', '--no-color', '--no-ext-diff'], cap: room });
  out.push(
    `Staged (git diff --cached: ${staged}${diff.cut ? `; first ${room} bytes` : ''}):\n${diff.text.trimEnd()}${diff.cut ? '\n… [cut]' : ''}`,
  );
  return out.join('\n');
}
