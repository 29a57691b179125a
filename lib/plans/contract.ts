// Active plan contracts on the state ref: activation into U1, status, the kill switch, and the journal.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { InvalidInputError, RefusedError } from '../errors';
import { workTreeRoot } from '../git/repo';
import type { StateStore, StateTx } from '../git/state';
import { shellJoin } from '../quote';
import { randomHex } from '../random';
import { type StateSource, tryStateJson } from '../state/read';
import * as validators from '../state/validators.gen';
import { appendLines } from '../state/streams';
import { checkMarkdownPlan, type Envelope, type Unit } from './markdown';
import type { ToolAgent } from './tools';

export const ACTIVE_PATH = '.forge/plans/active.json';
/** A stream of segments (lib/state/streams.ts); an earlier forge kept it in `.forge/plans/journal.jsonl`. */
export const JOURNAL_DIR = '.forge/plans/journal';

export function contractPath(planId: string): string {
  return `.forge/plans/${planId}.json`;
}

/**
 * The files that say which plan gates and where it stands — the active pointer and that plan's
 * contract — when one is active or paused in the state `readFile` reads; none otherwise. A sync
 * keeps these as they are here: no fetched state ends, pauses, resumes or replaces the local plan.
 */
export async function gatingPlanFiles(readFile: (path: string) => Promise<string | null>): Promise<string[]> {
  let planId: unknown;
  try {
    planId = JSON.parse((await readFile(ACTIVE_PATH)) ?? 'null')?.plan_id;
  } catch {
    return [];
  }
  if (typeof planId !== 'string' || !/^[\w.-]+$/.test(planId)) return [];
  try {
    const status = JSON.parse((await readFile(contractPath(planId))) ?? 'null')?.status;
    return status === 'active' || status === 'paused' ? [ACTIVE_PATH, contractPath(planId)] : [];
  } catch {
    return [];
  }
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

/** Writes a contract back, stamped. */
export function saveContract(tx: StateTx, contract: Contract): void {
  tx.write(contractPath(contract.plan_id), `${JSON.stringify(contract, null, 2)}\n`);
}

/**
 * A plan that is there but cannot be used: PLAN_UNREADABLE, exit 1. The gate fails closed on it,
 * and status must not say "no plan" for one it cannot read.
 */
function unreadable({ what, path, problem, fix }: { what: string; path: string; problem: string; fix: string }): RefusedError {
  return new RefusedError('PLAN_UNREADABLE', `${what} cannot be read from the state ref: ${problem}`, { fix, data: { path, problem } });
}

/** The plan id the active pointer names: undefined when there is none; its problem when it cannot be read. */
async function readPointer(
  from: StateSource,
): Promise<{ id: string | undefined; problem?: undefined } | { id?: undefined; problem: string }> {
  const r = await tryStateJson({ from, path: ACTIVE_PATH, file: validators.planPointer });
  if (r === null) return { id: undefined };
  return r.ok ? { id: r.value.plan_id } : { problem: r.problem };
}

/** The command that mends an unreadable pointer or contract, looked up only when one is found. */
type Mend = () => Promise<string>;

/** The plan id the active pointer names, if any; PLAN_UNREADABLE (Fix: `mend`) when it cannot be read. */
async function pointedPlanId({ from, mend }: { from: StateSource; mend: Mend }): Promise<string | undefined> {
  const p = await readPointer(from);
  if (p.problem !== undefined)
    throw unreadable({ what: `the active plan pointer ${ACTIVE_PATH}`, path: ACTIVE_PATH, problem: p.problem, fix: await mend() });
  return p.id;
}

/** The contract of plan `id`: null when there is none, PLAN_UNREADABLE (Fix: `mend`) when it cannot be used. */
async function readContract({
  from,
  id,
  what,
  mend,
}: {
  from: StateSource;
  id: string;
  what: string;
  mend: Mend;
}): Promise<Contract | null> {
  const path = contractPath(id);
  const r = await tryStateJson({ from, path, file: validators.contract });
  if (r === null) return null;
  const problem = r.ok ? contractProblem({ contract: r.value, id }) : r.problem;
  if (problem !== null) throw unreadable({ what, path, problem, fix: await mend() });
  return r.ok ? r.value : null;
}

/** What a schema cannot say about a contract: whose it is, and what advancing a unit will need. */
function contractProblem({ contract, id }: { contract: Contract; id: string }): string | null {
  // A contract saved under another plan's name would be written back over that plan's.
  if (contract.plan_id !== id) return `plan_id: it names plan '${contract.plan_id}'`;
  const i = contract.units.findIndex((u) => u.advance_evidence_required?.verification_pass && !u.verification);
  return i < 0 ? null : `units.${i}: advance_evidence_required.verification_pass without a verification command`;
}

/** The contract the active pointer names, if any. */
export async function activeContract({ store }: { store: StateStore }): Promise<Contract | null> {
  const mend = async () => 'forge plan status';
  const id = await pointedPlanId({ from: store, mend });
  if (id === undefined) return null;
  const what = `the contract of the active plan '${id}'`;
  const c = await readContract({ from: store, id, what, mend });
  if (!c) throw unreadable({ what, path: contractPath(id), problem: 'no such file', fix: await mend() });
  // An ended contract gates nothing; a pointer to one comes only from a state merge of two clones.
  if (c.status === 'ended') return null;
  return c;
}

/**
 * The command that activates a plan from here: the newest plan file under docs/plans/ (dated names
 * sort by date), its path as seen from cwd; `forge plan new --help` when there is none.
 */
export async function activationCommand({ cwd, replace = false }: { cwd: string; replace?: boolean }): Promise<string> {
  const root = (await workTreeRoot({ cwd }))?.root ?? cwd;
  const dir = join(root, 'docs', 'plans');
  const names = (await readdir(dir, { withFileTypes: true }).catch(() => []))
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => e.name)
    .sort();
  const newest = names.at(-1);
  return newest
    ? shellJoin(['forge', 'plan', 'activate', '--path', relative(cwd, join(dir, newest)), ...(replace ? ['--replace'] : [])])
    : 'forge plan new --help';
}

/** Ends a contract inside a transaction: status ended, the active pointer cleared when it names it, plan_ended journaled. */
async function endInTx(tx: StateTx, c: Contract, reason: string, stamp: string): Promise<Contract> {
  const ended: Contract = { ...c, status: 'ended', pendingBreach: null, grant: null, updatedAt: stamp };
  saveContract(tx, ended);
  // A pointer that cannot be read names no plan this end knows of: it is left for activate --replace.
  if ((await readPointer(tx)).id === c.plan_id) tx.remove(ACTIVE_PATH);
  await journal(tx, [
    { timestamp: stamp, plan_id: c.plan_id, verb: 'plan_ended', kind: 'Decision', unit: c.units[c.current]?.id ?? null, reason },
  ]);
  return ended;
}

/** The contract named, or the one the active pointer names; refused when there is none, it cannot be read, or it has ended. */
export async function targetContract({
  from,
  planId,
  cwd,
}: {
  from: StateSource;
  planId: string | undefined;
  cwd?: string;
}): Promise<Contract> {
  // What mends an unreadable pointer or contract: activating the plan again in its place.
  const mend = async () => (cwd === undefined ? 'forge plan status' : await activationCommand({ cwd, replace: true }));
  const id = planId ?? (await pointedPlanId({ from, mend }));
  if (id === undefined)
    throw new RefusedError('NO_ACTIVE_PLAN', 'no plan contract is active', {
      fix: cwd === undefined ? 'forge plan status' : await activationCommand({ cwd }),
    });
  const c = await readContract({ from, id, what: `the contract of plan '${id}'`, mend });
  if (!c) throw new InvalidInputError('PLAN_NOT_FOUND', `no activated plan '${id}'`, { fix: 'forge plan status' });
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
    apply: async (tx) => endInTx(tx, await targetContract({ from: tx, planId, cwd }), reason ?? 'ended by forge plan end', stamp),
  });
  return r.value;
}

/** The plan file checked as forge plan check does, strict: refused (PLAN_INVALID, LEGACY_PLAN) unless it passes with an envelope. */
async function checkedPlan({ root, abs }: { root: string; abs: string }): Promise<{ source: string; envelope: Envelope; units: Unit[] }> {
  const source = relative(root, abs);
  const text = await readFile(abs, 'utf8');
  const { plan, findings } = await checkMarkdownPlan({ file: source, text, strict: true });
  const errors = findings.filter((f) => f.severity === 'error');
  if (!errors.length && plan?.envelope) return { source, envelope: plan.envelope, units: plan.units };
  const legacy = errors.some((e) => e.code === 'LEGACY_PLAN');
  const first = errors[0];
  throw new RefusedError(
    legacy ? 'LEGACY_PLAN' : 'PLAN_INVALID',
    legacy
      ? `'${source}' has no envelopes: a legacy plan cannot be activated`
      : `'${source}' does not pass forge plan check (${errors.length} error${errors.length === 1 ? '' : 's'}${first ? `; first: ${first.file}:${first.line}:${first.col} ${first.code}` : ''})`,
    {
      fix: shellJoin(['forge', 'plan', 'check', '--path', source]),
      data: { findings: errors },
    },
  );
}

/**
 * The contracts an activation of `planId` would take the place of: the same plan still going, and
 * the plan the active pointer names while it still gates. One that cannot be read is refused
 * unless `replace` — then the activation writes over it (its history stays on the ref).
 */
async function livePlans({
  tx,
  planId,
  replace,
  fix,
}: {
  tx: StateTx;
  planId: string;
  replace: boolean;
  fix: string;
}): Promise<Contract[]> {
  const pointer = await readPointer(tx);
  if (pointer.problem !== undefined && !replace)
    throw unreadable({ what: `the active plan pointer ${ACTIVE_PATH}`, path: ACTIVE_PATH, problem: pointer.problem, fix });
  const live: Contract[] = [];
  for (const id of new Set([planId, ...(pointer.id ? [pointer.id] : [])])) {
    const c = await readContract({ from: tx, id, what: `the contract of plan '${id}'`, mend: async () => fix }).catch((err: unknown) => {
      if (replace) return null;
      throw err;
    });
    if (c && (c.status === 'active' || c.status === 'paused')) live.push(c);
  }
  return live;
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
  const { source, envelope, units } = await checkedPlan({ root, abs });
  const stamp = now.toISOString();
  const planId = envelope.plan_id;
  const withReplace = shellJoin(['forge', 'plan', 'activate', '--path', relPath, '--replace']);
  const r = await store.update({
    message: ({ contract, ended }: { contract: Contract; ended: Contract[] }) =>
      `plan: activate ${contract.plan_id} (enter ${contract.units[0]!.id})${ended.length ? `, ending ${ended.map((e) => e.plan_id).join(', ')}` : ''}`,
    apply: async (tx) => {
      const live = await livePlans({ tx, planId, replace, fix: withReplace });
      const [first] = live;
      if (first && !replace) {
        const what = first.plan_id === planId ? `plan ${planId} is already ${first.status}` : `plan ${first.plan_id} is ${first.status}`;
        throw new RefusedError(
          'PLAN_ALREADY_ACTIVE',
          `${what}, at unit ${first.units[first.current]?.id}: --replace ends it and activates '${source}'`,
          { fix: withReplace },
        );
      }
      const ended: Contract[] = [];
      for (const c of live) ended.push(await endInTx(tx, c, `replaced by ${planId} (${source})`, stamp));
      const contract = newContract({ planId, source, envelope, units, stamp });
      saveContract(tx, contract);
      tx.write(ACTIVE_PATH, `${JSON.stringify({ plan_id: planId, updatedAt: stamp })}\n`);
      await journal(tx, [{ timestamp: stamp, plan_id: planId, verb: 'plan_unit_entered', kind: 'Decision', unit: units[0]!.id }]);
      return { contract, ended };
    },
  });
  return r.value;
}

/** A contract as activation makes it: at its first unit, nothing used. */
function newContract({
  planId,
  source,
  envelope,
  units,
  stamp,
}: {
  planId: string;
  source: string;
  envelope: Envelope;
  units: Unit[];
  stamp: string;
}): Contract {
  return {
    plan_id: planId,
    source,
    envelope,
    units,
    current: 0,
    status: 'active',
    pausedReason: null,
    activatedAt: stamp,
    updatedAt: stamp,
    used: { runs: [], tokens: 0, files: [], unitTokens: 0 },
    pendingBreach: null,
    grant: null,
  };
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
      const c = await targetContract({ from: tx, planId, cwd });
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

// The state files of this module, registered with the state layer's kinds (lib/state/read.ts), which imports no feature.
declare module '../state/read' {
  interface StateKinds {
    contract: Contract;
    journalEntry: JournalEntry;
  }
}
