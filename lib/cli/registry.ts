// Looks commands up in the declared tree: by argv words, by `forge-<cmd>` program name, or all leaves.
import { editDistance } from '../distance';
import { isGroup, type CommandSpec, type Entry, type GroupSpec } from './declare';

export type Resolution =
  | { kind: 'command'; spec: CommandSpec<any>; rest: string[] }
  | { kind: 'group'; group: GroupSpec; rest: string[] }
  | { kind: 'unknown'; word: string; parent: GroupSpec | null; rest: string[] }
  | { kind: 'none'; rest: string[] };

/** Finds the command named by the leading words of argv (flags may not come before it). */
export function resolve(entries: readonly Entry[], argv: string[]): Resolution {
  const [first, ...rest] = argv;
  if (first === undefined || first.startsWith('-')) return { kind: 'none', rest: argv };
  const top = entries.find((e) => e.name === first);
  if (!top) return { kind: 'unknown', word: first, parent: null, rest };
  if (!isGroup(top)) return { kind: 'command', spec: top, rest };
  const [sub, ...after] = rest;
  if (sub === undefined || sub.startsWith('-')) return { kind: 'group', group: top, rest };
  const leaf = top.commands.find((c) => c.name === `${top.name} ${sub}`);
  if (!leaf) return { kind: 'unknown', word: sub, parent: top, rest: after };
  return { kind: 'command', spec: leaf, rest: after };
}

/** Every runnable command, in registry order. */
export function leaves(entries: readonly Entry[]): CommandSpec<any>[] {
  return entries.flatMap((e) => (isGroup(e) ? e.commands : [e]));
}

/** `forge-memory` → ['memory']: the words a `forge-<cmd>` program name stands for. */
export function programWords(entries: readonly Entry[], program: string): string[] {
  const m = /^forge-(.+?)(\.[cm]?js)?$/.exec(program);
  if (!m) return [];
  const name = m[1]!;
  return entries.some((e) => e.name === name) ? [name] : [];
}

/** The closest known name, for "did you mean" (edit distance ≤ 2). */
export function suggest(word: string, names: string[]): string | undefined {
  const best = names.map((n) => ({ n, d: editDistance(word, n) })).sort((x, y) => x.d - y.d)[0];
  return best && best.d <= 2 ? best.n : undefined;
}
