// forge init: conventions from real repositories of several kinds, no model call; an existing file is kept.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { repoWith, tempDir, tempRepo } from '../helpers/repo';
import { conflict } from '../helpers/walk-fixture';

async function conventions(files: Record<string, string>): Promise<string> {
  const r = await forge(['init', '--print', '--json'], { cwd: repoWith(files) });
  assert.is(r.code, 0, r.stderr);
  return r.records[0]!.content as string;
}

test('a TypeScript package: pnpm scripts, eslint and prettier configs, vitest test files, strict tsconfig', async () => {
  const text = await conventions({
    'README.md': '# shop\n\n[![ci](x.svg)](y)\n\nA small shop API. It sells things.\n\n## Install\n',
    'package.json': JSON.stringify({
      type: 'module',
      engines: { node: '>=20' },
      scripts: { build: 'tsc', test: 'vitest run', lint: 'eslint .' },
      devDependencies: { typescript: '5', vitest: '1', eslint: '9', prettier: '3' },
    }),
    'pnpm-lock.yaml': '',
    'tsconfig.json': '// comment\n{"compilerOptions": {"strict": true}}',
    'eslint.config.js': 'export default [];\n',
    '.prettierrc': '{}',
    '.editorconfig': 'root = true\n[*]\nindent_style = space\nindent_size = 2\n',
    'src/app.ts': '',
    'src/app.test.ts': '',
    'src/cart/cart.test.ts': '',
    'src/cart/cart.ts': '',
  });
  assert.is(
    text,
    [
      '# Conventions',
      '',
      "<!-- Written by forge init from this repository's files; edit freely: agents read it. -->",
      '',
      'A small shop API. It sells things.',
      '',
      '- Languages: TypeScript; packages: pnpm',
      '- Build: `pnpm build`',
      '- Test: `pnpm test`',
      '- Lint: `pnpm lint`',
      '- Tests: 2 files named *.test.ts under src/ (vitest)',
      '- Tooling: eslint (eslint.config.js), prettier (.prettierrc), typescript (package.json)',
      '- ES modules ("type": "module")',
      '- Node >=20',
      '- TypeScript strict mode (tsconfig.json)',
      '- indent: space 2 (.editorconfig)',
      '- Layout: src/ (4)',
      '- Follow the style of the surrounding code; run the test command before saying a change is done.',
      '',
    ].join('\n'),
  );
});

test('Go, Rust and Python repositories, and a Makefile that wins over them', async () => {
  const go = await conventions({ 'go.mod': 'module x\n', 'main.go': '', 'pkg/a_test.go': '', '.golangci.yml': '' });
  assert.match(
    go,
    /- Languages: Go\n- Build: `go build \.\/\.\.\.`\n- Test: `go test \.\/\.\.\.`\n- Tests: 1 file named \*_test\.go under pkg\/ \(go test\)\n- Tooling: golangci-lint \(\.golangci\.yml\)\n/,
  );
  const rust = await conventions({ 'Cargo.toml': '[package]\nname = "x"\n', 'src/main.rs': '', 'tests/it.rs': '' });
  assert.match(
    rust,
    /- Languages: Rust\n- Build: `cargo build`\n- Test: `cargo test`\n- Lint: `cargo clippy`\n- Tests: 1 file under tests\/ \(cargo test\)\n/,
  );
  const py = await conventions({
    'pyproject.toml': '[tool.pytest.ini_options]\n[tool.ruff]\nline-length = 100\n',
    'uv.lock': '',
    'app/main.py': '',
    'tests/test_main.py': '',
    Makefile: 'test:\n\tuv run pytest -q\nlint:\n\truff check\n',
  });
  assert.match(
    py,
    /- Languages: Python; packages: uv\n- Test: `make test`\n- Lint: `make lint`\n- Tests: 1 file named test_\*\.py under tests\/ \(pytest\)\n- Tooling: ruff \(pyproject\.toml\)\n/,
  );
});

test("--agents-md writes the same facts into forge's marked section of AGENTS.md: the user's text kept, the section updated in place, never doubled", async () => {
  const dir = repoWith({
    'AGENTS.md': '# How we work\nSmall commits.\n',
    'package.json': JSON.stringify({ scripts: { test: 'vitest run' } }),
  });
  const first = await forge(['init', '--agents-md'], { cwd: dir });
  assert.is(first.code, 0, first.stderr);
  const text = readFileSync(join(dir, 'AGENTS.md'), 'utf8');
  assert.ok(text.startsWith('# How we work\nSmall commits.\n\n<!-- forge init: start'), text);
  assert.match(text, /- Test: `npm test`/);
  assert.not.match(text, /edit freely/, 'the section is regenerated: edits go outside its markers');
  const again = await forge(['init', '--agents-md'], { cwd: dir });
  assert.is(again.code, 0, again.stderr);
  assert.is(readFileSync(join(dir, 'AGENTS.md'), 'utf8'), text, 'a second run changes nothing');
  assert.is((text.match(/forge init: start/g) ?? []).length, 1);
});

test('--agents-md refuses a directory or a FIFO named AGENTS.md at once, writing nothing (a read would fail or wait forever)', async () => {
  const dir = tempRepo();
  mkdirSync(join(dir, 'AGENTS.md'));
  const d = await forge(['init', '--agents-md', '--json'], { cwd: dir });
  assert.equal([d.code, d.records[0]!.error.code], [1, 'NOT_A_REGULAR_FILE']);
  rmdirSync(join(dir, 'AGENTS.md'));
  spawnSync('mkfifo', [join(dir, 'AGENTS.md')]);
  const f = await forge(['init', '--agents-md', '--json'], { cwd: dir });
  assert.equal([f.code, f.records[0]!.error.code], [1, 'NOT_A_REGULAR_FILE']);
  assert.ok(statSync(join(dir, 'AGENTS.md')).isFIFO());
});

test('writes .forge/conventions.md once; --force replaces it; an empty repository still gets the rule', async () => {
  const dir = tempRepo();
  const first = await forge(['init'], { cwd: dir });
  assert.is(first.code, 0, first.stderr);
  assert.match(first.stdout, /^wrote \S+\/\.forge\/conventions\.md \(\d+ lines\)/);
  assert.match(
    readFileSync(join(dir, '.forge/conventions.md'), 'utf8'),
    /^# Conventions\n[\s\S]*- Follow the style of the surrounding code/,
  );
  writeFileSync(join(dir, '.forge/conventions.md'), 'my own rules\n');
  const again = await forge(['init', '--json'], { cwd: dir });
  assert.equal([again.code, again.records[0]!.error.code, again.records[0]!._next_action], [1, 'CONVENTIONS_EXIST', 'forge init --force']);
  assert.is(readFileSync(join(dir, '.forge/conventions.md'), 'utf8'), 'my own rules\n');
  assert.is((await forge(['init', '--force'], { cwd: dir })).code, 0);
  assert.not.match(readFileSync(join(dir, '.forge/conventions.md'), 'utf8'), /my own rules/);
});

test('a README or package.json that is a symlink out of the repository is not read', async () => {
  const outside = tempDir('forge-outside-');
  writeFileSync(join(outside, 'secret.md'), '# secret\n\nThe launch codes are 0000.\n');
  writeFileSync(
    join(outside, 'package.json'),
    JSON.stringify({ scripts: { test: 'vitest run' }, devDependencies: { typescript: '5', vitest: '1' } }),
  );
  const dir = tempRepo({ commit: false });
  symlinkSync(join(outside, 'secret.md'), join(dir, 'README.md'));
  symlinkSync(join(outside, 'package.json'), join(dir, 'package.json'));
  writeFileSync(join(dir, 'requirements.txt'), 'requests\n');
  spawnSync('git', ['add', '-A'], { cwd: dir });
  const r = await forge(['init', '--print'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  assert.not.match(r.stdout, /launch codes|TypeScript|JavaScript|vitest/);
  assert.match(r.stdout, /Python/);
});

test("the index read as git lists it: a conflict's stages count once, non-ASCII paths, and a split index (git's own listing) alike", async () => {
  const dir = repoWith({ 'src/a.test.ts': '', 'src/b.ts': '', 'src/c.ts': 'base\n', 'dócs/ünï.md': '', 'lib/x.ts': '' });
  conflict(dir, 'src/c.ts');
  assert.match(spawnSync('git', ['ls-files', '-s', 'src/c.ts'], { cwd: dir, encoding: 'utf8' }).stdout, / 3\tsrc\/c\.ts/, 'a conflict');
  const layout = async () => {
    const r = await forge(['init', '--print'], { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    return r.stdout.match(/^- Layout: .*$/m)?.[0];
  };
  assert.is(await layout(), '- Layout: src/ (3), dócs/ (1), lib/ (1)');
  // ASCII only: each directory's files are counted by where its paths end.
  spawnSync('git', ['rm', '-q', '--cached', 'dócs/ünï.md'], { cwd: dir });
  assert.is(await layout(), '- Layout: src/ (3), lib/ (1)');
  spawnSync('git', ['update-index', '--split-index'], { cwd: dir });
  assert.ok(readFileSync(join(dir, '.git', 'index')).includes('link'), 'a split index, which readIndex leaves to git');
  assert.is(await layout(), '- Layout: src/ (3), lib/ (1)', "a split index: git's listing, the same");
});

test.run();
