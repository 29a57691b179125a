// One task of forge agent (or a --quick question): its route and checkpoint, the model run, telemetry, the sweep, hooks, auto-commit, the session's turn, and its answer.
import type { Outcome, RunContext } from '../../lib/cli/declare';
import { RefusedError } from '../../lib/errors';
import type { AgentRun } from '../../lib/agent/agent';
import type { Attachments } from '../../lib/agent/attach';
import type { RetryPolicy } from '../../lib/agent/chat';
import type { ModelConfig } from '../../lib/agent/config-types';
import type { ModelContext } from '../../lib/agent/context';
import { emitSweep, hooksThenCommit } from '../../lib/agent/report';
import type { AgentSession } from '../../lib/agent/sessions';
import type { Workbench } from '../../lib/agent/workbench';
import type { AgentArgs } from './args';
import { noVisionFix } from './fixes';
import type { LiveView } from './live-view';

/** What a task runs with: the command's context, the session it continues, and what was settled before the model (setup.ts). */
export interface TaskInputs {
  args: AgentArgs;
  ctx: RunContext;
  task: string;
  /** The task as the model gets it: a short reply with the turn it answers. */
  modelTask: string;
  history: string | undefined;
  git: string | null;
  resumed: AgentSession | null;
  attachments: Attachments | undefined;
  inRepo: boolean;
  root: string;
  /** The profile's settings: the task's route may name another model. */
  config: ModelConfig;
  budget: number;
  context: ModelContext | null;
  retry: Partial<RetryPolicy>;
  bench: Workbench;
  view: LiveView;
}

/** One task (or --quick question): checkpoint, the model run, telemetry, the sweep, hooks, auto-commit, the session's turn. */
export async function taskOutcome(inputs: TaskInputs): Promise<Outcome> {
  const { args, ctx, task, inRepo, bench, attachments } = inputs;
  const started = Date.now();
  const { category, config } = await routeTask(inputs);
  const checkpoint = await taskCheckpoint(inputs);
  const run = await runTask({ inputs, config, category, checkpoint });
  await afterTask({ ctx, args, task, run, started, checkpoint, inRepo, config, bench, category });
  const session =
    inRepo && config.recording.sessions.value
      ? await saveSession({
          ctx,
          resumed: inputs.resumed,
          task,
          run,
          model: config.model.value,
          checkpoint,
          attached: attachments?.pinned.paths ?? [],
        })
      : null;
  return taskAnswer({ ctx, args, task, run, checkpoint, inRepo, session, model: config.model.value });
}

/** The model the task goes to: its category's route, said when it is not the profile's model. */
async function routeTask({
  args,
  ctx,
  config: profileConfig,
}: TaskInputs): Promise<{ category: 'quick' | 'standard'; config: ModelConfig }> {
  const [{ configFor }, { describeSource }] = await Promise.all([
    import('../../lib/agent/routes'),
    import('../../lib/agent/config-describe'),
  ]);
  const category = args.quick ? 'quick' : 'standard';
  // model_routes: a quick task goes to the quick route, any other to the standard one.
  const config = configFor(profileConfig, category);
  if (config !== profileConfig)
    await ctx.emit(
      { type: 'config', line: `${category} route: model ${config.model.value}` },
      `using model ${config.model.value} for this ${category} task (${describeSource(config.model.source)})`,
    );
  return { category, config };
}

/** The work tree before the task, said with how to get back to it; null for --quick. */
async function taskCheckpoint({ args, ctx, task, bench }: TaskInputs): Promise<string | null> {
  // --quick answers from the prompt alone and changes no file: no checkpoint to take.
  const checkpoint = args.quick ? null : await bench.checkpoint(task, 'task');
  if (checkpoint)
    await ctx.emit({ type: 'checkpoint', commit: checkpoint }, `checkpoint ${checkpoint.slice(0, 10)} (forge undo restores it)`);
  return checkpoint;
}

/** The model's run on the task with its category's tools, shown as it goes; a model that takes no images gets a fix that names one. */
async function runTask({
  inputs,
  config,
  category,
  checkpoint,
}: {
  inputs: TaskInputs;
  /** With the model the task's route chose. */
  config: ModelConfig;
  category: 'quick' | 'standard';
  checkpoint: string | null;
}): Promise<AgentRun> {
  const { args, ctx, task, modelTask, history, git, resumed, root, budget, context, retry, bench, view, attachments } = inputs;
  const { runAgent } = await import('../../lib/agent/agent');
  return runAgent({
    config,
    task: modelTask,
    root,
    cwd: ctx.cwd,
    maxTurns: args.quick ? 1 : args['max-turns'],
    budget,
    modelContext: context,
    quick: args.quick,
    retry,
    history,
    git,
    onEvent: view.onEvent,
    onDelta: view.onDelta,
    tools: bench.toolsFor(category),
    guards: bench.guards,
    attachments,
    ...(checkpoint ? { changedNothing: unchangedSince(ctx.cwd, checkpoint) } : {}),
    signal: ctx.signal,
  })
    .catch((err: unknown) => {
      throw noVisionFix({ err, args, ctx, task, session: resumed?.id ?? null });
    })
    .finally(view.quiet);
}

/** The task's answer: a run that stopped fails with the fix that goes on, one out of turns exits 1, else the tally and what to look at. */
async function taskAnswer({
  ctx,
  args,
  task,
  run,
  checkpoint,
  inRepo,
  session,
  model,
}: {
  ctx: RunContext;
  args: AgentArgs;
  task: string;
  run: AgentRun;
  checkpoint: string | null;
  inRepo: boolean;
  session: AgentSession | null;
  model: string;
}): Promise<Outcome> {
  const { SESSIONS_DIR } = await import('../../lib/agent/sessions');
  const data = runData(run, session?.id ?? null, model);
  const tally = runTally(run);
  // A run that did not finish its task never exits 0: what changed is shown, the task can go on.
  if (run.stopped) {
    const again = session ? ctx.cmd('agent', '--continue', task) : ctx.cmd('agent', task);
    throw new RefusedError(run.stopped.code, `${run.stopped.message}; the task is not done (${tally})`, {
      fix:
        run.stopped.budget !== undefined
          ? ctx.cmd('agent', '--budget', String(run.stopped.budget), task)
          : run.files.length && checkpoint
            ? ctx.cmd('diff', '--stat')
            : again,
      data,
    });
  }
  if (run.exhausted)
    return {
      data,
      text: `stopped after ${tally}: the model had not answered`,
      exitCode: 1,
      next: ctx.cmd('agent', '--max-turns', args['max-turns'] * 2, task),
    };
  // With a checkpoint, forge diff shows the task's changes, untracked files included.
  // --quick changes no file: nothing to look at but the answer. The session's record is the other way on.
  const next = checkpoint ? ctx.cmd('diff', '--stat') : inRepo && !args.quick ? 'git diff --stat' : null;
  return {
    data,
    text: `(${tally}${session ? `; session ${session.id}` : ''})`,
    next,
    ...(session && next ? { or: ctx.cmd('state', 'show', `${SESSIONS_DIR}/${session.id}.json`) } : {}),
  };
}

/** Whether the work tree is as the checkpoint took it: nothing the task did changed a file. */
function unchangedSince(cwd: string, checkpoint: string): () => Promise<boolean> {
  return async () => {
    const { workTreeChanges } = await import('../../lib/git/checkpoint');
    return (await workTreeChanges({ cwd, base: checkpoint })).files.length === 0;
  };
}

/** The task's turn in its session (a new session, or the one continued). */
async function saveSession({
  ctx,
  resumed,
  task,
  run,
  model,
  checkpoint,
  attached,
}: {
  ctx: RunContext;
  resumed: AgentSession | null;
  task: string;
  run: AgentRun;
  model: string;
  checkpoint: string | null;
  attached: readonly string[];
}): Promise<AgentSession> {
  const { saveTurn } = await import('../../lib/agent/sessions');
  return saveTurn({
    store: await ctx.store(),
    id: resumed?.id ?? null,
    turn: {
      timestamp: ctx.now().toISOString(),
      task,
      answer: run.answer,
      files: run.files,
      toolCalls: run.toolCalls,
      model,
      ...(checkpoint ? { checkpoint } : {}),
    },
    attached,
  });
}

/** A task's summary record. */
function runData(run: AgentRun, session: string | null, model: string): Record<string, unknown> {
  return {
    session,
    answer: run.answer,
    turns: run.turns,
    toolCalls: run.toolCalls,
    cacheHits: run.cacheHits,
    refused: run.refused,
    usage: run.usage,
    ...(run.estimatedCalls ? { usageEstimated: true } : {}),
    uncachedTokens: run.uncachedTokens,
    model,
    exhausted: run.exhausted,
  };
}

/** What a task cost: model calls, tool calls (refused ones said), tokens. */
function runTally(run: AgentRun): string {
  return `${run.turns} model call${run.turns === 1 ? '' : 's'}, ${run.toolCalls} tool call${run.toolCalls === 1 ? '' : 's'}${run.refused ? ` (${run.refused} refused by the plan contract)` : ''}, ${run.usage.input} tokens in / ${run.usage.output} out${run.estimatedCalls ? ' (estimated: the server sent no usage)' : ''}`;
}

/** After a task's run: its telemetry, what changed since its checkpoint, and — when it finished — on_task_done and auto-commit. */
async function afterTask({
  ctx,
  args,
  task,
  run,
  started,
  checkpoint,
  inRepo,
  config,
  bench,
  category,
}: {
  ctx: RunContext;
  args: AgentArgs;
  task: string;
  run: AgentRun;
  started: number;
  checkpoint: string | null;
  inRepo: boolean;
  /** With the model the task's calls went to. */
  config: ModelConfig;
  bench: Workbench;
  category: string;
}): Promise<void> {
  // Telemetry needs a repository to live in; outside one the run is simply not recorded.
  if (inRepo) {
    const { recordTelemetry } = await import('../../lib/agent/telemetry');
    await recordTelemetry({ store: await ctx.store(), config, task, run, started, now: ctx.now(), category });
  }
  if (checkpoint) await emitSweep({ io: ctx, checkpoint, ...(await bench.sweep(checkpoint)) });
  if (!run.exhausted && !run.stopped && !args.quick) {
    await hooksThenCommit({ io: ctx, bench, event: 'on_task_done', at: 'task', message: task.split('\n')[0]!.slice(0, 72) });
  }
}
