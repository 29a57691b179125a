// The plain text every match of a regex must contain: what lets a fast byte search (git grep -F) pick the files worth reading.
import regjsparser, { type AstNode } from 'regjsparser';

/** What V8 accepts in Node 20 beyond the parser's defaults. */
const FEATURES = { lookbehind: true, namedGroups: true, unicodePropertyEscape: true } as const;
type Node = AstNode<typeof FEATURES>;

/** A regex source that matches `text` literally. */
export const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Shorter literals pick nearly every file: reading them all in JavaScript is then as fast. */
const MIN_LITERAL = 3;

/**
 * Strings such that every line a JavaScript regex (flags `u`, or `iu`) matches contains at least
 * one of them as bytes in the file, whether it is UTF-8 or Latin-1; null when the regex promises
 * none worth searching for. Only ASCII is kept (a Latin-1 file holds other characters as other
 * bytes), and no line break or NUL. Under `i`, case is folded by the byte search too, but Unicode
 * folds ſ to s and K (Kelvin) to k, which an ASCII search would miss: those letters end a literal.
 */
export function requiredLiterals({ pattern, ignoreCase }: { pattern: string; ignoreCase: boolean }): string[] | null {
  let ast: Node;
  try {
    ast = regjsparser.parse(pattern, ignoreCase ? 'iu' : 'u', FEATURES);
  } catch {
    return null; // a pattern this parser does not know is searched without a prefilter
  }
  const alternatives = ast.type === 'disjunction' ? ast.body : [ast];
  const literals: string[] = [];
  for (const alternative of alternatives) {
    const runs = literalRuns(alternative, ignoreCase);
    const longest = runs.reduce((a, b) => (b.length > a.length ? b : a), '');
    if (longest.length < MIN_LITERAL) return null; // one alternative without a literal can match anywhere
    literals.push(longest);
  }
  return [...new Set(literals)];
}

/** The runs of characters that appear, adjacent and in order, in every match of `node`. */
function literalRuns(node: Node, ignoreCase: boolean): string[] {
  const runs: string[] = [];
  let run = '';
  const cut = () => {
    if (run) runs.push(run);
    run = '';
  };
  const walk = (n: Node) => {
    if (n.type === 'value' && keepable(n.codePoint, ignoreCase)) run += String.fromCodePoint(n.codePoint);
    else if (n.type === 'alternative') n.body.forEach(walk);
    // A plain group without alternatives matches its body once: its characters join the run.
    else if (n.type === 'group' && (n.behavior === 'normal' || n.behavior === 'ignore') && !n.body.some((b) => b.type === 'disjunction'))
      n.body.forEach(walk);
    else cut(); // classes, dots, quantifiers, lookarounds, anchors, references: no known text here
  };
  walk(node);
  cut();
  return runs;
}

/** s and k (either case): Unicode case folding also matches ſ and K (Kelvin) to them. */
const FOLDED_FROM_BEYOND_ASCII = new Set([0x73, 0x53, 0x6b, 0x4b]);

function keepable(codePoint: number, ignoreCase: boolean): boolean {
  if (codePoint > 0x7e || codePoint === 0x0a || codePoint === 0x0d || codePoint === 0x00) return false;
  return !(ignoreCase && FOLDED_FROM_BEYOND_ASCII.has(codePoint));
}
