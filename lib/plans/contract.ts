// Active plan contracts on the state ref: activation into U1, status, the kill switch, and the journal.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { workTreeRoot } from '../git/repo';
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
  /** ended: stopped before its last unit by forge plan end or replaced by forge plan activate --replace. */
  status: 'active' | 'paused' | 'complete' | 'ended';
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
  if (typeof id !== 'string' || !id)
    throw new RefusedError('PLAN_UNREADABLE', `the active plan pointer ${ACTIVE_PATH} on the state ref cannot be read`, { fix });
  const c = parseContract(await store.read(contractPath(id))) as unknown;
  if (!isObject(c) || !Array.isArray(c.units) || !isObject(c.envelope) || !isObject(c.used) || typeof c.status !== 'string') {
    throw new RefusedError('PLAN_UNREADABLE', `the contract of the active plan '${id}' cannot be read from the state ref`, { fix });
  }
  // An ended contract gates nothing; a pointer to one comes only from a state merge of two clones.
  if (c.status === 'ended') return null;
  return c as unknown as Contract;
}

/**
 * The command that activates a plan from here: the newest plan file under docs/plans/ (dated names
 * sort by date), its path as seen from cwd; `forge plan new --help` when there is none.
 */
export async function activationCommand({ cwd }: { cwd: string }): Promise<string> {
  const root = (await workTreeRoot({ cwd }))?.root ?? cwd;
  const dir = join(root, 'docs', 'plans');
  const names = (await readdir(dir, { withFileTypes: true }).catch(() => []))
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => e.name)
    .sort();
  const newest = names.at(-1);
  return newest ? shellJoin(['forge', 'plan', 'activate', '--path', relative(cwd, join(dir, newest))]) : 'forge plan new --help';
}

/** Ends a contract inside a transaction: status ended, the active pointer cleared when it names it, plan_ended journaled. */
async function endInTx(tx: StateTx, c: Contract, reason: string, stamp: string): Promise<Contract> {
  const ended: Contract = { ...c, status: 'ended', pendingBreach: null, grant: null, updatedAt: stamp };
  saveContract(tx, ended);
  if ((await pointedPlanId((p) => tx.read(p))) === c.plan_id) tx.remove(ACTIVE_PATH);
  await journal(tx, [
    { timestamp: stamp, plan_id: c.plan_id, verb: 'plan_ended', kind: 'Decision', unit: c.units[c.current]?.id ?? null, reason },
  ]);
  return ended;
}

/** The plan id the active pointer names, if any. */
async function pointedPlanId(read: (path: string) => Promise<Buffer | null>): Promise<string | undefined> {
  return (parseContract(await read(ACTIVE_PATH)) as { plan_id?: string } | null)?.plan_id;
}

/** The contract named, or the one the active pointer names; refused when there is none, or it has ended. */
export async function targetContract(
  read: (path: string) => Promise<Buffer | null>,
  planId: string | undefined,
  cwd?: string,
): Promise<Contract> {
  let id = planId;
  if (id === undefined) {
    id = await pointedPlanId(read);
    if (!id)
      throw new RefusedError('NO_ACTIVE_PLAN', 'no plan contract is active', {
        fix: cwd === undefined ? 'forge plan status' : await activationCommand({ cwd }),
      });
  }
  const c = parseContract(await read(contractPath(id)));
  if (!c) throw new RefusedError('PLAN_NOT_FOUND', `no activated plan '${id}'`, { fix: 'forge plan status' });
  if (c.status === 'ended')
    throw new RefusedError('PLAN_ENDED', `plan ${id} has ended`, {
      fix: cwd === undefined ? 'forge plan status' : await activationCommand({ cwd }),
    });
  return c;
}

/** Ends the contract named (default: the active one) before its last unit: the gate stops, the journal says why. */
export async function endPlan({
  store,
  planId,
  reason,
  now,
  cwd,
}: {
  store: StateStore;
  planId: string | undefined;
  reason: string | null;
  now: Date;
  cwd?: string;
}): Promise<Contract> {
  const stamp = now.toISOString();
  const r = await store.update({
    message: (c: Contract) => `plan: end ${c.plan_id}`,
    apply: async (tx) => endInTx(tx, await targetContract((p) => tx.read(p), planId, cwd), reason ?? 'ended by forge plan end', stamp),
  });
  return r.value;
}

/** Validates a plan file and makes it the active contract, entering its first unit. */
export async function activatePlan({
  store,
  root,
  abs,
  relPath,
  now,
  replace = false,
}: {
  store: StateStore;
  root: string;
  abs: string;
  /** The path as the caller gave it, for the hint. */
  relPath: string;
  now: Date;
  replace?: boolean;
}): Promise<{ contract: Contract; ended: Contract[] }> {
  const source = relative(root, abs);
  const text = await readFile(abs, 'utf8');
  const { plan, findings } = await checkMarkdownPlan({ file: source, text, strict: true });
  const errors = findings.filter((f) => f.severity === 'error');
  if (errors.length || !plan?.envelope) {
    const legacy = errors.some((e) => e.code === 'LEGACY_PLAN');
    throw new RefusedError(
      legacy ? 'LEGACY_PLAN' : 'PLAN_INVALID',
      legacy
        ? `'${source}' has no envelopes: a legacy plan cannot be activated`
        : `'${source}' does not pass forge plan check (${errors.length} error${errors.length === 1 ? '' : 's'}; first: ${errors[0]!.file}:${errors[0]!.line}:${errors[0]!.col} ${errors[0]!.code})`,
      {
        fix: shellJoin(['forge', 'plan', 'check', '--path', source]),
        data: { findings: errors },
      },
    );
  }
  const stamp = now.toISOString();
  const planId = plan.envelope.plan_id;
  const r = await store.update({
    message: ({ contract, ended }: { contract: Contract; ended: Contract[] }) =>
      `plan: activate ${contract.plan_id} (enter ${contract.units[0]!.id})${ended.length ? `, ending ${ended.map((e) => e.plan_id).join(', ')}` : ''}`,
    apply: async (tx) => {
      // What this activation would take the place of: the same plan still going, and the plan the
      // active pointer names, when it still gates. Only --replace ends them.
      const read = (p: string) => tx.read(p);
      const pointed = await pointedPlanId(read);
      const live: Contract[] = [];
      for (const id of new Set([planId, ...(pointed ? [pointed] : [])])) {
        const c = parseContract(await read(contractPath(id)));
        if (c && (c.status === 'active' || c.status === 'paused')) live.push(c);
      }
      if (live.length && !replace) {
        const [first] = live;
        const what =
          first!.plan_id === planId ? `plan ${planId} is already ${first!.status}` : `plan ${first!.plan_id} is ${first!.status}`;
        throw new RefusedError(
          'PLAN_ALREADY_ACTIVE',
          `${what}, at unit ${first!.units[first!.current]?.id}: --replace ends it and activates '${source}'`,
          { fix: shellJoin(['forge', 'plan', 'activate', '--path', relPath, '--replace']) },
        );
      }
      const ended: Contract[] = [];
      for (const c of live) ended.push(await endInTx(tx, c, `replaced by ${planId} (${source})`, stamp));
      const contract: Contract = {
        plan_id: planId,
        source,
        envelope: plan.envelope!,
        units: plan.units,
        current: 0,
        status: 'active',
        pausedReason: null,
        activatedAt: stamp,
        updatedAt: stamp,
        used: { runs: [], tokens: 0, files: [], unitTokens: 0 },
        pendingBreach: null,
        grant: null,
      };
      saveContract(tx, contract);
      tx.write(ACTIVE_PATH, `${JSON.stringify({ plan_id: planId, updatedAt: stamp })}\n`);
      await journal(tx, [{ timestamp: stamp, plan_id: planId, verb: 'plan_unit_entered', kind: 'Decision', unit: plan.units[0]!.id }]);
      return { contract, ended };
    },
  });
  return r.value;
}

/** Sets or clears the kill switch of the contract named (default: the active one); a pause needs a reason, shown on every later refusal. */
export async function setPaused({
  store,
  planId,
  reason,
  now,
  cwd,
}: {
  store: StateStore;
  planId: string | undefined;
  reason: string | null;
  now: Date;
  cwd?: string;
}): Promise<Contract> {
  const stamp = now.toISOString();
  const r = await store.update({
    message: (c: Contract) => `plan: ${reason === null ? 'resume' : 'pause'} ${c.plan_id}`,
    apply: async (tx) => {
      const c = await targetContract((p) => tx.read(p), planId, cwd);
      const id = c.plan_id;
      if (c.status === 'complete') throw new RefusedError('PLAN_COMPLETE', `plan ${id} is complete`, { fix: 'forge plan status' });
      if (reason === null && c.status !== 'paused')
        throw new RefusedError('NOT_PAUSED', `plan ${id} is not paused`, { fix: 'forge plan status' });
      const next: Contract = { ...c, status: reason === null ? 'active' : 'paused', pausedReason: reason, updatedAt: stamp };
      saveContract(tx, next);
      await journal(tx, [
        {
          timestamp: stamp,
          plan_id: id,
          verb: reason === null ? 'plan_resumed' : 'plan_paused',
          kind: 'Decision',
          unit: c.units[c.current]?.id ?? null,
          ...(reason ? { reason } : {}),
        },
      ]);
      return next;
    },
  });
  return r.value;
}
