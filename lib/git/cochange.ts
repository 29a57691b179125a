// Co-change hints: files that history shows changing together with a plan step's files, from one capped git log.
import { runGit } from './exec';

/** A file the history says goes with one of the step's files. */
export interface CoChange {
  file: string;
  /** The step's file it changes with. */
  with: string;
  /** Commits that changed both, of those that changed `with`. */
  together: number;
  of: number;
}

/** Commits read: the seed's window, enough to see habits and cheap on any repository. */
export const COCHANGE_COMMITS = 50;
/** The share of a file's commits the other must be in to be suggested (the seed's 60%). */
export const COCHANGE_SHARE = 0.6;
/** A file changed once says nothing about habits. */
const MIN_COMMITS = 2;
/** A commit touching more files than this is a sweep (a rename, a reformat), not a habit. */
const BULK_COMMIT = 30;
/** Suggestions per step: a hint, not a file list. */
const PER_STEP = 3;

/** The files of each of the last `commits` non-merge commits, in one git process; empty outside a repository or on an unborn branch. */
export async function changeHistory({ cwd, commits = COCHANGE_COMMITS }: { cwd: string; commits?: number }): Promise<string[][]> {
  const r = await runGit({
    cwd,
    args: ['-c', 'core.quotePath=false', 'log', `-n${commits}`, '--no-merges', '--no-renames', '--name-only', '--format=%x01', '-z'],
  });
  if (r.code !== 0) return [];
  return r.stdout
    .toString('utf8')
    .split('\x01')
    .map((chunk) =>
      chunk
        .split('\0')
        .map((name) => name.replace(/^\n/, ''))
        .filter(Boolean),
    )
    .filter((files) => files.length > 0 && files.length <= BULK_COMMIT);
}

/**
 * Files not among `files` that changed in at least `share` of the commits that changed one of
 * them (of at least two such commits), strongest first, at most three.
 */
export function suggestCoChanges({
  history,
  files,
  share = COCHANGE_SHARE,
}: {
  history: string[][];
  files: string[];
  share?: number;
}): CoChange[] {
  const own = new Set(files);
  const best = new Map<string, CoChange>();
  for (const f of own) {
    const withF = history.filter((c) => c.includes(f));
    if (withF.length < MIN_COMMITS) continue;
    const counts = new Map<string, number>();
    for (const c of withF) for (const g of new Set(c)) if (!own.has(g)) counts.set(g, (counts.get(g) ?? 0) + 1);
    for (const [g, together] of counts) {
      if (together / withF.length < share) continue;
      const prev = best.get(g);
      if (!prev || together / withF.length > prev.together / prev.of) best.set(g, { file: g, with: f, together, of: withF.length });
    }
  }
  return [...best.values()]
    .sort((a, b) => b.together / b.of - a.together / a.of || b.together - a.together || a.file.localeCompare(b.file))
    .slice(0, PER_STEP);
}
