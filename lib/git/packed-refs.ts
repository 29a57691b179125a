// Reads git's packed-refs file exactly as git writes it, or not at all: forge's direct ref reads and writes answer only where git would answer the same.

/** A ref of packed-refs: its full name and the object id it holds. */
export interface PackedRef {
  name: string;
  oid: string;
}

/**
 * The refs of a packed-refs file's text, in its order, or null for anything not exactly as git
 * writes it (git then reads the file, and reports what is wrong with it): an optional first line
 * `# pack-refs with: <traits>`, then a line `<oid> <name>` per ref, each maybe followed by its
 * peeled `^<oid>`, every line ended by LF; oids in lowercase hex of `hexLength` digits; names that
 * git's refname rules allow, of printable ASCII, strictly in byte order. git looks a ref up by
 * halving a file marked sorted: in one out of order, or with a name twice, it may not find a ref a
 * line-by-line reading would, and a line it cannot parse is fatal to it (`unexpected line in
 * packed-refs`) where skipping it would answer.
 */
export function parsePackedRefs(text: string, hexLength: 40 | 64): PackedRef[] | null {
  const record = new RegExp(`([0-9a-f]{${hexLength}}) (refs/[^\\n]*)\\n(?:\\^[0-9a-f]{${hexLength}}\\n)?`, 'y');
  const refs: PackedRef[] = [];
  record.lastIndex = text.startsWith('# pack-refs with: ') ? text.indexOf('\n') + 1 : 0;
  if (record.lastIndex === 0 && text.startsWith('#')) return null; // a header line git does not read, or one not ended
  let previous = '';
  while (record.lastIndex < text.length) {
    const m = record.exec(text);
    if (!m) return null;
    const name = m[2]!;
    // Printable ASCII (above): code-unit order is git's byte order.
    if (name <= previous || !plainRefname(name)) return null;
    refs.push({ name, oid: m[1]! });
    previous = name;
  }
  return refs;
}

/** A full refname git's check-ref-format allows, of printable ASCII: no component empty, starting with `.` or ending with `.lock`; no `..`, `@{`, control characters, space or `~^:?*[\`. */
function plainRefname(name: string): boolean {
  return (
    /^refs\/[\x21-\x7e]+$/.test(name) &&
    !/[~^:?*[\\]|\.\.|@\{|\/\/|\/$|\.$/.test(name) &&
    name.split('/').every((component) => !component.startsWith('.') && !component.endsWith('.lock'))
  );
}
