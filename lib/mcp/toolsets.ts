// What forge mcp serves: the toolsets, each command's behaviour hints (from its declaration's `mcp`), and the selection --toolsets / --tools make of it.
import { InvalidInputError } from '../errors';
import { type Behaviour, TOOLSET_DESCRIPTIONS } from './served';
import { NOT_SERVED, SERVED } from './served.gen';

export { TOOLSET_DESCRIPTIONS, type Behaviour, type Served, type ToolsetName } from './served';

interface Toolset {
  description: string;
  /** Each command once, by its name (`plan check`), with what it does. */
  commands: Record<string, Behaviour>;
}

/** Commands for a shell, never a model's tools (declared `mcp: false`): the server itself, the shell's completion script. */
export { NOT_SERVED };

/** Every command but those NOT_SERVED, in exactly one toolset (its declaration says which); `forge mcp --toolsets all` serves them all. */
export const TOOLSETS: Record<string, Toolset> = Object.fromEntries(
  Object.entries(TOOLSET_DESCRIPTIONS).map(([name, description]) => [
    name,
    {
      description,
      commands: Object.fromEntries(
        Object.entries(SERVED)
          .filter(([, served]) => served.toolset === name)
          .map(([command, { toolset: _, ...behaviour }]) => [command, behaviour]),
      ),
    },
  ]),
);

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
