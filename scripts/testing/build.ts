// The TypeScript of the tree turned into JavaScript once by esbuild before a run, a module for a module, so that each test file runs on plain node: tsx's loader costs every file a quarter of a second before its first test.
import { readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

/** Where each run's modules go: beside the installed packages (node resolves them from there), never committed. */
const CACHE = 'node_modules/.cache/forge-tests';
/** What the test files import from the tree, and the runner's own fixtures. */
const SOURCES = ['bin', 'commands', 'lib', 'scripts', 'test'];

/**
 * Turns every TypeScript file of the tree into an ES module of its own under a directory of this
 * run's own (a run may start another, as the runner's own test does), imports rewritten to the
 * modules beside it: one module a file, as under tsx, so that V8 reports each file's coverage as
 * its own. The module of each test file, and the directory to remove when the run ends.
 */
export async function buildTests(files: string[]): Promise<{ modules: Map<string, string>; dir: string }> {
  removeAbandoned();
  const dir = join(CACHE, String(process.pid));
  await build({
    entryPoints: SOURCES.flatMap((root) => typeScriptUnder(root)),
    outdir: dir,
    outbase: '.',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [modulePerFile(resolve(dir))],
    // Linked: a failure's stack names the test's own lines (node --enable-source-maps), and c8 maps coverage back through it.
    sourcemap: 'linked',
    // The sources are in the tree, where c8 reads them.
    sourcesContent: false,
    logLevel: 'warning',
  });
  return { modules: new Map(files.map((f) => [f, resolve(join(dir, f.replace(/\.ts$/, '.mjs')))])), dir };
}

function typeScriptUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))
    .map((p) => join(root, p));
}

/**
 * Keeps each module out of its importers: a file of the tree is imported from its own output
 * module, a package by the file it resolves to (as tsx found it: node's own resolution refuses a
 * directory, or a CommonJS path without its extension), both by absolute path (the code of an
 * import() by pattern is inlined where it is called). JSON is inlined.
 */
const modulePerFile = (outdir: string): Plugin => ({
  name: 'module-per-file',
  setup(b) {
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind === 'entry-point' || args.pluginData?.resolving) return undefined;
      const found = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: { resolving: true },
      });
      if (found.errors.length || found.external) return undefined;
      if (found.path.includes('/node_modules/')) return { path: found.path, external: true };
      if (!found.path.endsWith('.ts')) return undefined;
      return { path: join(outdir, relative(process.cwd(), found.path)).replace(/\.ts$/, '.mjs'), external: true };
    });
  },
});

/** The modules of runs that ended without removing theirs (killed): a directory named by a pid that runs no more. */
function removeAbandoned(): void {
  let entries: string[] = [];
  try {
    entries = readdirSync(CACHE);
  } catch {
    return;
  }
  for (const pid of entries) {
    try {
      process.kill(Number(pid), 0);
    } catch {
      rmSync(join(CACHE, pid), { recursive: true, force: true });
    }
  }
}
