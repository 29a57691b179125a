// The patch and edit corpus: real commits (this repository's, node_modules' releases) perturbed as models err, with the exact bytes expected or a refusal.
// One module for its users (the corpus tests, bench/files.ts); the bases, their sources and each kind of perturbation live under corpus/.
import type { Base } from './corpus/bases';
import { corpusBases } from './corpus/sources';
import { type EditCase, type PatchCase, type Perturbation, rankOf } from './corpus/cases';
import { ANCHOR_PERTURBATIONS } from './corpus/perturbations/anchors';
import { DIALECT_PERTURBATIONS } from './corpus/perturbations/dialects';
import { LINE_ENDING_PERTURBATIONS } from './corpus/perturbations/line-endings';
import { MULTI_FILE_PERTURBATIONS } from './corpus/perturbations/multi-file';
import { REFUSAL_PERTURBATIONS } from './corpus/perturbations/refusals';
import { UNIFIED_PERTURBATIONS } from './corpus/perturbations/unified';
import { WHITESPACE_PERTURBATIONS } from './corpus/perturbations/whitespace';

export type { Base, Text } from './corpus/bases';
export { corpusBases, historyBases, packageReleaseBases } from './corpus/sources';
export type { EditCase, EditOp, PatchCase, Perturbation } from './corpus/cases';
export { editArgs, failureLine, firstDifference, judge, type Outcome } from './corpus/judge';

/** Every perturbation, in the order reports list them: git's diff and its headers first, then whitespace, endings, dialects, refusals. */
export const PERTURBATIONS: Perturbation[] = [
  ...UNIFIED_PERTURBATIONS,
  ...WHITESPACE_PERTURBATIONS,
  ...LINE_ENDING_PERTURBATIONS,
  ...DIALECT_PERTURBATIONS,
  ...REFUSAL_PERTURBATIONS,
  ...MULTI_FILE_PERTURBATIONS,
  ...ANCHOR_PERTURBATIONS,
];

// ---------------------------------------------------------------------------------------------
// Iterating and sampling

function siblingsOf(bases: Base[]): Map<Base, Base[]> {
  const byCommit = new Map<string, Base[]>();
  for (const b of bases) {
    const key = b.name.replace(/:.*/, '');
    byCommit.set(key, [...(byCommit.get(key) ?? []), b]);
  }
  return new Map(bases.map((b) => [b, byCommit.get(b.name.replace(/:.*/, ''))!]));
}

/** Every patch case of one perturbation, built one at a time (the whole corpus does not fit in memory at once). */
export function* patchCases(p: Perturbation, bases: Base[] = corpusBases()): Generator<PatchCase> {
  if (!p.patch) return;
  const sib = siblingsOf(bases);
  for (const b of bases) {
    const c = p.patch(b, sib.get(b)!);
    if (c) yield c;
  }
}

export function* editCases(p: Perturbation, bases: Base[] = corpusBases()): Generator<EditCase> {
  if (!p.edit) return;
  for (const b of bases) {
    const c = p.edit(b);
    if (c) yield c;
  }
}

/**
 * `n` cases of a perturbation, from the bases ranked by a hash of their names: the same ones on every
 * machine with the same history, built without building the rest.
 */
export function sampleCases(p: Perturbation, n: number, kind: 'patch', bases?: Base[]): PatchCase[];
export function sampleCases(p: Perturbation, n: number, kind: 'edit', bases?: Base[]): EditCase[];
export function sampleCases(
  p: Perturbation,
  n: number,
  kind: 'patch' | 'edit',
  bases: Base[] = corpusBases(),
): Array<PatchCase | EditCase> {
  const sib = siblingsOf(bases);
  const ranked = bases.map((b) => ({ b, r: rankOf(`${b.name} ${p.id}`) })).sort((x, y) => x.r - y.r || x.b.name.localeCompare(y.b.name));
  const out: Array<PatchCase | EditCase> = [];
  for (const { b } of ranked) {
    if (out.length >= n) break;
    const c = kind === 'patch' ? p.patch?.(b, sib.get(b)!) : p.edit?.(b);
    if (c) out.push(c);
  }
  return out;
}
