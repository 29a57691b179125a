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
