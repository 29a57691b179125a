// Shell completion as a user meets it: directories with /, names with spaces, options before the command, -C/--cwd honoured; forge completion prints the scripts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { tempDir } from '../helpers/repo';

const SCRIPT = join(process.cwd(), 'completions/forge.bash');
const tree = tempDir('forge-complete-');
mkdirSync(join(tree, 'src/lib'), { recursive: true });
mkdirSync(join(tree, 'my dir'));
writeFileSync(join(tree, 'my file.txt'), '');
writeFileSync(join(tree, 'src/a.ts'), '');
const elsewhere = tempDir('forge-complete-cwd-');

/** What bash's completion function offers for the words typed, the last being completed, in `cwd`. */
function bash(cwd: string, ...words: string[]): string[] {
  const r = spawnSync(
    'bash',
    ['-c', `source '${SCRIPT}'; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _forge; printf '%s\\n' "\${COMPREPLY[@]}"`, 'bash', ...words],
    { cwd, encoding: 'utf8' },
  );
  assert.is(r.status, 0, r.stderr);
  return r.stdout.split('\n').filter(Boolean).sort();
}

test('bash: a directory completes with a trailing /, a name with spaces comes back quoted', () => {
  assert.equal(bash(tree, 'forge', 'read', 'sr'), ['src/']);
  assert.equal(bash(tree, 'forge', 'read', 'src/'), ['src/a.ts', 'src/lib/']);
  assert.equal(bash(tree, 'forge', 'read', 'my'), ['my\\ dir/', 'my\\ file.txt']);
  assert.equal(bash(tree, 'forge', 'read', 'my\\ f'), ['my\\ file.txt'], 'a space typed escaped');
  assert.equal(bash(tree, 'forge', 'read', '"my f'), ['my\\ file.txt'], 'a space typed in quotes');
});

test('bash: options before the command are offered and skipped; -C/--cwd makes file names relative to it', () => {
  assert.equal(bash(tree, 'forge', '--'), ['--color', '--cwd', '--help', '--json', '--no-color', '--run-id', '--version']);
  assert.equal(bash(tree, 'forge', '-C', tree, 'mem'), ['memory']);
  assert.equal(bash(tree, 'forge', '--json', 'memory', 's'), ['save']);
  assert.equal(bash(tree, 'forge', '-C', tree, 'memory', 'save', '--r'), ['--run-id']);
  assert.equal(bash(elsewhere, 'forge', '-C', tree, 'read', 'sr'), ['src/'], 'relative to -C, not to the shell');
  assert.equal(bash(elsewhere, 'forge', 'read', '--cwd', join(tree, 'src'), ''), ['a.ts', 'lib/']);
  assert.equal(bash(elsewhere, 'forge', `--cwd=${tree}`, 'read', 'my'), ['my\\ dir/', 'my\\ file.txt']);
  assert.equal(bash(elsewhere, 'forge', '-C', `${tree}/s`), [`${tree}/src/`], '-C completes directories only');
  assert.equal(bash(tree, 'forge', 'search', '--color', 'n'), ['never']);
});

test('forge completion bash|zsh|fish prints the script of the package, the hint on stderr; another shell is refused', async () => {
  for (const [shell, file] of [
    ['bash', 'forge.bash'],
    ['zsh', '_forge'],
    ['fish', 'forge.fish'],
  ] as const) {
    const r = await forge(['completion', shell], { cwd: tree });
    assert.is(r.code, 0, r.stderr);
    assert.is(`${r.stdout}`, readFileSync(join('completions', file), 'utf8'), shell);
    assert.is(r.stderr, 'Done.\n');
  }
  const loaded = spawnSync(
    'bash',
    ['-c', `eval "$(${process.execPath} ${join(process.cwd(), 'dist/forge.js')} completion bash 2>/dev/null)"; complete -p forge-read`],
    { encoding: 'utf8' },
  );
  assert.match(loaded.stdout, /complete -F _forge .*forge-read/);
  const bad = await forge(['completion', 'tcsh'], { cwd: tree });
  assert.is(bad.code, 2);
  assert.match(bad.stderr, /must be one of bash, zsh, fish/);
});

/** fish and zsh read the scripts they are given; where they are installed, they are asked to. */
const has = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;

test('fish and zsh accept their scripts; fish offers directories for -C and file names for a path', () => {
  if (has('zsh')) assert.is(spawnSync('zsh', ['-n', 'completions/_forge']).status, 0);
  if (!has('fish')) return;
  const fish = (line: string) =>
    spawnSync('fish', ['-c', `source '${join(process.cwd(), 'completions/forge.fish')}'; complete -C '${line}'`], {
      cwd: tree,
      encoding: 'utf8',
    })
      .stdout.split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[0]!)
      .sort();
  assert.equal(fish('forge read sr'), ['src/']);
  assert.equal(fish('forge read my'), ['my dir/', 'my file.txt']);
  assert.ok(fish('forge --').includes('--cwd'));
  assert.equal(fish(`forge -C ${tree}/s`), [`${tree}/src/`]);
});

test.run();
