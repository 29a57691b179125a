// Cross-module contracts: every name an importer takes from an exporter must be one the exporter exports.
import { readFile, realpath } from 'node:fs/promises';
import { dirname, extname, relative, resolve } from 'node:path';
import type * as t from '@babel/types';
import { isFile } from '../fs/stat';
import { parseScript, SCRIPT_EXTENSIONS, SourceSyntaxError } from './parse';
import type { CheckResult } from './types';

/** A name the importer takes from the exporter, and where. */
export interface ImportedName {
  name: string;
  line: number;
  col: number;
}

/** What a file exports; `unknown` says why the list may be incomplete (then nothing is reported missing). */
export interface ExportSet {
  names: Set<string>;
  unknown: string[];
}

type Ast = t.File;

/** Parses each file once per validation, however many contracts and re-exports reach it. */
export class SourceCache {
  private asts = new Map<string, Promise<Ast>>();

  parse(path: string): Promise<Ast> {
    if (!this.asts.has(path))
      this.asts.set(
        path,
        readFile(path, 'utf8').then((text) => parseScript({ file: path, text })),
      );
    return this.asts.get(path)!;
  }
}

export function isScript(path: string): boolean {
  return (SCRIPT_EXTENSIONS as readonly string[]).includes(extname(path));
}

/**
 * The file a relative import specifier names, the way Node and TypeScript find it: as written,
 * with an extension added, TypeScript's `./x.js` meaning `./x.ts`, or a directory's index file.
 * Null for a package name or a file that does not exist.
 */
export async function resolveSpecifier({ from, specifier }: { from: string; specifier: string }): Promise<string | null> {
  if (!/^\.{1,2}(\/|$)|^\//.test(specifier)) return null;
  const base = resolve(dirname(from), specifier);
  const ext = extname(base);
  const stem = base.slice(0, base.length - ext.length);
  const typescriptTwin: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'] };
  const candidates = [
    base,
    ...SCRIPT_EXTENSIONS.map((e) => base + e),
    ...(typescriptTwin[ext] ?? []).map((e) => stem + e),
    ...SCRIPT_EXTENSIONS.map((e) => resolve(base, `index${e}`)),
  ];
  for (const c of candidates) if (await isFile(c)) return realpath(c);
  return null;
}

/** Every node under root, iteratively (a long chain of `a + b + …` is deep enough to overflow a recursion). */
function* nodes(root: t.Node): Generator<t.Node> {
  const stack: t.Node[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    yield node;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'loc' || key.endsWith('Comments') || key === 'extra') continue;
      for (const child of Array.isArray(value) ? value : [value]) {
        if (child && typeof child === 'object' && typeof (child as { type?: unknown }).type === 'string') stack.push(child as t.Node);
      }
    }
  }
}

function nameOf(node: t.Identifier | t.StringLiteral): string {
  return node.type === 'Identifier' ? node.name : node.value;
}

/** The property a member access reads: `x.a` and `x['a']`; null when computed from a variable. */
function propertyName(node: t.MemberExpression | t.OptionalMemberExpression): string | null {
  if (!node.computed && node.property.type === 'Identifier') return node.property.name;
  if (node.property.type === 'StringLiteral') return node.property.value;
  return null;
}

/** The names a binding pattern declares: `const {a, b: [c, ...d] = []} = …` declares a, c and d. */
function boundNames(pattern: t.Node | null | undefined): string[] {
  if (!pattern) return [];
  switch (pattern.type) {
    case 'Identifier':
      return [pattern.name];
    case 'ObjectPattern':
      return pattern.properties.flatMap((p) => boundNames(p.type === 'RestElement' ? p.argument : p.value));
    case 'ArrayPattern':
      return pattern.elements.flatMap((e) => boundNames(e));
    case 'AssignmentPattern':
      return boundNames(pattern.left);
    case 'RestElement':
      return boundNames(pattern.argument);
    default:
      return [];
  }
}

/** The names an `export <declaration>` introduces, TypeScript's and `declare` forms included. */
function declaredNames(decl: t.Declaration): string[] {
  switch (decl.type) {
    case 'VariableDeclaration':
      return decl.declarations.flatMap((d) => boundNames(d.id));
    case 'FunctionDeclaration':
    case 'ClassDeclaration':
    case 'TSDeclareFunction':
      return decl.id ? [decl.id.name] : [];
    case 'TSEnumDeclaration':
    case 'TSInterfaceDeclaration':
    case 'TSTypeAliasDeclaration':
      return [decl.id.name];
    case 'TSModuleDeclaration':
      return decl.id.type === 'Identifier' ? [decl.id.name] : [];
    default:
      return [];
  }
}

const isIdentifier = (node: t.Node, name: string) => node.type === 'Identifier' && node.name === name;
/** `module.exports` */
const isModuleExports = (node: t.Node) =>
  node.type === 'MemberExpression' && isIdentifier(node.object, 'module') && propertyName(node) === 'exports';
/** `exports` or `module.exports` */
const isExportsObject = (node: t.Node) => isIdentifier(node, 'exports') || isModuleExports(node);

/** CommonJS exports: `exports.x =`, `module.exports.x =`, `module.exports = {a, b}`, `Object.defineProperty(exports, 'x', …)`. */
function commonJsExports(ast: Ast, into: ExportSet): boolean {
  let commonJs = false;
  for (const node of nodes(ast.program)) {
    if (node.type === 'AssignmentExpression' && node.left.type === 'MemberExpression') {
      if (isExportsObject(node.left.object)) {
        commonJs = true;
        const name = propertyName(node.left);
        if (name) into.names.add(name);
        else into.unknown.push('an export assigned under a computed name');
      } else if (isModuleExports(node.left)) {
        commonJs = true;
        if (node.right.type !== 'ObjectExpression') {
          into.unknown.push('module.exports is assigned a value whose keys are not written out');
          continue;
        }
        for (const p of node.right.properties) {
          if (p.type !== 'SpreadElement' && !p.computed && (p.key.type === 'Identifier' || p.key.type === 'StringLiteral'))
            into.names.add(nameOf(p.key));
          else into.unknown.push('module.exports has a spread or computed key');
        }
      }
    } else if (
      node.type === 'CallExpression' &&
      node.callee.type === 'MemberExpression' &&
      isIdentifier(node.callee.object, 'Object') &&
      propertyName(node.callee) === 'defineProperty' &&
      node.arguments[0] &&
      isExportsObject(node.arguments[0]) &&
      node.arguments[1]?.type === 'StringLiteral'
    ) {
      commonJs = true;
      into.names.add(node.arguments[1].value);
    }
  }
  return commonJs;
}

/**
 * Every name a file exports, following `export * from` recursively (a file already on the way is
 * skipped, so cycles end). A CommonJS module also has a default export: Node's interop gives
 * `import x from` the whole module.exports.
 */
export async function exportsOf({
  path,
  cache,
  cwd,
  seen = new Set(),
}: {
  path: string;
  cache: SourceCache;
  cwd: string;
  seen?: Set<string>;
}): Promise<ExportSet> {
  const set: ExportSet = { names: new Set(), unknown: [] };
  if (seen.has(path)) return set;
  seen.add(path);
  const ast = await cache.parse(path);
  for (const stmt of ast.program.body) {
    if (stmt.type === 'ExportNamedDeclaration') {
      if (stmt.declaration) for (const n of declaredNames(stmt.declaration)) set.names.add(n);
      for (const s of stmt.specifiers) set.names.add(nameOf(s.exported));
    } else if (stmt.type === 'ExportDefaultDeclaration') {
      set.names.add('default');
    } else if (stmt.type === 'TSExportAssignment') {
      set.names.add('default');
      set.unknown.push('export = assigns a value whose keys are not written out');
    } else if (stmt.type === 'TSImportEqualsDeclaration' && stmt.isExport) {
      set.names.add(stmt.id.name);
    } else if (stmt.type === 'ExportAllDeclaration') {
      const target = await resolveSpecifier({ from: path, specifier: stmt.source.value });
      if (!target) {
        set.unknown.push(`export * from '${stmt.source.value}', which is not a file forge can read`);
        continue;
      }
      try {
        const inner = await exportsOf({ path: target, cache, cwd, seen });
        for (const n of inner.names) if (n !== 'default') set.names.add(n);
        set.unknown.push(...inner.unknown);
      } catch (err) {
        if (!(err instanceof SourceSyntaxError)) throw err;
        set.unknown.push(`export * from '${relative(cwd, target)}', which does not parse (${err.message})`);
      }
    }
  }
  if (commonJsExports(ast, set)) set.names.add('default');
  return set;
}

const at = (node: t.Node, name: string): ImportedName => ({ name, line: node.loc!.start.line, col: node.loc!.start.column + 1 });

/** `require('./x')` with a literal path: the path, else null. */
function requiredPath(node: t.Node | null | undefined): string | null {
  if (node?.type !== 'CallExpression' || !isIdentifier(node.callee, 'require') || node.arguments.length !== 1) return null;
  const arg = node.arguments[0]!;
  return arg.type === 'StringLiteral' ? arg.value : null;
}

/**
 * Every name `importer` takes from `exporter`: named, default and type imports, re-exports
 * (`export {a} from`), the members read through a namespace import (`ns.x`, `ns['x']`, and `ns.T`
 * in types), and CommonJS `const {a} = require(…)` / `require(…).a`.
 */
export async function importsFrom({
  importer,
  exporter,
  cache,
}: {
  importer: string;
  exporter: string;
  cache: SourceCache;
}): Promise<{ names: ImportedName[]; imports: boolean }> {
  const ast = await cache.parse(importer);
  const resolved = new Map<string, string | null>();
  const fromExporter = async (specifier: string) => {
    if (!resolved.has(specifier)) resolved.set(specifier, await resolveSpecifier({ from: importer, specifier }));
    return resolved.get(specifier) === exporter;
  };
  const names: ImportedName[] = [];
  const namespaces = new Set<string>();
  let imports = false;
  for (const stmt of ast.program.body) {
    if (stmt.type === 'ImportDeclaration' && (await fromExporter(stmt.source.value))) {
      imports = true;
      for (const s of stmt.specifiers) {
        if (s.type === 'ImportDefaultSpecifier') names.push(at(s, 'default'));
        else if (s.type === 'ImportSpecifier') names.push(at(s.imported, nameOf(s.imported)));
        else namespaces.add(s.local.name);
      }
    } else if (stmt.type === 'ExportNamedDeclaration' && stmt.source && (await fromExporter(stmt.source.value))) {
      imports = true;
      // In `export {a as b} from './x'`, `local` (a) is the exporter's name.
      for (const s of stmt.specifiers) if (s.type === 'ExportSpecifier') names.push(at(s.local, nameOf(s.local)));
    } else if (stmt.type === 'ExportAllDeclaration' && (await fromExporter(stmt.source.value))) {
      imports = true;
    }
  }
  for (const node of nodes(ast.program)) {
    if (
      (node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') &&
      node.object.type === 'Identifier' &&
      namespaces.has(node.object.name)
    ) {
      const name = propertyName(node);
      if (name) names.push(at(node.property, name));
    } else if (node.type === 'TSQualifiedName' && node.left.type === 'Identifier' && namespaces.has(node.left.name)) {
      names.push(at(node.right, node.right.name));
    } else if (node.type === 'VariableDeclarator' && node.id.type === 'ObjectPattern') {
      const specifier = requiredPath(node.init);
      if (specifier === null || !(await fromExporter(specifier))) continue;
      imports = true;
      for (const p of node.id.properties) {
        if (p.type === 'ObjectProperty' && !p.computed && (p.key.type === 'Identifier' || p.key.type === 'StringLiteral'))
          names.push(at(p.key, nameOf(p.key)));
      }
    } else if (node.type === 'MemberExpression') {
      const specifier = requiredPath(node.object);
      if (specifier === null || !(await fromExporter(specifier))) continue;
      imports = true;
      const name = propertyName(node);
      if (name) names.push(at(node.property, name));
    } else if (node.type === 'CallExpression') {
      const specifier = requiredPath(node);
      if (specifier !== null && (await fromExporter(specifier))) imports = true;
    }
  }
  // The walk above is depth-first from the end; readers expect the file's order.
  names.sort((a, b) => a.line - b.line || a.col - b.col);
  return { names, imports };
}

/** How a contract file failed to load: missing, or not parsable, said as file:line:col. */
async function loadFailure(cwd: string, file: string, cache: SourceCache): Promise<string | null> {
  const path = resolve(cwd, file);
  if (!(await isFile(path))) return `cannot read '${file}': no such file`;
  try {
    await cache.parse(await realpath(path));
    return null;
  } catch (err) {
    if (err instanceof SourceSyntaxError) return `cannot parse '${file}': ${file}:${err.message}`;
    throw err;
  }
}

/** One contract_check: EXPORTER:IMPORTER, both relative to cwd. */
export async function checkContract({
  cwd,
  exporter,
  importer,
  cache,
}: {
  cwd: string;
  exporter: string;
  importer: string;
  cache: SourceCache;
}): Promise<CheckResult> {
  const name = `${exporter}:${importer}`;
  const failures = [await loadFailure(cwd, exporter, cache), await loadFailure(cwd, importer, cache)].filter(
    (f): f is string => f !== null,
  );
  if (failures.length) return { type: 'contract_check', name, passed: false, message: failures.join('; '), missing: [] };
  const [exporterPath, importerPath] = [await realpath(resolve(cwd, exporter)), await realpath(resolve(cwd, importer))];
  const exported = await exportsOf({ path: exporterPath, cache, cwd });
  const used = await importsFrom({ importer: importerPath, exporter: exporterPath, cache });
  const absent = used.names.filter((n) => !exported.names.has(n.name));
  const missing = exported.unknown.length ? [] : absent.map((n) => ({ ...n, file: importer }));
  const distinct = new Set(used.names.map((n) => n.name)).size;
  const base = { type: 'contract_check' as const, name, imported: distinct, missing };
  if (missing.length) {
    const message = missing.map((m) => `${importer}:${m.line}:${m.col}: '${m.name}' is not exported by ${exporter}`).join('; ');
    return { ...base, passed: false, message };
  }
  if (!used.imports) return { ...base, passed: true, message: `${importer} imports nothing from ${exporter}` };
  const unverified = absent.length ? `; ${absent.length} not verified: ${exported.unknown[0]}` : '';
  return { ...base, passed: true, message: `${distinct} name${distinct === 1 ? '' : 's'} imported, all exported${unverified}` };
}
