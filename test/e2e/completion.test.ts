// Shell completion as a user meets it, in bash and in a real zsh: directories with /, names with spaces, options before the command, -C/--cwd honoured; forge completion prints the scripts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { tempDir } from '../helpers/repo';

const SCRIPT = join(process.cwd(), 'completions/forge.bash');
const tree = tempDir('forge-complete-');
mkdirSync(join(tree, 'src/lib'), { recursive: true });
mkdirSync(join(tree, 'my dir/inner'), { recursive: true });
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
  assert.equal(bash(tree, 'forge', 'search', '--color=n'), ['--color=never']);
  assert.equal(bash(tree, 'forge', 'search', '--color', 'sr'), ['src/'], 'a bare --color takes no value (it is --color=always)');
  // bash splits --name=value at the = (COMP_WORDBREAKS): the words --name, = and value are read as one.
  assert.equal(bash(tree, 'forge', 'search', '--color', '=', 'n'), ['never']);
  assert.equal(bash(elsewhere, 'forge', '--cwd', '=', tree, 'read', 'my'), ['my\\ dir/', 'my\\ file.txt']);
  assert.equal(bash(elsewhere, 'forge', 'read', '--cwd', '=', `${tree}/s`), [`${tree}/src/`]);
  // A relative -C is from the shell's directory; a quoted or escaped one is read as the shell reads it.
  assert.equal(bash(join(tree, '..'), 'forge', '-C', basename(tree), 'read', 'sr'), ['src/']);
  for (const quoted of ['my\\ dir', '"my dir"', "'my dir'"])
    assert.equal(bash(tree, 'forge', '-C', quoted, 'read', 'in'), ['inner/'], quoted);
});

test('forge completion bash|zsh|fish prints the script of the package and nothing else (no hint on either stream); another shell is refused', async () => {
  for (const [shell, file] of [
    ['bash', 'forge.bash'],
    ['zsh', '_forge'],
    ['fish', 'forge.fish'],
  ] as const) {
    const r = await forge(['completion', shell], { cwd: tree });
    assert.is(r.code, 0, r.stderr);
    assert.is(`${r.stdout}`, readFileSync(join('completions', file), 'utf8'), shell);
    assert.is(r.stderr, '', 'eval "$(forge completion bash)" in a .bashrc prints nothing in a new shell');
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
/** zsh with its pseudo-terminal module, which the zsh tests drive its line editor through. */
const hasZsh = has('zsh') && spawnSync('zsh', ['-fc', 'zmodload zsh/zpty']).status === 0;

/** What zsh's completion of _forge offers for `line` typed in `cwd` (sorted, once each), and the line after one Tab. */
function zsh(cwd: string, line: string): { matches: string[]; line: string } {
  const env = { ...process.env, FORGE_ZSH_FPATH: join(process.cwd(), 'completions'), FORGE_ZSH_CWD: cwd };
  const r = spawnSync('zsh', ['-f', join(process.cwd(), 'test/helpers/zsh-complete.zsh'), line], { encoding: 'utf8', env });
  assert.is(r.status, 0, `${line}: ${r.stdout}${r.stderr}`);
  const [matches, after] = r.stdout.replace(/\r/g, '').split('\x03') as [string, string];
  return { matches: [...new Set(matches.split('\n').filter(Boolean))].sort(), line: after };
}

test('zsh: a directory completes with a trailing /, a name with spaces comes back quoted', () => {
  if (!hasZsh) return console.log('  (no zsh with zsh/zpty: the zsh completion tests are skipped)');
  assert.equal(zsh(tree, 'forge read sr'), { matches: ['src'], line: 'forge read src/' });
  assert.equal(zsh(tree, 'forge read src/').matches, ['a.ts', 'lib']);
  assert.equal(zsh(tree, 'forge read my'), { matches: ['my\\ dir', 'my\\ file.txt'], line: 'forge read my\\ ' });
  assert.equal(zsh(tree, 'forge read my\\ f').line, 'forge read my\\ file.txt ', 'a space typed escaped');
  assert.equal(zsh(tree, 'forge read "my f').line, 'forge read "my file.txt" ', 'a space typed in quotes');
  assert.equal(zsh(tree, 'forge read my\\ dir/').line, 'forge read my\\ dir/inner/');
  assert.equal(zsh(tree, 'forge-read sr').line, 'forge-read src/', 'forge-<command> completes as forge <command>');
});

test('zsh: options before the command are offered and skipped; -C/--cwd makes file names relative to it, as typed', () => {
  if (!hasZsh) return console.log('  (no zsh with zsh/zpty: the zsh completion tests are skipped)');
  assert.equal(zsh(tree, 'forge --').matches, ['--color', '--cwd', '--help', '--json', '--no-color', '--run-id', '--version']);
  assert.equal(zsh(tree, `forge -C ${tree} mem`).line, `forge -C ${tree} memory `);
  assert.equal(zsh(tree, 'forge --json memory s').line, 'forge --json memory save ');
  assert.equal(zsh(tree, 'forge plan n').line, 'forge plan new ');
  assert.equal(zsh(tree, `forge -C ${tree} memory save --r`).line, `forge -C ${tree} memory save --run-id `);
  assert.equal(zsh(elsewhere, `forge -C ${tree} read sr`).line, `forge -C ${tree} read src/`, 'relative to -C, not to the shell');
  assert.equal(zsh(elsewhere, `forge read --cwd ${join(tree, 'src')} `).matches, ['a.ts', 'lib']);
  assert.equal(zsh(elsewhere, `forge --cwd=${tree} read my`).matches, ['my\\ dir', 'my\\ file.txt']);
  assert.equal(zsh(elsewhere, `forge -C ${tree}/s`).line, `forge -C ${tree}/src/`, '-C completes directories only');
  // A relative -C is from the shell's directory; a quoted or escaped one is read as the shell reads it.
  assert.equal(zsh(join(tree, '..'), `forge -C ${basename(tree)} read sr`).line, `forge -C ${basename(tree)} read src/`);
  assert.equal(zsh(tree, `forge -Csrc read l`).line, 'forge -Csrc read lib/');
  for (const quoted of ['my\\ dir', '"my dir"', "'my dir'"])
    assert.equal(zsh(tree, `forge -C ${quoted} read in`).line, `forge -C ${quoted} read inner/`, quoted);
  assert.equal(
    zsh(tree, 'forge search --color sr').line,
    'forge search --color src/',
    'a bare --color takes no value (it is --color=always)',
  );
  assert.equal(zsh(tree, 'forge search --color=n').line, 'forge search --color=never ');
  assert.equal(zsh(elsewhere, `forge --cwd=${tree}/s`).line, `forge --cwd=${tree}/src/`);
});

test('fish and zsh accept their scripts; fish offers directories for -C and file names for a path', () => {
  if (has('zsh')) assert.is(spawnSync('zsh', ['-n', 'completions/_forge']).status, 0);
  if (!has('fish')) return console.log('  (no fish: the fish completion test is skipped)');
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

test('forge schema read > tool.json: the file holds one JSON document per tool and nothing else, and no hint goes to stderr', async () => {
  const r = await forge(['schema', 'read'], { cwd: tree });
  assert.equal([r.code, r.stderr], [0, '']);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(
    lines.map((l) => (JSON.parse(l) as { name: string }).name),
    ['read'],
  );
  const json = await forge(['schema', 'read', '--json'], { cwd: tree });
  assert.equal(json.records.at(-1), { ok: true, type: 'summary', tools: 1, _next_action: null }, 'NDJSON still ends with its summary');
});

test.run();
