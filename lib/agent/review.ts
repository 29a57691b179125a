// A person's review of a plan before it runs: each step approved, annotated or the whole plan cancelled.
import type { CoChange } from '../git/cochange';
import type { AgentPlan, PlanStep } from './plan';

/** Co-change hints of the plan's steps by step id: files history says go with theirs. */
export type StepHints = Record<string, CoChange[]>;

/** A co-change hint as a person reads it. */
export function describeCoChange(c: CoChange): string {
  return `${c.file} (changed with ${c.with} in ${c.together} of its last ${c.of} commits)`;
}

export function describeStep(step: PlanStep, index: number, total: number, hints: CoChange[] = []): string {
  return [
    `Step ${index + 1}/${total} (${step.id}): ${step.title}`,
    `  ${step.objective}`,
    ...(step.files.length
      ? [`  files: ${step.files.join(', ')}${step.symbols.length ? ` · symbols: ${step.symbols.join(', ')}` : ''}`]
      : []),
    `  verify: ${step.verify.join(' && ')}`,
    ...(hints.length ? [`  history suggests: ${hints.map(describeCoChange).join(', ')}`] : []),
    ...(step.note ? [`  note: ${step.note}`] : []),
  ].join('\n');
}

/**
 * Walks the steps with the person: a approves the step, e adds a note that joins its instruction,
 * c cancels the plan. Null when there is no terminal to ask on.
 */
export async function reviewPlan({
  plan,
  ask,
  hints = {},
}: {
  plan: AgentPlan;
  ask: (question: string) => Promise<string | null>;
  hints?: StepHints;
}): Promise<'approved' | 'cancelled' | null> {
  for (const [i, step] of plan.steps.entries()) {
    for (;;) {
      const answer = await ask(
        `\n${describeStep(step, i, plan.steps.length, hints[step.id])}\n[a]pprove, [e] add a note, [c]ancel the plan? `,
      );
      if (answer === null) return null;
      const a = answer.trim().toLowerCase();
      if (a === 'a' || a === 'y' || a === 'yes' || a === 'approve') break;
      if (a === 'c' || a === 'cancel' || a === 'q') return 'cancelled';
      if (a === 'e' || a === 'edit' || a === 'n' || a === 'note') {
        const note = await ask('Note for this step: ');
        if (note === null) return null;
        if (note.trim()) step.note = note.trim();
      }
    }
  }
  return 'approved';
}
