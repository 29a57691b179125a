// Bundles bin/forge.ts into dist/forge.js: one minified ESM file (fast start), rarely used libraries in lazy chunks.
import { build } from 'esbuild';
import { chmod, rm } from 'node:fs/promises';

await rm('dist', { recursive: true, force: true });
await build({
  entryPoints: ['bin/forge.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minifyIdentifiers: true,
  minifySyntax: true,
  // Keeping line breaks costs nothing measurable at start-up and lets c8 map coverage back to the sources.
  minifyWhitespace: false,
  splitting: true,
  sourcemap: true,
  outdir: 'dist',
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  // Some bundled dependencies are CommonJS and call require() for Node built-ins.
  banner: { js: "import { createRequire as __forgeRequire } from 'node:module'; const require = __forgeRequire(import.meta.url);" },
  // The tree-sitter runtime finds its .wasm grammars beside itself in node_modules.
  external: ['@vscode/tree-sitter-wasm'],
  // jsonc-parser's main build is UMD, whose require('./impl/…') a bundle cannot follow: its ESM build bundles whole.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  logLevel: 'warning',
});
await chmod('dist/forge.js', 0o755);
