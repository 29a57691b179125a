// Completion of what the declarations choose from, in bash, zsh and fish: every option's choices (--name value and --name=value), every positional's by its place; and file names never inside git's own files.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { entries } from '../../commands/index';
import { completables } from '../../lib/cli/completions';
import { tempDir } from '../helpers/repo';

const COMPLETIONS = join(process.cwd(), 'completions');
const all = completables(entries);

/** A work tree with git's own directory beside names that only start like it (.github/, .gitignore), and a nested .Git. */
const tree = tempDir('forge-complete-git-');
for (const dir of ['.git/refs', '.github', 'src/.Git', 'nested/.GIT']) mkdirSync(join(tree, dir), { recursive: true });
for (const file of ['.git/config', '.gitignore', 'src/.gitkeep', 'src/a.ts', 'notes.md']) writeFileSync(join(tree, file), '');

/** A bash word list, each word single-quoted. */
const bashWords = (words: string[]) => words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');

/** What bash's completion function offers for each list of words (the last being completed), in one bash: sorted, a list each. */
function bash(cases: string[][]): string[][] {
  const script = [
    `source '${join(COMPLETIONS, 'forge.bash')}'`,
    ...cases.map(
      (words) =>
        `COMP_WORDS=(${bashWords(words)}); COMP_CWORD=${words.length - 1}; COMPREPLY=(); _forge; printf '%s\\n' "\${COMPREPLY[@]}"; printf '\\036\\n'`,
    ),
  ].join('\n');
  const r = spawnSync('bash', ['-c', script], { cwd: tree, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  return r.stdout
    .split('\x1e\n')
    .slice(0, -1)
    .map((out) => out.split('\n').filter(Boolean).sort());
}

/** Each case's words, what it offers, and what it should: the lines of a failure say which. */
function expectAll(label: string, cases: string[][], got: string[][], want: string[][]): void {
  const wrong = cases.flatMap((words, i) =>
    JSON.stringify(got[i]) === JSON.stringify(want[i])
      ? []
      : [`${words.join(' ')}⇥ → ${JSON.stringify(got[i])}, not ${JSON.stringify(want[i])}`],
  );
  assert.equal(wrong, [], label);
}

/** The cases of every option with declared choices: after --name (when it takes the next word), after --name= as one word, as bash splits it (--name, =, value). */
function optionCases(): { cases: string[][]; want: string[][] } {
  const cases: string[][] = [];
  const want: string[][] = [];
  for (const t of all)
    for (const [option, choices] of t.choices) {
      const words = t.path.split(' ');
      const sorted = [...choices].sort();
      if (t.takes.includes(option)) cases.push([...words, option, '']), want.push(sorted);
      cases.push([...words, `${option}=`]), want.push(sorted.map((c) => `${option}=${c}`));
      cases.push([...words, option, '=']), want.push(sorted);
      cases.push([...words, option, '=', choices[0]!]), want.push([choices[0]!]);
    }
  return { cases, want };
}

/** The cases of every positional with declared choices: at its place (earlier places filled), after an option and its value, and as forge-<command>. */
function positionalCases(): { cases: string[][]; want: string[][] } {
  const cases: string[][] = [];
  const want: string[][] = [];
  for (const t of all)
    for (const [place, choices] of t.positional) {
      const [, top, ...sub] = t.path.split(' ');
      const before = Array.from({ length: place }, () => 'x');
      const sorted = [...choices].sort();
      for (const words of [
        [...t.path.split(' '), ...before, ''],
        [...t.path.split(' '), '--run-id', 'r1', ...before, ''],
        ['forge', '-C', '.', ...t.path.split(' ').slice(1), ...before, ''],
        [`forge-${top}`, ...sub, ...before, ''],
      ])
        cases.push(words), want.push(sorted);
    }
  return { cases, want };
}

test('bash: every option with declared choices completes to them, as --name value and as --name=value (split at = or not); a bare --color takes no value', () => {
  const { cases, want } = optionCases();
  assert.ok(cases.length > 100, `only ${cases.length} cases: the choices are no longer found`);
  expectAll('options', cases, bash(cases), want);
  // --color's value is only --color=WHEN, as forge parses it: after a bare --color comes the next argument.
  assert.equal(bash([['forge', 'read', '--color', 'no']]), [['notes.md']]);
  assert.equal(bash([['forge', 'read', '--color=']]), [['--color=always', '--color=auto', '--color=never']]);
  assert.equal(bash([['forge', 'read', '--json=']]), [[]], 'an option that takes no value offers none');
});

test('bash: every positional with declared choices completes to them, not to file names; its place is counted past options and their values', () => {
  const { cases, want } = positionalCases();
  assert.ok(cases.length >= 20, `only ${cases.length} cases: the positional choices are no longer found`);
  expectAll('positionals', cases, bash(cases), want);
  assert.equal(bash([['forge', 'completion', 'z']]), [['zsh']]);
  assert.equal(bash([['forge', 'plan', 'install-hook', '--settings', 'x.json', 'c']]), [['claude', 'codex']]);
  assert.equal(bash([['forge', 'completion', 'bash', 'no']]), [['notes.md']], 'past the places with choices: file names');
});

test("bash: file names never include git's own (.git in any case, or what is in it), for a positional, an option's value and -C", () => {
  assert.equal(
    bash([['forge', 'read', '.']])[0]!.filter((f) => /^\.g/i.test(f)),
    ['.github/', '.gitignore'],
  );
  // bash's own . and .. aside.
  const named = (lists: string[][]) => lists.map((list) => list.filter((f) => !/(^|\/)\.\.?\/$/.test(f)));
  assert.equal(
    named(
      bash([
        ['forge', 'read', '.git'],
        ['forge', 'read', '.git/'],
        ['forge', 'read', '.git/c'],
        ['forge', 'read', 'src/.'],
        ['forge', 'read', 'nested/'],
        ['forge', 'patch', '--file', '.git/'],
        ['forge', 'patch', '--file=.git/'],
        ['forge', '-C', '.git/'],
        ['forge', 'read', '--cwd', 'src', '.'],
      ]),
    ),
    [['.github/', '.gitignore'], [], [], ['src/.gitkeep'], [], [], [], [], ['.gitkeep']],
  );
});

/** fish and zsh read the scripts they are given; where they are installed, they are asked to. */
const has = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
const hasZsh = has('zsh') && spawnSync('zsh', ['-fc', 'zmodload zsh/zpty']).status === 0;

/** What fish offers for each line (sorted, the descriptions off), in one fish. */
function fish(lines: string[]): string[][] {
  const r = spawnSync(
    'fish',
    ['-c', `source '${join(COMPLETIONS, 'forge.fish')}'; for l in $argv; complete -C "$l"; printf '\\x1e\\n'; end`, ...lines],
    { cwd: tree, encoding: 'utf8' },
  );
  assert.is(r.status, 0, r.stderr);
  return r.stdout
    .split('\x1e\n')
    .slice(0, -1)
    .map((out) =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]!)
        .sort(),
    );
}

test("fish: every option's and positional's choices; a bare --color takes no value; never git's own files", () => {
  if (!has('fish')) return console.log('  (no fish: the fish completion tests are skipped)');
  const options = optionCases();
  // fish completes --name=value whole; --name, = and value are bash's words.
  const lines: string[] = [];
  const want: string[][] = [];
  options.cases.forEach((words, i) => {
    if (words.at(-2) === '=' || words.at(-1) === '=') return;
    lines.push(words.join(' '));
    want.push(options.want[i]!);
  });
  const positional = positionalCases();
  for (const [i, words] of positional.cases.entries()) lines.push(words.join(' ')), want.push(positional.want[i]!);
  expectAll(
    'options and positionals',
    lines.map((l) => [l]),
    fish(lines),
    want,
  );
  assert.equal(fish(['forge read --color no', 'forge completion bash no']), [['notes.md'], ['notes.md']]);
  assert.equal(fish(['forge read .', 'forge read .git/', 'forge read src/.', 'forge patch --file .git/', 'forge -C .']), [
    ['.github/', '.gitignore'],
    [],
    ['src/.gitkeep'],
    [],
    ['.github/'],
  ]);
});

/** What zsh offers for each line typed in the tree: the matches its completion added, once each and sorted, and the line after one Tab. */
function zsh(lines: string[]): Array<{ matches: string[]; line: string }> {
  const env = { ...process.env, FORGE_ZSH_FPATH: COMPLETIONS, FORGE_ZSH_CWD: tree };
  const r = spawnSync('zsh', ['-f', join(process.cwd(), 'test/helpers/zsh-complete.zsh'), ...lines], { encoding: 'utf8', env });
  assert.is(r.status, 0, `${r.stdout}${r.stderr}`);
  return r.stdout
    .replace(/\r/g, '')
    .split('\x04')
    .map((answer) => {
      const [matches, line] = answer.split('\x03') as [string, string];
      return { matches: [...new Set(matches.split('\n').filter(Boolean))].sort(), line };
    });
}

test("zsh: option choices after --name and --name=, every positional's choices, a bare --color taking no value; never git's own files", () => {
  if (!hasZsh) return console.log('  (no zsh with zsh/zpty: the zsh completion tests are skipped)');
  // Every positional with choices, at its place; the options' choices by a few of each kind (a zsh takes a while per line).
  const positional = positionalCases();
  const lines = positional.cases.map((words) => words.join(' '));
  const want = positional.want.map((w) => w);
  for (const [line, choices] of [
    ['forge read --color=', ['always', 'auto', 'never']],
    ['forge --color=', ['always', 'auto', 'never']],
    ['forge memory save x --category ', all.find((t) => t.path === 'forge memory save')!.choices.find(([o]) => o === '--category')![1]],
    ['forge logs --severity=', all.find((t) => t.path === 'forge logs')!.choices.find(([o]) => o === '--severity')![1]],
    ['forge read --color no', ['notes.md']],
    ['forge read .', ['.github', '.gitignore']],
    ['forge read .git/', []],
    ['forge read src/.', ['.gitkeep']],
    ['forge -C .', ['.github']],
    ['forge patch --file=.git/', []],
  ] as const) {
    lines.push(line);
    want.push([...choices].sort());
  }
  const got = zsh(lines);
  expectAll(
    'zsh',
    lines.map((l) => [l]),
    got.map((g) => g.matches),
    want,
  );
  assert.equal(
    zsh(['forge completion z', 'forge read --color=n'])!.map((g) => g.line),
    ['forge completion zsh ', 'forge read --color=never '],
  );
});

test.run();
