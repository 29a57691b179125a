// Builds dist/: the executable (forge.js, a small launcher), one CommonJS file per command (commands/), the whole registry (commands/index.js), rarely used big libraries apart (vendor/), the library (api/).
// One file per command: Node loads a CommonJS file faster than an ES module graph, and V8's code cache (bin/code-cache.ts) covers it whole.
import { build, transform } from 'esbuild';
import { chmod, copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

/** Libraries only a few commands use, big enough to cost start-up in every bundle that holds them: one file each, loaded on first use. */
const VENDOR = {
  './lib/cli/yargs.ts': 'yargs',
  '@babel/parser': 'babel-parser',
  'gpt-tokenizer/encoding/o200k_base': 'o200k-base',
  './lib/mcp/sdk.ts': 'mcp-server',
  './lib/agent/mcp-sdk.ts': 'mcp-client',
  'fast-glob': 'fast-glob',
  chalk: 'chalk',
  undici: 'undici',
  './lib/agent/config-validator.gen.ts': 'config-validator',
};
/** Vendored libraries that are third-party data, not forge's code: built without whitespace. */
const DATA_VENDOR = new Set(['o200k-base']);
/** Each vendored module by the path its imports resolve to. */
const vendorPaths = new Map();

/** The catalog (commands/catalog.ts): command name → module path under commands/. */
async function catalogPaths() {
  const { code } = await transform(await readFile('commands/catalog.ts', 'utf8'), { loader: 'ts', format: 'esm' });
  const { catalog } = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  return Object.values(catalog).flatMap((hit) => (typeof hit === 'string' ? [hit] : Object.values(hit)));
}

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minifyIdentifiers: true,
  minifySyntax: true,
  // Keeping line breaks costs nothing measurable at start-up and lets c8 map coverage back to the sources.
  minifyWhitespace: false,
  // Maps beside the bundles but no sourceMappingURL comment in them: with the comment, every process
  // run under coverage (NODE_V8_COVERAGE) reads and parses the map of each bundle it loads and writes
  // it out again at exit (a third of a forge call's CPU in the tests); the test runner hands c8 each
  // map once instead (scripts/testing/coverage.ts).
  sourcemap: 'external',
  // The maps name the sources (c8 reads them from the checkout); copying every source into each bundle's map would multiply the package's size.
  sourcesContent: false,
  // A bundle may run through vm.Script (bin/code-cache.ts), where import() has no loader: lowered to require().
  supported: { 'dynamic-import': false },
  // The tree-sitter runtime finds its .wasm grammars beside itself in node_modules.
  external: ['@vscode/tree-sitter-wasm'],
  define: { 'import.meta.url': '__forgeImportMetaUrl' },
  // A path of plain characters is its own file URL: pathToFileURL (0.2 ms, every call) only for the others.
  banner: {
    js: "var __forgeImportMetaUrl = /^[\\w\\/.-]+$/.test(__filename) ? 'file://' + __filename : require('node:url').pathToFileURL(__filename).href;",
  },
  // jsonc-parser's main build is UMD, whose require('./impl/…') a bundle cannot follow: its ESM build bundles whole.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  logLevel: 'warning',
};

/** A dynamic import of a vendored module becomes a require of its own file. */
const vendorExternal = {
  name: 'vendor-external',
  setup(b) {
    b.onStart(async () => {
      if (vendorPaths.size) return;
      for (const [spec, name] of Object.entries(VENDOR))
        vendorPaths.set((await b.resolve(spec, { kind: 'import-statement', resolveDir: resolve('.') })).path, name);
    });
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.pluginData?.vendor) return undefined;
      const r = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: { vendor: true },
      });
      const name = vendorPaths.get(r.path);
      return name ? { path: `../vendor/${name}.js`, external: true } : undefined;
    });
  },
};

/** forge's own imports of node:fs/promises take lib/fs/promises.ts, which does not load what Node's does; dependencies keep Node's. */
const fsPromises = {
  name: 'fs-promises',
  setup(b) {
    const own = new RegExp(`^${resolve('.').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/(bin|lib|commands)/`);
    b.onResolve({ filter: /^node:fs\/promises$/ }, (args) =>
      own.test(args.importer) && !args.importer.endsWith('/lib/fs/promises.ts') ? { path: resolve('lib/fs/promises.ts') } : undefined,
    );
  },
};

/** Each command's bundle starts from a two-line module: its declaration, handed to bin/bundle.ts. */
const commandEntries = {
  name: 'command-entries',
  setup(b) {
    b.onResolve({ filter: /^forge-command:/ }, (args) => ({ path: args.path.slice('forge-command:'.length), namespace: 'forge-command' }));
    b.onLoad({ filter: /.*/, namespace: 'forge-command' }, ({ path }) => {
      const group = path.includes('/') ? path.split('/')[0] : null;
      if (path === 'index') {
        // The whole registry, which also gives the build forge mcp's tools.
        const contents = [
          "import { entries } from './commands/index';",
          "import { commandBundle } from './bin/bundle';",
          "import { mcpTools } from './lib/cli/mcp-server';",
          'export default commandBundle(entries);',
          'export const mcpManifest = () => mcpTools(entries).map(({ tool, spec }) => ({ command: spec.name, tool }));',
        ];
        return { contents: contents.join('\n'), resolveDir: resolve('.'), loader: 'ts' };
      }
      const entries = group ? `[{ name: '${group}', summary: '', description: '', commands: [spec] }]` : '[spec]';
      return {
        contents: `import spec from './commands/${path}';\nimport { commandBundle } from './bin/bundle';\nexport default commandBundle(${entries});\n`,
        resolveDir: resolve('.'),
        loader: 'ts',
      };
    });
  },
};

// Built beside dist/ and put in its place at the end: a forge (or npm pack) run while the build
// runs finds the old dist/ whole, never a half-written one.
const out = `dist.building-${process.pid}`;
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
// The package is an ES module package; what dist/ holds is CommonJS.
await writeFile(`${out}/package.json`, `${JSON.stringify({ type: 'commonjs' })}\n`);
const paths = [...(await catalogPaths()), 'index'];
const commands = (list, define = {}) =>
  build({
    ...common,
    define: { ...common.define, ...define },
    entryPoints: Object.fromEntries(list.map((p) => [p.replace(/\//g, '.'), `forge-command:${p}`])),
    outdir: `${out}/commands`,
    plugins: [commandEntries, vendorExternal, fsPromises],
  });
await Promise.all([
  build({ ...common, entryPoints: { forge: 'bin/forge.ts' }, outdir: out, plugins: [fsPromises] }),
  commands(paths.filter((p) => p !== 'mcp')),
  build({
    ...common,
    entryPoints: Object.fromEntries(
      Object.entries(VENDOR)
        .filter(([, name]) => !DATA_VENDOR.has(name))
        .map(([spec, name]) => [name, spec]),
    ),
    outdir: `${out}/vendor`,
  }),
  // A library that is mostly data (the tokenizer's 200k ranks, one a line): no line breaks to keep for coverage, 0.6 MB of them to drop.
  build({
    ...common,
    minifyWhitespace: true,
    entryPoints: Object.fromEntries(
      Object.entries(VENDOR)
        .filter(([, name]) => DATA_VENDOR.has(name))
        .map(([spec, name]) => [name, spec]),
    ),
    outdir: `${out}/vendor`,
  }),
  // The library (package.json exports): beside commands/, so its vendored imports find ../vendor/ as theirs do; its types from api/forge.gen.d.ts (make docs).
  build({
    ...common,
    minifyIdentifiers: false,
    entryPoints: { index: 'api/index.ts' },
    outdir: `${out}/api`,
    plugins: [vendorExternal, fsPromises],
  }),
  mkdir(`${out}/api`, { recursive: true }).then(() => copyFile('api/forge.gen.d.ts', `${out}/api/index.d.ts`)),
]);
// forge mcp lists its tools without loading any command: the build derives them from the whole registry.
const { mcpManifest } = createRequire(import.meta.url)(resolve(`${out}/commands/index.js`));
await commands(['mcp'], { FORGE_MCP_TOOLS: JSON.stringify(mcpManifest()) });
await chmod(`${out}/forge.js`, 0o755);
// Two renames: the old tree moves aside and the new one takes its name at once.
const old = `dist.old-${process.pid}`;
await rename('dist', old).catch((err) => {
  if (err.code !== 'ENOENT') throw err;
});
await rename(out, 'dist');
await rm(old, { recursive: true, force: true });
