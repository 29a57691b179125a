// A file's symbol index — functions, classes, methods, types, interfaces, exported consts — from
// tree-sitter grammars (TS/JS, Python, Go, Rust, C/C++, Java), regexes only for other languages.
import { dirname, extname, join } from 'node:path';

export interface SymbolEntry {
  kind: string;
  name: string;
  /** 1-based first and last line. */
  line: number;
  endLine: number;
  /** The class, impl, namespace… it is declared in. */
  container?: string;
}

export interface SymbolIndex {
  language: string;
  parser: 'tree-sitter' | 'regex';
  symbols: SymbolEntry[];
}

const TS = `
(function_declaration name: (identifier) @name) @function
(generator_function_declaration name: (identifier) @name) @function
(class_declaration name: (type_identifier) @name) @class
(abstract_class_declaration name: (type_identifier) @name) @class
(method_definition name: (_) @name) @method
(interface_declaration name: (type_identifier) @name) @interface
(type_alias_declaration name: (type_identifier) @name) @type
(enum_declaration name: (identifier) @name) @enum
(program (lexical_declaration (variable_declarator name: (identifier) @name)) @const)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name))) @const)`;

const JS = `
(function_declaration name: (identifier) @name) @function
(generator_function_declaration name: (identifier) @name) @function
(class_declaration name: (identifier) @name) @class
(method_definition name: (_) @name) @method
(program (lexical_declaration (variable_declarator name: (identifier) @name)) @const)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name))) @const)`;

/** Grammar file and tags query per language. */
const LANGUAGES: Record<string, { grammar: string; query: string; containers: string[] }> = {
  typescript: {
    grammar: 'typescript',
    query: TS,
    containers: ['class_declaration', 'abstract_class_declaration', 'interface_declaration'],
  },
  tsx: { grammar: 'tsx', query: TS, containers: ['class_declaration', 'abstract_class_declaration', 'interface_declaration'] },
  javascript: { grammar: 'javascript', query: JS, containers: ['class_declaration'] },
  python: {
    grammar: 'python',
    query: '(function_definition name: (identifier) @name) @function\n(class_definition name: (identifier) @name) @class',
    containers: ['class_definition'],
  },
  go: {
    grammar: 'go',
    query: `(function_declaration name: (identifier) @name) @function
(method_declaration name: (field_identifier) @name) @method
(type_spec name: (type_identifier) @name type: (struct_type)) @struct
(type_spec name: (type_identifier) @name type: (interface_type)) @interface
(type_spec name: (type_identifier) @name type: [(type_identifier) (qualified_type) (map_type) (slice_type) (function_type) (pointer_type)]) @type
(const_spec name: (identifier) @name) @const`,
    containers: [],
  },
  rust: {
    grammar: 'rust',
    query: `(function_item name: (identifier) @name) @function
(function_signature_item name: (identifier) @name) @function
(struct_item name: (type_identifier) @name) @struct
(enum_item name: (type_identifier) @name) @enum
(trait_item name: (type_identifier) @name) @trait
(impl_item type: (_) @name) @impl
(type_item name: (type_identifier) @name) @type
(const_item name: (identifier) @name) @const
(static_item name: (identifier) @name) @const
(mod_item name: (identifier) @name) @module
(macro_definition name: (identifier) @name) @macro`,
    containers: ['impl_item', 'trait_item', 'mod_item'],
  },
  cpp: {
    grammar: 'cpp',
    query: `(function_definition declarator: (function_declarator declarator: (_) @name)) @function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name))) @function
(struct_specifier name: (type_identifier) @name body: (_)) @struct
(class_specifier name: (type_identifier) @name body: (_)) @class
(enum_specifier name: (type_identifier) @name body: (_)) @enum
(union_specifier name: (type_identifier) @name body: (_)) @union
(namespace_definition name: (_) @name) @namespace
(type_definition declarator: (type_identifier) @name) @type`,
    containers: ['class_specifier', 'struct_specifier', 'namespace_definition'],
  },
  java: {
    grammar: 'java',
    query: `(class_declaration name: (identifier) @name) @class
(interface_declaration name: (identifier) @name) @interface
(enum_declaration name: (identifier) @name) @enum
(record_declaration name: (identifier) @name) @record
(method_declaration name: (identifier) @name) @method
(constructor_declaration name: (identifier) @name) @constructor`,
    containers: ['class_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration'],
  },
};

const EXTENSIONS: Record<string, string> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
  '.c': 'cpp',
  '.h': 'cpp',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.cxx': 'cpp',
  '.hh': 'cpp',
  '.hpp': 'cpp',
  '.hxx': 'cpp',
};

export function languageOf(path: string): string | undefined {
  return EXTENSIONS[extname(path).toLowerCase()];
}

/** Kinds whose declaration inside a container makes them methods. */
const METHOD_LIKE = new Set(['function']);

// The runtime is CommonJS with its .wasm files beside it; load it from node_modules, not the bundle.
type TreeSitter = typeof import('@vscode/tree-sitter-wasm');
let runtime: Promise<{ ts: TreeSitter; dir: string }> | null = null;

function loadRuntime(): Promise<{ ts: TreeSitter; dir: string }> {
  runtime ??= (async () => {
    // node:module when a grammar is first needed: loading it costs every call 0.4 ms (its ESM loader, source maps).
    const { createRequire } = process.getBuiltinModule('node:module') as typeof import('node:module');
    const require = createRequire(import.meta.url);
    const dir = join(dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
    const ts = require('@vscode/tree-sitter-wasm') as TreeSitter;
    await ts.Parser.init({ locateFile: (file: string) => join(dir, file) });
    return { ts, dir };
  })();
  return runtime;
}

async function withTreeSitter(language: string, text: string): Promise<SymbolEntry[]> {
  const spec = LANGUAGES[language]!;
  const { ts, dir } = await loadRuntime();
  const grammar = await ts.Language.load(join(dir, `tree-sitter-${spec.grammar}.wasm`));
  const parser = new ts.Parser();
  parser.setLanguage(grammar);
  const tree = parser.parse(text);
  if (!tree) return [];
  const query = new ts.Query(grammar, spec.query);
  const seen = new Set<number>();
  const out: SymbolEntry[] = [];
  for (const match of query.matches(tree.rootNode)) {
    const decl = match.captures.find((c) => c.name !== 'name');
    const name = match.captures.find((c) => c.name === 'name');
    if (!decl || !name || seen.has(decl.node.id)) continue;
    seen.add(decl.node.id);
    let container: string | undefined;
    for (let p = decl.node.parent; p; p = p.parent) {
      if (spec.containers.includes(p.type)) {
        const n = p.childForFieldName('name') ?? p.childForFieldName('type');
        container = n?.text;
        break;
      }
    }
    const kind = container && METHOD_LIKE.has(decl.name) ? 'method' : decl.name;
    out.push({
      kind,
      name: name.node.text,
      line: decl.node.startPosition.row + 1,
      endLine: decl.node.endPosition.row + 1,
      ...(container ? { container } : {}),
    });
  }
  tree.delete();
  parser.delete();
  return out.sort((a, b) => a.line - b.line);
}

const REGEXES: Array<[RegExp, string]> = [
  [/^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/, 'function'],
  [/^\s*(?:export\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/, 'class'],
  [/^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/, 'function'],
  [/^\s*func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/, 'function'],
  [/^\s*(?:pub(?:\([^)]*\))?\s+)?fn\s+([A-Za-z_]\w*)/, 'function'],
  [/^\s*(?:pub\s+)?(?:struct|enum|trait|interface|module|record)\s+([A-Za-z_]\w*)/, 'type'],
  [/^\s*(?:sub|proc|fun|function)\s+([A-Za-z_][\w:]*)/, 'function'],
];

/** Line-by-line patterns: the fallback for languages without a grammar here. */
function withRegexes(text: string): SymbolEntry[] {
  const out: SymbolEntry[] = [];
  text.split('\n').forEach((line, i) => {
    for (const [re, kind] of REGEXES) {
      const m = re.exec(line);
      if (m) {
        out.push({ kind, name: m[1]!, line: i + 1, endLine: i + 1 });
        break;
      }
    }
  });
  return out;
}

export async function extractSymbols({ path, text }: { path: string; text: string }): Promise<SymbolIndex> {
  const language = languageOf(path);
  if (language) {
    try {
      return { language, parser: 'tree-sitter', symbols: await withTreeSitter(language, text) };
    } catch {
      // A grammar that fails to load must not cost the answer: fall back to the patterns.
    }
  }
  return { language: language ?? (extname(path).slice(1) || 'text'), parser: 'regex', symbols: withRegexes(text) };
}
