// What a repository's own files say about how to work in it — manifests, lint configs, test layout, README — as a short conventions file.
import { listFiles, readListedFile } from '../files/list';
import { decodeString } from '../files/text';
import { resolveInside, type Workspace } from '../files/workspace';
import { listWorkTreeFiles } from '../git/repo';

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
 * The repository's files (relative to root) and a reader of their text. The tracked files say how
 * to work in it, and the index lists them without a walk; before the first commit, the work tree
 * is all there is. A file is read only when listed and the confinement rule allows it (a symlink
 * out of the repository is not followed).
 */
async function repositoryFiles({ ws }: { ws: Workspace }): Promise<{ files: string[]; has: Set<string>; read: (file: string) => Promise<string | null> }> {
  const indexed = ws.inRepo ? await listWorkTreeFiles({ cwd: ws.cwd, indexOnly: true }) : null;
  const files = indexed?.length ? indexed : await listFiles({ ws });
  const has = new Set(files);
  const read = async (file: string) => {
    if (!has.has(file)) return null;
    const target = await resolveInside({ ws, path: file }).catch(() => null);
    const buf = target && readListedFile(target.abs, { link: true });
    return buf && decodeString(buf).text;
  };
  return { files, has, read };
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
  const paragraphs = src.replace(/```[\s\S]*?```/g, '').split(/\n\s*\n/).map((p) => p.trim());
  const prose = paragraphs.find((p) => p && !p.startsWith('#') && !p.startsWith('[![') && !p.startsWith('<') && !p.startsWith('|') && !/^[-*] /.test(p) && /[a-z]/.test(p));
  if (!prose) return null;
  const flat = prose.replace(/\s+/g, ' ');
  const sentences = flat.match(/[^.!?]+[.!?]+(\s|$)/g) ?? [flat];
  let out = '';
  for (const s of sentences) {
    if ((out + s).length > 240 && out) break;
    out += s;
  }
  return out.trim().slice(0, 300);
}

const TEST_FILE = /(^|\/)(test_[^/]+\.py|[^/]+_test\.(go|py)|[^/]+\.(test|spec)\.[cm]?[jt]sx?)$/;
const TEST_DIR = /(^|\/)(tests?|__tests__|spec)\//;

/** Reads the files of the repository holding ws.cwd (its top) and returns what they say. */
export async function detectConventions({ ws }: { ws: Workspace }): Promise<Conventions> {
  const { files, has, read } = await repositoryFiles({ ws });
  const c: Conventions = { summary: null, languages: [], packageManager: null, commands: [], tooling: [], tests: { files: 0, dirs: [], patterns: [], framework: null }, layout: [], style: [] };
  const readme = files.find((f) => /^readme(\.md|\.rst|\.txt)?$/i.test(f));
  if (readme) c.summary = readmeSummary((await read(readme)) ?? '');

  const pkg = json(await read('package.json'));
  if (pkg) {
    const deps = { ...pkg.dependencies, ...pkg.devDependencies } as Record<string, string>;
    c.languages.push(has.has('tsconfig.json') || deps.typescript ? 'TypeScript' : 'JavaScript');
    c.packageManager = has.has('pnpm-lock.yaml') ? 'pnpm' : has.has('yarn.lock') ? 'yarn' : has.has('bun.lockb') || has.has('bun.lock') ? 'bun' : 'npm';
    const run = (s: string) => (c.packageManager === 'npm' ? (s === 'test' ? 'npm test' : `npm run ${s}`) : `${c.packageManager} ${s}`);
    const scripts = (pkg.scripts ?? {}) as Record<string, string>;
    for (const [what, names] of [['build', ['build']], ['test', ['test']], ['lint', ['lint']], ['format', ['format', 'fmt']], ['typecheck', ['typecheck', 'type-check', 'tsc']]] as const) {
      const name = names.find((n) => scripts[n]);
      if (name) c.commands.push({ what, command: run(name), from: `package.json scripts.${name}: ${scripts[name]}` });
    }
    if (pkg.type === 'module') c.style.push('ES modules ("type": "module")');
    if (pkg.engines?.node) c.style.push(`Node ${pkg.engines.node}`);
    for (const fw of ['vitest', 'jest', 'mocha', 'uvu', 'ava', 'tap', '@playwright/test']) if (deps[fw]) c.tests.framework ??= fw;
    for (const tool of ['eslint', 'prettier', '@biomejs/biome', 'typescript']) if (deps[tool]) c.tooling.push({ tool: tool === '@biomejs/biome' ? 'biome' : tool, from: 'package.json' });
  }
  const tsconfig = json((await read('tsconfig.json'))?.replace(/^\s*\/\/.*$/gm, '') ?? null);
  if (tsconfig?.compilerOptions?.strict) c.style.push('TypeScript strict mode (tsconfig.json)');
  if (has.has('go.mod')) {
    c.languages.push('Go');
    c.commands.push({ what: 'build', command: 'go build ./...', from: 'go.mod' }, { what: 'test', command: 'go test ./...', from: 'go.mod' });
    c.tests.framework ??= 'go test';
  }
  if (has.has('Cargo.toml')) {
    c.languages.push('Rust');
    c.commands.push({ what: 'build', command: 'cargo build', from: 'Cargo.toml' }, { what: 'test', command: 'cargo test', from: 'Cargo.toml' }, { what: 'lint', command: 'cargo clippy', from: 'Cargo.toml' });
    c.tests.framework ??= 'cargo test';
  }
  const pyproject = await read('pyproject.toml');
  if (pyproject !== null || has.has('requirements.txt') || has.has('setup.py')) {
    c.languages.push('Python');
    c.packageManager ??= has.has('uv.lock') ? 'uv' : has.has('poetry.lock') ? 'poetry' : 'pip';
    if (/\[tool\.pytest|pytest/.test(pyproject ?? '') || files.some((f) => /(^|\/)(test_[^/]+|[^/]+_test)\.py$/.test(f))) {
      c.commands.push({ what: 'test', command: c.packageManager === 'uv' ? 'uv run pytest' : c.packageManager === 'poetry' ? 'poetry run pytest' : 'pytest', from: pyproject !== null ? 'pyproject.toml' : 'test files' });
      c.tests.framework ??= 'pytest';
    }
    if (/\[tool\.ruff/.test(pyproject ?? '') || has.has('ruff.toml')) c.tooling.push({ tool: 'ruff', from: has.has('ruff.toml') ? 'ruff.toml' : 'pyproject.toml' });
    if (/\[tool\.mypy/.test(pyproject ?? '') || has.has('mypy.ini')) c.tooling.push({ tool: 'mypy', from: has.has('mypy.ini') ? 'mypy.ini' : 'pyproject.toml' });
  }
  const makefile = await read('Makefile');
  if (makefile) {
    const targets = (['build', 'test', 'lint'] as const).filter((what) => new RegExp(`^${what}:`, 'm').test(makefile));
    c.commands.unshift(...targets.map((what) => ({ what, command: `make ${what}`, from: 'Makefile' })));
  }
  const configs: Array<[RegExp, string]> = [
    [/^(\.eslintrc(\.\w+)?|eslint\.config\.[cm]?[jt]s)$/, 'eslint'],
    [/^(\.prettierrc(\.\w+)?|prettier\.config\.[cm]?js)$/, 'prettier'],
    [/^biome\.jsonc?$/, 'biome'],
    [/^\.golangci\.ya?ml$/, 'golangci-lint'],
    [/^(rustfmt|\.rustfmt)\.toml$/, 'rustfmt'],
    [/^\.pre-commit-config\.yaml$/, 'pre-commit'],
  ];
  for (const f of files.filter((f) => !f.includes('/'))) {
    for (const [re, tool] of configs) {
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

  const testFiles = files.filter((f) => TEST_FILE.test(f) || (TEST_DIR.test(f) && /\.\w+$/.test(f)));
  c.tests.files = testFiles.length;
  const dirCounts = new Map<string, number>();
  for (const f of testFiles) {
    const dir = f.includes('/') ? f.slice(0, f.indexOf('/')) : '.';
    dirCounts.set(dir, (dirCounts.get(dir) ?? 0) + 1);
  }
  c.tests.dirs = [...dirCounts].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([d]) => d);
  const patterns = new Map<string, number>();
  for (const f of testFiles) {
    const m = /(\.(test|spec)\.[cm]?[jt]sx?|_test\.(go|py))$|^(test_)/.exec(f.split('/').pop()!);
    const p = m ? (m[4] ? 'test_*.py' : `*${m[1]}`) : null;
    if (p) patterns.set(p, (patterns.get(p) ?? 0) + 1);
  }
  c.tests.patterns = [...patterns].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([p]) => p);

  const top = new Map<string, number>();
  for (const f of files) if (f.includes('/') && !f.startsWith('.')) top.set(f.slice(0, f.indexOf('/')), (top.get(f.slice(0, f.indexOf('/'))) ?? 0) + 1);
  c.layout = [...top].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([dir, n]) => ({ dir, files: n }));
  // Makefile first, then package scripts, then language defaults: keep the first command of each kind.
  const seen = new Set<string>();
  c.commands = c.commands.filter((x) => !seen.has(x.what) && seen.add(x.what));
  return c;
}

/** The conventions file: short, because it goes into every agent prompt. */
export function renderConventions(c: Conventions): string {
  const lines = ['# Conventions', '', '<!-- Written by forge init from this repository\'s files; edit freely: agents read it. -->', ''];
  if (c.summary) lines.push(c.summary, '');
  if (c.languages.length) lines.push(`- Languages: ${c.languages.join(', ')}${c.packageManager ? `; packages: ${c.packageManager}` : ''}`);
  for (const x of c.commands) lines.push(`- ${x.what[0]!.toUpperCase()}${x.what.slice(1)}: \`${x.command}\``);
  if (c.tests.files) lines.push(`- Tests: ${c.tests.files} file${c.tests.files === 1 ? '' : 's'}${c.tests.patterns.length ? ` named ${c.tests.patterns.join(' or ')}` : ''}${c.tests.dirs.length ? ` under ${c.tests.dirs.map((d) => (d === '.' ? 'the top' : `${d}/`)).join(', ')}` : ''}${c.tests.framework ? ` (${c.tests.framework})` : ''}`);
  if (c.tooling.length) lines.push(`- Tooling: ${c.tooling.map((t) => `${t.tool} (${t.from})`).join(', ')}`);
  for (const s of c.style) lines.push(`- ${s}`);
  if (c.layout.length) lines.push(`- Layout: ${c.layout.map((l) => `${l.dir}/ (${l.files})`).join(', ')}`);
  lines.push('- Follow the style of the surrounding code; run the test command before saying a change is done.');
  return `${lines.join('\n')}\n`;
}
