// The unified diff dialect (git's, GNU diff's, Aider's udiff), read as models write it: counts off, bare `@@`, blank context lines without their space.
import type { FilePatch, Hunk, HunkLine } from '../patch-types';
import { diffPath, gitHeaderPaths, headerPath } from './git-paths';
import { fileHeaderAt, refuseMixed } from './markers';
import { addHeader, bad, blankRunEnd, corrupt, hunkHeader, isChange, markNoEol, quoted } from './shared';

/**
 * Reads a file's hunks from `lines[start]` on, forgiving what models get wrong: counts that are
 * off (hunk lines go on past them), bare `@@`, blank context lines whose space was dropped. A hunk
 * ends at the next file's header, or at a line that is not a hunk line — where a diff meets prose.
 * Such a line with hunk lines right under it is inside the hunk: corrupt, as git says. (git would
 * take it as the end when the header's counts are all read; models' counts are too often wrong for
 * that to be safe, and a hunk cut short is a wrong file with exit 0.)
 */
function readUnifiedHunks(lines: string[], start: number): { hunks: Hunk[]; next: number } {
  const hunks: Hunk[] = [];
  let hunk: Hunk | undefined;
  let unread: { old: number; new: number } | undefined;
  let headerLine = 0;
  const take = (op: HunkLine['op'], text: string) => {
    hunk!.lines.push({ op, text });
    if (unread && op !== '+') unread.old--;
    if (unread && op !== '-') unread.new--;
  };
  let i = start;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (fileHeaderAt(lines, i)) break;
    const header = hunkHeader(line, i + 1);
    if (header) {
      if (!hunk || hunk.lines.length || (header.oldStart !== undefined && hunk.oldStart !== undefined)) hunks.push((hunk = { lines: [] }));
      addHeader(hunk, header);
      headerLine = i + 1;
      unread = header.oldCount === undefined ? undefined : { old: header.oldCount, new: header.newCount! };
      continue;
    }
    if (!hunk) {
      if (line === '') continue;
      // Hunk lines right under the file header: a hunk without its @@ line.
      if (!isChange(line)) break;
      hunks.push((hunk = { lines: [] }));
    }
    if (line[0] === '\\') markNoEol(hunk);
    else if (line === '-- ' && unread?.old === 0 && unread.new === 0)
      break; // git format-patch's signature under the last hunk
    else if (isChange(line)) take(line[0] as HunkLine['op'], line.slice(1));
    else if (line === '') {
      // Blank context lines whose leading space was dropped — if the hunk goes on after them. The
      // whole run is decided at once, so a long run costs its length, not its square.
      const k = blankRunEnd(lines, i);
      if (k < lines.length && (isChange(lines[k]!) || lines[k]![0] === '\\') && !fileHeaderAt(lines, k)) {
        for (; i < k; i++) take(' ', '');
        i = k - 1;
        continue;
      }
      // Before the next hunk's header, as many as the header's counts still owe (git reads an empty
      // line inside a hunk as context); the rest, or all of them under a bare @@, separate hunks.
      if (k < lines.length && hunkHeader(lines[k]!, k + 1)) {
        const owed = unread && unread.old > 0 && unread.old === unread.new ? Math.min(unread.old, k - i) : 0;
        for (let n = 0; n < owed; n++) take(' ', '');
        i = k - 1;
        continue;
      }
      break;
    } else if (i + 1 < lines.length && isChange(lines[i + 1]!) && !fileHeaderAt(lines, i + 1)) throw corrupt(lines, i);
    else break;
  }
  // Counts already exceeded on one side are wrong, and no sign of a cut.
  const owes = unread && unread.old >= 0 && unread.new >= 0 && unread.old + unread.new > 0;
  if (hunk && owes && lines.slice(i).every((l) => l === '')) endShort(hunk, unread!, { lines, i, headerLine }, take);
  return { hunks: hunks.filter((h) => h.lines.length), next: i };
}

/**
 * The input ends inside the last hunk's promise. Blank context lines an editor
 * stripped of their space make it up when there are as many (the final newline's empty piece
 * aside). Else the evidence decides, not the counts: a hunk that ends on a context line is whole
 * and its counts wrong (the context is checked against the file, as `git apply --recount` reads
 * it); one that ends on a change may have been cut inside it, and a change cut short would be a
 * wrong file with exit 0.
 */
function endShort(
  hunk: Hunk,
  unread: { old: number; new: number },
  { lines, i, headerLine }: { lines: string[]; i: number; headerLine: number },
  take: (op: HunkLine['op'], text: string) => void,
): void {
  const blanks = lines.length - i - (lines.at(-1) === '' ? 1 : 0);
  if (unread.old === unread.new && unread.old > 0 && unread.old <= blanks) {
    while (unread.old > 0) take(' ', '');
    return;
  }
  const last = hunk.lines.at(-1);
  if (last?.op === ' ') {
    hunk.short = true;
    return;
  }
  const owed = [...(unread.old ? [`${unread.old} more old`] : []), ...(unread.new ? [`${unread.new} more new`] : [])].join(' and ');
  throw bad(
    `the patch looks cut off: its last hunk (line ${headerLine}) ends on a '${last?.op ?? '@@'}' line though its header promises ${owed} line${unread.old + unread.new === 1 ? '' : 's'}; if the hunk is whole, correct its counts or give it a bare '@@' header, else send the rest of the hunk`,
  );
}

/** git's extended header lines that need nothing from forge (file modes are not written). */
const GIT_EXTENDED = /^(?:old mode|new mode|similarity index|dissimilarity index|index) /;

export function parseUnified(lines: string[]): FilePatch[] {
  const patches: FilePatch[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const at = i + 1;
    let oldPath: string | null | undefined;
    let newPath: string | null | undefined;
    let kind: FilePatch['kind'] = 'modify';
    let rooted = false;
    let guessed = false;
    let renamed = false;
    let modeChanged = false;
    if (line.startsWith('diff --git ')) {
      rooted = true;
      const header = gitHeaderPaths(line.slice(11), at);
      if (header) [[oldPath, newPath], guessed] = [header.paths, !header.sure];
      for (i++; i < lines.length; i++) {
        const ext = lines[i]!;
        if (ext.startsWith('new file mode')) kind = 'create';
        else if (ext.startsWith('deleted file mode')) kind = 'delete';
        else if (ext.startsWith('rename from ')) [kind, oldPath, renamed] = ['rename', headerPath(ext.slice(12), i + 1), true];
        else if (ext.startsWith('rename to ')) [kind, newPath, renamed] = ['rename', headerPath(ext.slice(10), i + 1), true];
        else if (/^(?:copy from |copy to |GIT binary patch|Binary files )/.test(ext))
          throw bad(`binary or copy patches are not supported (line ${i + 1}): ${quoted(ext)}`);
        else if (GIT_EXTENDED.test(ext)) modeChanged ||= ext.startsWith('new mode');
        else break;
      }
      if (oldPath === undefined && newPath === undefined) throw bad(`a 'diff --git' line without two paths (line ${at}): ${quoted(line)}`);
      if (kind === 'create') oldPath = null;
      if (kind === 'delete') newPath = null;
    }
    const headed = lines[i]?.startsWith('--- ') ?? false;
    if (headed) {
      const fromText = headerPath(lines[i]!.slice(4), i + 1);
      i++;
      if (!lines[i]?.startsWith('+++ ')) throw bad(`a '---' line without a '+++' line (line ${i})`);
      const toText = headerPath(lines[i]!.slice(4), i + 1);
      const strip = /^[ab]\//.test(fromText) && toText.startsWith('b/');
      rooted ||= strip;
      const from = diffPath(fromText, strip || fromText.startsWith('a/'), i);
      const to = diffPath(toText, strip || toText.startsWith('b/'), i + 1);
      i++;
      rooted ||= (from === null || fromText.startsWith('a/')) && (to === null || toText.startsWith('b/'));
      oldPath = from;
      newPath = to;
      if (from === null) kind = 'create';
      else if (to === null) kind = 'delete';
      else if (from !== to && kind === 'modify') kind = 'rename';
    }
    if (oldPath === undefined && newPath === undefined) {
      if (hunkHeader(line, at)) throw bad(`a hunk without a file header (line ${at}): put '--- a/<path>' and '+++ b/<path>' above it`);
      refuseMixed(lines, i, 'unified');
      i++;
      continue;
    }
    if (guessed && !renamed && !headed)
      throw bad(
        `the 'diff --git' line at line ${at} does not say where its first path ends: ${quoted(line)}; put '--- a/<path>' and '+++ b/<path>' lines under it`,
      );
    const { hunks, next } = readUnifiedHunks(lines, i);
    const named = newPath ?? oldPath;
    if (!hunks.length && (headed || (kind === 'modify' && !modeChanged)))
      throw bad(
        `the change to '${named}' (line ${at}) has no hunk: put its '@@' hunks, lines starting with ' ', '-' or '+', under its header`,
      );
    i = next;
    patches.push({ dialect: 'unified', kind, oldPath: oldPath ?? null, newPath: newPath ?? null, hunks, ...(rooted ? { rooted } : {}) });
  }
  if (!patches.length) throw bad('no file changes found in the diff');
  return patches;
}
