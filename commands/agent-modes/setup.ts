// What forge agent settles before a model is called: flags that conflict, the session continued, where the task runs, the pinned files, the model and its budget, the git context, auto_quick.
import type { RunContext } from '../../lib/cli/declare';
import { InvalidInputError, NotAGitRepoError } from '../../lib/errors';
import { workTreeRoot } from '../../lib/git/repo';
import type { Attachments } from '../../lib/agent/attach';
import type { GitContextMode, ModelConfig } from '../../lib/agent/config-types';
import type { ModelContext } from '../../lib/agent/context';
import type { AgentPlan } from '../../lib/agent/plan';
import type { AgentSession } from '../../lib/agent/sessions';
import type { AgentTools } from '../../lib/agent/tools';
import type { AgentArgs } from './args';
import { attachFlags, endpointFlags } from './fixes';

/** Flags that do not go together (CONFLICTING_ARGUMENTS), refused before anything runs. */
export function refuseConflicts(args: AgentArgs, ctx: RunContext): void {
  const conflict =
    args.plan && args.resume
      ? '--plan and --resume do not go together'
      : (args.plan || args.resume) && args.quick
        ? '--quick does not go with a plan (--plan or --resume)'
        : (args.plan || args.resume) && (args.continue || args.session !== undefined)
          ? '--continue and --session do not go with a plan (--plan or --resume)'
          : args.resume && args.image.length
            ? "--image does not go with --resume (images go with the planner's request only)"
            : args.parallel !== undefined && !args.plan && !args.resume
              ? '--parallel needs --plan or --resume'
              : null;
  if (conflict)
    throw new InvalidInputError('CONFLICTING_ARGUMENTS', conflict, {
      fix: args.resume ? ctx.cmd('agent', '--resume') : args.task?.trim() ? ctx.cmd('agent', '--plan', args.task) : 'forge agent --help',
    });
}

/**
 * The session a task continues (--continue, --session), its summary, and the task as the model gets
 * it: "yes" in a continued session answers the previous turn, so that turn goes with it.
 */
export async function continuedSession(
  args: AgentArgs,
  ctx: RunContext,
  task: string,
): Promise<{ resumed: AgentSession | null; history: string | undefined; modelTask: string }> {
  if (!args.continue && args.session === undefined) return { resumed: null, history: undefined, modelTask: task };
  const { activeCount, findSession, replyInContext, sessionSummary } = await import('../../lib/agent/sessions');
  const resumed = await findSession({ store: await ctx.store(), id: args.session ?? null });
  const reply = replyInContext(task, resumed);
  if (reply)
    await ctx.emit(
      { type: 'reply_to', session: resumed.id, turn: reply.turn },
      `'${task.trim()}' read as the reply to turn ${reply.turn} of session ${resumed.id}: the model gets that turn with it`,
    );
  // A session rolled back to its start has nothing to summarise: the task starts afresh in it.
  return { resumed, history: activeCount(resumed) ? sessionSummary(resumed) : undefined, modelTask: reply?.text ?? task };
}

/**
 * Where the task runs: the work tree's top (null outside git), the plan to resume, and the run id
 * its calls are logged under — a run id given (flag or FORGE_RUN_ID), else a plan's own id.
 */
export async function whereItRuns(args: AgentArgs, ctx: RunContext) {
  const top = await workTreeRoot({ cwd: ctx.cwd });
  const root = top?.root ?? ctx.cwd;
  if ((args.plan || args.resume) && !top && !args['dry-run'])
    throw new NotAGitRepoError(ctx.cwd, { why: 'plan mode keeps its plan on the state ref' });
  // A plan to resume is looked up before the model settings, so "nothing to resume" is the answer.
  const { newPlanId, resumablePlan } = await import('../../lib/agent/plan');
  const resumedPlan = args.resume && top ? await resumablePlan({ store: await ctx.store() }) : null;
  const planId = newPlanId(ctx.now());
  const runId = resumedPlan?.runId ?? ctx.runId ?? (args.plan && !args['dry-run'] ? planId : undefined);
  const env = runId ? { ...ctx.env, FORGE_RUN_ID: runId } : ctx.env;
  return { top, root, resumedPlan, planId, runId, env };
}

/** --attach, --image and the files a continued session pinned, checked; each pinned file and image said. */
export async function openTaskAttachments({
  args,
  ctx,
  task,
  resumed,
  resumedPlan = null,
}: {
  args: AgentArgs;
  ctx: RunContext;
  task: string;
  resumed: AgentSession | null;
  /** A plan --resume goes on with: its pinned files are pinned again. */
  resumedPlan?: AgentPlan | null;
}): Promise<Attachments | undefined> {
  const before = resumedPlan?.attached ?? resumed?.attached ?? [];
  if (!args.attach.length && !args.image.length && !args.detach.length && !before.length) return undefined;
  const { openAttachments } = await import('../../lib/agent/attach');
  const keep = resumed ? ['--session', resumed.id] : args.plan ? ['--plan'] : args.resume ? ['--resume'] : [];
  const attachments = await openAttachments({
    cwd: ctx.cwd,
    attach: args.attach,
    images: args.image,
    sessionPinned: before,
    detach: args.detach,
    again: (without) => ctx.cmd('agent', ...endpointFlags(args), ...keep, ...attachFlags(args, without), ...(task ? [task] : [])),
  });
  const of = resumedPlan ? `plan ${resumedPlan.id}` : 'the session';
  const warnings = [
    ...attachments.dropped.map((path) => `pinned file '${path}' of ${of} is gone or no longer allowed: left out`),
    ...attachments.notPinned.map((path) => `--detach '${path}': not pinned, nothing to unpin`),
  ];
  for (const text of warnings) await ctx.emit({ type: 'notice', kind: 'warning', text }, text);
  const pinned = attachments.pinned.paths;
  const images = attachments.images.map((i) => i.path);
  if (pinned.length || images.length)
    await ctx.emit(
      { type: 'attached', pinned, images },
      [pinned.length ? `pinned ${pinned.join(', ')}` : '', images.length ? `image ${images.join(', ')}` : ''].filter(Boolean).join('; '),
    );
  return attachments;
}

/** The model, endpoint and budget for this run, each said as it was chosen. */
export async function chooseModel(
  args: AgentArgs,
  ctx: RunContext,
  env: NodeJS.ProcessEnv,
  inRepo: boolean,
): Promise<{ config: ModelConfig; budget: number; context: ModelContext | null }> {
  const [{ describeModelConfig, describeRecording }, { modelContext }, { resolveModelConfig }] = await Promise.all([
    import('../../lib/agent/config-describe'),
    import('../../lib/agent/config-probes'),
    import('../../lib/agent/config-resolve'),
  ]);
  const config = await resolveModelConfig({
    flags: {
      endpoint: args.endpoint,
      model: args.model,
      profile: args.profile,
      apiKeyEnv: args['api-key-env'],
      plannerModel: args['planner-model'],
    },
    env,
  });
  if (config.firstRun)
    await ctx.emit(
      { type: 'config', line: 'first run: no model chosen by a profile, flag or FORGE_* setting' },
      `first run: no profile in ${config.configPath} sets a model, so forge chose for you; set endpoint and model in a profile there, or pass --endpoint/--model, to choose`,
    );
  for (const line of describeModelConfig(config)) await ctx.emit({ type: 'config', line }, `using ${line}`);
  if (inRepo) {
    const recording = describeRecording(config, args.plan || args.resume ? ['telemetry'] : undefined);
    await ctx.emit({ type: 'config', line: recording }, recording);
  }
  const { chooseBudget } = await import('../../lib/agent/context');
  const context = await modelContext({ config });
  const { budget, warning, note } = chooseBudget({ flag: args.budget, context });
  // On stderr, where a person sees it whatever the output; with --json also a record in the stream.
  for (const [kind, text] of [
    ['warning', warning],
    ['note', note],
  ] as const) {
    if (!text) continue;
    await ctx.warn(text);
    await ctx.emit({ type: 'notice', kind, text }, '');
  }
  return { config, budget, context };
}

/** auto_quick: a short question goes to quick mode; the decision is said either way, as a warning when the task looks like a change. */
export async function autoQuick(args: AgentArgs, ctx: RunContext, config: ModelConfig, task: string): Promise<AgentArgs> {
  if (!config.autoQuick.value || args.quick || args.plan || args.resume) return args;
  const { quickDecision } = await import('../../lib/agent/routes');
  const d = quickDecision(task);
  await ctx.emit(
    { type: 'auto_quick', quick: d.quick, reason: d.reason, warning: d.warning },
    `${d.warning ? 'warning: ' : ''}auto_quick: ${d.quick ? 'quick mode' : 'not quick'}: ${d.reason}`,
  );
  return d.quick ? { ...args, quick: true } : args;
}

/** The git context as the profile asks: the preamble's text, or the git_context tool added to forge's tools (outside a repository, neither). */
export async function withGitContext({
  mode,
  inRepo,
  cwd,
  tools,
  budget,
}: {
  mode: GitContextMode;
  inRepo: boolean;
  cwd: string;
  tools: AgentTools;
  budget: number;
}): Promise<{ git: string | null; tools: AgentTools }> {
  if (!inRepo || mode === 'off') return { git: null, tools };
  const { gitContext } = await import('../../lib/git/context');
  // The preamble is never compressed: at most an eighth of the budget (about 4 characters a token).
  if (mode === 'preamble') return { git: await gitContext({ cwd, maxChars: budget / 2 }), tools };
  const { gitContextTool, mergeTools } = await import('../../lib/agent/tools');
  return { git: null, tools: mergeTools(tools, gitContextTool({ cwd, read: (at) => gitContext({ cwd: at }) })) };
}
