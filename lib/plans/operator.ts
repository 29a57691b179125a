// The operator's commands: ending, pausing, resuming or replacing a plan is refused to anything running inside a coding agent.
import { RefusedError } from '../errors';
import { agentAround } from '../process/inside-agent';

/**
 * Refuses `action` when this process runs inside a coding agent (an agent among its ancestors, or an
 * agent's mark in its environment): the plan gates the agent, so the agent must not be able to lift it,
 * whatever door it found past the gate (a script, a renamed binary). The operator runs these in a
 * terminal of their own.
 */
export async function assertOperator({
  action,
  command,
  pid,
  ppid,
  env,
}: {
  action: string;
  /** The command to run from the operator's own terminal. */
  command: string;
  pid: number;
  ppid: number;
  env: NodeJS.ProcessEnv;
}): Promise<void> {
  const agent = await agentAround({ pid, ppid, env });
  if (!agent) return;
  throw new RefusedError(
    'PLAN_OPERATOR_ONLY',
    `${action} is the operator's, and this runs inside ${agent}: an agent may not end, pause, resume or replace the plan that gates it; run it from a terminal of your own, outside ${agent}`,
    { fix: command },
  );
}
