// The preflight gate: decides one tool call against the active contract, in the seed's breach order.
import type { Contract } from './contract';
import { someCovers, SURFACES, type Surface, type Unit } from './markdown';
import { toolAllowed, toolInfo, type ToolAgent } from './tools';

export interface ToolCall {
  /** The tool as the caller names it: read, bash, Edit, mcp__github__create_pr… */
  tool: string;
  /** The agent whose hook reported the call, which decides what its tool name means (Gemini CLI's `replace` edits); none for forge's own. */
  agent?: ToolAgent;
  /** Paths relative to the repository root ('../x' when outside it); a directory a search reads whole ends in '/' ('./' the root). */
  paths: string[];
  /** Tokens this call adds to the unit's context (0 when the caller does not know). */
  tokens: number;
  /** Whether the call changes its paths (edit, write, patch…). */
  mutates: boolean;
  /** What the call can reach: files only, the local branch, or a remote branch / pull request. */
  surface: Surface;
  /** The run (agent session) making the call, counted against budget_caps.runs. */
  runId: string | null;
  /** The paths it changes when only some of its paths are (a shell command's writes); without it, all of them when it mutates. */
  writes?: string[];
  /** What in the call would end, pause, resume or replace the plan, or touch forge's state ref: the operator's alone. */
  lifecycle?: string | null;
  /** The part of a shell command whose effect the gate cannot judge from its command line. */
  unjudged?: string | null;
  /** The plan words a shell command that only reads amounts to (read, search, ls): allowed where all of them are, bash or not. */
  readWords?: string[] | null;
  /** Names that lead elsewhere (a symlink, `..` after one), with where: both are in paths, and a refusal names the two. */
  links?: Array<{ given: string; leads: string }>;
  /** Of paths, those in git's own files (a git dir, the common dir, .git in any case): refused hard whatever the plan allows. */
  gitFiles?: string[];
}

export type Breach =
  | 'operator_only'
  | 'unjudged'
  | 'kill_switch'
  | 'budget_cap'
  | 'rails'
  | 'surface'
  | 'blast_radius'
  | 'later_unit'
  | 'tools'
  | 'paths';

export interface Decision {
  allowed: boolean;
  /** soft: `forge plan ack` lets the same call through once; hard: nothing does. */
  posture: 'allow' | 'soft' | 'hard';
  breach: Breach | null;
  /** The message a refused caller sees (`plan breach: tools — …`). */
  reason: string;
  /** The path the breach is about, when it is about one. */
  path: string | null;
  /** Allowed because an acknowledgement of this very call was pending. */
  acked: boolean;
  /** The later unit the call belongs to (breach later_unit). */
  laterUnit: string | null;
  /** Advisory observations (the call proceeds): context_tokens_expected exceeded. */
  budgetBreaches: string[];
}

export function canonicalTool(tool: string, agent?: ToolAgent): string {
  return toolInfo(tool, agent).word;
}

export function mutatesByName(tool: string, agent?: ToolAgent): boolean {
  return toolInfo(tool, agent).mutates;
}

const ORDER: Record<Surface, number> = { artifacts_only: 0, local_branch: 1, remote_branch_pr: 2 };

/** The paths a call changes. */
export const changedPaths = (call: ToolCall): string[] => call.writes ?? (call.mutates ? call.paths : []);

/** `forge plan ack|advance|status|journal|check …` alone on a line: the steps a plan leaves to the agent are never gated. */
export function isPlanLifecycleCommand(command: string): boolean {
  return /^\s*forge\s+plan\s+(ack|advance|status|journal|check)\b[^;&|`$()<>\n\\]*$/.test(command);
}

/** Whether a conversation-only tool or a lifecycle command, which the gate lets through unrecorded. */
export function isExempt(tool: string, command: string | undefined, agent?: ToolAgent): boolean {
  return (
    toolInfo(tool, agent).exempt || (canonicalTool(tool, agent) === 'bash' && command !== undefined && isPlanLifecycleCommand(command))
  );
}

/** Seconds in a duration field: an integer of seconds or `90m`, `2h`, `1d`. */
export function durationSeconds(value: number | string): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+)(s|m|h|d)$/.exec(value);
  if (!m) return Number.POSITIVE_INFINITY;
  return Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[m[2] as 's' | 'm' | 'h' | 'd'];
}

type Matcher = (path: string) => boolean;

async function matcher(globs: string[], paths: string[]): Promise<Matcher> {
  const plain = plainMatcher(globs, paths);
  if (plain) return plain;
  const { default: picomatch } = await import('picomatch');
  return picomatch(globs, { dot: true });
}

/** A path segment with nothing a glob or a path resolution reads specially. */
const PLAIN_SEGMENT = /^[A-Za-z0-9_.-]+$/;
const plainSegment = (s: string) => PLAIN_SEGMENT.test(s) && s !== '.' && s !== '..';

/**
 * The matcher picomatch(globs, { dot: true }) is on these paths, without picomatch, when every
 * glob is literal segments alone or followed by `/**`, or `**` alone, and every path is plain
 * segments — contracts' usual `src/**`; null otherwise. Loading and compiling picomatch cost a
 * gated call 1.5 ms. test/lib/plans/gate-globs.test.ts holds the two equal on that domain.
 */
export function plainMatcher(globs: string[], paths: string[]): Matcher | null {
  if (!paths.every((p) => p.split('/').every(plainSegment))) return null;
  const exact = new Set<string>();
  const under: string[] = [];
  for (const g of globs) {
    if (g === '**') return () => true;
    const parts = g.split('/');
    const tree = parts[parts.length - 1] === '**';
    if (tree) parts.pop();
    if (!parts.length || !parts.every(plainSegment)) return null;
    // `dir/**` matches dir itself too, as picomatch's globstar does.
    const literal = parts.join('/');
    exact.add(literal);
    if (tree) under.push(literal);
  }
  return (p) => exact.has(p) || under.some((dir) => p.startsWith(`${dir}/`));
}

/**
 * The first path the globs do not allow. A path ending in '/' is a directory a search reads whole
 * ('./' the repository root): it passes only when the globs cover everything under it.
 */
async function outside(paths: string[], globs: string[]): Promise<string | null> {
  const isMatch = await matcher(
    globs,
    paths.filter((p) => !p.endsWith('/') && !p.startsWith('../') && p !== '..'),
  );
  for (const p of paths) {
    if (p.startsWith('../') || p === '..') return p;
    const within = p.endsWith('/') ? await someCovers(globs, p === './' ? '**' : `${p}**`) : isMatch(p);
    if (!within) return p;
  }
  return null;
}

const list = (xs: string[]) => xs.join(', ');

/** A path as a refusal names it: with the name given, when it was reached through a link, or where the name leads. */
function named(call: ToolCall, p: string): string {
  const link = call.links?.find((l) => l.leads === p || l.given === p);
  if (!link) return `'${p}'`;
  return link.leads === p ? `'${p}' (where '${link.given}' leads)` : `'${p}' (which leads to '${link.leads}')`;
}

/**
 * A path in git's own files, however it was named: a tool call there could rewrite the repository's
 * config, hooks or refs, which no plan hands an agent, so it is hard whatever the plan allows.
 */
function gitFilesBreach(call: ToolCall): Decision | null {
  const p = call.gitFiles?.[0];
  if (p === undefined) return null;
  const via = call.links?.find((l) => l.leads === p);
  return refuse({
    posture: 'hard',
    breach: 'rails',
    reason: `plan breach: paths — ${via ? `'${via.given}' leads to '${p}', git's own files` : `'${p}' is in git's own files`}, which no plan opens to a tool call`,
    path: p,
  });
}

/** A refused call: `path` and `laterUnit` when the breach is about one (the key order is a decision's). */
function refuse({
  posture,
  breach,
  reason,
  path = null,
  laterUnit = null,
}: {
  posture: 'soft' | 'hard';
  breach: Breach;
  reason: string;
  path?: string | null;
  laterUnit?: string | null;
}): Decision {
  return { acked: false, laterUnit, budgetBreaches: [], path, allowed: false, posture, breach, reason };
}

/** An allowed call, with the advisory budgets it passed. */
function allow({ reason, acked = false, budgetBreaches = [] }: { reason: string; acked?: boolean; budgetBreaches?: string[] }): Decision {
  return { acked, laterUnit: null, budgetBreaches, path: null, allowed: true, posture: 'allow', breach: null, reason };
}

/** The hard budget cap this call reaches or would pass — tokens, runs, files changed, wall time — else null. */
function budgetCapBreach({ contract, call, now }: { contract: Contract; call: ToolCall; now: Date }): Decision | null {
  const caps = contract.envelope.parent_blast_radius.budget_caps ?? {};
  const used = contract.used;
  const cap = (reason: string, path?: string) =>
    refuse({ posture: 'hard', breach: 'budget_cap', reason: `plan budget cap reached: ${reason}`, path });
  if (caps.tokens !== undefined && used.tokens + call.tokens > caps.tokens)
    return cap(`tokens ${used.tokens}${call.tokens ? ` + ${call.tokens}` : ''} of ${caps.tokens}`);
  if (caps.runs !== undefined && call.runId !== null && !used.runs.includes(call.runId) && used.runs.length >= caps.runs)
    return cap(`runs ${used.runs.length} of ${caps.runs}; run ${call.runId} would be one more`);
  const newFiles = changedPaths(call).filter((p) => !used.files.includes(p));
  if (caps.files_changed !== undefined && used.files.length + newFiles.length > caps.files_changed)
    return cap(`files_changed ${used.files.length} of ${caps.files_changed}; ${newFiles[0]} would be one more`, newFiles[0]!);
  if (caps.wall_time !== undefined) {
    const elapsed = (now.getTime() - Date.parse(contract.activatedAt)) / 1000;
    if (elapsed > durationSeconds(caps.wall_time)) return cap(`wall_time ${caps.wall_time} since activation at ${contract.activatedAt}`);
  }
  return null;
}

/**
 * A breach of what bounds every unit — the parent rails' tools and paths, the unit's surface, the
 * blast radius (changes only) — else null. No acknowledgement reaches past these.
 */
async function railsBreach({ contract, unit, call }: { contract: Contract; unit: Unit; call: ToolCall }): Promise<Decision | null> {
  const git = gitFilesBreach(call);
  if (git) return git;
  const rails = contract.envelope.parent_rails;
  // A tool the tool map does not know is no breach of the rails: the plan may allow it by name, or an ack let it through once.
  if (!allowsTool(rails.allowed_tools, call) && toolInfo(call.tool, call.agent).known)
    return refuse({
      posture: 'hard',
      breach: 'rails',
      reason: `plan breach: tools — '${call.tool}' is outside the plan's rails (${list(rails.allowed_tools)})`,
    });
  const offRails = await outside(call.paths, rails.allowed_paths);
  if (offRails !== null)
    return refuse({
      posture: 'hard',
      breach: 'rails',
      reason: `plan breach: paths — ${named(call, offRails)} is outside the plan's rails (${list(rails.allowed_paths)})`,
      path: offRails,
    });
  const surface = unit.surface ?? rails.surface;
  if (ORDER[call.surface] > ORDER[surface])
    return refuse({
      posture: 'hard',
      breach: 'surface',
      reason: `plan breach: surface — this call reaches ${call.surface}; ${unit.id} allows ${surface} (${list(SURFACES.filter((s) => ORDER[s] <= ORDER[surface]))})`,
    });
  const changed = changedPaths(call);
  if (!changed.length) return null;
  const blast = contract.envelope.parent_blast_radius.path_globs;
  const beyond = await outside(changed, blast);
  if (beyond === null) return null;
  return refuse({
    posture: 'hard',
    breach: 'blast_radius',
    reason: `plan breach: blast radius — changing ${named(call, beyond)} is outside the plan's blast radius (${list(blast)})`,
    path: beyond,
  });
}

/** Whether a tool list lets the call through: by its tool, or — a shell command that only reads — by every plan word it amounts to. */
function allowsTool(allowed: readonly string[], call: ToolCall): boolean {
  if (toolAllowed(allowed, call.tool, call.agent)) return true;
  return !!call.readWords?.length && call.readWords.every((word) => toolAllowed(allowed, word));
}

/**
 * A call only the operator may make: one that ends, pauses, resumes or replaces the plan, or
 * touches forge's state ref. Hard whatever the plan says, so no acknowledgement reaches it.
 */
function operatorOnly(contract: Contract, call: ToolCall): Decision | null {
  if (!call.lifecycle) return null;
  return refuse({
    posture: 'hard',
    breach: 'operator_only',
    reason: `plan breach: operator only — ${call.lifecycle} would change plan ${contract.plan_id} itself; ending, pausing, resuming or replacing a plan is the operator's, from a terminal outside the agent`,
  });
}

/** A shell command the gate cannot read, under a unit whose paths or surface are limited: refused, naming the part. */
function unjudgedBreach({ contract, unit, call }: { contract: Contract; unit: Unit; call: ToolCall }): Decision | null {
  if (!call.unjudged) return null;
  const rails = contract.envelope.parent_rails;
  const limitsPaths = ![...unit.allowed_paths, ...rails.allowed_paths].every((g) => g === '**');
  const limitsSurface = ORDER[unit.surface ?? rails.surface] < ORDER.remote_branch_pr;
  if (!limitsPaths && !limitsSurface) return null;
  return refuse({
    posture: 'hard',
    breach: 'unjudged',
    reason: `plan breach: shell — forge cannot judge ${call.unjudged}, so it cannot tell which paths or surface the command reaches; write the command with literal paths and program names`,
  });
}

/** Whether an acknowledged soft refusal covers exactly this call (same unit, same tool, no other path). */
function granted({ contract, unit, call }: { contract: Contract; unit: Unit; call: ToolCall }): boolean {
  const grant = contract.grant;
  return (
    !!grant &&
    grant.unit === unit.id &&
    canonicalTool(grant.tool, grant.agent) === canonicalTool(call.tool, call.agent) &&
    call.paths.every((p) => grant.paths.includes(p))
  );
}

/** The unit's context_tokens_expected, when this call is the one that passes it: advisory, the call proceeds. */
function advisoryBudgets({ contract, unit, call }: { contract: Contract; unit: Unit; call: ToolCall }): string[] {
  const expected = unit.context_tokens_expected;
  const before = contract.used.unitTokens;
  return expected !== undefined && before <= expected && before + call.tokens > expected
    ? [`context_tokens_expected: ${unit.id} has used ${before + call.tokens} tokens, ${expected} expected`]
    : [];
}

/**
 * The current unit's verdict on a call its tools or paths do not allow: refused until advance when
 * a later unit allows it, else a soft breach of its tools or, failing that, its paths. Null when the
 * unit allows the call.
 */
async function unitBreach({ contract, unit, call }: { contract: Contract; unit: Unit; call: ToolCall }): Promise<Decision | null> {
  const toolOk = allowsTool(unit.allowed_tools, call);
  const offUnit = await outside(call.paths, unit.allowed_paths);
  if (toolOk && offUnit === null) return null;
  for (const later of contract.units.slice(contract.current + 1)) {
    if (allowsTool(later.allowed_tools, call) && (await outside(call.paths, later.allowed_paths)) === null) {
      return refuse({
        posture: 'hard',
        breach: 'later_unit',
        reason: `plan breach: unit — this call belongs to ${later.id} (${later.title}); ${unit.id} is current and must advance first`,
        laterUnit: later.id,
        path: offUnit,
      });
    }
  }
  if (!toolOk) {
    const info = toolInfo(call.tool, call.agent);
    const unknown = info.known
      ? ''
      : ` — a tool forge's tool map does not know; the plan allows it with allowed_tools: [${info.word === call.tool.toLowerCase() ? call.tool : `${info.word}, or ${call.tool}`}]`;
    return refuse({
      posture: 'soft',
      breach: 'tools',
      reason: `plan breach: tools — '${call.tool}' is not allowed in ${unit.id} (allowed: ${list(unit.allowed_tools)})${unknown}`,
      path: call.paths[0] ?? null,
    });
  }
  return refuse({
    posture: 'soft',
    breach: 'paths',
    reason: `plan breach: paths — ${named(call, offUnit!)} is outside ${unit.id}'s allowed_paths (${list(unit.allowed_paths)})`,
    path: offUnit,
  });
}

/**
 * The decision for one call, checked in this order: a call only the operator may make, kill switch, hard budget caps, a shell command it cannot judge, the parent rails,
 * surface, blast radius (changes only), an acknowledged retry, the current unit's tools and paths
 * (soft, or refused until advance when a later unit allows the call), then advisory budgets.
 */
export async function decide({ contract, call, now }: { contract: Contract; call: ToolCall; now: Date }): Promise<Decision> {
  const unit: Unit | undefined = contract.units[contract.current];
  const operator = operatorOnly(contract, call);
  if (operator) return operator;
  if (contract.status === 'paused')
    return refuse({
      posture: 'hard',
      breach: 'kill_switch',
      reason: `plan ${contract.plan_id} is paused (kill switch): ${contract.pausedReason}`,
    });
  if (!unit) return allow({ reason: 'the plan is complete' });
  const hard =
    budgetCapBreach({ contract, call, now }) ?? unjudgedBreach({ contract, unit, call }) ?? (await railsBreach({ contract, unit, call }));
  if (hard) return hard;
  // A soft refusal the operator or agent acknowledged lets exactly that call through once.
  if (granted({ contract, unit, call }))
    return allow({
      reason: `acknowledged breach of ${unit.id}: re-run under the parent rails`,
      acked: true,
      budgetBreaches: advisoryBudgets({ contract, unit, call }),
    });
  return (
    (await unitBreach({ contract, unit, call })) ??
    allow({ reason: `within ${unit.id}`, budgetBreaches: advisoryBudgets({ contract, unit, call }) })
  );
}
