// Replaces a literal or a regex across a workspace's files in memory: every file's new bytes and the changed lines with their anchors, before anything is written.
import { join } from 'node:path';
import { InvalidInputError, RefusedError } from '../errors';
import { shellJoin, withArguments } from '../quote';
import { lineHash } from './anchor';
import type { PlannedFile } from './patch-apply';
import { compilePattern } from './search';
import { type SearchEngine, sweepFiles } from './sweep';
import { encodeString, indexLines, lineAt, type LineIndex } from './text';
import type { Workspace } from './workspace';

/** Changed regions shown per file and in all: enough to check a replacement, small enough for a model. */
export const SHOWN_PER_FILE = 5;
export const SHOWN_IN_ALL = 20;

export interface ShownLine {
  n: number;
  hash: string;
  text: string;
}

/** One changed region: the old lines (numbered in the old file) and what they became (in the new one). */
export interface ReplaceHunk {
  old: ShownLine[];
  new: ShownLine[];
}

export interface ReplacedFile extends Pick<PlannedFile, 'abs' | 'display' | 'data'> {
  replacements: number;
  /** The first SHOWN_PER_FILE regions (fewer once SHOWN_IN_ALL are shown in all). */
  hunks: ReplaceHunk[];
  /** Regions not shown. */
  cut: number;
}

export interface ReplacePlan {
  files: ReplacedFile[];
  /** Text files looked in. */
  searched: number;
  replacements: number;
}

/** `$&`, `$1`, `$<name>`… of a regex replacement, as String.prototype.replace expands them (GetSubstitution). */
function substitute(template: string, m: RegExpExecArray, text: string): string {
  return template.replace(/\$([$&`']|\d{1,2}|<([^>]*)>)/g, (whole, what: string, name: string | undefined) => {
    if (what === '$') return '$';
    if (what === '&') return m[0];
    if (what === '`') return text.slice(0, m.index);
    if (what === "'") return text.slice(m.index + m[0].length);
    if (name !== undefined) return m.groups ? (m.groups[name] ?? '') : whole;
    // $nn names group nn when it exists, else group n followed by a digit, else is literal.
    const groups = m.length - 1;
    const two = Number(what);
    if (what.length === 2 && two >= 1 && two <= groups) return m[two] ?? '';
    const one = Number(what[0]);
    if (one >= 1 && one <= groups) return (m[one] ?? '') + what.slice(1);
    return whole;
  });
}

/** A file whose lines end in CRLF gets CRLF for the bare newlines of the text a model wrote. */
const crlfFor = (index: LineIndex, text: string) => (index.eol === '\r\n' ? text.replace(/\r?\n/g, '\r\n') : text);

/** The line (0-based) holding offset `at`. */
function lineOf(index: LineIndex, at: number): number {
  let lo = 0;
  let hi = index.total - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (index.starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Where the line after `line` starts (the text's end after the last). */
const nextStart = (index: LineIndex, line: number) => (line + 1 < index.total ? index.starts[line + 1]! : index.text.length);

const shown = (index: LineIndex, from: number, to: number): ShownLine[] =>
  Array.from({ length: Math.max(0, to - from) }, (_, k) => {
    const text = lineAt(index, from + k + 1);
    return { n: from + k + 1, hash: lineHash(text), text };
  });

interface Replaced {
  text: string;
  count: number;
  /** Changed regions as old line ranges [from, to) and the offset delta before each. */
  regions: Array<{ from: number; to: number; delta: number }>;
}

/** Every match of `regex` (global) in `text` replaced; null when there is none. */
function replaceIn({
  text,
  index,
  regex,
  replacement,
  literal,
}: {
  text: string;
  index: LineIndex;
  regex: RegExp;
  replacement: string;
  literal: boolean;
}): Replaced | null {
  const out: string[] = [];
  const regions: Replaced['regions'] = [];
  let last = 0;
  let delta = 0;
  let count = 0;
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m; m = regex.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    // An empty match advances one character (one code point in Unicode mode), as replaceAll does.
    if (m[0] === '') regex.lastIndex = end + (text.codePointAt(end)! > 0xffff ? 2 : 1);
    const expansion = crlfFor(index, literal ? replacement : substitute(replacement, m, text));
    if (expansion === m[0]) continue;
    count++;
    out.push(text.slice(last, start), expansion);
    last = end;
    const from = lineOf(index, start);
    // A match that ends with a line break changes that line, not the next.
    const to = Math.max(from, lineOf(index, Math.max(start, end - 1))) + 1;
    const prev = regions.at(-1);
    if (prev && from < prev.to) prev.to = Math.max(prev.to, to);
    else regions.push({ from, to, delta });
    delta += expansion.length - m[0].length;
  }
  if (!count) return null;
  out.push(text.slice(last));
  return { text: out.join(''), count, regions };
}

/** The changed regions as old and new lines, the first `limit` of them. */
function hunksOf(before: LineIndex, after: LineIndex, regions: Replaced['regions'], limit: number): ReplaceHunk[] {
  return regions.slice(0, limit).map((r, i) => {
    const start = before.starts[r.from] ?? before.text.length;
    // What the region's lines became: from the same line start (shifted) to the start of the line after them.
    const end = nextStart(before, r.to - 1) + (regions[i + 1]?.delta ?? finalDelta(before, after));
    const newFrom = start + r.delta;
    const first = newFrom < after.text.length ? lineOf(after, newFrom) : after.total;
    const last = end > newFrom ? lineOf(after, Math.min(end, after.text.length) - 1) + 1 : first;
    return { old: shown(before, r.from, r.to), new: shown(after, first, Math.min(last, after.total)) };
  });
}

const finalDelta = (before: LineIndex, after: LineIndex) => after.text.length - before.text.length;

/**
 * Plans a replacement in every listed text file under `paths` matching `glob` (.gitignore
 * respected, binary files skipped). Throws NO_MATCH, before anything is written, when nothing
 * would change.
 */
export async function planReplace({
  ws,
  old,
  replacement,
  regex: isRegex,
  ignoreCase,
  paths,
  glob,
  engine = 'js',
  onProgress,
  signal,
}: {
  ws: Workspace;
  old: string;
  replacement: string;
  regex: boolean;
  ignoreCase: boolean;
  paths: string[];
  glob?: string;
  engine?: SearchEngine;
  onProgress?: (done: number, of: number) => Promise<void>;
  /** Aborted when the caller gives up: planning stops (CANCELLED) before anything is written. */
  signal?: AbortSignal;
}): Promise<ReplacePlan> {
  if (old === '') throw new InvalidInputError('INVALID_ARGUMENT', 'the text to replace is empty', { fix: 'forge replace --help' });
  const base = compilePattern({ pattern: old, literal: !isRegex, ignoreCase });
  // Multiline: ^ and $ are line starts and ends, as in an editor's replace. A file that cannot match
  // is passed over before its lines are indexed; a literal's line breaks are the file's, so it is tried on each.
  const mayHold = isRegex ? new RegExp(base.source, `${base.flags}m`) : null;
  const plan: ReplacePlan = { files: [], searched: 0, replacements: 0 };
  let budget = SHOWN_IN_ALL;
  plan.searched = await sweepFiles({
    ws,
    paths,
    glob,
    pattern: base,
    engine,
    onProgress,
    signal,
    onText: (decoded) => {
      const path = decoded.path;
      if (mayHold && !mayHold.test(decoded.text)) return;
      const before = indexLines(decoded.text);
      // A literal's line breaks match the file's (a model writes \n for a CRLF file's \r\n).
      const regex = isRegex ? new RegExp(base.source, `${base.flags}gm`) : compilePatternFor(before, old, ignoreCase);
      const r = replaceIn({ text: decoded.text, index: before, regex, replacement, literal: !isRegex });
      if (!r) return;
      // JavaScript's ^ and $ also match between a CRLF's \r and \n: a match there leaves a lone \r.
      if (/\r(?!\n)/.test(r.text) && !/\r(?!\n)/.test(decoded.text)) {
        throw new RefusedError(
          'SPLIT_LINE_ENDING',
          `the replacement would split a CRLF line ending in '${path}' (a match starting or ending between its \\r and \\n); nothing was changed`,
          {
            fix: shellJoin(withArguments(['forge', 'search'], [old, path], [])),
            data: { path },
          },
        );
      }
      const after = indexLines(r.text);
      const hunks = hunksOf(before, after, r.regions, Math.min(SHOWN_PER_FILE, budget));
      budget -= hunks.length;
      plan.files.push({
        abs: join(ws.cwd, path),
        display: path,
        data: encodeString(r.text, decoded),
        replacements: r.count,
        hunks,
        cut: r.regions.length - hunks.length,
      });
      plan.replacements += r.count;
    },
  });
  if (!plan.files.length) {
    const what = isRegex ? `/${old}/` : `'${old}'`;
    const where = [...(paths.length ? [`under ${paths.join(', ')}`] : []), ...(glob ? [`matching '${glob}'`] : [])].join(' ');
    throw new RefusedError(
      'NO_MATCH',
      `no match for ${what} in ${plan.searched} file${plan.searched === 1 ? '' : 's'}${where ? ` ${where}` : ''} (.gitignored and binary files are not searched); nothing was changed`,
      {
        fix: shellJoin(
          withArguments(
            ['forge', 'search'],
            [old, ...paths],
            [...(glob ? ['--glob', glob] : []), ...(isRegex ? [] : ['--literal']), ...(ignoreCase ? ['-i'] : [])],
          ),
        ),
        data: { searched: plan.searched },
      },
    );
  }
  return plan;
}

function compilePatternFor(index: LineIndex, old: string, ignoreCase: boolean): RegExp {
  const literal = compilePattern({ pattern: crlfFor(index, old), literal: true, ignoreCase });
  return new RegExp(literal.source, `${literal.flags}g`);
}
