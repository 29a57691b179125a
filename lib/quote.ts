// POSIX shell quoting, so every hint is a command that can be pasted into a shell as-is.

const SAFE = /^[\w@%+=:,./-]+$/;

/** Quotes one word for sh: bare when safe, else single-quoted with embedded quotes escaped. */
export function shellQuote(word: string): string {
  if (word !== '' && SAFE.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Joins words into one shell command line. */
export function shellJoin(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}

/**
 * A command's words as a hint must write them: `head`, its arguments, then its options — or, when an
 * argument starts with a dash, the options first and the arguments after `--`, so a user's text or
 * path (`-x`, `--color`) parses back as the argument it was, not as an option.
 */
export function withArguments(head: readonly string[], args: readonly string[], options: readonly string[]): string[] {
  return args.some((a) => a.startsWith('-')) ? [...head, ...options, '--', ...args] : [...head, ...args, ...options];
}

/** One piece of a word: bare characters, '…', "…" without expansions, or a backslashed character. */
const PIECE = /([\w@%+=:,./-]+)|'([^']*)'|"([^"$`\\]*)"|\\(.)/y;

/** The words of a command line as shellJoin writes them; null for anything a shell would expand or redirect. */
export function shellSplit(line: string): string[] | null {
  const words: string[] = [];
  let word: string | null = null;
  for (let at = 0; at < line.length; ) {
    if (/\s/.test(line[at]!)) {
      if (word !== null) words.push(word);
      word = null;
      at++;
      continue;
    }
    PIECE.lastIndex = at;
    const hit = PIECE.exec(line);
    if (!hit) return null;
    word = (word ?? '') + (hit[1] ?? hit[2] ?? hit[3] ?? hit[4]!);
    at = PIECE.lastIndex;
  }
  if (word !== null) words.push(word);
  return words;
}
