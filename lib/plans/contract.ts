// Active plan contracts on the state ref: activation into U1, status, the kill switch, and the journal.
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { RefusedError } from '../errors';
import type { StateStore, StateTx } from '../git/state';
import { shellJoin } from '../quote';
import { randomHex } from '../random';
import { appendLines } from '../state/streams';
import { checkMarkdownPlan, type Envelope, type Unit } from './markdown';
import type { ToolAgent } from './tools';
import { isObject } from '../guards';

export const ACTIVE_PATH = '.forge/plans/active.json';
/** A stream of segments (lib/state/streams.ts); an earlier forge kept it in `.forge/plans/journal.jsonl`. */
export const JOURNAL_DIR = '.forge/plans/journal';

export function contractPath(planId: string): string {
  return `.forge/plans/${planId}.json`;
}

export interface Contract {
  plan_id: string;
  /** The plan file, relative to the repository root. */
  source: string;
  envelope: Envelope;
  units: Unit[];
  /** Index of the current unit in `units`. */
  current: number;
  status: 'active' | 'paused' | 'complete';
  pausedReason: string | null;
  activatedAt: string;
  updatedAt: string;
  /** Budgets used: run ids seen, tokens reported, files changed; unitTokens restarts at each unit. */
  used: { runs: string[]; tokens: number; files: string[]; unitTokens: number };
  /** The last soft refusal, which `forge plan ack` may acknowledge. */
  pendingBreach: PendingBreach | null;
  /** An acknowledged refusal: the same call passes preflight once under the parent rails. */
  grant: PendingBreach | null;
}

export interface PendingBreach {
  unit: string;
  tool: string;
  /** The agent that named the tool (its hook's), when not forge. */
  agent?: ToolAgent;
  paths: string[];
  breach: string;
  reason: string;
}

export interface JournalEntry {
  id: string;
  timestamp: string;
  plan_id: string;
  verb: string;
  kind: 'Decision' | 'Observation' | 'Action';
  unit: string | null;
  tool?: string;
  path?: string;
  reason?: string;
  /** Which rule a refusal broke (tools, paths, surface, blast_radius, budget_cap, kill_switch, later_unit, rails). */
  breach?: string;
  posture?: 'soft' | 'hard';
  evidence?: string[];
}

/** Appends journal entries inside a state transaction (one commit with the change they record). */
export async function journal(tx: StateTx, entries: Array<Omit<JournalEntry, 'id'>>): Promise<void> {
  await appendLines({ tx, dir: JOURNAL_DIR, lines: entries.map((e) => JSON.stringify({ id: `jr-${randomHex()}`, ...e })) });
}

export function parseContract(buf: Buffer | string | null): Contract | null {
  if (!buf) return null;
  try {
    return JSON.parse(buf.toString()) as Contract;
  } catch {
    return null;
  }
}

/** Writes a contract back, stamped. */
export function saveContract(tx: StateTx, contract: Contract): void {
  tx.write(contractPath(contract.plan_id), `${JSON.stringify(contract, null, 2)}\n`);
}

/** The contract the active pointer names, if any. */
export async function activeContract({ store }: { store: StateStore }): Promise<Contract | null> {
  const raw = await store.read(ACTIVE_PATH);
  if (raw === null) return null;
  // The gate fails closed, and status must not say "no plan" for one it cannot read: PLAN_UNREADABLE.
  const fix = 'forge plan status';
  const pointer = parseContract(raw) as unknown;
  const id = isObject(pointer) ? pointer.plan_id : undefined;
  if (typeof id !== 'string' || !id) throw new RefusedError('PLAN_UNREADABLE', `the active plan pointer ${ACTIVE_PATH} on the state ref cannot be read`, { fix });
  const c = parseContract(await store.read(contractPath(id))) as unknown;
  if (!isObject(c) || !Array.isArray(c.units) || !isObject(c.envelope) || !isObject(c.used) || typeof c.status !== 'string') {
    throw new RefusedError('PLAN_UNREADABLE', `the contract of the active plan '${id}' cannot be read from the state ref`, { fix });
  }
  return c as unknown as Contract;
}

/** Validates a plan file and makes it the active contract, entering its first unit. */
export async function activatePlan({ store, root, abs, now }: { store: StateStore; root: string; abs: string; now: Date }): Promise<Contract> {
  const source = relative(root, abs);
  const text = await readFile(abs, 'utf8');
  const { plan, findings } = await checkMarkdownPlan({ file: source, text, strict: true });
  const errors = findings.filter((f) => f.severity === 'error');
  if (errors.length || !plan?.envelope) {
    const legacy = errors.some((e) => e.code === 'LEGACY_PLAN');
    throw new RefusedError(legacy ? 'LEGACY_PLAN' : 'PLAN_INVALID', legacy ? `'${source}' has no envelopes: a legacy plan cannot be activated` : `'${source}' does not pass forge plan check (${errors.length} error${errors.length === 1 ? '' : 's'}; first: ${errors[0]!.file}:${errors[0]!.line}:${errors[0]!.col} ${errors[0]!.code})`, {
      fix: shellJoin(['forge', 'plan', 'check', '--path', source]),
      data: { findings: errors },
    });
  }
  const stamp = now.toISOString();
  const planId = plan.envelope.plan_id;
  const r = await store.update({
    message: `plan: activate ${planId} (enter ${plan.units[0]!.id})`,
    apply: async (tx) => {
      const existing = parseContract(await tx.read(contractPath(planId)));
      if (existing && existing.status !== 'complete') {
        throw new RefusedError('PLAN_ALREADY_ACTIVE', `plan ${planId} is already ${existing.status}, at unit ${existing.units[existing.current]?.id}`, { fix: 'forge plan status' });
      }
      const contract: Contract = { plan_id: planId, source, envelope: plan.envelope!, units: plan.units, current: 0, status: 'active', pausedReason: null, activatedAt: stamp, updatedAt: stamp, used: { runs: [], tokens: 0, files: [], unitTokens: 0 }, pendingBreach: null, grant: null };
      saveContract(tx, contract);
      tx.write(ACTIVE_PATH, `${JSON.stringify({ plan_id: planId, updatedAt: stamp })}\n`);
      await journal(tx, [{ timestamp: stamp, plan_id: planId, verb: 'plan_unit_entered', kind: 'Decision', unit: plan.units[0]!.id }]);
      return contract;
    },
  });
  return r.value;
}

/** Sets or clears the kill switch; a pause needs a reason, shown on every later refusal. */
export async function setPaused({ store, planId, reason, now }: { store: StateStore; planId: string; reason: string | null; now: Date }): Promise<Contract> {
  const stamp = now.toISOString();
  const r = await store.update({
    message: `plan: ${reason === null ? 'resume' : 'pause'} ${planId}`,
    apply: async (tx) => {
      const c = parseContract(await tx.read(contractPath(planId)));
      if (!c) throw new RefusedError('PLAN_NOT_FOUND', `no activated plan '${planId}'`, { fix: 'forge plan status' });
      if (c.status === 'complete') throw new RefusedError('PLAN_COMPLETE', `plan ${planId} is complete`, { fix: 'forge plan status' });
      if (reason === null && c.status !== 'paused') throw new RefusedError('NOT_PAUSED', `plan ${planId} is not paused`, { fix: 'forge plan status' });
      const next: Contract = { ...c, status: reason === null ? 'active' : 'paused', pausedReason: reason, updatedAt: stamp };
      saveContract(tx, next);
      await journal(tx, [{ timestamp: stamp, plan_id: planId, verb: reason === null ? 'plan_resumed' : 'plan_paused', kind: 'Decision', unit: c.units[c.current]?.id ?? null, ...(reason ? { reason } : {}) }]);
      return next;
    },
  });
  return r.value;
}
