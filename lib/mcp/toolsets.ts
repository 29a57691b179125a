// What forge mcp serves: every command's toolset and behaviour hints as data, and the selection --toolsets / --tools make of it.
import { InvalidInputError } from '../errors';

/** What a call does to its environment, as MCP's tool annotations say it (hints, not guarantees). */
export interface Behaviour {
  /** read: changes nothing; additive: adds or records, never loses data; destructive: may overwrite or remove. */
  effect: 'read' | 'additive' | 'destructive';
  /** The same call again changes nothing more (meaningless for a read). */
  idempotent?: boolean;
  /** Reaches outside the repository and forge's own data: a remote, a model endpoint, an agent. */
  openWorld?: boolean;
}

interface Toolset {
  description: string;
  /** Each command once, by its name (`plan check`), with what it does. */
  commands: Record<string, Behaviour>;
}

const read: Behaviour = { effect: 'read' };

/** Commands for a shell, never a model's tools: the server itself, and the shell's completion script. */
export const NOT_SERVED: readonly string[] = ['mcp', 'completion'];

/** Every command but those NOT_SERVED, in exactly one toolset; `forge mcp --toolsets all` serves them all. */
export const TOOLSETS: Record<string, Toolset> = {
  files: {
    description: 'read, search and change files',
    commands: {
      read,
      search: read,
      ls: read,
      edit: { effect: 'destructive' },
      write: { effect: 'destructive', idempotent: true },
      replace: { effect: 'destructive' },
      patch: { effect: 'destructive' },
    },
  },
  plans: {
    description: 'the plan contract: write, check, activate, gate, advance and end',
    commands: {
      'plan new': { effect: 'additive' },
      'plan check': read,
      // --replace ends the plan that gates and restarts at U1: the same call again changes state again.
      'plan activate': { effect: 'additive' },
      'plan status': read,
      'plan preflight': { effect: 'additive' },
      'plan ack': { effect: 'additive', idempotent: true },
      'plan advance': { effect: 'additive' },
      'plan pause': { effect: 'additive', idempotent: true },
      'plan resume': { effect: 'additive', idempotent: true },
      'plan end': { effect: 'additive' },
      'plan journal': read,
    },
  },
  validate: {
    description: "check a module's files and run its verify commands",
    commands: { validate: { effect: 'additive' } },
  },
  memory: {
    description: 'lessons saved for later runs',
    commands: { 'memory save': { effect: 'additive', idempotent: true }, 'memory recall': read },
  },
  checkpoints: {
    description: 'checkpoints of the work tree, the diff since one, undo',
    commands: { checkpoint: { effect: 'additive' }, diff: read, undo: { effect: 'destructive' } },
  },
  state: {
    description: 'the state ref: show, log, export, sync with a remote',
    commands: {
      'state show': read,
      'state log': read,
      'state export': { effect: 'additive', idempotent: true },
      'state sync': { effect: 'additive', idempotent: true, openWorld: true },
    },
  },
  runs: {
    description: 'run logs, iterations, sessions and stats',
    commands: {
      logs: read,
      stats: read,
      schema: read,
      'iter get': read,
      'iter update': { effect: 'additive', idempotent: true },
      'iter reset': { effect: 'destructive', idempotent: true },
      'session list': read,
      'session load': read,
      'session save': { effect: 'additive', idempotent: true },
    },
  },
  loop: {
    description: 'the agent loop: start, run, status, pause, resume, cancel, its Stop hook',
    commands: {
      'loop start': { effect: 'additive' },
      'loop run': { effect: 'destructive', openWorld: true },
      'loop status': read,
      'loop pause': { effect: 'additive', idempotent: true },
      'loop resume': { effect: 'additive', idempotent: true },
      'loop cancel': { effect: 'destructive', idempotent: true },
      'loop hook': { effect: 'additive' },
    },
  },
  install: {
    description: 'setup: conventions file, git and agent hooks',
    commands: {
      init: { effect: 'destructive', idempotent: true },
      'hooks install': { effect: 'additive', idempotent: true },
      'hooks list': read,
      'plan install-hook': { effect: 'additive', idempotent: true },
      'loop install': { effect: 'additive', idempotent: true },
    },
  },
  agent: {
    description: 'forge agent: a model endpoint driving the other tools',
    commands: { agent: { effect: 'destructive', openWorld: true } },
  },
};

/** What an agent needs to work: files, the plan gate, validate, memory — no pushes, undo, agent or installers. */
export const DEFAULT_TOOLSETS = ['files', 'plans', 'validate', 'memory'] as const;

/** MCP's annotations for a behaviour; the two hints meaningful only for a write are left out of a read. */
export function annotations(b: Behaviour): {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
} {
  if (b.effect === 'read') return { readOnlyHint: true, openWorldHint: b.openWorld ?? false };
  return {
    readOnlyHint: false,
    destructiveHint: b.effect === 'destructive',
    idempotentHint: b.idempotent ?? false,
    openWorldHint: b.openWorld ?? false,
  };
}

/** Each command's behaviour, by command name. */
export const BEHAVIOURS: ReadonlyMap<string, Behaviour> = new Map(Object.values(TOOLSETS).flatMap((t) => Object.entries(t.commands)));

/** `plan check`, `plan_check` and `plan-check` name the same tool. */
const normal = (name: string) => name.trim().replace(/[ -]/g, '_');

/** Names from repeated and comma-separated flag values: `--toolsets files,plans --toolsets memory`. */
function names(values: readonly string[]): string[] {
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** A working `forge mcp` line from the valid names of a refused one; the default when none is left. */
function fixOf(sets: readonly string[], tools: readonly string[]): string {
  const words = [...(sets.length ? ['--toolsets', sets.join(',')] : []), ...(tools.length ? ['--tools', tools.join(',')] : [])];
  return ['forge mcp', ...(words.length ? words : ['--toolsets', 'default'])].join(' ');
}

/**
 * The command names to serve: the toolsets asked for (`default` and `all` included) plus the tools
 * asked for; with neither, the default toolsets; with tools alone, just those tools.
 */
export function selectCommands({ toolsets, tools }: { toolsets: readonly string[]; tools: readonly string[] }): Set<string> {
  const sets = names(toolsets);
  const wanted = names(tools);
  const isSet = (s: string) => s === 'all' || s === 'default' || Object.hasOwn(TOOLSETS, s);
  const byTool = new Map([...BEHAVIOURS.keys()].map((command) => [normal(command), command]));
  const isTool = (t: string) => byTool.has(normal(t));
  const unknownSet = sets.find((s) => !isSet(s));
  if (unknownSet !== undefined) {
    throw new InvalidInputError(
      'INVALID_ARGUMENT',
      `unknown toolset '${unknownSet}'; toolsets: ${['default', 'all', ...Object.keys(TOOLSETS)].join(', ')}`,
      {
        fix: fixOf(sets.filter(isSet), wanted.filter(isTool)),
        data: { field: 'toolsets' },
      },
    );
  }
  const unknownTool = wanted.find((t) => !isTool(t));
  if (unknownTool !== undefined) {
    throw new InvalidInputError('INVALID_ARGUMENT', `unknown tool '${unknownTool}'; tools: ${[...byTool.keys()].sort().join(', ')}`, {
      fix: fixOf(sets, wanted.filter(isTool)),
      data: { field: 'tools' },
    });
  }
  const chosen = (sets.length || wanted.length ? sets : ['default']).flatMap((s) =>
    s === 'all' ? Object.keys(TOOLSETS) : s === 'default' ? [...DEFAULT_TOOLSETS] : [s],
  );
  return new Set([...chosen.flatMap((s) => Object.keys(TOOLSETS[s]!.commands)), ...wanted.map((t) => byTool.get(normal(t))!)]);
}

/** The toolset serving a tool (`state_sync` → state), or null for a name that is no forge command. */
export function toolsetOf(tool: string): string | null {
  const wanted = normal(tool);
  for (const [set, t] of Object.entries(TOOLSETS)) if (Object.keys(t.commands).some((c) => normal(c) === wanted)) return set;
  return null;
}
