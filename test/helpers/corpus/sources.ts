// Where the corpus's bases come from: this repository's history, and the releases of the packages node_modules holds in several versions.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PINNED_ENV, tempDir } from '../repo';
import { type Base, makeBase, MAX_FILE } from './bases';

/** Runs git with the user's and the system's configuration ignored, so diffs look the same everywhere. */
function gitOut(dir: string, args: string[], input?: string): Buffer {
  return execFileSync(
    'git',
    [
      '-c',
      'core.quotePath=true',
      '-c',
      'diff.noprefix=false',
      '-c',
      'diff.mnemonicPrefix=false',
      '-c',
      'diff.suppressBlankEmpty=false',
      ...args,
    ],
    {
      cwd: dir,
      input,
      maxBuffer: 1 << 30,
      env: { ...process.env, ...PINNED_ENV, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  );
}

/** `git diff -U3` as git prints it by default, every option that could vary pinned. */
const DIFF = [
  '-p',
  '-U3',
  '--inter-hunk-context=0',
  '--no-renames',
  '--full-index',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--diff-algorithm=myers',
  '--diff-filter=M',
];

/**
 * Every non-merge commit's per-file diffs of modified text files in the repository at `dir`, with
 * the file before and after. A shallow clone gives what it has: its oldest commit adds every file,
 * and added files are not cases.
 */
export function historyBases(dir: string, source: string): Base[] {
  let log: string;
  try {
    log = gitOut(dir, ['log', '--no-merges', '--format=%x01%H', ...DIFF]).toString('utf8');
  } catch {
    return [];
  }
  const found: Array<{ commit: string; path: string; patch: string; from: string; to: string }> = [];
  for (const chunk of log.split('\x01').slice(1)) {
    const commit = chunk.slice(0, 40);
    for (const file of chunk.split(/^(?=diff --git )/m).slice(1)) {
      const index = /^index ([0-9a-f]{40})\.\.([0-9a-f]{40})/m.exec(file);
      const path = /^\+\+\+ b\/(.*)$/m.exec(file)?.[1];
      if (!index || !path || path.startsWith('"') || !/^@@ /m.test(file)) continue;
      found.push({ commit, path, patch: file, from: index[1]!, to: index[2]! });
    }
  }
  const blobs = readBlobs(
    dir,
    found.flatMap((f) => [f.from, f.to]),
  );
  return found.flatMap(
    (f) => makeBase(`${source}@${f.commit.slice(0, 8)}:${f.path}`, f.commit, f.path, f.patch, blobs.get(f.from)!, blobs.get(f.to)!) ?? [],
  );
}

/** The blobs' contents, read by one `git cat-file --batch`. */
function readBlobs(dir: string, ids: string[]): Map<string, Buffer> {
  const unique = [...new Set(ids)];
  const out = new Map<string, Buffer>();
  if (!unique.length) return out;
  const raw = gitOut(dir, ['cat-file', '--batch'], unique.join('\n') + '\n');
  let at = 0;
  while (at < raw.length) {
    const nl = raw.indexOf(10, at);
    const [id, , size] = raw.toString('latin1', at, nl).split(' ');
    const n = Number(size);
    out.set(id!, raw.subarray(nl + 1, nl + 1 + n));
    at = nl + 1 + n + 1;
  }
  return out;
}

function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+-]/).map(Number);
  const pb = b.split(/[.+-]/).map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return a.localeCompare(b);
}

function packageFiles(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel)).flatMap((name) => {
    const p = rel ? `${rel}/${name}` : name;
    const st = lstatSync(join(dir, p));
    if (st.isDirectory()) return name === 'node_modules' ? [] : packageFiles(dir, p);
    return st.isFile() && st.size <= MAX_FILE ? [p] : [];
  });
}

/**
 * A second real history, made on this machine without network: every package installed in more
 * than one version under `root` (the lockfile pins which), its releases committed in version order
 * to a temporary repository, whose history is then read like this project's.
 */
export function packageReleaseBases(root = 'node_modules'): Base[] {
  if (!existsSync(root)) return [];
  const versions = new Map<string, Map<string, string>>();
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name.startsWith('.')) continue;
      const pkgDir = join(dir, name);
      if (name.startsWith('@')) {
        for (const sub of readdirSync(pkgDir)) readPackage(join(pkgDir, sub));
        continue;
      }
      readPackage(pkgDir);
    }
  };
  const readPackage = (pkgDir: string) => {
    try {
      if (!lstatSync(pkgDir).isDirectory()) return;
      const { name, version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
      if (typeof name !== 'string' || typeof version !== 'string') return;
      if (!versions.has(name)) versions.set(name, new Map());
      if (!versions.get(name)!.has(version)) versions.get(name)!.set(version, pkgDir);
    } catch {
      return;
    }
    if (existsSync(join(pkgDir, 'node_modules'))) visit(join(pkgDir, 'node_modules'));
  };
  visit(root);
  const multi = [...versions.entries()].filter(([, v]) => v.size > 1).sort(([a], [b]) => a.localeCompare(b));
  if (!multi.length) return [];
  const repo = tempDir('forge-corpus-releases-');
  gitOut(repo, ['init', '-q']);
  const rounds = Math.max(...multi.map(([, v]) => v.size));
  for (let r = 0; r < rounds; r++) {
    for (const [name, byVersion] of multi) {
      const ordered = [...byVersion.keys()].sort(compareVersions);
      if (r >= ordered.length) continue;
      const dest = join(repo, name);
      rmSync(dest, { recursive: true, force: true });
      const src = byVersion.get(ordered[r]!)!;
      for (const f of packageFiles(src)) {
        mkdirSync(dirname(join(dest, f)), { recursive: true });
        writeFileSync(join(dest, f), readFileSync(join(src, f)));
      }
    }
    gitOut(repo, ['add', '-A']);
    gitOut(repo, ['commit', '-q', '--allow-empty', '-m', `releases, round ${r + 1}`]);
  }
  const bases = historyBases(repo, 'node_modules');
  rmSync(repo, { recursive: true, force: true });
  return bases;
}

let cached: Base[] | undefined;

/** This repository's whole history plus the package releases: the corpus's raw material. */
export function corpusBases(): Base[] {
  cached ??= [...historyBases(process.cwd(), 'forge'), ...packageReleaseBases()];
  return cached;
}
