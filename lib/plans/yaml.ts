// YAML (and JSON) with positions: every finding points at file:line:col of the node it is about.
import type { Alias, Document, LineCounter, Node, Scalar } from 'yaml';
import type { FindingCode } from '../error-codes';

export interface Finding {
  file: string;
  line: number;
  col: number;
  severity: 'error' | 'warning';
  /** A row of FINDING_CODES (lib/error-codes.ts): forge plan check's page lists them. */
  code: FindingCode;
  message: string;
}

export type Path = Array<string | number>;

/** A parsed YAML source that sits at `baseLine` of `file` (frontmatter, a fenced block, a JSON file). */
export class Located {
  constructor(
    readonly file: string,
    readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
    private readonly baseLine: number,
    private readonly data: unknown,
  ) {}

  value(): unknown {
    return this.data;
  }

  /** Position of an offset in this source, as a file position. */
  pos(offset: number): { line: number; col: number } {
    const p = this.lines.linePos(offset);
    return { line: this.baseLine + p.line - 1, col: p.col };
  }

  /** The deepest node that exists along `path` (the key's node for map entries). */
  at(path: Path): { line: number; col: number } {
    let node: unknown = this.doc.contents;
    let offset = (node as Node | null)?.range?.[0] ?? 0;
    for (const key of path) {
      const items = (node as { items?: unknown[] } | null)?.items;
      if (!Array.isArray(items)) break;
      if (typeof key === 'number') {
        const item = items[key] as Node | undefined;
        if (!item) break;
        node = item;
        offset = item.range?.[0] ?? offset;
      } else {
        const pair = items.find((p) => (p as { key?: { value?: unknown } }).key?.value === key) as
          | { key: Node; value: Node | null }
          | undefined;
        if (!pair) break;
        offset = pair.key.range?.[0] ?? offset;
        node = pair.value;
      }
    }
    return this.pos(offset);
  }

  finding(path: Path, code: FindingCode, message: string, severity: Finding['severity'] = 'error'): Finding {
    return { file: this.file, ...this.at(path), severity, code, message };
  }
}

/** Parses YAML located at `baseLine`; syntax errors (tabs, duplicate keys…) become findings. */
export async function parseLocated({
  file,
  text,
  baseLine,
}: {
  file: string;
  text: string;
  baseLine: number;
}): Promise<{ located: Located | null; findings: Finding[] }> {
  // yaml's Node build is CommonJS: bundled, a dynamic import exposes it as the default export.
  const mod = await import('yaml');
  const yaml = ('default' in mod ? mod.default : mod) as typeof import('yaml');
  const { parseDocument, LineCounter } = yaml;
  const lines = new LineCounter();
  // logLevel 'error': yaml's warnings (a map used as a key…) would go to the process's stderr.
  // uniqueKeys off: yaml compares every pair of keys (minutes for a large map); firstDuplicateKey is linear.
  const at = (offset: number, message: string): Finding => {
    const p = lines.linePos(offset);
    return { file, line: baseLine + p.line - 1, col: p.col, severity: 'error', code: 'YAML_ERROR', message };
  };
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false, logLevel: 'error' });
  } catch (err) {
    // yaml's parser recurses per nesting level: a few thousand levels overflow the stack.
    return { located: null, findings: [at(0, plainMessage((err as Error).message))] };
  }
  // One syntax error cascades into several; the first is the one to fix.
  const first = doc.errors[0];
  if (first) {
    return { located: null, findings: [at(first.pos[0], plainMessage(first.message))] };
  }
  const { duplicate, aliases } = scan(doc, yaml);
  if (duplicate)
    return {
      located: null,
      findings: [at(duplicate.range?.[0] ?? 0, `duplicate key '${String(duplicate.value)}': map keys must be unique`)],
    };
  // Aliases are resolved here, not while parsing: an unknown anchor, an alias bomb ("billion
  // laughs") or an alias inside the node it names is a finding at the alias.
  // yaml resolves each alias by walking the whole document: thousands of them take minutes.
  if (aliases.length > MAX_ALIASES)
    return {
      located: null,
      findings: [at(aliases[MAX_ALIASES]!.range?.[0] ?? 0, `${aliases.length} aliases: a plan may use at most ${MAX_ALIASES}`)],
    };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    const message = (err as Error).message;
    const unresolved = /^Unresolved alias .*: (.*)$/.exec(message)?.[1];
    const alias = aliases.find((a) => unresolved === undefined || a.source === unresolved);
    const why =
      unresolved !== undefined
        ? `alias '*${unresolved}' names no anchor set before it`
        : /excessive alias count/i.test(message)
          ? `the aliases expand too far (over ${MAX_ALIAS_COUNT} copies): anchors and aliases may repeat a value, not multiply it`
          : plainMessage(message);
    return { located: null, findings: [at(alias?.range?.[0] ?? 0, why)] };
  }
  const inside = aliases.find((a) => {
    const source = a.resolve(doc)?.range;
    return source && a.range && source[0] <= a.range[0] && a.range[1] <= source[2];
  });
  if (inside)
    return {
      located: null,
      findings: [at(inside.range![0], `alias '*${inside.source}' inside the node its anchor names: the value would contain itself`)],
    };
  return { located: new Located(file, doc, lines, baseLine, value), findings: [] };
}

/** yaml's message without its position suffix; a stack overflow (absurd nesting) said plainly. */
function plainMessage(message: string): string {
  return /call stack/i.test(message) ? 'nested too deeply' : message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

/** How many times aliases may copy an anchored value (yaml's own guard against alias bombs). */
const MAX_ALIAS_COUNT = 50;
/** How many aliases a document may hold at all. */
const MAX_ALIASES = 100;

/** In one pass over the document: the first key that repeats an earlier scalar key of its map, and every alias. */
function scan(doc: Document.Parsed, { visit, isScalar }: typeof import('yaml')): { duplicate: Scalar | null; aliases: Alias[] } {
  let duplicate: Scalar | null = null;
  const aliases: Alias[] = [];
  visit(doc, {
    Alias: (_key, node) => void aliases.push(node),
    Map: (_key, map) => {
      if (map.items.length < 2) return;
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        if (!isScalar(key)) continue;
        if (seen.has(key.value)) {
          duplicate = key;
          return visit.BREAK;
        }
        seen.add(key.value);
      }
    },
  });
  return { duplicate, aliases };
}

/** A field description for `checkShape`: a type name, an enum, or a nested map of fields. */
export type Shape =
  | 'string'
  | 'integer'
  | 'boolean'
  | 'string[]'
  | 'duration'
  | { enum: readonly string[] }
  | { fields: Record<string, Shape>; required?: string[] };

function typeOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a map' : typeof v;
}

/** Reports missing, unknown and mistyped fields of `value` against `shape`, with positions. */
export function checkShape({
  located,
  value,
  shape,
  path,
  findings,
}: {
  located: Located;
  value: unknown;
  shape: Shape;
  path: Path;
  findings: Finding[];
}): void {
  const where = path.join('.') || 'the envelope';
  if (typeof shape === 'object' && 'fields' in shape) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      findings.push(located.finding(path, 'INVALID_TYPE', `${where} must be a map of fields, not ${typeOf(value)}`));
      return;
    }
    const obj = value as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      if (!Object.hasOwn(shape.fields, key))
        findings.push(
          located.finding(
            [...path, key],
            'UNKNOWN_FIELD',
            `unknown field '${[...path, key].join('.')}' (known: ${Object.keys(shape.fields).join(', ')})`,
          ),
        );
    }
    for (const key of shape.required ?? []) {
      if (obj[key] === undefined || obj[key] === null)
        findings.push(located.finding(path, 'MISSING_FIELD', `missing field '${[...path, key].join('.')}'`));
    }
    for (const [key, sub] of Object.entries(shape.fields))
      if (obj[key] !== undefined && obj[key] !== null) checkShape({ located, value: obj[key], shape: sub, path: [...path, key], findings });
    return;
  }
  const bad = (expected: string) =>
    findings.push(
      located.finding(
        path,
        'INVALID_TYPE',
        `${where} must be ${expected}, not ${typeOf(value)}${typeof value === 'string' || typeof value === 'number' ? ` (${JSON.stringify(value)})` : ''}`,
      ),
    );
  if (typeof shape === 'object') {
    if (typeof value !== 'string' || !shape.enum.includes(value)) bad(`one of ${shape.enum.join(', ')}`);
  } else if (shape === 'string') {
    if (typeof value !== 'string') bad('a string');
  } else if (shape === 'integer') {
    if (!Number.isInteger(value) || (value as number) < 0) bad('a whole number');
  } else if (shape === 'boolean') {
    if (typeof value !== 'boolean') bad('true or false');
  } else if (shape === 'duration') {
    if (!(Number.isInteger(value) || (typeof value === 'string' && /^\d+(s|m|h|d)$/.test(value))))
      bad('a duration like 90m or 2h, or seconds');
  } else if (!Array.isArray(value) || value.some((x) => typeof x !== 'string')) bad('a list of strings');
}
