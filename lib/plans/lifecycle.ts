// A contract at work: preflight each call, acknowledge a soft refusal, advance through units, read the journal.
import { RefusedError } from '../errors';
import type { StateStore, StateTx } from '../git/state';
import type { ShellResult } from '../process/program';
import { parseStateLines } from '../state/read';
import * as validators from '../state/validators.gen';
import { readStream } from '../state/streams';
import { activeContract, JOURNAL_DIR, journal, saveContract, targetContract as target, type Contract, type JournalEntry } from './contract';
import { changedPaths, decide, type Decision, type ToolCall } from './gate';
import type { Unit } from './markdown';

export interface PreflightResult {
  /** Null when no contract is active: the gate is then a no-op. */
  contract: Contract | null;
  decision: Decision;
}

/**
 * Decides one call against the active contract and records what it must: a refusal (journal
 * plan_breach_refused, and the pending breach an ack may take), budgets used, an advisory
 * plan_budget_breach, a consumed acknowledgement. An allowed call that changes nothing writes nothing.
 */
export async function preflight({ store, call, now }: { store: StateStore; call: ToolCall; now: Date }): Promise<PreflightResult> {
  const peek = await activeContract({ store });
  if (!peek || peek.status === 'complete') {
    return {
      contract: peek,
      decision: {
        allowed: true,
        posture: 'allow',
        breach: null,
        reason: peek ? 'the plan is complete' : 'no active plan',
        path: null,
        acked: false,
        laterUnit: null,
        budgetBreaches: [],
      },
    };
  }
  // Most allowed calls record nothing: decide without the writers' lock, and take it only to write.
  const quick = await decide({ contract: peek, call, now });
  if (quick.allowed && !quick.acked && !quick.budgetBreaches.length && sameUsage(usageAfter(peek, call), peek.used))
    return { contract: peek, decision: quick };
  const stamp = now.toISOString();
  const r = await store.update({
    message: ({ decision, contract }: PreflightResult) =>
      `plan: ${decision.allowed ? 'preflight' : 'refuse'} ${call.tool} in ${contract!.plan_id} ${contract!.units[contract!.current]?.id ?? ''}`.trimEnd(),
    apply: async (tx): Promise<PreflightResult> => {
      const c = await target({ from: tx, planId: peek.plan_id });
      const decision = await decide({ contract: c, call, now });
      const unit = c.units[c.current]?.id ?? null;
      const entry = {
        timestamp: stamp,
        plan_id: c.plan_id,
        unit,
        tool: call.tool,
        ...(decision.path ? { path: decision.path } : call.paths[0] ? { path: call.paths[0] } : {}),
      };
      if (!decision.allowed) {
        await journal(tx, [
          {
            ...entry,
            verb: 'plan_breach_refused',
            kind: 'Observation',
            reason: decision.reason,
            breach: decision.breach!,
            posture: decision.posture as 'soft' | 'hard',
          },
        ]);
        // Only the latest refusal can be acknowledged, and only when it was soft.
        const pendingBreach =
          decision.posture === 'soft'
            ? {
                unit: unit!,
                tool: call.tool,
                ...(call.agent ? { agent: call.agent } : {}),
                paths: call.paths,
                breach: decision.breach!,
                reason: decision.reason,
              }
            : null;
        saveContract(tx, { ...c, pendingBreach, updatedAt: stamp });
        return { contract: c, decision };
      }
      const used = usageAfter(c, call);
      if (decision.acked || !sameUsage(used, c.used))
        saveContract(tx, { ...c, used, grant: decision.acked ? null : c.grant, updatedAt: stamp });
      if (decision.budgetBreaches.length)
        await journal(
          tx,
          decision.budgetBreaches.map((reason) => ({ ...entry, verb: 'plan_budget_breach', kind: 'Observation' as const, reason })),
        );
      return { contract: c, decision };
    },
  });
  return r.value;
}

/** The budgets used once an allowed call is counted: its run, the files it changes, its tokens. */
function usageAfter(c: Contract, call: ToolCall): Contract['used'] {
  const used = { ...c.used };
  if (call.runId !== null && !used.runs.includes(call.runId)) used.runs = [...used.runs, call.runId];
  used.files = [...used.files, ...changedPaths(call).filter((p) => !used.files.includes(p))];
  used.tokens += call.tokens;
  used.unitTokens += call.tokens;
  return used;
}

function sameUsage(a: Contract['used'], b: Contract['used']): boolean {
  return a.tokens === b.tokens && a.unitTokens === b.unitTokens && a.runs.length === b.runs.length && a.files.length === b.files.length;
}

/** Acknowledges the last soft refusal: the same call may then pass preflight once, under the parent rails. */
export async function acknowledge({
  store,
  planId,
  now,
  cwd,
}: {
  store: StateStore;
  planId: string | undefined;
  now: Date;
  /** Where the caller runs, for the hint that activates a plan. */
  cwd?: string;
}): Promise<{ contract: Contract; grant: NonNullable<Contract['grant']> }> {
  const stamp = now.toISOString();
  const r = await store.update({
    message: ({ contract, grant }: { contract: Contract; grant: NonNullable<Contract['grant']> }) =>
      `plan: acknowledge ${grant.breach} breach in ${contract.plan_id} ${grant.unit}`,
    apply: async (tx) => {
      const c = await target({ from: tx, planId, cwd });
      if (c.status === 'paused')
        throw new RefusedError('PLAN_PAUSED', `plan ${c.plan_id} is paused (kill switch): ${c.pausedReason}`, { fix: 'forge plan status' });
      const pending = c.pendingBreach;
      if (!pending || pending.unit !== c.units[c.current]?.id) {
        throw new RefusedError(
          'NO_SOFT_BREACH',
          `plan ${c.plan_id} has no soft refusal to acknowledge${c.grant ? ` (the acknowledgement of ${c.grant.tool} is still unused)` : ''}: only plan breach: tools / paths refusals can be acknowledged, once each`,
          { fix: 'forge plan journal' },
        );
      }
      saveContract(tx, { ...c, pendingBreach: null, grant: pending, updatedAt: stamp });
      await journal(tx, [
        {
          timestamp: stamp,
          plan_id: c.plan_id,
          verb: 'plan_breach_acknowledged',
          kind: 'Action',
          unit: pending.unit,
          tool: pending.tool,
          ...(pending.paths[0] ? { path: pending.paths[0] } : {}),
          reason: pending.reason,
          breach: pending.breach,
        },
      ]);
      return { contract: c, grant: pending };
    },
  });
  return r.value;
}

export interface AdvanceResult {
  contract: Contract;
  from: Unit;
  to: Unit | null;
  verification: ShellResult | null;
}

/**
 * Leaves the current unit once its advance_evidence_required holds — verification_pass runs the
 * unit's verification command (outside the state lock: it may take minutes) — and enters the next,
 * or completes the plan after the last.
 */
export async function advance({
  store,
  planId,
  evidence,
  now,
  verify,
  cwd,
}: {
  store: StateStore;
  planId: string | undefined;
  evidence: string[];
  now: Date;
  verify: (command: string) => Promise<ShellResult>;
  /** Where the caller runs, for the hint that activates a plan. */
  cwd?: string;
}): Promise<AdvanceResult> {
  const before = await target({ from: store, planId, cwd });
  const from = unitToLeave({ contract: before, named: planId !== undefined });
  const verification = from.advance_evidence_required?.verification_pass ? await verifyUnit({ unit: from, verify }) : null;
  const stamp = now.toISOString();
  const r = await store.update({
    message: ({ from: f, to }: AdvanceResult) => `plan: advance ${before.plan_id} ${f.id} → ${to?.id ?? 'complete'}`,
    apply: (tx) => advanceInTx({ tx, before, from, evidence, verification, stamp }),
  });
  return r.value;
}

/** The unit an advance leaves: refused when the plan is complete or paused. */
function unitToLeave({ contract, named }: { contract: Contract; named: boolean }): Unit {
  const from = contract.units[contract.current];
  if (contract.status === 'complete' || !from)
    throw new RefusedError('PLAN_COMPLETE', `plan ${contract.plan_id} is complete`, { fix: 'forge plan journal' });
  if (contract.status === 'paused')
    throw new RefusedError('PLAN_PAUSED', `plan ${contract.plan_id} is paused (kill switch): ${contract.pausedReason}`, {
      fix: named ? `forge plan resume --plan-id ${contract.plan_id}` : 'forge plan resume',
    });
  return from;
}

/** Runs the unit's verification command: its result when it passed, VERIFICATION_FAILED with the tail when not. */
async function verifyUnit({ unit, verify }: { unit: Unit; verify: (command: string) => Promise<ShellResult> }): Promise<ShellResult> {
  const verification = await verify(unit.verification!.command);
  if (verification.exitCode === 0) return verification;
  const how = verification.timedOut
    ? 'timed out'
    : verification.exitCode === null
      ? `was killed (${verification.signal ?? 'could not start'})`
      : `exited ${verification.exitCode}`;
  throw new RefusedError(
    'VERIFICATION_FAILED',
    `${unit.id} needs verification_pass: '${verification.command}' ${how}\n${verification.tail.trimEnd().split('\n').slice(-15).join('\n')}`,
    {
      fix: 'forge plan advance',
      data: {
        unit: unit.id,
        command: verification.command,
        exitCode: verification.exitCode,
        timedOut: verification.timedOut,
        tail: verification.tail,
      },
    },
  );
}

/** The advance itself, in the state transaction: refused when the plan moved while the verification ran. */
async function advanceInTx({
  tx,
  before,
  from,
  evidence,
  verification,
  stamp,
}: {
  tx: StateTx;
  before: Contract;
  from: Unit;
  evidence: string[];
  verification: ShellResult | null;
  stamp: string;
}): Promise<AdvanceResult> {
  const c = await target({ from: tx, planId: before.plan_id });
  // Another advance (or a pause) landed while the verification ran: its evidence was for another state.
  if (c.current !== before.current || c.status !== 'active')
    throw new RefusedError(
      'PLAN_CHANGED',
      `plan ${c.plan_id} changed while ${from.id}'s verification ran (now ${c.status}, at ${c.units[c.current]?.id ?? 'the end'})`,
      { fix: 'forge plan status' },
    );
  const to = c.units[c.current + 1] ?? null;
  const proof = [...(verification ? [`verification_pass: ${verification.command}`] : []), ...evidence];
  const entries: Array<Omit<JournalEntry, 'id'>> = [
    {
      timestamp: stamp,
      plan_id: c.plan_id,
      verb: 'plan_advance',
      kind: 'Decision',
      unit: from.id,
      ...(proof.length ? { evidence: proof } : {}),
    },
    to
      ? { timestamp: stamp, plan_id: c.plan_id, verb: 'plan_unit_entered', kind: 'Decision', unit: to.id }
      : { timestamp: stamp, plan_id: c.plan_id, verb: 'plan_completed', kind: 'Decision', unit: from.id },
  ];
  saveContract(tx, {
    ...c,
    current: c.current + 1,
    status: to ? 'active' : 'complete',
    used: { ...c.used, unitTokens: 0 },
    pendingBreach: null,
    grant: null,
    updatedAt: stamp,
  });
  await journal(tx, entries);
  return { contract: c, from, to, verification };
}

/** Journal entries, oldest first, optionally for one plan and one verb. */
export async function readJournal({
  store,
  planId,
  verb,
}: {
  store: StateStore;
  planId?: string;
  verb?: string;
}): Promise<{ entries: JournalEntry[]; corrupt: number }> {
  const { entries: all, skipped } = parseStateLines({ text: await readStream({ store, dir: JOURNAL_DIR }), file: validators.journalEntry });
  const entries = all.filter((e) => (planId === undefined || e.plan_id === planId) && (verb === undefined || e.verb === verb));
  // A 3-way state merge unions the JSONL lines of two clones: order them by time again.
  entries.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  return { entries, corrupt: skipped };
}
