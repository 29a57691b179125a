// Argv words as git and gh users type them: common options before the command, `forge help <cmd>`, `forge version [--json]`.

/** The common options a user may type before the command, and whether each takes a value. */
const LEADING: Record<string, 'value' | 'flag'> = {
  '--cwd': 'value',
  '-C': 'value',
  '--run-id': 'value',
  '--json': 'flag',
  '--color': 'flag',
  '--no-color': 'flag',
  '--help': 'flag',
  '-h': 'flag',
};

/** Argv split as the parser reads it: the common options typed before the command, and the command's words with its own arguments. */
export interface SplitWords {
  /** `-C DIR --json` as `--cwd DIR --json`: given to the command's parser ahead of its own arguments. */
  leading: string[];
  /** The command's words and its arguments, untouched (a value such as `--old --` stays a value). */
  command: string[];
}

/** The common options at the start of `words`, as the parser reads them, and the index of the first word that is not one. */
function scanLeading(words: readonly string[]): { leading: string[]; next: number } {
  const leading: string[] = [];
  let i = 0;
  for (; i < words.length; i++) {
    const word = words[i]!;
    const [name, value] =
      word.startsWith('--') && word.includes('=')
        ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]
        : [word, undefined];
    if (/^-C./.test(word)) leading.push('--cwd', word.slice(2));
    else if (!Object.hasOwn(LEADING, name)) break;
    else if (LEADING[name] === 'value' && value === undefined) {
      if (i + 1 >= words.length) break; // `forge --cwd`: said to need a value by the caller
      leading.push(name === '-C' ? '--cwd' : name, words[++i]!);
    } else if (name === '--color' && value === undefined) leading.push('--color=always');
    else leading.push(word);
  }
  return { leading, next: i };
}

/** The words that ask for the version: `forge version`, and git's and gh's `--version` (`-V` as many tools spell it). */
const VERSION_WORDS = ['version', '--version', '-V'];

/**
 * `forge -C DIR --json memory recall x` → leading `--cwd DIR --json`, command `memory recall x`:
 * `-C` is `--cwd` as in git, and a bare `--color` is `--color=always` as in git. `forge help
 * [cmd…]` is `forge [cmd…] --help`. The first word that is not a leading option ends the scan;
 * the command's own words are never rewritten, so a value that looks like an option (`--old
 * --color`, `--old --`) is left for the command's parser. `forge version` is `--version`, and the
 * common options may follow it as well (`forge version --json`); with --help it is the overview's
 * help, and what is left after them (`forge version extra`) follows `--version` for main to refuse.
 */
export function splitWords(words: readonly string[]): SplitWords {
  const { leading, next } = scanLeading(words);
  let command = words.slice(next);
  if (command[0] === 'help') command = [...command.slice(1), '--help'];
  if (VERSION_WORDS.includes(command[0]!)) {
    const after = scanLeading(command.slice(1));
    leading.push(...after.leading);
    const rest = command.slice(1 + after.next);
    command = leading.includes('--help') || leading.includes('-h') ? rest : ['--version', ...rest];
  }
  return { leading, command };
}

/** A value-taking common option typed last with no value after it (`forge -C`), else null. */
export function leadingWithoutValue(words: readonly string[]): string | null {
  const last = words.at(-1);
  return last !== undefined && LEADING[last] === 'value' ? (last === '-C' ? '--cwd' : last) : null;
}

/** Whether a word is one of the common options typed before a command (`forge --json` alone is the overview, not an unknown option). */
export function isLeadingOption(word: string): boolean {
  return Object.hasOwn(LEADING, word.split('=')[0]!) || /^-C./.test(word);
}

/**
 * The colour asked for by the leading options and, before any `--`, the command's own `--color`,
 * `--color=WHEN` or `--no-color` (the last one wins), else 'auto'. Read before the command's parser
 * runs, for errors found earlier; the parser's own reading decides the command's output.
 */
export function colorOption(words: readonly string[]): string {
  let when = 'auto';
  for (const word of words) {
    if (word === '--') break;
    if (word === '--no-color') when = 'never';
    else if (word === '--color') when = 'always';
    else if (word.startsWith('--color=')) when = word.slice('--color='.length);
  }
  return when;
}
