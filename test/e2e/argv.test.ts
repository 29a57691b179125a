// The command line as git and gh users type it, through the built binary: `--` ends options, common options before the command, help and version, group pages, width, colour.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { shellSplit } from '../../lib/quote';
import { forge, forgeEnv } from '../helpers/forge';
import { git, tempRepo } from '../helpers/repo';
import { version as pkgVersion } from '../../package.json';

const repo = tempRepo();
writeFileSync(join(repo, '-f.txt'), 'a file named like an option\n');
writeFileSync(join(repo, 'flags.txt'), 'run it with --verbose\n');
git(repo, 'add', '-A');
git(repo, 'commit', '-q', '-m', 'dashes');

test('after -- every word is an argument: a pattern, a path or a query that starts with a dash', async () => {
  const search = await forge(['search', '--json', '--', '--verbose'], { cwd: repo });
  assert.is(search.code, 0, search.stderr);
  assert.equal(
    search.records.filter((r) => r.type === 'match').map((r) => `${r.path}:${r.line}`),
    ['flags.txt:1'],
  );
  const read = await forge(['read', '--', '-f.txt'], { cwd: repo });
  assert.is(read.code, 0, read.stderr);
  assert.match(read.stdout, /a file named like an option/);
  await forge(['memory', 'save', '-x marks the spot', '--json'], { cwd: repo });
  const recall = await forge(['memory', 'recall', '--json', '--', '-x'], { cwd: repo });
  assert.is(recall.code, 0, recall.stderr);
  assert.is(recall.records.at(-1)!.query, '-x', 'the query after -- is kept, not dropped');
});

test('an option that takes a value takes one that starts with a dash; -- itself can be searched for after --', async () => {
  writeFileSync(join(repo, 'y.txt'), '-y here\n');
  const edit = await forge(['edit', 'y.txt', '--old', '-y', '--new', 'z'], { cwd: repo });
  assert.is(edit.code, 0, edit.stderr);
  const dashes = await forge(['search', '--json', '--', '--'], { cwd: repo });
  assert.equal(
    dashes.records.filter((r) => r.type === 'match').map((r) => r.path),
    ['flags.txt'],
  );
});

test('a value that looks like an option stays a value, with common options before the command too: --old --color, --old --, --old --color=bad', async () => {
  for (const [file, text] of [
    ['v1.txt', 'a --color b\n'],
    ['v2.txt', 'c -- d\n'],
    ['v3.txt', 'e --color=bad f\n'],
  ])
    writeFileSync(join(repo, file!), text!);
  const color = await forge(['edit', 'v1.txt', '--old', '--color', '--new', 'X'], { cwd: repo });
  assert.is(color.code, 0, color.stderr);
  assert.not.match(color.stdout, /\x1b\[/, 'the value did not turn colour on');
  const dashes = await forge(['--json', '-C', repo, 'edit', 'v2.txt', '--old', '--', '--new', 'Y'], { cwd: repo });
  assert.is(dashes.code, 0, dashes.stderr);
  const bad = await forge(['edit', 'v3.txt', '--old', '--color=bad', '--new', 'Z'], { cwd: repo });
  assert.is(bad.code, 0, bad.stderr);
  assert.equal(
    ['v1.txt', 'v2.txt', 'v3.txt'].map((f) => readFileSync(join(repo, f), 'utf8')),
    ['a X b\n', 'c Y d\n', 'e Z f\n'],
  );
});

test('a hint holding a text that starts with a dash puts it after --, and keeps --cwd before it: it runs as printed', async () => {
  writeFileSync(join(repo, 'twice.txt'), '--flag one\n--flag two\n');
  const ambiguous = await forge(['-C', repo, 'edit', 'twice.txt', '--old', '--flag', '--new', 'x'], { cwd: tempRepo() });
  assert.is(ambiguous.code, 1);
  const fix = /Fix: (.*)/.exec(ambiguous.stderr)![1]!;
  assert.is(fix, `forge search --literal --cwd ${repo} -- --flag twice.txt`);
  const followed = await forge(shellSplit(fix)!.slice(1), { cwd: tempRepo() });
  assert.is(followed.code, 0, followed.stderr);
  assert.match(followed.stdout, /2 matches in 1 file/);
  writeFileSync(join(repo, 'many.txt'), Array.from({ length: 60 }, () => '-x marks\n').join(''));
  const capped = await forge(['search', '--json', '--cwd', repo, '--', '-x marks'], { cwd: tempRepo() });
  const next = capped.records.at(-1)!._next_action as string;
  assert.match(next, / --cwd \S+ -- '-x marks' /);
  const rerun = await forge(shellSplit(next)!.slice(1), { cwd: tempRepo() });
  assert.is(rerun.code, 0, rerun.stderr);
  assert.match(rerun.stdout, /matches? in/);
});

test('words after -- still count: one too many is refused as unexpected, exit 2', async () => {
  const r = await forge(['read', '--', '-f.txt', 'x', 'y', 'z'], { cwd: repo });
  assert.is(r.code, 2);
  assert.match(r.stderr, /unexpected argument/);
  assert.match(r.stderr, /Fix: /);
});

test('common options may come before the command: -C DIR, --cwd=DIR, --json, --run-id, as git and gh take them', async () => {
  const elsewhere = tempRepo();
  for (const args of [['-C', repo], ['-C' + repo], ['--cwd', repo], [`--cwd=${repo}`]]) {
    const r = await forge([...args, '--json', 'read', 'flags.txt'], { cwd: elsewhere });
    assert.is(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.is(r.records.at(-1)!.path, 'flags.txt', args.join(' '));
  }
  const logged = await forge(['--run-id', 'r7', '--json', 'memory', 'recall', 'x'], { cwd: repo });
  assert.is(logged.code, 0, logged.stderr);
  const events = await forge(['logs', '--run-id', 'r7', '--json'], { cwd: repo });
  assert.ok(
    events.records.some((e) => e.event === 'memory recall' && e.runId === 'r7'),
    'the call was logged under the run given before the command',
  );
  const missing = await forge(['-C'], { cwd: repo });
  assert.is(missing.code, 2);
  assert.match(missing.stderr, /option '--cwd' needs a value\nFix: forge --help/);
  const unknown = await forge(['--bogus', 'ls'], { cwd: repo });
  assert.is(unknown.code, 2);
  assert.match(unknown.stderr, /unknown option '--bogus'/);
});

test('forge help [cmd], forge version, and a group alone print what git and gh print, exit 0', async () => {
  const viaHelp = await forge(['help', 'plan', 'new'], { cwd: repo });
  const viaFlag = await forge(['plan', 'new', '--help'], { cwd: repo });
  assert.is(viaHelp.code, 0);
  assert.is(viaHelp.stdout, viaFlag.stdout);
  assert.match(viaHelp.stdout, /^forge plan new /);
  assert.is((await forge(['help'], { cwd: repo })).stdout, (await forge(['--help'], { cwd: repo })).stdout);
  const version = await forge(['version'], { cwd: repo });
  assert.is(version.code, 0);
  assert.match(version.stdout, /^forge \d+\.\d+\.\d+/);
  const group = await forge(['plan'], { cwd: repo });
  assert.is(group.code, 0, group.stderr);
  assert.match(group.stdout, /forge plan new/);
  assert.is((await forge(['--json', 'plan'], { cwd: repo })).code, 0);
  const typo = await forge(['plan', '--bogus'], { cwd: repo });
  assert.is(typo.code, 2);
});

test('forge version takes the common options anywhere: --json is one record; help is the overview; anything else is refused', async () => {
  const expected = {
    ok: true,
    version: pkgVersion,
    node: process.versions.node,
    platform: process.platform,
    arch: process.arch,
    _next_action: null,
  };
  for (const args of [
    ['version', '--json'],
    ['--json', 'version'],
    ['--version', '--json'],
    ['-V', '--json'],
    ['-C', repo, 'version', '--json'],
  ]) {
    const r = await forge(args, { cwd: repo });
    assert.is(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.records, [expected], args.join(' '));
  }
  const env = await forge(['version'], { cwd: repo, env: { FORGE_JSON: '1' } });
  assert.equal(env.records, [expected], 'FORGE_JSON=1 asks for the record too');
  for (const args of [
    ['version', '--no-color'],
    ['version', '--run-id', 'r1'],
    ['--color=always', 'version'],
    ['version', '--cwd', repo],
  ]) {
    const r = await forge(args, { cwd: repo });
    assert.equal([r.code, r.stdout, r.stderr], [0, `forge ${pkgVersion}\n`, ''], args.join(' '));
  }
  const overview = (await forge(['--help'], { cwd: repo })).stdout;
  assert.match(overview, /forge version \[--json\]/);
  for (const args of [
    ['version', '--help'],
    ['help', 'version'],
    ['version', '-h'],
  ])
    assert.is((await forge(args, { cwd: repo })).stdout, overview, args.join(' '));
  const extra = await forge(['version', 'extra'], { cwd: repo });
  assert.equal([extra.code, extra.stderr], [2, "Error: unexpected argument 'extra'\nFix: forge version\n"]);
  const bogus = await forge(['version', '--bogus', '--json'], { cwd: repo });
  assert.is(bogus.code, 2);
  assert.equal(
    bogus.records.map((r) => [r.ok, (r.error as { code: string }).code, r._next_action]),
    [[false, 'UNKNOWN_OPTION', 'forge version']],
  );
  const bare = await forge(['version', '-C'], { cwd: repo });
  assert.equal([bare.code, bare.stderr], [2, "Error: option '--cwd' needs a value\nFix: forge version\n"]);
});

test('help wraps to the terminal width ($COLUMNS when not a terminal); a word longer than the width stands alone', async () => {
  for (const columns of ['50', '80']) {
    for (const args of [['--help'], ['plan'], ['agent', '--help'], ['search', '--help']]) {
      const r = await forge(args, { cwd: repo, env: { COLUMNS: columns } });
      const long = r.stdout.split('\n').filter((l) => l.length > Number(columns) && /\s\S/.test(l.trim()));
      assert.equal(long, [], `${args.join(' ')} at ${columns} columns`);
    }
  }
});

test('colour: --color=always and FORCE_COLOR colour a pipe; --color=never, --no-color and NO_COLOR do not; a bad value is refused', async () => {
  const colored = (r: { stderr: string }) => r.stderr.includes('\x1b[');
  const fails = ['read', 'no-such-file.txt'];
  assert.ok(colored(await forge([...fails, '--color=always'], { cwd: repo })));
  assert.ok(colored(await forge(['--color', ...fails], { cwd: repo })), 'a bare --color is always');
  assert.ok(colored(await forge(fails, { cwd: repo, env: { FORCE_COLOR: '1' } })));
  assert.ok(colored(await forge([...fails, '--color=always'], { cwd: repo, env: { NO_COLOR: '1' } })), 'the flag beats NO_COLOR');
  assert.not.ok(colored(await forge(fails, { cwd: repo })), 'a pipe gets no colour by default');
  assert.not.ok(colored(await forge([...fails, '--color=never'], { cwd: repo, env: { FORCE_COLOR: '1' } })), 'the flag beats FORCE_COLOR');
  assert.not.ok(colored(await forge([...fails, '--no-color'], { cwd: repo, env: { FORCE_COLOR: '1' } })));
  assert.not.ok(colored(await forge(fails, { cwd: repo, env: { FORCE_COLOR: '0' } })));
  const bad = await forge([...fails, '--color=sometimes'], { cwd: repo });
  assert.is(bad.code, 2);
  assert.match(bad.stderr, /'--color' must be one of auto, always, never/);
});

test('colour marks what search matched and what validate found, only when colour is on', async () => {
  const search = await forge(['search', 'verbose', '--color=always'], { cwd: repo });
  assert.ok(search.stdout.includes('\x1b[35mflags.txt\x1b[39m'), 'the file heading is coloured');
  assert.match(search.stdout, /run it with --\x1b\[31m\x1b\[1mverbose\x1b\[22m\x1b\[39m/);
  const plain = await forge(['search', 'verbose'], { cwd: repo });
  assert.not.match(plain.stdout, /\x1b\[/);
  const json = await forge(['search', 'verbose', '--json', '--color=always'], { cwd: repo });
  assert.not.match(json.stdout, /\x1b\[/, 'NDJSON is never coloured');
  const checked = await forge(['validate', 'm1', '--file', 'flags.txt', '--file', 'gone.txt', '--color=always'], { cwd: repo });
  assert.match(checked.stdout, /\x1b\[32mok {2}\x1b\[39m/);
  assert.match(checked.stdout, /\x1b\[31m\x1b\[1mFAIL\x1b\[22m\x1b\[39m/);
});

/** Runs forge under a pseudo-terminal (util-linux script), as a person at a terminal does. */
function onTerminal(args: string[], env: Record<string, string>): { stdout: string; code: number | null } {
  const line = [process.execPath, join(process.cwd(), 'dist/forge.js'), ...args].map((w) => `'${w}'`).join(' ');
  const r = spawnSync('script', ['-qec', line, '/dev/null'], { cwd: repo, env: { ...forgeEnv(), ...env }, encoding: 'utf8' });
  return { stdout: r.stdout, code: r.status };
}

test('long text on a terminal goes through the pager (FORGE_PAGER, then PAGER); not off a terminal, not with cat or an empty one', async () => {
  const paged = join(repo, '.git', 'paged.txt');
  const pager = `cat > '${paged}'`;
  const shown = onTerminal(['state', 'log'], { FORGE_PAGER: pager });
  assert.is(shown.code, 0);
  assert.match(readFileSync(paged, 'utf8'), /commit on refs\/forge\/state|commits on refs\/forge\/state/, 'the pager got the log');
  assert.not.match(shown.stdout, /refs\/forge\/state/, 'nothing went around it');
  rmSync(paged);
  assert.match(onTerminal(['state', 'log'], { PAGER: pager }).stdout, /^$/);
  assert.ok(existsSync(paged), 'PAGER is used when FORGE_PAGER is not set');
  rmSync(paged);
  for (const env of [
    { FORGE_PAGER: 'cat', PAGER: pager },
    { FORGE_PAGER: '', PAGER: pager },
  ]) {
    assert.match(onTerminal(['state', 'log'], env).stdout, /refs\/forge\/state/, JSON.stringify(env));
    assert.not.ok(existsSync(paged));
  }
  const piped = await forge(['state', 'log'], { cwd: repo, env: { FORGE_PAGER: pager } });
  assert.match(piped.stdout, /refs\/forge\/state/);
  assert.not.ok(existsSync(paged), 'no pager when stdout is not a terminal');
  const quit = onTerminal(['state', 'log'], { FORGE_PAGER: 'head -c 1 >/dev/null' });
  assert.is(quit.code, 0, 'a pager quit early ends the command quietly');
});

test('a pager that cannot start: the output on the terminal after a warning; one that fails: an error, exit 1 — never silence', async () => {
  const log = (await forge(['state', 'log'], { cwd: repo })).stdout;
  assert.match(log, /refs\/forge\/state/);
  // Run as is (no shell word in it, as git runs one), through sh (arguments), and a file that is not executable.
  const plain = join(repo, '.git', 'not-a-pager');
  writeFileSync(plain, 'not a program\n');
  for (const pager of ['/nonexistent/pager', 'no-such-pager-anywhere -R', plain]) {
    const r = onTerminal(['state', 'log'], { FORGE_PAGER: pager });
    const shown = r.stdout.replace(/\x1b\[[0-9;]*m/g, '');
    assert.is(r.code, 0, pager);
    const warning = shown.indexOf(`warning: cannot run the pager '${pager}'`);
    assert.ok(warning >= 0, `${pager}: ${shown}`);
    assert.ok(shown.indexOf(log.replace(/\n/g, '\r\n')) > warning, `${pager}: the whole output follows the warning:\n${shown}`);
  }
  // Exits at once without reading, non-zero; exits having read part of it; killed.
  const failing: Array<[string, string]> = [
    ['false', 'exited with status 1'],
    ['head -c 10 >/dev/null; exit 3', 'exited with status 3'],
    ['kill -9 $$', 'was killed by SIGKILL'],
  ];
  for (const [pager, status] of failing) {
    const r = onTerminal(['state', 'log'], { FORGE_PAGER: pager });
    assert.is(r.code, 1, `${pager}: ${r.stdout}`);
    assert.is(
      r.stdout.replace(/\x1b\[[0-9;]*m/g, ''),
      `Error: the pager '${pager}' ${status}, so the output may not have been shown\r\nFix: FORGE_PAGER=cat forge state log\r\n`,
    );
  }
});

test.run();
