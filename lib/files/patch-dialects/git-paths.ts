// The paths of a unified diff's headers as git writes them: C-quoted names, a/ and b/ prefixes, a `diff --git` line split where git splits it.
import { bad, quoted } from './shared';

const C_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * Git's C-quoted path (`"a/\303\251 \"x\".txt"`, as git writes names with non-ASCII bytes,
 * quotes or control characters) → its text; INVALID_PATCH when the quoting or UTF-8 is broken.
 */
function unquote(quotedPath: string, line: number): string {
  // Escapes are ASCII, so they are undone on the UTF-8 bytes, and the bytes decoded once.
  const src = Buffer.from(quotedPath.slice(1, -1), 'utf8');
  const bytes: number[] = [];
  for (let i = 0; i < src.length; i++) {
    if (src[i] !== 0x5c) {
      bytes.push(src[i]!);
      continue;
    }
    const octal = /^[0-3][0-7]{2}/.exec(src.toString('latin1', i + 1, i + 4))?.[0];
    const code = octal ? parseInt(octal, 8) : C_ESCAPES[String.fromCharCode(src[i + 1] ?? 0)];
    if (code === undefined) throw bad(`a quoted path with a bad escape (line ${line}): ${quoted(quotedPath)}`);
    bytes.push(code);
    i += octal ? 3 : 1;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    throw bad(`a quoted path that is not UTF-8 (line ${line}): ${quoted(quotedPath)}`);
  }
}

/** A path as git writes it: quoted when it holds a quote, a backslash, a control or non-ASCII byte. */
function gitPath(p: string, line: number): string {
  return p.length > 1 && p.startsWith('"') && p.endsWith('"') ? unquote(p, line) : p;
}

/**
 * A path as a `---`/`+++`/`rename` line writes it. git ends a name holding a space with a tab, and
 * GNU diff puts a timestamp after one: the name is what comes before the tab, spaces and all.
 */
export function headerPath(raw: string, line: number): string {
  const tab = raw.indexOf('\t');
  return gitPath(tab >= 0 ? raw.slice(0, tab).trimStart() : raw.trim(), line);
}

/**
 * The old and new paths of a `diff --git a/x b/y` line, prefixes dropped, split as git splits it: a
 * quoted name ends at its closing quote; two unquoted names holding spaces are the line's equal
 * halves. `sure` is false when the split is a guess (different names with spaces in them): only
 * `rename` or `---`/`+++` lines can then name the files. Scanned, never a backtracking regex.
 */
export function gitHeaderPaths(rest: string, line: number): { paths: [string, string]; sure: boolean } | undefined {
  const pair = (a: string, b: string, sure: boolean) => {
    const [from, to] = [gitPath(a, line), gitPath(b, line)];
    return { paths: [from.startsWith('a/') ? from.slice(2) : from, to.startsWith('b/') ? to.slice(2) : to] as [string, string], sure };
  };
  if (rest.startsWith('"')) {
    let end = 1;
    while (end < rest.length && rest[end] !== '"') end += rest[end] === '\\' ? 2 : 1;
    return rest[end + 1] === ' ' ? pair(rest.slice(0, end + 1), rest.slice(end + 2), true) : undefined;
  }
  if (rest.endsWith('"') && rest.length > 1) {
    // Inside a quoted name every quote is escaped: the opening one is the last unescaped quote before the end.
    let open = rest.length - 2;
    for (; open >= 0; open--) {
      if (rest[open] !== '"') continue;
      let slashes = 0;
      while (open - 1 - slashes >= 0 && rest[open - 1 - slashes] === '\\') slashes++;
      if (slashes % 2 === 0) break;
    }
    return open > 0 && rest[open - 1] === ' ' ? pair(rest.slice(0, open - 1), rest.slice(open), true) : undefined;
  }
  const space = rest.indexOf(' ');
  if (space < 0) return undefined;
  if (rest.indexOf(' ', space + 1) < 0) return pair(rest.slice(0, space), rest.slice(space + 1), true);
  const mid = (rest.length - 1) / 2;
  const tail = (p: string) => p.slice(p.indexOf('/') + 1);
  if (Number.isInteger(mid) && rest[mid] === ' ' && tail(rest.slice(0, mid)) === tail(rest.slice(mid + 1)))
    return pair(rest.slice(0, mid), rest.slice(mid + 1), true);
  const split = rest.indexOf(' b/');
  return split > 0 ? pair(rest.slice(0, split), rest.slice(split + 1), false) : undefined;
}

/** `a/src/x.ts` → `src/x.ts` when `strip`; `/dev/null` → null; a header that names no file is INVALID_PATCH. */
export function diffPath(path: string, strip: boolean, line: number): string | null {
  if (path === '/dev/null') return null;
  const p = strip && /^[ab]\//.test(path) ? path.slice(2) : path;
  if (!p)
    throw bad(
      `a file header without a path (line ${line}): write '--- a/<path>' and '+++ b/<path>', or /dev/null for a new or deleted file`,
    );
  return p;
}
