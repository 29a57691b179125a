// The command lines forge agent's fixes name: the same endpoint, model and files as the call that failed, or a model that takes images.
import type { RunContext } from '../../lib/cli/declare';
import { ModelError } from '../../lib/agent/chat-failures';
import type { AgentArgs } from './args';

/** The flags that chose the endpoint and model, so a Fix runs against the same one (`--model` left out where the Fix names another). */
export function endpointFlags(args: AgentArgs, { model = true }: { model?: boolean } = {}): string[] {
  return [
    ...(args.endpoint !== undefined ? ['--endpoint', args.endpoint] : []),
    ...(args.profile !== undefined ? ['--profile', args.profile] : []),
    ...(args['api-key-env'] !== undefined ? ['--api-key-env', args['api-key-env']] : []),
    ...(model && args.model !== undefined ? ['--model', args.model] : []),
  ];
}

/** The flags of --attach and --image as given, but for `without`: the command line a fix runs. */
export function attachFlags(args: AgentArgs, without?: string): string[] {
  return [
    ...args.attach.filter((p) => p !== without).flatMap((p) => ['--attach', p]),
    ...args.image.filter((p) => p !== without).flatMap((p) => ['--image', p]),
  ];
}

/** A model that takes no images: the fix names a vision model of the endpoint when it has one, else the task without its images. */
export function noVisionFix({
  err,
  args,
  ctx,
  task,
  session,
  planner = false,
}: {
  err: unknown;
  args: AgentArgs;
  ctx: RunContext;
  task: string;
  session: string | null;
  /** With --plan only the planner gets the images: the fix names a --planner-model. */
  planner?: boolean;
}): unknown {
  if (!(err instanceof ModelError) || err.code !== 'MODEL_NO_VISION') return err;
  // chat.ts (finalError) found a model of the endpoint's list whose name says it takes images, or none.
  const suggested = err.visionModel;
  const keep = session ? ['--session', session] : planner ? ['--plan'] : [];
  const pinned = args.attach.flatMap((p) => ['--attach', p]);
  err.fix = suggested
    ? ctx.cmd(
        'agent',
        ...endpointFlags(args, { model: planner }),
        planner ? '--planner-model' : '--model',
        suggested,
        ...keep,
        ...attachFlags(args),
        task,
      )
    : ctx.cmd('agent', ...endpointFlags(args), ...keep, ...pinned, task);
  return err;
}
