// Plan steps at once (parallel_steps): which steps may run together, and running a group, each step in its own git worktree, merged back in step order.
import { ForgeError } from '../errors';
import {
  addWorktree,
  applyChanges,
  linkIgnored,
  pruneStaleWorktrees,
  removeOnSignal,
  removeWorktree,
  worktreeChanges,
} from '../git/worktree';
import type { ToolCallGuards } from './agent';
import type { AgentPlan, PlanStep } from './plan';
import type { AgentTools } from './tools';
import { attemptStep, stepRoute, type PlanProgress, type PlanRunOptions, type StepAttempt } from './steps';

/** A path as plans write it, for comparing: no ./ prefix, no trailing slash. */
const norm = (path: string) => path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');

/** Whether two file lists touch the same file, or one names a directory holding the other's file. */
function overlap(a: string[], b: string[]): boolean {
  const bs = b.map(norm);
  return a.map(norm).some((x) => bs.some((y) => x === y || y.startsWith(`${x}/`) || x.startsWith(`${y}/`)));
}

/**
 * The steps still to run, in plan order, cut into groups that may run at once: consecutive steps
 * with no shared file, none depending on another of its group, at most `max` per group. A step that
 * names no file could touch any, so it runs alone.
 */
export function stepGroups(plan: AgentPlan, max: number): PlanStep[][] {
  const groups: PlanStep[][] = [];
  let group: PlanStep[] = [];
  for (const step of plan.steps) {
    if (step.status === 'done') continue;
    const joins =
      group.length > 0 &&
      group.length < max &&
      step.files.length > 0 &&
      group.every((g) => g.files.length > 0 && !step.dependsOn.includes(g.id) && !overlap(g.files, step.files));
    if (joins) group.push(step);
    else {
      if (group.length) groups.push(group);
      group = [step];
    }
  }
  if (group.length) groups.push(group);
  return groups;
}

/** How a step of a group ended in its worktree: an attempt to merge, or a reason to run it again on its own. */
type Isolated = { kind: 'ran'; attempt: StepAttempt; dir: string } | { kind: 'alone'; reason: string };

/**
 * forge's own tools at the worktree; anything else (bash, an MCP server's tool) may reach outside
 * it, so the step stops before that call runs and goes again on its own after the group.
 */
function isolatedTools({ shown, own }: { shown: AgentTools; own: AgentTools }): {
  tools: AgentTools;
  why: () => string | null;
  signal: AbortSignal;
} {
  const local = new Set(own.schemas.map((s) => s.function.name).filter((n) => n !== 'bash'));
  const stop = new AbortController();
  let why: string | null = null;
  return {
    signal: stop.signal,
    why: () => why,
    tools: {
      schemas: shown.schemas,
      run: async (name, args) => {
        // A name no tool has gets its error from forge's tools, as in the work tree.
        if (local.has(name) || !shown.schemas.some((x) => x.function.name === name)) return own.run(name, args);
        why ??= `it called ${name}, which may change things outside its own worktree`;
        stop.abort(new Error(why));
        return { ok: false, text: `${name} does not run while steps run at once; this step runs again on its own` };
      },
    },
  };
}

/** One step of a group in its worktree. */
async function runIsolated({ o, plan, step, dir }: { o: PlanRunOptions; plan: AgentPlan; step: PlanStep; dir: string }): Promise<Isolated> {
  const { tools, why, signal } = isolatedTools({ shown: stepRoute(o, step).tools, own: o.toolsAt!(dir) });
  // The contract gate judges each call as in the work tree; on_edit hooks run in the worktree.
  const guards: ToolCallGuards = o.guardsAt ? o.guardsAt(dir) : o.guards.gate ? { gate: o.guards.gate } : {};
  const attemptsBefore = step.attempts;
  try {
    const attempt = await attemptStep({ o, plan, step, root: dir, tools, guards, signal });
    const reason = why();
    if (reason === null) return { kind: 'ran', attempt, dir };
    step.attempts = attemptsBefore;
    return { kind: 'alone', reason };
  } catch (err) {
    const reason = why();
    if (reason === null) throw err;
    // The stopped run: not an attempt at the step, which runs again on its own.
    step.attempts = attemptsBefore;
    return { kind: 'alone', reason };
  }
}

/**
 * A worktree of the checkpoint per step, the work tree's ignored top-level entries linked in; each
 * directory goes into `dirs` as soon as it exists (so it is removed whatever happens next). The
 * links of each, or why git could not make them (the steps then run one after another).
 */
async function openWorktrees({
  o,
  cp,
  count,
  dirs,
}: {
  o: PlanRunOptions;
  cp: string;
  count: number;
  dirs: string[];
}): Promise<string[][] | string> {
  const links: string[][] = [];
  try {
    for (let i = 0; i < count; i++) {
      dirs.push(await addWorktree({ cwd: o.root, base: cp, pid: process.pid }));
      links.push(await linkIgnored({ root: o.root, dir: dirs.at(-1)! }));
    }
  } catch (err) {
    if (!(err instanceof ForgeError)) throw err;
    return `git could not make a worktree for it (${err.message})`;
  }
  return links;
}

/**
 * Takes each step's changes into the work tree in step order, whole or not at all: a step that passed
 * is done; one whose changes do not apply over an earlier step's goes to `alone`; the first that
 * failed its check pauses the plan there (false), the steps after it left to run again.
 */
async function mergeInOrder({
  o,
  progress,
  group,
  results,
  cp,
  links,
  alone,
}: {
  o: PlanRunOptions;
  progress: PlanProgress;
  group: PlanStep[];
  results: Isolated[];
  cp: string;
  links: string[][];
  alone: Array<{ step: PlanStep; reason: string }>;
}): Promise<boolean> {
  for (const [i, step] of group.entries()) {
    const r = results[i]!;
    if (r.kind === 'alone') {
      alone.push({ step, reason: r.reason });
      continue;
    }
    const changes = await worktreeChanges({ dir: r.dir, base: cp, linked: links[i]! });
    const applied = await applyChanges({ root: o.root, patch: changes.patch });
    if (!applied.ok && r.attempt.verdict.passed) {
      alone.push({ step, reason: `its changes conflict with an earlier step's (${applied.reason})` });
      continue;
    }
    if (!r.attempt.verdict.passed) {
      const note = applied.ok ? '' : `\n(its changes were not applied: they conflict with an earlier step's: ${applied.reason})`;
      await progress.failed(step, { ...r.attempt, verdict: { ...r.attempt.verdict, failure: r.attempt.verdict.failure + note } });
      return false;
    }
    await progress.done(step, r.attempt, changes.files);
  }
  return true;
}

/**
 * Runs a group of independent steps at once, each in a worktree of one checkpoint, then takes their
 * changes into the work tree in step order (each step's patch whole or not at all). A step that
 * reached for a tool outside its worktree, or whose changes do not apply over an earlier step's,
 * runs again on its own after the group, and the plan says why. The worktrees are removed whatever
 * happens, on Ctrl-C too. False when a step failed its check (the plan is paused).
 */
export async function runTogether({
  o,
  progress,
  group,
  runStepHere,
}: {
  o: PlanRunOptions;
  progress: PlanProgress;
  group: PlanStep[];
  runStepHere: (o: PlanRunOptions, progress: PlanProgress, step: PlanStep) => Promise<boolean>;
}): Promise<boolean> {
  const plan = progress.plan();
  const indexes = group.map((s) => plan.steps.indexOf(s));
  const cp = await o.checkpoint(`steps ${group.map((s) => s.id).join(', ')} of ${plan.id}, at once`);
  if (!cp) {
    for (const step of group) if (!(await runStepHere(o, progress, step))) return false;
    return true;
  }
  plan.checkpoint ??= cp;
  await pruneStaleWorktrees({ cwd: o.root });
  const dirs: string[] = [];
  const stopWatching = removeOnSignal({ cwd: o.root, dirs: () => dirs });
  const alone: Array<{ step: PlanStep; reason: string }> = [];
  try {
    const links = await openWorktrees({ o, cp, count: group.length, dirs });
    if (typeof links === 'string') alone.push(...group.map((step) => ({ step, reason: links })));
    else {
      await o.onPlanEvent({ type: 'steps_together', steps: group, indexes, checkpoint: cp });
      for (const [i, step] of group.entries())
        await o.onPlanEvent({ type: 'step_start', step, index: indexes[i]!, total: plan.steps.length, checkpoint: cp });
      // Every step ends before anything is merged or removed, even when one of them throws.
      const settled = await Promise.allSettled(group.map((step, i) => runIsolated({ o, plan, step, dir: dirs[i]! })));
      const thrown = settled.find((x) => x.status === 'rejected');
      if (thrown) throw thrown.reason;
      const results = settled.map((x) => (x as PromiseFulfilledResult<Isolated>).value);
      if (!(await mergeInOrder({ o, progress, group, results, cp, links, alone }))) return false;
    }
  } finally {
    stopWatching();
    for (const dir of dirs) await removeWorktree({ cwd: o.root, dir });
  }
  for (const { step, reason } of alone) {
    await o.onPlanEvent({ type: 'step_sequential', step, index: plan.steps.indexOf(step), reason });
    if (!(await runStepHere(o, progress, step))) return false;
  }
  return true;
}
