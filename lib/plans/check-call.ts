// One tool call checked against the active plan contract, as forge plan preflight and forge agent's gate both ask it.
import { stat } from 'node:fs/promises';
import { locateWorkspace, pathLead, type Workspace } from '../files/workspace';
import type { StateStore } from '../git/state';
import type { Contract } from './contract';
import type { ForgeEffects } from './forge-effects';
import { canonicalTool, mutatesByName, type Breach, type Decision, type ToolCall } from './gate';
import { preflight } from './lifecycle';
import { SURFACES, type Surface } from './markdown';
import { shellJoin } from '../quote';
import { readShell, type ShellEffects } from './shell';
import { toolInfo, type ToolAgent } from './tools';

/** The refusal codes, by the rule broken. */
export const BREACH_CODES = {
  operator_only: 'PLAN_OPERATOR_ONLY',
  unjudged: 'PLAN_BREACH_SHELL',
  kill_switch: 'PLAN_PAUSED',
  budget_cap: 'BUDGET_CAP_REACHED',
  rails: 'PLAN_BREACH_RAILS',
  surface: 'PLAN_BREACH_SURFACE',
  blast_radius: 'PLAN_BREACH_BLAST_RADIUS',
  later_unit: 'PLAN_BREACH_UNIT',
  tools: 'PLAN_BREACH_TOOLS',
  paths: 'PLAN_BREACH_PATHS',
} as const satisfies Record<Breach, string>;

/** A call as its caller describes it: paths as given (relative to `base`), the command line of a bash call. */
export interface CallRequest {
  tool: string;
  agent?: ToolAgent;
  paths: readonly string[];
  command?: string;
  /**
   * What one of forge's own tools does with its arguments (an MCP call, forge agent's tool): the
   * paths it reads and changes, judged in place of `paths`, and the code it runs, judged as a bash
   * command line is.
   */
  effects?: ForgeEffects;
  /** Given by the caller; else read from a bash command line, else artifacts_only. */
  surface?: Surface;
  /** The call changes its paths (implied for tools that do: edit, write, patch…). */
  writes: boolean;
  tokens: number;
  runId: string | null;
}

export interface CallCheck {
  /** The call as the gate judged it: its paths relative to the repository root. */
  call: ToolCall;
  /** Null when no contract is active. */
  contract: Contract | null;
  decision: Decision;
}

/** A call's paths as the gate judges them: each name given and where it leads, and what of them is git's own. */
interface JudgedPaths {
  paths: string[];
  /** The names that lead elsewhere (a symlink, `..` after one), with where; a name with `..` as written. */
  links: Array<{ given: string; leads: string }>;
  /** Of paths, those in git's own files. */
  gitFiles: string[];
}

/**
 * Paths relative to the repository root, each judged by the file tools' rule (pathLead): its name,
 * and where it leads when that is elsewhere — outside the repository as '../…'. A directory read
 * whole is marked with a trailing '/' (the root as './'): `whole` says which are.
 */
async function judgePaths({
  given,
  whole,
  base,
  workspace,
}: {
  given: readonly string[];
  whole: (path: string, real: string) => Promise<boolean>;
  base: string;
  /** The repository's workspace, located once for all of a call's paths. */
  workspace: () => Promise<Workspace>;
}): Promise<JudgedPaths> {
  const out: JudgedPaths = { paths: [], links: [], gitFiles: [] };
  if (!given.length) return out;
  const ws = await workspace();
  for (const p of given) {
    // A path from the home directory (a shell's `~/…`) lies outside the repository, wherever that is.
    if (p.startsWith('~')) {
      out.paths.push(`../${p}`);
      continue;
    }
    const lead = await pathLead({ ws, base, path: p.length > 1 ? p.replace(/\/+$/, '') : p });
    const dir = await whole(p, lead.real);
    const form = (rel: string) => (dir ? (rel ? `${rel}/` : './') : rel);
    const name = form(lead.given);
    if (name) out.paths.push(name);
    // A refusal names the path as written when its `..` is what led elsewhere.
    const spelled = p.split('/').includes('..') ? p : name;
    for (const to of lead.leads.map(form)) {
      if (!to || to === name) continue;
      out.paths.push(to);
      if (spelled) out.links.push({ given: spelled, leads: to });
    }
    if (lead.git !== null) out.gitFiles.push(form(lead.git));
  }
  return out;
}

/**
 * A tool call's paths. A search or listing reads its directories whole, and with no path it reads
 * the directory it runs in.
 */
function callPaths({
  tool,
  agent,
  paths,
  base,
  workspace,
}: {
  tool: string;
  agent: ToolAgent | undefined;
  paths: readonly string[];
  base: string;
  workspace: () => Promise<Workspace>;
}): Promise<JudgedPaths> {
  const scope = toolInfo(tool, agent).scope;
  const whole = async (_: string, real: string) => scope && !!(await stat(real).catch(() => null))?.isDirectory();
  return judgePaths({ given: scope && !paths.length ? ['.'] : paths, whole, base, workspace });
}

/** A shell command's paths (lib/plans/shell.ts): a directory it reads whole ends in '/'. */
const shellPaths = (paths: string[], base: string, workspace: () => Promise<Workspace>) =>
  judgePaths({ given: paths, whole: async (p) => p.endsWith('/'), base, workspace });

/** Shells forge does not read: their commands are read as bash would read them, for a plan's lifecycle, but never judged. */
const FOREIGN_SHELLS = new Set(['PowerShell']);

function shellEffects(tool: string, command: string): ShellEffects {
  const effects = readShell(command);
  if (!FOREIGN_SHELLS.has(tool)) return effects;
  return { ...effects, unjudged: effects.unjudged ?? `a ${tool} command (forge reads bash)`, readWords: null };
}

/**
 * What one of forge's commands runs, read as the shell reader reads a command line — its verify
 * code, a program and its words — with what the command itself reaches and cannot be judged.
 */
function forgeRuns(effects: ForgeEffects): ShellEffects {
  const lines = [...effects.code, ...effects.programs.map(shellJoin)];
  const ran = lines.length ? readShell(lines.join('\n')) : null;
  const higher = ran && SURFACES.indexOf(ran.surface) > SURFACES.indexOf(effects.surface) ? ran.surface : effects.surface;
  return {
    surface: higher,
    reads: ran?.reads ?? [],
    writes: ran?.writes ?? [],
    lifecycle: effects.lifecycle ?? ran?.lifecycle ?? null,
    unjudged: effects.cannot ?? ran?.unjudged ?? null,
    readWords: null,
  };
}

const NONE: JudgedPaths = { paths: [], links: [], gitFiles: [] };

/** Both judgements as one. */
const joined = (a: JudgedPaths, b: JudgedPaths): JudgedPaths => ({
  paths: [...new Set([...a.paths, ...b.paths])],
  links: [...a.links, ...b.links],
  gitFiles: [...new Set([...a.gitFiles, ...b.gitFiles])],
});

/**
 * Decides the call against the active contract and records what the decision asks for (a refusal in
 * the journal, budgets used): paths are resolved from `base` (the directory the call runs in) to the
 * repository `root`, the surface is read from a bash command line when none is given.
 */
export async function checkCall({
  store,
  request,
  base,
  root,
  now,
}: {
  store: StateStore;
  request: CallRequest;
  base: string;
  root: string;
  now: Date;
}): Promise<CallCheck> {
  const { tool, agent, command, effects } = request;
  // A shell command is read by a bash parser: what it reaches, reads and writes, and what in it cannot be judged.
  const shell =
    command !== undefined && canonicalTool(tool, agent) === 'bash' ? shellEffects(tool, command) : effects ? forgeRuns(effects) : null;
  let located: Promise<Workspace> | undefined;
  const workspace = () => (located ??= locateWorkspace({ cwd: root }));
  // forge's own tools name their paths in their effects (with none, a search's is its directory there).
  const named = effects ? NONE : await callPaths({ tool, agent, paths: request.paths, base, workspace });
  const written = await shellPaths([...(shell?.writes ?? []), ...(effects?.writes ?? [])], base, workspace);
  const read = await shellPaths([...(shell?.reads ?? []), ...(effects?.reads ?? [])], base, workspace);
  const { links, gitFiles } = joined(joined(named, written), read);
  const writes = written.paths;
  const reads = read.paths;
  const mutates = request.writes || (!effects && mutatesByName(tool, agent));
  const lifecycle = shell?.lifecycle ?? (toolInfo(tool, agent).operatorOnly ? `the ${tool} tool` : null);
  const call: ToolCall = {
    tool,
    ...(agent ? { agent } : {}),
    paths: [...new Set([...named.paths, ...reads, ...writes])],
    tokens: request.tokens,
    mutates: mutates || writes.length > 0,
    surface: request.surface ?? shell?.surface ?? 'artifacts_only',
    runId: request.runId,
    ...(shell
      ? { writes: mutates ? [...new Set([...named.paths, ...writes])] : writes, unjudged: shell.unjudged, readWords: shell.readWords }
      : effects
        ? { writes }
        : {}),
    ...(lifecycle ? { lifecycle } : {}),
    ...(links.length ? { links } : {}),
    ...(gitFiles.length ? { gitFiles } : {}),
  };
  return { call, ...(await preflight({ store, call, now })) };
}

/** What a refused caller is to do: acknowledge a soft refusal, advance past a unit, or stay within the plan. */
export function remedyOf(decision: Decision, unit: string | null): { verb: 'ack' | 'advance' | 'status'; advice: string } {
  if (decision.posture === 'soft')
    return { verb: 'ack', advice: 'Run `forge plan ack`, then retry this exact call once; it will run under the parent rails.' };
  if (decision.breach === 'later_unit') return { verb: 'advance', advice: `Finish ${unit} first, then run \`forge plan advance\`.` };
  return { verb: 'status', advice: 'A hard refusal: no acknowledgement applies. Stay within the plan (`forge plan status`).' };
}
