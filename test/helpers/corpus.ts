// A patch corpus from real diffs: git diffs of deterministic edits to this project's own files,
// perturbed the ways models err, each with the exact bytes a correct tool must produce (or none: refuse).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hunkFromEdit } from '../../lib/files/place';
import { tempDir } from './repo';

export interface PatchCase {
  name: string;
  perturbation: 'exact' | 'drifted' | 'bare-hunk-header' | 'wrong-counts' | 'whitespace-drift' | 'crlf-file' | 'conflict' | 'ambiguous';
  /** Files before the patch, by path. */
  before: Record<string, Buffer>;
  patch: string;
  /** Files after a correct apply; null when a correct tool must refuse and change nothing. */
  after: Record<string, Buffer> | null;
}

export const PERTURBATIONS: PatchCase['perturbation'][] = ['exact', 'drifted', 'bare-hunk-header', 'wrong-counts', 'whitespace-drift', 'crlf-file', 'conflict', 'ambiguous'];

interface Edited {
  lines: string[];
  /** For each edited line: true when it is an original line, untouched. */
  kept: boolean[];
}

/** Deterministic edits spread through a file: change, delete and insert lines. */
function mutate(lines: string[]): Edited {
  const out: Edited = { lines: [], kept: [] };
  lines.forEach((line, i) => {
    if (i % 41 === 20) return; // delete
    if (i % 29 === 10 && line.trim()) {
      out.lines.push(`${line} // changed`);
      out.kept.push(false);
    } else {
      out.lines.push(line);
      out.kept.push(true);
    }
    if (i % 53 === 30) {
      out.lines.push(`${/^\s*/.exec(line)![0]}const inserted_${i} = ${i};`);
      out.kept.push(false);
    }
  });
  return out;
}

/** git's own diff of one file, before → after, with a/ b/ prefixes and 3 lines of context. */
function gitDiff(path: string, before: string, after: string): string {
  const dir = tempDir('forge-corpus-');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'c', GIT_AUTHOR_EMAIL: 'c@c', GIT_COMMITTER_NAME: 'c', GIT_COMMITTER_EMAIL: 'c@c' } });
  git('init', '-q');
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), before);
  git('add', '.');
  git('commit', '-q', '-m', 'before');
  writeFileSync(join(dir, path), after);
  return git('diff');
}

const text = (lines: string[], eol = '\n') => lines.join(eol) + eol;

/**
 * Where in the old file the first non-blank line a patch removes is, found by the hunk's position
 * (not by searching for its text: a line such as `}` occurs many times).
 */
function firstRemoved(patch: string): number {
  let old = 0;
  for (const l of patch.split('\n')) {
    const hunk = /^@@ -(\d+)/.exec(l);
    if (hunk) old = Number(hunk[1]) - 1;
    else if (l.startsWith('-') && !l.startsWith('---') && l.slice(1).trim()) return old;
    else if (l.startsWith(' ') || (l.startsWith('-') && !l.startsWith('---'))) old++;
  }
  throw new Error('the patch removes no line');
}
const editedLocally = (lines: string[], at: number) => lines.map((l, i) => (i === at ? `${l} /* edited locally */` : l));
const buf = (s: string) => Buffer.from(s, 'utf8');

/** Cases for each source file and perturbation, plus a multi-file patch whose last file conflicts. */
export function buildCorpus(sources: Array<{ path: string; content: string }>): PatchCase[] {
  const cases: PatchCase[] = [];
  const diffs: Array<{ path: string; before: string; after: string; patch: string }> = [];
  for (const { path, content } of sources) {
    const lines = content.replace(/\n$/, '').split('\n');
    const edited = mutate(lines);
    const before = text(lines);
    const after = text(edited.lines);
    const patch = gitDiff(path, before, after);
    diffs.push({ path, before, after, patch });
    const one = (perturbation: PatchCase['perturbation'], b: string, p: string, a: string | null) =>
      cases.push({ name: `${path} ${perturbation}`, perturbation, before: { [path]: buf(b) }, patch: p, after: a === null ? null : { [path]: buf(a) } });

    one('exact', before, patch, after);
    const header = Array.from({ length: 7 }, (_, i) => `// a header line the patch never saw ${i}`);
    one('drifted', text([...header, ...lines]), patch, text([...header, ...edited.lines]));
    one('bare-hunk-header', before, patch.replace(/^@@ .* @@.*$/gm, '@@ @@'), after);
    one('wrong-counts', before, patch.replace(/^@@ -(\d+),(\d+) \+(\d+),(\d+) @@/gm, (_, a, b, c, d) => `@@ -${a},${Number(b) + 5} +${c},${Math.max(1, Number(d) - 2)} @@`), after);
    // The file gained trailing whitespace the patch's context lines do not have.
    const pad = (l: string) => (l.trim() ? `${l}  ` : l);
    one('whitespace-drift', text(lines.map(pad)), patch, text(edited.lines.map((l, i) => (edited.kept[i] ? pad(l) : l))));
    one('crlf-file', text(lines, '\r\n'), patch, text(edited.lines, '\r\n'));
    // Someone changed a line the patch removes: a genuine conflict.
    one('conflict', text(editedLocally(lines, firstRemoved(patch))), patch, null);
    // The first hunk's old text also appears later, and the hunk has no line numbers to choose by.
    const firstHunk = patch.split(/^@@.*$/m)[1]!.split('\n').filter((l) => l.startsWith(' ') || (l.startsWith('-') && !l.startsWith('---'))).map((l) => l.slice(1));
    one('ambiguous', text([...lines, '', ...firstHunk]), patch.replace(/^@@ .* @@.*$/gm, '@@ @@'), null);
  }
  if (diffs.length >= 2) {
    const [a, b] = diffs;
    const broken = text(editedLocally(b!.before.replace(/\n$/, '').split('\n'), firstRemoved(b!.patch)));
    cases.push({ name: 'multi-file, last file conflicts', perturbation: 'conflict', before: { [a!.path]: buf(a!.before), [b!.path]: buf(broken) }, patch: a!.patch + b!.patch, after: null });
    cases.push({ name: 'multi-file', perturbation: 'exact', before: { [a!.path]: buf(a!.before), [b!.path]: buf(b!.before) }, patch: a!.patch + b!.patch, after: { [a!.path]: buf(a!.after), [b!.path]: buf(b!.after) } });
  }
  return cases;
}

/** Some of this project's own source files, as the corpus's raw material. */
export function projectSources(paths = ['lib/files/match.ts', 'lib/cli/main.ts', 'lib/git/state.ts', 'lib/files/text.ts']): Array<{ path: string; content: string }> {
  return paths.map((path) => ({ path, content: readFileSync(path, 'utf8') }));
}

export interface EditCase {
  name: string;
  perturbation: 'exact' | 'drifted' | 'whitespace-drift' | 'crlf-file' | 'anchored-lines' | 'conflict' | 'ambiguous' | 'stale-anchor';
  path: string;
  before: Buffer;
  /** forge edit arguments after the path. */
  args: string[];
  after: Buffer | null;
}

/** The hunks of a git diff as edits: old = context and removed lines, new = context and added lines. */
function hunkEdits(patch: string): Array<{ old: string[]; new: string[] }> {
  return patch
    .split(/^@@.*$/m)
    .slice(1)
    .map((h) => h.split('\n').filter((l) => /^[ +-]/.test(l) && !/^(---|\+\+\+) /.test(l)))
    .map((lines) => ({ old: lines.filter((l) => !l.startsWith('+')).map((l) => l.slice(1)), new: lines.filter((l) => !l.startsWith('-')).map((l) => l.slice(1)) }));
}

/** The new side of an edit as a line diff pairs it: unchanged lines point at their old line. */
function hunkLines(h: { old: string[]; new: string[] }): Array<{ op: ' ' | '+'; text: string; oldIndex: number }> {
  return hunkFromEdit(h.old, h.new)
    .reduce<{ out: Array<{ op: ' ' | '+'; text: string; oldIndex: number }>; old: number }>(
      (acc, l) => {
        if (l.op === '-') acc.old++;
        else acc.out.push({ op: l.op, text: l.text, oldIndex: l.op === ' ' ? acc.old++ : -1 });
        return acc;
      },
      { out: [], old: 0 },
    ).out;
}

function indexOfBlock(lines: string[], block: string[], same = (a: string, b: string) => a === b): number[] {
  const hits: number[] = [];
  for (let i = 0; i + block.length <= lines.length; i++) if (block.every((b, j) => same(lines[i + j]!, b))) hits.push(i);
  return hits;
}

/**
 * Every hunk of the corpus's git diffs turned into a `forge edit`, perturbed as models err, with
 * the exact expected bytes (or null: must refuse and change nothing). `anchor` computes a line
 * anchor the way forge read prints it.
 */
export function buildEditCorpus(sources: Array<{ path: string; content: string }>, anchor: (n: number, line: string) => string): EditCase[] {
  const cases: EditCase[] = [];
  for (const { path, content } of sources) {
    const lines = content.replace(/\n$/, '').split('\n');
    const patch = gitDiff(path, text(lines), text(mutate(lines).lines));
    for (const [k, h] of hunkEdits(patch).entries()) {
      if (indexOfBlock(lines, h.old).length !== 1) continue; // only edits that are unique as written
      const at = indexOfBlock(lines, h.old)[0]!;
      const splice = (ls: string[], i: number, repl: string[]) => [...ls.slice(0, i), ...repl, ...ls.slice(i + h.old.length)];
      const add = (perturbation: EditCase['perturbation'], before: string, args: string[], after: string | null) =>
        cases.push({ name: `${path} hunk ${k + 1} ${perturbation}`, perturbation, path, before: buf(before), args, after: after === null ? null : buf(after) });
      const oldText = h.old.join('\n');
      const newText = h.new.join('\n');
      add('exact', text(lines), ['--old', oldText, '--new', newText], text(splice(lines, at, h.new)));
      const header = ['// drift 1', '// drift 2', '// drift 3'];
      add('drifted', text([...header, ...lines]), ['--old', oldText, '--new', newText], text([...header, ...splice(lines, at, h.new)]));
      const padded = lines.map((l) => (l.trim() ? `${l}  ` : l));
      if (indexOfBlock(padded, h.old, (a, b) => a.trim() === b.trim()).length === 1) {
        // Lines the edit leaves unchanged keep the file's trailing whitespace; changed and added lines are written as given.
        const kept = hunkLines(h).map((l) => (l.op === ' ' ? padded[at + l.oldIndex]! : l.text));
        add('whitespace-drift', text(padded), ['--old', oldText, '--new', newText], text(splice(padded, at, kept)));
      }
      add('crlf-file', text(lines, '\r\n'), ['--old', oldText, '--new', newText], text(splice(lines, at, h.new), '\r\n'));
      const last = at + h.old.length;
      // For line edits a trailing newline only ends the last line, so a blank last line needs one more.
      const newLines = h.new.at(-1) === '' ? `${newText}\n` : newText;
      add('anchored-lines', text(lines), ['--lines', `${anchor(at + 1, lines[at]!)}..${anchor(last, lines[last - 1]!)}`, '--new', newLines], text(splice(lines, at, h.new)));
      const changedLine = h.old.findIndex((l, j) => l.trim() && l !== h.new[j]);
      if (changedLine >= 0) {
        // Edited in the middle of the line, so the old text is not even a substring of the file any more.
        // (A one-character line is marked before it, or after it when it starts the old text.)
        const mid = (l: string) => (l.length > 1 ? Math.ceil(l.length / 2) : changedLine === 0 ? l.length : 0);
        const local = (l: string) => `${l.slice(0, mid(l))}/* edited locally */${l.slice(mid(l))}`;
        add('conflict', text(lines.map((l, i) => (i === at + changedLine ? local(l) : l))), ['--old', oldText, '--new', newText], null);
      }
      add('ambiguous', text([...lines, '', ...h.old]), ['--old', oldText, '--new', newText], null);
      // Read before three lines were inserted at the top: the anchor now points at another line.
      add('stale-anchor', text([...header, ...lines]), ['--old', oldText, '--new', newText, '--anchor', anchor(at + 1, lines[at]!)], null);
    }
  }
  return cases;
}
