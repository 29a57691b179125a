// The active plan contract as a gate on the agent's tool calls: each call goes through forge plan preflight first.
import type { Entry } from '../cli/declare';
import { invokeForRecord } from '../cli/invoke';
import { preflightArgs } from '../plans/calls';

/**
 * A gate for runAgent: null when the call may run, else what the model is told. Soft refusals (a tool
 * or path outside the current unit) say how to go ahead once — `forge plan ack` through bash, which
 * is never gated — and hard ones say the call cannot run under this plan.
 */
export function contractGate({
  entries,
  cwd,
  env,
}: {
  entries: readonly Entry[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}): (name: string, args: Record<string, unknown>) => Promise<string | null> {
  return async (name, args) => {
    const r = await invokeForRecord<{ error?: { code?: string; message?: string; data?: { posture?: string } } }>({
      entries,
      name: 'plan preflight',
      args: preflightArgs(name, args),
      cwd,
      env,
    });
    if (r.code === 0) return null;
    // Without a refusal record (a crash) the call is refused anyway, with what was printed.
    const error = r.record?.error ?? {};
    const code = error.code ?? 'PLAN_PREFLIGHT_FAILED';
    const why = error.message ?? (r.stderr.trim() || r.stdout.trim());
    if (error.data?.posture === 'soft') {
      return `Refused by the active plan contract (${code}, soft): ${why}\nIf this call is truly needed for the current unit, run bash {"command": "forge plan ack"} and then repeat exactly this call; otherwise stay within the unit.`;
    }
    return `Refused by the active plan contract (${code}, hard): ${why}\nThis call cannot run under the plan; nothing was done. Work within the plan, or stop and say what you need.`;
  };
}
