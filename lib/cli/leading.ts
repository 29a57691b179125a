// Argv words as git and gh users type them, put in the one order the parser reads: options before the command, `forge help <cmd>`, `forge version`.

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

/**
 * `forge -C DIR --json memory recall x` → `memory recall x --cwd DIR --json`: the options typed
 * before the command are moved after its words (before a `--`, after which nothing is an
 * option), `-C` is `--cwd` as in git, and a bare `--color` is `--color=always` as in git. `forge
 * help [cmd…]` is `forge [cmd…] --help` and `forge version` is `forge --version`. Words that are
 * not a leading option end the scan: the command and its own arguments are left as they are.
 */
export function normalizeWords(words: readonly string[]): string[] {
  const moved: string[] = [];
  let i = 0;
  for (; i < words.length; i++) {
    const word = words[i]!;
    const [name, value] =
      word.startsWith('--') && word.includes('=')
        ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]
        : [word, undefined];
    if (/^-C./.test(word)) moved.push('--cwd', word.slice(2));
    else if (!Object.hasOwn(LEADING, name)) break;
    else if (LEADING[name] === 'value' && value === undefined) {
      if (i + 1 >= words.length) break; // `forge --cwd`: the parser says the value is missing
      moved.push(name === '-C' ? '--cwd' : name, words[++i]!);
    } else if (name === '--color' && value === undefined) moved.push('--color=always');
    else moved.push(word);
  }
  let command = words.slice(i);
  if (command[0] === 'help') command = [...command.slice(1), '--help'];
  else if (command[0] === 'version' && command.length === 1) command = ['--version'];
  // A bare --color among the command's own options too (not after --).
  const dashes = command.indexOf('--');
  const own = (dashes === -1 ? command : command.slice(0, dashes)).map((w) => (w === '--color' ? '--color=always' : w));
  const after = dashes === -1 ? [] : command.slice(dashes);
  return [...own, ...moved, ...after];
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

/** The colour asked for by --color[=WHEN] / --no-color before any `--` (the last one wins), else 'auto'. */
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
