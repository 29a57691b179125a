// Parses JavaScript, TypeScript and JSON with real parsers and locates their errors as line:col.
import { extname } from 'node:path';
import type { ParserOptions, ParserPlugin } from '@babel/parser';
import type { File } from '@babel/types';

/** Extensions @babel/parser checks; .json goes to JSON.parse, .py to python3 (see syntax.ts). */
export const SCRIPT_EXTENSIONS = ['.js', '.mjs', '.cjs', '.jsx', '.ts', '.tsx'] as const;

/** Where a parser stopped, 1-based, and what it said. */
export interface ParseError {
  line: number;
  col: number;
  message: string;
}

export class SourceSyntaxError extends Error {
  constructor(readonly location: ParseError) {
    super(`${location.line}:${location.col}: ${location.message}`);
    this.name = 'SourceSyntaxError';
  }
}

/**
 * The parser's view of a file by its extension: .mjs and TypeScript are modules, .cjs is a CommonJS
 * script (top-level return is legal there), .js and .jsx are whichever their imports say.
 * Decorators are TypeScript's (experimentalDecorators) so Angular and Nest code parses.
 */
function options(file: string): ParserOptions {
  const ext = extname(file);
  const plugins: ParserPlugin[] = [];
  if (ext === '.ts' || ext === '.tsx')
    plugins.push(file.endsWith('.d.ts') ? ['typescript', { dts: true }] : 'typescript', 'decorators-legacy');
  if (ext === '.jsx' || ext === '.tsx') plugins.push('jsx');
  const sourceType = ext === '.cjs' ? 'script' : ext === '.js' || ext === '.jsx' ? 'unambiguous' : 'module';
  return { sourceType, plugins, allowReturnOutsideFunction: ext === '.cjs' };
}

type Babel = typeof import('@babel/parser');
let parser: Promise<Babel> | undefined;

/** Babel is loaded on first use only, so no other command pays for it at start-up. */
function babel(): Promise<Babel> {
  // Bundled, a CommonJS module's exports arrive as the default export; under Node they are also named.
  parser ??= import('@babel/parser').then((mod) => (mod as Babel & { default?: Babel }).default ?? mod);
  return parser;
}

/** The AST of a .js/.mjs/.cjs/.jsx/.ts/.tsx file; a syntax error is a SourceSyntaxError. */
export async function parseScript({ file, text }: { file: string; text: string }): Promise<File> {
  const { parse } = await babel();
  try {
    return parse(text, options(file));
  } catch (err) {
    const loc = (err as { loc?: { line: number; column: number } }).loc;
    if (!loc) throw err;
    // Babel appends the position it also gives in loc: "Unexpected token (3:7)".
    const message = (err as Error).message.replace(/ \(\d+:\d+\)$/, '');
    throw new SourceSyntaxError({ line: loc.line, col: loc.column + 1, message });
  }
}

/** 1-based line and column of a 0-based offset into text. */
export function lineCol(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length, col: offset - lastBreak };
}

/** The offset JSON.parse names in its message ("… at position 42"), or the end for input that stops short. */
function namedOffset(message: string, text: string): number | null {
  const m = /at position (\d+)/.exec(message);
  if (m) return Number(m[1]);
  return /Unexpected end of JSON input/.test(message) ? text.length : null;
}

/** Whether JSON.parse accepts text, or rejects it only because the text stops short. */
function viablePrefix(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch (err) {
    const offset = namedOffset((err as Error).message, text);
    return offset !== null && offset >= text.length;
  }
}

/**
 * The error of a JSON text, or null when it parses. V8 names no position for an unexpected token,
 * so then the offset is found by bisection: the shortest prefix JSON.parse rejects for a reason
 * other than running out of text ends at the offending character.
 */
export function jsonError(raw: string): ParseError | null {
  // A byte-order mark is not JSON, but every JSON reader of note skips it.
  const text = raw.replace(/^\uFEFF/, '');
  try {
    JSON.parse(text);
    return null;
  } catch (err) {
    const message = (err as Error).message;
    let offset = namedOffset(message, text);
    if (offset === null) {
      let [lo, hi] = [0, text.length];
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (viablePrefix(text.slice(0, mid + 1))) lo = mid + 1;
        else hi = mid;
      }
      offset = lo;
    }
    // The position is now in line:col; V8's long form also quotes the text, which says nothing more.
    const reason = message
      .replace(/ in JSON at position \d+$/, '')
      .replace(/, ("[\s\S]*"|\.\.\.[\s\S]*) is not valid JSON$/, '')
      .replace(/[\n\r\t]/g, (c) => JSON.stringify(c).slice(1, -1));
    return { ...lineCol(text, offset), message: reason };
  }
}
