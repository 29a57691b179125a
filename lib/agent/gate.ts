// The active plan contract as a gate on the agent's tool calls: each call is checked as forge plan preflight checks it.
import { ForgeError } from '../errors';
import type { StateStore } from '../git/state';
import { preflightArgs } from '../plans/calls';
import { BREACH_CODES, checkCall } from '../plans/check-call';
import { isExempt } from '../plans/gate';

/** How a checked call ended, for the run's log: the exit code and error code forge plan preflight would have given. */
export type GateLog = (entry: { exitCode: number; error: string | undefined; durationMs: number }) => Promise<void>;

/**
 * A gate for runAgent: null when the call may run, else what the model is told. Soft refusals (a tool
 * or path outside the current unit) say how to go ahead once — `forge plan ack` through bash, which
 * is never gated — and hard ones say the call cannot run under this plan. A gate that cannot decide
 * (a contract it cannot read) refuses: it fails closed, as the hook does.
 */
export function contractGate({
  store,
  root,
  cwd,
  runId,
  now,
  log,
}: {
  store: StateStore;
  root: string;
  cwd: string;
  runId: string | null;
  now: () => Date;
  log: GateLog;
}): (name: string, args: Record<string, unknown>) => Promise<string | null> {
  return async (name, args) => {
    const { tool, path, command, effects } = preflightArgs(name, args);
    if (isExempt(tool, command)) return null;
    const started = Date.now();
    let refusal: { code: string; why: string; soft: boolean; exitCode: number } | null;
    try {
      const { decision } = await checkCall({
        store,
        request: { tool, paths: path, command, ...(effects ? { effects } : {}), writes: false, tokens: 0, runId },
        base: cwd,
        root,
        now: now(),
      });
      refusal = decision.allowed
        ? null
        : { code: BREACH_CODES[decision.breach!], why: decision.reason, soft: decision.posture === 'soft', exitCode: 1 };
    } catch (err) {
      const known = err instanceof ForgeError ? err : null;
      refusal = {
        code: known?.code ?? 'INTERNAL',
        why: err instanceof Error ? err.message : String(err),
        soft: false,
        exitCode: known?.exitCode ?? 1,
      };
    }
    await log({ exitCode: refusal?.exitCode ?? 0, error: refusal?.code, durationMs: Date.now() - started });
    if (!refusal) return null;
    if (refusal.soft)
      return `Refused by the active plan contract (${refusal.code}, soft): ${refusal.why}\nIf this call is truly needed for the current unit, run bash {"command": "forge plan ack"} and then repeat exactly this call; otherwise stay within the unit.`;
    return `Refused by the active plan contract (${refusal.code}, hard): ${refusal.why}\nThis call cannot run under the plan; nothing was done. Work within the plan, or stop and say what you need.`;
  };
}
