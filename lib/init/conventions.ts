// What a repository's own files say about how to work in it — manifests, lint configs, test layout, README — as a short conventions file.
import { listFiles, readListedFile } from '../files/list';
import { decodeString } from '../files/text';
import { resolveInside, type Workspace } from '../files/workspace';
import { readIndexPaths } from '../git/index-file';
import { listIndexPaths } from '../git/repo';

export const CONVENTIONS_PATH = '.forge/conventions.md';

/** Facts found, each with the file it came from, in the order they are written. */
export interface Conventions {
  summary: string | null;
  languages: string[];
  packageManager: string | null;
  commands: Array<{ what: 'build' | 'test' | 'lint' | 'format' | 'typecheck'; command: string; from: string }>;
  tooling: Array<{ tool: string; from: string }>;
  tests: { files: number; dirs: string[]; patterns: string[]; framework: string | null };
  layout: Array<{ dir: string; files: number }>;
  style: string[];
}

/**
 * What init needs of the repository's files (relative to root): the top-level files (a set, in
 * listing order), the number of files under each top-level directory, and the paths holding
 * `test` or `spec` — a test file's name always does. The tracked files say how to work in it, and
 * the index lists them without a walk; before the first commit, the work tree is all there is.
 * The listing is one string of NUL-ended paths, scanned without a string per path: 100k paths cost
 * a few milliseconds, not a hundred.
 */
async function repositoryFiles({
  ws,
}: {
  ws: Workspace;
}): Promise<{ top: Set<string>; dirs: Map<string, number>; testLike: string[]; read: (file: string) => Promise<string | null> }> {
  // The index read here costs less than a git process to read it (git answers what it does not take).
  const indexed = ws.inRepo ? (readIndexPaths(ws.cwd) ?? { paths: await listIndexPaths({ cwd: ws.cwd }), ends: null }) : null;
  const text = indexed?.paths || (await listFiles({ ws })).map((f) => `${f}\0`).join('');
  const { top, dirs, testLike } = scanPaths(text, indexed?.paths ? indexed.ends : null);
  // Every file init reads is a top-level one; it is read only when listed.
  const read = async (file: string) => {
    if (!top.has(file)) return null;
    const target = await resolveInside({ ws, path: file }).catch(() => null);
    const buf = target && readListedFile(target.abs, { link: true });
    return buf && decodeString(buf).text;
  };
  return { top, dirs, testLike, read };
}

/**
 * The scan of repositoryFiles. Paths under one directory are adjacent in git's listing, so a
 * directory's files are counted without a map lookup each; given where each path ends (readIndex's
 * `ends`: ASCII paths in git's order), each directory's run is found by a binary search instead.
 */
export function scanPaths(listing: string, ends?: Uint32Array | null): { top: Set<string>; dirs: Map<string, number>; testLike: string[] } {
  // Only NUL-ended paths count: a listing cut short ends in part of one, which is not a path (and
  // would send the token search below back to the start for ever).
  const text = listing.slice(0, listing.lastIndexOf('\0') + 1);
  const { top, dirs } = ends ? runsByEnds(text, ends) : runsByScan(text);
  const starts: number[] = [];
  for (const token of ['test', 'spec']) {
    for (let at = text.indexOf(token); at !== -1; at = text.indexOf(token, text.indexOf('\0', at) + 1))
      starts.push(text.lastIndexOf('\0', at) + 1);
  }
  starts.sort((a, b) => a - b);
  const testLike = starts.filter((s, i) => s !== starts[i - 1]).map((s) => text.slice(s, text.indexOf('\0', s)));
  return { top, dirs, testLike };
}

/** scanPaths' top-level files and directory counts, given each path's end: a directory's run of paths is found by a binary search. */
function runsByEnds(text: string, ends: Uint32Array): { top: Set<string>; dirs: Map<string, number> } {
  const top = new Set<string>();
  const dirs = new Map<string, number>();
  const startOf = (i: number) => (i === 0 ? 0 : ends[i - 1]! + 1);
  for (let i = 0; i < ends.length; ) {
    const start = startOf(i);
    const slash = text.indexOf('/', start);
    if (slash === -1 || slash > ends[i]!) {
      top.add(text.slice(start, ends[i]));
      i++;
      continue;
    }
    const under = text.slice(start, slash + 1);
    let after = ends.length; // the first path past i not under `under`
    for (let lo = i + 1; lo < after; ) {
      const mid = (lo + after) >>> 1;
      if (text.startsWith(under, startOf(mid))) lo = mid + 1;
      else after = mid;
    }
    const dir = under.slice(0, -1);
    dirs.set(dir, (dirs.get(dir) ?? 0) + after - i);
    i = after;
  }
  return { top, dirs };
}

/** scanPaths' top-level files and directory counts, path by path. */
function runsByScan(text: string): { top: Set<string>; dirs: Map<string, number> } {
  const top = new Set<string>();
  const dirs = new Map<string, number>();
  let dir = '';
  let run = 0;
  const flush = () => {
    if (run) dirs.set(dir, (dirs.get(dir) ?? 0) + run);
    run = 0;
  };
  for (let start = 0, end = text.indexOf('\0'); end !== -1; start = end + 1, end = text.indexOf('\0', start)) {
    if (dir && text.startsWith(dir, start) && text[start + dir.length] === '/') {
      run++;
      continue;
    }
    const slash = text.indexOf('/', start);
    if (slash === -1 || slash > end) {
      top.add(text.slice(start, end));
      continue;
    }
    flush();
    dir = text.slice(start, slash);
    run = 1;
  }
  flush();
  return { top, dirs };
}

function json(src: string | null): Record<string, any> | null {
  if (!src) return null;
  try {
    const v = JSON.parse(src);
    return typeof v === 'object' && v !== null ? v : null;
  } catch {
    return null;
  }
}

/** The README's first paragraph of prose (no headings, badges or code), trimmed to a sentence or two. */
export function readmeSummary(src: string): string | null {
  const paragraphs = src
    .replace(/```[\s\S]*?```/g, '')
    .split(/\n\s*\n/)
    .map((p) => p.trim());
  const prose = paragraphs.find(
    (p) =>
      p && !p.startsWith('#') && !p.startsWith('[![') && !p.startsWith('<') && !p.startsWith('|') && !/^[-*] /.test(p) && /[a-z]/.test(p),
  );
  if (!prose) return null;
  // A link reads as its text (its target's dots end no sentence); a sentence ends at . ! or ? before a space.
  const flat = prose
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  let out = '';
  for (const s of flat.split(/(?<=[.!?])\s+/)) {
    if (`${out} ${s}`.length > 240 && out) break;
    out = out ? `${out} ${s}` : s;
  }
  return out.slice(0, 300);
}

const TEST_FILE = /(^|\/)(test_[^/]+\.py|[^/]+_test\.(go|py)|[^/]+\.(test|spec)\.[cm]?[jt]sx?)$/;
const TEST_DIR = /(^|\/)(tests?|__tests__|spec)\//;

/** Reads a top-level file when the repository lists it; null otherwise. */
type ReadTop = (file: string) => Promise<string | null>;

/** package.json: the language, the package manager its lock file names, scripts as commands, module style, test framework, tools. */
async function fromPackageJson({ c, top, read }: { c: Conventions; top: Set<string>; read: ReadTop }): Promise<void> {
  const pkg = json(await read('package.json'));
  if (!pkg) return;
  const deps = { ...pkg.dependencies, ...pkg.devDependencies } as Record<string, string>;
  c.languages.push(top.has('tsconfig.json') || deps.typescript ? 'TypeScript' : 'JavaScript');
  c.packageManager = top.has('pnpm-lock.yaml')
    ? 'pnpm'
    : top.has('yarn.lock')
      ? 'yarn'
      : top.has('bun.lockb') || top.has('bun.lock')
        ? 'bun'
        : 'npm';
  const run = (s: string) => (c.packageManager === 'npm' ? (s === 'test' ? 'npm test' : `npm run ${s}`) : `${c.packageManager} ${s}`);
  const scripts = (pkg.scripts ?? {}) as Record<string, string>;
  for (const [what, names] of [
    ['build', ['build']],
    ['test', ['test']],
    ['lint', ['lint']],
    ['format', ['format', 'fmt']],
    ['typecheck', ['typecheck', 'type-check', 'tsc']],
  ] as const) {
    const name = names.find((n) => scripts[n]);
    if (name) c.commands.push({ what, command: run(name), from: `package.json scripts.${name}: ${scripts[name]}` });
  }
  if (pkg.type === 'module') c.style.push('ES modules ("type": "module")');
  if (pkg.engines?.node) c.style.push(`Node ${pkg.engines.node}`);
  for (const fw of ['vitest', 'jest', 'mocha', 'uvu', 'ava', 'tap', '@playwright/test']) if (deps[fw]) c.tests.framework ??= fw;
  for (const tool of ['eslint', 'prettier', '@biomejs/biome', 'typescript'])
    if (deps[tool]) c.tooling.push({ tool: tool === '@biomejs/biome' ? 'biome' : tool, from: 'package.json' });
}

/** Go and Rust: a go.mod or Cargo.toml says the language and its usual build and test commands. */
function fromGoAndCargo({ c, top }: { c: Conventions; top: Set<string> }): void {
  if (top.has('go.mod')) {
    c.languages.push('Go');
    c.commands.push(
      { what: 'build', command: 'go build ./...', from: 'go.mod' },
      { what: 'test', command: 'go test ./...', from: 'go.mod' },
    );
    c.tests.framework ??= 'go test';
  }
  if (top.has('Cargo.toml')) {
    c.languages.push('Rust');
    c.commands.push(
      { what: 'build', command: 'cargo build', from: 'Cargo.toml' },
      { what: 'test', command: 'cargo test', from: 'Cargo.toml' },
      { what: 'lint', command: 'cargo clippy', from: 'Cargo.toml' },
    );
    c.tests.framework ??= 'cargo test';
  }
}

/** Python: the package manager its lock file names, pytest when configured or test files are named for it, ruff and mypy. */
async function fromPython({
  c,
  top,
  testLike,
  read,
}: {
  c: Conventions;
  top: Set<string>;
  testLike: string[];
  read: ReadTop;
}): Promise<void> {
  const pyproject = await read('pyproject.toml');
  if (pyproject === null && !top.has('requirements.txt') && !top.has('setup.py')) return;
  c.languages.push('Python');
  c.packageManager ??= top.has('uv.lock') ? 'uv' : top.has('poetry.lock') ? 'poetry' : 'pip';
  if (/\[tool\.pytest|pytest/.test(pyproject ?? '') || testLike.some((f) => /(^|\/)(test_[^/]+|[^/]+_test)\.py$/.test(f))) {
    c.commands.push({
      what: 'test',
      command: c.packageManager === 'uv' ? 'uv run pytest' : c.packageManager === 'poetry' ? 'poetry run pytest' : 'pytest',
      from: pyproject !== null ? 'pyproject.toml' : 'test files',
    });
    c.tests.framework ??= 'pytest';
  }
  if (/\[tool\.ruff/.test(pyproject ?? '') || top.has('ruff.toml'))
    c.tooling.push({ tool: 'ruff', from: top.has('ruff.toml') ? 'ruff.toml' : 'pyproject.toml' });
  if (/\[tool\.mypy/.test(pyproject ?? '') || top.has('mypy.ini'))
    c.tooling.push({ tool: 'mypy', from: top.has('mypy.ini') ? 'mypy.ini' : 'pyproject.toml' });
}

const TOOL_CONFIGS: Array<[RegExp, string]> = [
  [/^(\.eslintrc(\.\w+)?|eslint\.config\.[cm]?[jt]s)$/, 'eslint'],
  [/^(\.prettierrc(\.\w+)?|prettier\.config\.[cm]?js)$/, 'prettier'],
  [/^biome\.jsonc?$/, 'biome'],
  [/^\.golangci\.ya?ml$/, 'golangci-lint'],
  [/^(rustfmt|\.rustfmt)\.toml$/, 'rustfmt'],
  [/^\.pre-commit-config\.yaml$/, 'pre-commit'],
];

/** A tool's own config file names it (and is where it came from, over package.json); .editorconfig gives the indent. */
async function fromToolConfigs({ c, top, read }: { c: Conventions; top: Set<string>; read: ReadTop }): Promise<void> {
  for (const f of top) {
    for (const [re, tool] of TOOL_CONFIGS) {
      if (!re.test(f)) continue;
      const known = c.tooling.find((t) => t.tool === tool);
      if (known) known.from = f;
      else c.tooling.push({ tool, from: f });
    }
  }
  const editorconfig = await read('.editorconfig');
  const indent = editorconfig && /indent_style\s*=\s*(\w+)/.exec(editorconfig)?.[1];
  const size = editorconfig && /indent_size\s*=\s*(\d+)/.exec(editorconfig)?.[1];
  if (indent) c.style.push(`indent: ${indent}${size ? ` ${size}` : ''} (.editorconfig)`);
}

/** The `n` keys counted most, most first. */
function mostCounted<K>(counts: Map<K, number>, n: number): K[] {
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k]) => k);
}

/** How many test files, under which top-level directories most, named by which patterns most. */
function testLayout(testLike: string[]): Pick<Conventions['tests'], 'files' | 'dirs' | 'patterns'> {
  const testFiles = testLike.filter((f) => TEST_FILE.test(f) || (TEST_DIR.test(f) && /\.\w+$/.test(f)));
  const dirCounts = new Map<string, number>();
  for (const f of testFiles) {
    const dir = f.includes('/') ? f.slice(0, f.indexOf('/')) : '.';
    dirCounts.set(dir, (dirCounts.get(dir) ?? 0) + 1);
  }
  const patterns = new Map<string, number>();
  for (const f of testFiles) {
    const m = /(\.(test|spec)\.[cm]?[jt]sx?|_test\.(go|py))$|^(test_)/.exec(f.split('/').pop()!);
    const p = m ? (m[4] ? 'test_*.py' : `*${m[1]}`) : null;
    if (p) patterns.set(p, (patterns.get(p) ?? 0) + 1);
  }
  return { files: testFiles.length, dirs: mostCounted(dirCounts, 3), patterns: mostCounted(patterns, 2) };
}

/** Reads the files of the repository holding ws.cwd (its top) and returns what they say. */
export async function detectConventions({ ws }: { ws: Workspace }): Promise<Conventions> {
  const { top, dirs, testLike, read } = await repositoryFiles({ ws });
  const c: Conventions = {
    summary: null,
    languages: [],
    packageManager: null,
    commands: [],
    tooling: [],
    tests: { files: 0, dirs: [], patterns: [], framework: null },
    layout: [],
    style: [],
  };
  const readme = [...top].find((f) => /^readme(\.md|\.rst|\.txt)?$/i.test(f));
  if (readme) c.summary = readmeSummary((await read(readme)) ?? '');
  await fromPackageJson({ c, top, read });
  const tsconfig = json((await read('tsconfig.json'))?.replace(/^\s*\/\/.*$/gm, '') ?? null);
  if (tsconfig?.compilerOptions?.strict) c.style.push('TypeScript strict mode (tsconfig.json)');
  fromGoAndCargo({ c, top });
  await fromPython({ c, top, testLike, read });
  const makefile = await read('Makefile');
  if (makefile) {
    const targets = (['build', 'test', 'lint'] as const).filter((what) => new RegExp(`^${what}:`, 'm').test(makefile));
    c.commands.unshift(...targets.map((what) => ({ what, command: `make ${what}`, from: 'Makefile' })));
  }
  await fromToolConfigs({ c, top, read });
  Object.assign(c.tests, testLayout(testLike));
  c.layout = [...dirs]
    .filter(([dir]) => !dir.startsWith('.'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([dir, n]) => ({ dir, files: n }));
  // Makefile first, then package scripts, then language defaults: keep the first command of each kind.
  const seen = new Set<string>();
  c.commands = c.commands.filter((x) => !seen.has(x.what) && seen.add(x.what));
  return c;
}

/** The conventions file: short, because it goes into every agent prompt. */
export function renderConventions(c: Conventions): string {
  const lines = ['# Conventions', '', "<!-- Written by forge init from this repository's files; edit freely: agents read it. -->", ''];
  if (c.summary) lines.push(c.summary, '');
  if (c.languages.length) lines.push(`- Languages: ${c.languages.join(', ')}${c.packageManager ? `; packages: ${c.packageManager}` : ''}`);
  for (const x of c.commands) lines.push(`- ${x.what[0]!.toUpperCase()}${x.what.slice(1)}: \`${x.command}\``);
  if (c.tests.files)
    lines.push(
      `- Tests: ${c.tests.files} file${c.tests.files === 1 ? '' : 's'}${c.tests.patterns.length ? ` named ${c.tests.patterns.join(' or ')}` : ''}${c.tests.dirs.length ? ` under ${c.tests.dirs.map((d) => (d === '.' ? 'the top' : `${d}/`)).join(', ')}` : ''}${c.tests.framework ? ` (${c.tests.framework})` : ''}`,
    );
  if (c.tooling.length) lines.push(`- Tooling: ${c.tooling.map((t) => `${t.tool} (${t.from})`).join(', ')}`);
  for (const s of c.style) lines.push(`- ${s}`);
  if (c.layout.length) lines.push(`- Layout: ${c.layout.map((l) => `${l.dir}/ (${l.files})`).join(', ')}`);
  lines.push('- Follow the style of the surrounding code; run the test command before saying a change is done.');
  return `${lines.join('\n')}\n`;
}
